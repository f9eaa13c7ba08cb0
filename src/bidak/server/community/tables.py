"""The community capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class ReviewedRow(Base):
    """A player's PR in a finished match, from the deepest review asked for (for profiles)."""

    __tablename__ = "reviewed"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    depth: Mapped[int] = mapped_column(Integer)
    """The review's ply (1, 2 or 3)."""
    pr: Mapped[float] = mapped_column(Float)
