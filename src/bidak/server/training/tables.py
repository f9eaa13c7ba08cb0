"""The training capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class CardRow(Base):
    """A decision of a reviewed match that lost at least ``bidak.training.BANK_LOSS``, kept for
    the player who made it, once (the unique place), with its FSRS schedule and next ``due``."""

    __tablename__ = "cards"
    __table_args__ = (UniqueConstraint("player_id", "match_id", "game", "turn", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    game: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``checker`` or ``cube``."""
    seat: Mapped[int] = mapped_column(Integer)
    xgid: Mapped[str] = mapped_column(String(80))
    played: Mapped[str] = mapped_column(String(40))
    best: Mapped[str] = mapped_column(String(40))
    loss: Mapped[float] = mapped_column(Float)
    depth: Mapped[int] = mapped_column(Integer)
    """The ply of the review the card was taken from (a deeper one replaces its figures)."""
    phase: Mapped[str] = mapped_column(String(16))
    theme: Mapped[str] = mapped_column(String(16))
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The engine's ranking of the plays (checker) or its three equities (cube)."""
    schedule: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The card's FSRS state, as ``fsrs.Card.to_dict()`` gives it."""
    due: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)


class DrillRow(Base):
    """One answer in the daily drill: the equity it lost, its grade and the day (for streaks)."""

    __tablename__ = "drills"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    at: Mapped[float] = mapped_column(Float)
    day: Mapped[str] = mapped_column(String(10))
    loss: Mapped[float] = mapped_column(Float)
    grade: Mapped[int] = mapped_column(Integer)


class PuzzleRow(Base):
    """A banked card with one clear answer (:func:`bidak.training.puzzles.is_puzzle`), offered to
    every solver but its source, with its own Glicko-2 rating."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_theme_rating", "theme", "rating"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"), unique=True)
    source_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    """Whose card it is: never shown; the opt-out removes their puzzles by it."""
    kind: Mapped[str] = mapped_column(String(8))
    theme: Mapped[str] = mapped_column(String(16))
    gap: Mapped[float] = mapped_column(Float)
    """How much the best choice beats the second best."""
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    """Out of the pool for good: its player opted out (the answers to it stay)."""


class PuzzleAnswerRow(Base):
    """A solver's one answer to a puzzle (unique: a retry finds it) and both ratings' moves."""

    __tablename__ = "puzzle_answers"
    __table_args__ = (UniqueConstraint("player_id", "puzzle_id", name="uq_puzzle_answers_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    answer: Mapped[str] = mapped_column(String(40))
    """The play's Position ID or the cube choice."""
    loss: Mapped[float] = mapped_column(Float)
    right: Mapped[bool] = mapped_column(Boolean)
    solver_before: Mapped[float] = mapped_column(Float)
    solver_after: Mapped[float] = mapped_column(Float)
    puzzle_before: Mapped[float] = mapped_column(Float)
    puzzle_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
