"""The friends' tables: follows, blocks and challenges, on the one metadata of the store.

They are declared on :class:`bidak.server.shared.store.models.Base`, so ``Base.metadata``
holds them once this module is imported (the package's ``__init__`` imports it, and the app
imports the package): the tests that compare the migrated schema with the metadata see them.
Migration ``0020_friends`` makes them; this module is not read by the migrations, which are
self-contained.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class FollowRow(Base):
    """``follower_id`` follows ``followee_id`` (the follower's friends list)."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    followee_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_follows_followee_id", "followee_id"),)


class BlockRow(Base):
    """``blocker_id`` blocked ``blocked_id``: no challenge, follow, talk or pairing between."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_blocks_blocked_id", "blocked_id"),)


class ChallengeRow(Base):
    """A challenge to a match with a friend room's options; ``room`` is set by the one accept
    that won (a conditional update of ``state`` from ``open``), in the same statement."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    """When it was made (server time; it expires ``bidak.challenges.EXPIRES_AFTER`` later)."""
    state: Mapped[str] = mapped_column(String(16))
    """``bidak.challenges.State``: open, accepted, declined or cancelled."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The room's options (``bidak.server.play.FriendOptions`` as JSON)."""
    room: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    decided: Mapped[float | None] = mapped_column(Float, default=None)
