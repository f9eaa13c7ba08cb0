"""The play capability's own tables: read and written by its queries; another capability
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
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class RoomRow(Base):
    """A table: practice (a human and a bot) or friend (two humans and an invite code)."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seat0_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None, index=True)
    seat1_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None, index=True)
    """Both indexed: 'Your games' and its badge read a player's rooms every 30 s a page."""
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)
    move_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    match_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the match's end moves the two players' ratings (quick matches; friend rooms
    whose creator asked for it)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Kept out of the list of live games."""
    rematch_by: Mapped[str | None] = mapped_column(String(32), default=None)
    """Who offered a rematch after the match (the offer stands for a minute)."""
    rematch_at: Mapped[float | None] = mapped_column(Float, default=None)
    rematch_room: Mapped[str | None] = mapped_column(String(32), default=None)
    """The room of the rematch, once accepted."""
    came0: Mapped[bool] = mapped_column(Boolean, default=False)
    came1: Mapped[bool] = mapped_column(Boolean, default=False)
    """A tournament room: whether the player of each seat opened the table (its match starts
    when both have)."""
    days_per_move: Mapped[int | None] = mapped_column(Integer, default=None)
    """A correspondence room's allowance in days (``move_seconds`` holds it in seconds); None
    for a live room."""


class MatchRow(Base):
    """A match: its rules, the latest state (a cache of the event log), dice proof and clock."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[str] = mapped_column(String(64))
    seed_hash: Mapped[str] = mapped_column(String(64))
    dice_drawn: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[float | None] = mapped_column(Float, default=None)
    deadline_version: Mapped[int | None] = mapped_column(Integer, default=None)
    lease_until: Mapped[float | None] = mapped_column(Float, default=None)
    """A correspondence timeout is being applied by one process until then (its lease)."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """One event of a match; (match, version) is unique, which makes one writer win a race."""

    __tablename__ = "events"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class VacationRow(Base):
    """A player's vacation: their correspondence clocks stop from ``start`` to ``end``."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    start: Mapped[float] = mapped_column(Float)
    end: Mapped[float] = mapped_column(Float)


class RatedMatchRow(Base):
    """A rated match's end: both ratings before and their changes. One row per match (the
    primary key): the same end processed twice changes the ratings once."""

    __tablename__ = "rated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    length: Mapped[int] = mapped_column(Integer)
    winner_before: Mapped[float] = mapped_column(Float)
    loser_before: Mapped[float] = mapped_column(Float)
    winner_change: Mapped[float] = mapped_column(Float)
    loser_change: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    correspondence: Mapped[bool] = mapped_column(Boolean, default=False)
    """A correspondence match: the changes are of the correspondence rating."""


class UnratedMatchRow(Base):
    """A match of a rated room that moved no rating, and why (``reason``): ``guest`` (a player
    had no linked e-mail address), ``pair_limit`` (the same two had moved each other's
    ratings :data:`~bidak.server.play.rated_queries.PAIR_LIMIT` times in the day before) or
    ``banned`` (one is banned from rated play). With who won: a tournament's match is decided by
    its end, rated or not."""

    __tablename__ = "unrated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MuteRow(Base):
    """``player_id`` muted ``muted_id``: no table talk from them, no quick match with them."""

    __tablename__ = "mutes"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    muted_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
