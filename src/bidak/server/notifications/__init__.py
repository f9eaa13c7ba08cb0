"""Notifications (issue 38): one centre per player (the header's bell, its unread count, the
list, mark read) for their turn in a correspondence match, a match over, a moderator's
decision, a tournament starting; each stored once under a unique key, so a retry or a second
process stores nothing more. Web Push (:mod:`.push`) carries them to the player's browsers."""

from bidak.server.notifications.push import Push
from bidak.server.notifications.push_queries import forget
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
    "forget",
    "site_key",
    "subject_of",
]
