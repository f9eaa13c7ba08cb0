"""The notifications capability's own tables, read and written only by its queries (migrations
0018, 0019, 0021 and 0022 create them)."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint
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


class PushSubscriptionRow(Base):
    """A browser's Web Push subscription (its ``PushSubscription``): where the push service
    takes pushes for it (``endpoint``) and the keys a push is encrypted for. It belongs to the
    session it was registered in: when that session ends (signed out, here or everywhere, or
    the account deleted), the subscription is dropped at the next push instead of sent to."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """The SHA-256 of the endpoint (hex): one row per browser subscription, whoever holds it."""
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    session_hash: Mapped[str] = mapped_column(String(64))
    """The token hash of the session that registered it (``sessions.token_hash``)."""
    language: Mapped[str] = mapped_column(String(8))
    at: Mapped[float] = mapped_column(Float)
    """When it was registered (the oldest goes first past the per-player cap)."""


class PushDueRow(Base):
    """A push to send: one notification to one subscription, when ``due`` comes. Sending takes
    it by moving ``due`` a lease ahead (one process only); a sent push deletes it, a failed one
    moves ``due`` to the next try (``tries`` counts them)."""

    __tablename__ = "push_due"
    __table_args__ = (UniqueConstraint("key", "subscription_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(96))
    """The notification's unique key (``notifications.key``)."""
    subscription_id: Mapped[int] = mapped_column(Integer, index=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)
    due: Mapped[float] = mapped_column(Float, index=True)
    tries: Mapped[int] = mapped_column(Integer, default=0)


class PushKeyRow(Base):
    """The site's VAPID key pair, made by the first process that needed one (``name`` is
    unique: two processes starting at once store one, the other reads it)."""

    __tablename__ = "push_keys"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    private_key: Mapped[str] = mapped_column(String(64))
    """The P-256 private scalar, base64url (the form ``BIDAK_VAPID_PRIVATE_KEY`` takes)."""
    at: Mapped[float] = mapped_column(Float)
