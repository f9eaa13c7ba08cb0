"""Who plays a seat when no person does: the bot of a practice room's bot seat, auto-play for a
person who timed out (rules.md 9), and the quick bot's answer when a person's clock runs out.

A bot's turn waits :attr:`Settings.bot_delay`, decides on the pool's processes
(:class:`bidak.engine.workers.BotPool`) and acts through the :class:`~.actor.Actor` like anyone
else, remembering the version it decided on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bidak.engine.bots import Bot, make_bot, quick_bot
from bidak.engine.levels import Level
from bidak.engine.workers import BotPool
from bidak.match import Action, Player, fixed_fallback
from bidak.server.play.actor import Actor
from bidak.server.play.live import Live
from bidak.server.play.room import RoomError, is_bot_seat
from bidak.server.play.tasks import Tasks
from bidak.server.shared.settings import Settings

log = logging.getLogger(__name__)

AUTOPLAY_LEVEL = Level.NORMAL
"""The level auto-play plays at for a person."""


class Bots:
    def __init__(self, actor: Actor, tasks: Tasks, pool: BotPool, settings: Settings) -> None:
        self.actor, self.tasks, self.pool, self.settings = actor, tasks, pool, settings
        self._bots: dict[str, Bot] = {}
        """The bot of each (match, seat) a bot or auto-play played here, by "match:seat"."""
        self.on_decision: Callable[[str, float], None] = lambda level, seconds: None
        """Told each decision the bots' threads made: the bot seat's level, ``autoplay`` or
        ``quick``, and its seconds from asking to the answer (the metrics)."""

    async def _decide(self, bot: Bot, live: Live, player: Player, level: str) -> Action:
        started = time.perf_counter()
        action = await self.pool.decide(bot, live.state, player, timeout=self.settings.bot_budget)
        self.on_decision(level, time.perf_counter() - started)
        return action

    def bot_for(self, live: Live, player: Player) -> Bot:
        """The bot seat's bot at its level, or auto-play's; the same one all match."""
        key = f"{live.match_id}:{int(player)}"
        bot = self._bots.get(key)
        if bot is None:
            level = (
                Level.parse(live.room.bot_level)
                if is_bot_seat(live.room, player) and live.room.bot_level
                else AUTOPLAY_LEVEL
            )
            bot = self._bots[key] = make_bot(level, f"{live.seed}:{int(player)}")
        return bot

    def forget(self, match_id: str) -> None:
        """Drop a finished match's bots."""
        for player in Player:
            self._bots.pop(f"{match_id}:{int(player)}", None)

    async def turn(self, live: Live, player: Player) -> None:
        """Play ``player``'s decision in ``live`` as its bot seat or auto-play."""
        version = live.state.version
        await self.tasks.sleep_until(self.actor.clock.now() + self.settings.bot_delay)
        # Auto-play stands in for a person: where the rules fix what it does (a roll, never a
        # double; a rejected resignation) it does that. A bot seat plays as itself.
        seat_bot = is_bot_seat(live.room, player)
        action: Action | None = None if seat_bot else fixed_fallback(live.state, player)
        if action is None:
            level = (live.room.bot_level if seat_bot else None) or "autoplay"
            action = await self._decide(self.bot_for(live, player), live, player, level)
        chosen = action
        try:
            await self.actor.act_for_nobody(
                live.match_id,
                lambda state: chosen,
                expect_version=version,
                sleep_until=self.tasks.sleep_until,
            )
        except RoomError as refused:  # pragma: no cover - bots answer with legal actions
            log.error("bot action refused in %s: %s", live.match_id, refused)

    async def timeout_fallback(self, live: Live, player: Player) -> Action:
        """What is done for a person whose clock ran out: a roll (never a double) or a rejected
        resignation where the rules fix it; the quick bot's play or answer to a double
        otherwise (rules.md 9)."""
        fixed = fixed_fallback(live.state, player)
        if fixed is not None:
            return fixed
        return await self._decide(quick_bot(), live, player, "quick")
