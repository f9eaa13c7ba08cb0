"""The accounts capability's own tables: read and written by its queries; another capability
reads one only where pyproject.toml's import contracts allow it (docs/architecture.md,
"Storage")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class SessionRow(Base):
    """A browser's login: the SHA-256 of its cookie token (the token itself is never stored)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    id: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    """A name for the session in the list of signed-in browsers (not a secret, not the token)."""
    last_seen: Mapped[float | None] = mapped_column(Float, default=None)
    device: Mapped[str | None] = mapped_column(String(64), default=None)
    """A coarse label of the browser, e.g. "Chrome on Android"."""


class EmailLinkRow(Base):
    """A one-time link sent by e-mail: only the SHA-256 of its token is kept."""

    __tablename__ = "email_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    """The address the letter went to, or, for a change, the address to link next ("" removes)."""
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, default=None)
