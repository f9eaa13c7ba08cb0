"""The notifications capability's own tables, read and written only by its queries (migrations
0018, 0019 and 0021 create them)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String
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


class NotificationRow(Base):
    """One notification of a player (issue 38), stored once under its unique ``key``."""

    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(96), unique=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    read: Mapped[bool] = mapped_column(Boolean, default=False)


class LetterSentRow(Base):
    """A notification letter the site decided to send, under a unique key: ``digest:<player>:
    <day>`` for a day's digest, ``letter:<notification key>`` for a "time almost up" letter.
    Stored in the transaction that decides to send, before the letter goes to the outbox, so
    a second process, a retry or a restart finds it and sends nothing more; rows older than
    a month are pruned (:data:`bidak.server.notifications.letter_queries.KEEP_SECONDS`)."""

    __tablename__ = "letters_sent"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float, index=True)
