"""The fairplay capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class ReportRow(Base):
    """A player's report of another, about a match. ``open_key`` is ``reporter:match`` while the
    report is open and NULL once closed: one open report per reporter and match."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reported_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), default=None)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    open_key: Mapped[str | None] = mapped_column(String(80), unique=True, default=None)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    closed_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)


class ActionRow(Base):
    """An audit entry: what a moderator (``by_id``; None for the operator's ``bidak mod``) did to
    a player, when and why. Never updated or deleted."""

    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    by_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    kind: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(String(500))
    detail: Mapped[str | None] = mapped_column(String(200), default=None)
    """What changed, where it says more than the kind (a rename's old name, a refund's sum)."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RefundRow(Base):
    """A rating loss given back to ``player_id`` after their opponent in ``match_id`` was banned
    from rated play; the match is the key, so a loss is refunded at most once."""

    __tablename__ = "refunds"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    amount: Mapped[float] = mapped_column(Float)
    action_id: Mapped[int] = mapped_column(ForeignKey("actions.id"))


class FiguresRow(Base):
    """One player's figures in a reviewed rated match (:class:`bidak.fairplay.MatchFigures`)
    and whether they left it (auto-play finished most of it while they were away)."""

    __tablename__ = "figures"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    depth: Mapped[int] = mapped_column(Integer)
    decisions: Mapped[int] = mapped_column(Integer)
    loss: Mapped[float] = mapped_column(Float)
    squares: Mapped[float] = mapped_column(Float)
    times: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    seconds_squared: Mapped[float] = mapped_column(Float)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
