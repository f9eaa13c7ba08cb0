"""The tournaments capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class TournamentRow(Base):
    """An arena or a knockout (:mod:`bidak.tournament`). Exactly one process runs it at a time:
    the holder of its lease (``lease_owner`` until ``lease_until``, renewed on every step)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Also the invite: 128 random bits, as a room's code."""
    kind: Mapped[str] = mapped_column(String(16))
    """``arena`` or ``knockout``."""
    name: Mapped[str] = mapped_column(String(80))
    creator_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    """None: run by the site (the schedule)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    starts_at: Mapped[float] = mapped_column(Float, index=True)
    ends_at: Mapped[float | None] = mapped_column(Float, default=None)
    """An arena's end (no pairing after it)."""
    lengths: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"rounds": [3, 5, 7]}``: the match length per round (an arena: one)."""
    move_seconds: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    round_seconds: Mapped[float | None] = mapped_column(Float, default=None)
    """A knockout round's deadline, after its start; an absent player then forfeits."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, ``running``, ``finished`` or ``cancelled``."""
    bracket: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    round_deadline: Mapped[float | None] = mapped_column(Float, default=None)
    winner_id: Mapped[str | None] = mapped_column(String(32), default=None)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Only those with the link see it (a player's knockout)."""
    schedule_key: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    """A site arena's slot in the schedule: every process may create it, it is stored once."""
    lease_owner: Mapped[str | None] = mapped_column(String(64), default=None)
    lease_until: Mapped[float | None] = mapped_column(Float, default=None)


class EntrantRow(Base):
    """A player in a tournament, with their arena score and where they are."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    """At joining: the seeding and the pairing use it."""
    joined_at: Mapped[float] = mapped_column(Float)
    score: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    played: Mapped[int] = mapped_column(Integer, default=0)
    last_opponent: Mapped[str | None] = mapped_column(String(32), default=None)
    room_code: Mapped[str | None] = mapped_column(String(32), default=None)
    """The room of the match they play now (None: free)."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    ready_round: Mapped[int | None] = mapped_column(Integer, default=None)
    """The knockout round they came to (checked in for)."""
    absences: Mapped[int] = mapped_column(Integer, default=0)
    """Arena: matches in a row the player forfeited by not coming to the table (two pause them)."""


class TournamentMatchRow(Base):
    """A match of a tournament, planned before its room is made (so a process that dies in
    between leaves a plan the next one carries out) and decided once."""

    __tablename__ = "tournament_matches"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "slot"),)

    room_code: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    slot: Mapped[int | None] = mapped_column(Integer, default=None)
    """A knockout match's place in the bracket (None in an arena)."""
    seat0_id: Mapped[str] = mapped_column(String(32))
    seat1_id: Mapped[str] = mapped_column(String(32))
    length: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    winner_id: Mapped[str | None] = mapped_column(String(32), default=None)
    how: Mapped[str | None] = mapped_column(String(16), default=None)
    """``played`` or ``forfeit``, once decided."""
