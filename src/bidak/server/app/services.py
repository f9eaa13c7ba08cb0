"""The server's resources, opened in the app's lifespan and kept on ``app.state.services``.

Each capability reaches the part it uses through a protocol and a dependency of its own
(``bidak.server.shared.deps``, ``bidak.server.play.deps``, ...), never through this module:
:class:`Services` satisfies every one of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bidak.engine.workers import BotPool
from bidak.server.accounts.service import Accounts
from bidak.server.accounts.tokens import Signer
from bidak.server.analysis.analyst import Analyst
from bidak.server.fairplay.reviewer import Reviewer
from bidak.server.fairplay.service import FairPlay
from bidak.server.friends import Friends
from bidak.server.matchmaking.service import QuickMatch
from bidak.server.notifications import Notifications, Push
from bidak.server.notifications.mailer import Mailer
from bidak.server.play.service import RoomService
from bidak.server.play.storage import Store
from bidak.server.shared.bus import Bus
from bidak.server.shared.clocks import Clock
from bidak.server.shared.limiter import Limits
from bidak.server.shared.loop_monitor import LoopMonitor
from bidak.server.shared.metrics import Metrics
from bidak.server.shared.presence import Presence
from bidak.server.shared.settings import Settings
from bidak.server.shared.sockets import SocketCap
from bidak.server.shared.store.db import Database
from bidak.server.tournaments.service import Tournaments
from bidak.server.training import Training
from bidak.server.wallet.service import Wallets


@dataclass
class Services:
    settings: Settings
    db: Database
    store: Store
    bus: Bus
    clock: Clock
    pool: BotPool
    rooms: RoomService
    hints: Analyst
    reviews: Analyst
    limits: Limits
    sockets: SocketCap
    wallets: Wallets
    quick: QuickMatch
    accounts: Accounts
    signer: Signer
    """Signs short-lived, purpose-bound tokens with ``BIDAK_SECRET_KEY``."""
    tournaments: Tournaments
    fairplay: FairPlay
    """Reports, moderators' actions and the fair-play signal."""
    reviewer: Reviewer
    """Reviews every rated match in the background (fair play's figures)."""
    training: Training
    notifications: Notifications
    """The notification centre's rows (issue 38)."""
    friends: Friends
    """Follows, blocks and challenges (issue 38)."""
    push: Push
    """Web Push to the players' browsers (a channel of the notifications)."""
    presence: Presence
    """Who is at which table now (no push about a match one is looking at)."""
    monitor: LoopMonitor | None = None
    """The event loop's lag and the collector's pauses (:mod:`bidak.server.shared.loop_monitor`)."""
    metrics: Metrics | None = None
    """The series of ``/metrics``, when ``BIDAK_METRICS`` serves them."""
    mailer: Mailer | None = None
    """E-mail notifications (the daily digest, time almost up); None without a way to send
    letters (production without ``BIDAK_SMTP_URL``)."""
