"""Fair play: reports, moderators and their actions (with the audit trail), the engine-help
signal over reviewed rated matches, leavers.

``queries`` holds the transactions (an action and its audit entry, a ban and its refunds,
together or not at all), ``service`` the use cases on the injected clock, ``routes`` the HTTP
API (``/api/reports``, ``/api/me/actions``, the moderators' ``/api/mod/...``). The signal itself
is the pure :mod:`bidak.fairplay`.
"""

from bidak.server.fairplay.service import FairPlay, FairPlayError

__all__ = ["FairPlay", "FairPlayError"]
