"""The wallet capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class LedgerRow(Base):
    """One change of a balance, never updated or deleted. ``key`` is unique: the same request
    sent twice is stored once."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    amount: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(120), unique=True)
    item: Mapped[str | None] = mapped_column(String(32), default=None)
    note: Mapped[str | None] = mapped_column(String(200), default=None)
    balance_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OwnedRow(Base):
    """A cosmetic a player bought (the free ones are everybody's and not listed); when, is the
    ``at`` of the ledger entry that paid for it."""

    __tablename__ = "owned"
    __table_args__ = (UniqueConstraint("entry_id"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    item: Mapped[str] = mapped_column(String(32), primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("ledger.id"))
