"""Database rows. They are storage types only: the wire and the core have their own types."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    Integer,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Every table's base: JSON columns for ``dict[str, Any]`` fields."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON}


class PlayerRow(Base):
    """A person: a guest until an e-mail is linked."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    skeleton: Mapped[str | None] = mapped_column(String(96), unique=True, index=True, default=None)
    """The name as a person reads it (:func:`bidak.server.accounts.names.skeleton`): unique, so
    no two players wear names that look alike. None for a deleted or retired account, and for
    a player who shared a look-alike name with an older one when the column came (migration
    0010) until they rename."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    email: Mapped[str | None] = mapped_column(String(254), unique=True, default=None)
    """Normalised (:func:`bidak.server.mail.addresses.normalise`); set once confirmed."""
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """When the account was deleted (its name is then "deleted player")."""
    merged_into: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    """The account a retired guest's finished matches moved to at a sign-in (its tournament
    places are read through this: :func:`bidak.server.community.queries.tournament_results`)."""
    coins: Mapped[int] = mapped_column(Integer, default=0)
    """The balance: a cache of the sum of the player's ledger entries, changed only in the
    transaction that appends the entry explaining it (:mod:`bidak.server.wallet.queries`)."""
    checkin_streak: Mapped[int] = mapped_column(Integer, default=0)
    """The streak day the last daily check-in counted as."""
    checkin_day: Mapped[str | None] = mapped_column(String(10), default=None)
    """The site day (ISO date) of the last daily check-in."""
    board: Mapped[str | None] = mapped_column(String(32), default=None)
    """The board theme the player sees (None: the default)."""
    checkers: Mapped[str | None] = mapped_column(String(32), default=None)
    """The checker set everybody sees this player's checkers in (None: the seat's default)."""
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """FIBS-style rating (:mod:`bidak.ratings`), changed only with a rated match's end."""
    experience: Mapped[int] = mapped_column(Integer, default=0)
    """The sum of the lengths of the rated matches played."""
    moderator: Mapped[bool] = mapped_column(Boolean, default=False)
    """Granted and revoked by the operator (``bidak mod``), each time an audit entry."""
    talk_muted: Mapped[bool] = mapped_column(Boolean, default=False)
    """A moderator muted the player's table talk."""
    rated_ban: Mapped[bool] = mapped_column(Boolean, default=False)
    """Banned from rated play: the player's rated results no longer move any rating, and they
    play unrated games only (``bidak.fairplay.doors``)."""
    play_ban: Mapped[bool] = mapped_column(Boolean, default=False)
    """Banned from play: no quick match, tournament, challenge or seat at another's room."""
    held: Mapped[bool] = mapped_column(Boolean, default=False)
    """The account took in a restricted guest at a sign-in and carries its restrictions until
    a moderator decides (it stands in the moderators' queue)."""
    access: Mapped[str | None] = mapped_column(String(64), default=None)
    """The player's accessibility settings (issue 40), kept for every browser they sign in on:
    the switches on, comma-separated (``motion,contrast,large,shapes``); None when none is."""
    puzzles_shared: Mapped[bool] = mapped_column(Boolean, default=True)
    """The player's banked positions may become puzzles for everybody (anonymous); switched off,
    their puzzles leave the pool and the cards banked from then on are not offered."""
    puzzle_rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """The solver's Glicko-2 puzzle rating (:mod:`bidak.training.glicko`), with its deviation and
    volatility; moved only with an answer, in its transaction."""
    puzzle_deviation: Mapped[float] = mapped_column(Float, default=350.0)
    puzzle_volatility: Mapped[float] = mapped_column(Float, default=0.06)
    corr_rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """The FIBS rating of correspondence play, apart from the live one (docs/correspondence.md)."""
    corr_experience: Mapped[int] = mapped_column(Integer, default=0)
    auto_roll: Mapped[bool] = mapped_column(Boolean, default=False)
    """In correspondence matches a forced roll or a single legal play is applied for the
    player (off by default: docs/correspondence.md)."""
