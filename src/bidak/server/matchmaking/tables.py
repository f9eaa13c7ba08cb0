"""The matchmaking capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class QueueRow(Base):
    """A player waiting for a quick match with these options (one entry per player)."""

    __tablename__ = "quick_queue"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    length: Mapped[int] = mapped_column(Integer)
    move_seconds: Mapped[int] = mapped_column(Integer)
    cube: Mapped[bool] = mapped_column(Boolean)
    since: Mapped[float] = mapped_column(Float)
    """When they started waiting (epoch seconds, the server's clock)."""
    offered: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether they were offered a practice match for waiting long."""
