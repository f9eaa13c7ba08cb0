"""The notifications' own tables (their rows are read and written only by this capability's
queries; migrations 0018 and 0019 create them)."""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from bidak.server.shared.store.models import Base


class NotifyChoiceRow(Base):
    """A player's choice for one kind of notification on one channel (``push`` or ``email``);
    without a row the channel's default holds (:data:`bidak.server.notifications.settings`)."""

    __tablename__ = "notify_choices"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    channel: Mapped[str] = mapped_column(String(8), primary_key=True)
    wanted: Mapped[bool] = mapped_column(Boolean)
