"""Notifications (issue 38): one centre per player (the header's bell, its unread count, the
list, mark read) for their turn in a correspondence match, a match over, a moderator's
decision, a tournament starting; each stored once under a unique key, so a retry or a second
process stores nothing more. Beyond the page: Web Push (:mod:`.push`) to the player's
browsers, and e-mail to those who opt in (``mailer``): a daily digest of the games waiting on
them and "time almost up", each letter once, each with a one-click unsubscribe (RFC 8058)."""

from bidak.server.notifications.push import Push
from bidak.server.notifications.push_rules import subject_of
from bidak.server.notifications.service import KINDS, Channel, Notifications, Told
from bidak.server.notifications.vapid import Vapid, site_key

__all__ = [
    "KINDS",
    "Channel",
    "Notifications",
    "Push",
    "Told",
    "Vapid",
    "site_key",
    "subject_of",
]
