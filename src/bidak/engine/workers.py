"""Bots off the caller's thread, within a time budget (style.md 9: the engine runs in a pool).

:class:`BotPool` runs :meth:`Bot.decide` on worker threads (bgsage releases the GIL in its N-ply
search; 1-ply calls are short) and :meth:`BotPool.decide` awaits the answer with a budget:

1. the bot itself gets the budget minus a reserve;
2. if it overruns while it looks deeper than its own ply (the Expert's second look at a close
   play), the play its own ply chose is played (``first_answer``: a bot that has one);
3. otherwise, if it overruns (or fails), the engine's 1-ply best
   (:func:`~bidak.engine.bots.quick_bot`, about a millisecond) gets the reserve, on a thread of
   its own so a busy pool cannot delay it;
4. if even that is late, :func:`~bidak.engine.bots.instant_action` answers with no engine.

So a bot always answers in time. A search that overran cannot be interrupted: it finishes on its
worker and its answer is dropped. Cancelling the awaiting task (``asyncio`` cancellation) drops
the answer the same way and un-queues work that had not started; the pool stays usable.

>>> import asyncio, random
>>> from dataclasses import replace
>>> from bidak.engine.bots import SageBot
>>> from bidak.match import Phase, Player, RuleSet, new_match
>>> state = replace(new_match(RuleSet(length=3)), phase=Phase.MOVE, turn=Player.ONE, dice=(6, 5))
>>> bot = SageBot("expert", random.Random(3))
>>> asyncio.run(decide_async(bot, state, Player.ONE, timeout=2.0))
Move(player=<Player.ONE: 1>, steps=((24, 18), (18, 13)))
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
from collections.abc import Callable
from typing import TypeVar

from bidak.engine.bots import Bot, Engines, instant_action, quick_bot
from bidak.match import Action, MatchState, Player

T = TypeVar("T")

log = logging.getLogger(__name__)

RESERVE = 0.25
"""Share of the budget kept for the fallback when the bot overruns ..."""
MAX_RESERVE = 0.3
"""... but never more than this many seconds."""


class _Late(Exception):
    """The work did not finish before its deadline."""


class BotPool:
    """Worker threads for bot decisions, plus one thread for quick fallbacks."""

    def __init__(self, workers: int = 2, *, engines: Engines | None = None) -> None:
        self._main = concurrent.futures.ThreadPoolExecutor(workers, "bidak-bot")
        self._spare = concurrent.futures.ThreadPoolExecutor(1, "bidak-bot-quick")
        self._quick = quick_bot(engines)
        # Load the fallback's network now, not in the middle of the first overrun.
        self._spare.submit(lambda: self._quick.evaluator)

    async def __aenter__(self) -> BotPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop taking work; searches already running finish in the background."""
        self._main.shutdown(wait=False, cancel_futures=True)
        self._spare.shutdown(wait=False, cancel_futures=True)

    async def decide(
        self, bot: Bot, state: MatchState, player: Player, *, timeout: float
    ) -> Action:
        """``bot``'s action for ``player`` in ``state``, within ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        reserve = min(MAX_RESERVE, RESERVE * timeout)
        try:
            return await _run(self._main, bot.decide, state, player, until=deadline - reserve)
        except _Late:
            first = getattr(bot, "first_answer", None)
            found = first(state, player) if callable(first) else None
            if isinstance(found, Action):
                log.info("bot %r overran %.2f s looking deeper; its own ply's play", bot, timeout)
                return found
            log.info("bot %r overran its %.2f s budget; playing the 1-ply best", bot, timeout)
        except Exception:
            log.exception("bot %r failed; playing the 1-ply best", bot)
        try:
            return await _run(self._spare, self._quick.decide, state, player, until=deadline)
        except (_Late, Exception):
            log.warning("the 1-ply fallback overran too; playing an instant legal action")
            return instant_action(state, player)


async def _run(
    executor: concurrent.futures.Executor,
    work: Callable[[MatchState, Player], T],
    state: MatchState,
    player: Player,
    *,
    until: float,
) -> T:
    """Run ``work`` on ``executor`` and wait for it until the loop time ``until``.

    ``asyncio.wrap_future`` ties the two futures together: cancelling the waiter (a timeout, or
    the caller's own cancellation) cancels the work, which un-queues it if it has not started;
    a search already running finishes on its thread and its answer is dropped.
    """
    loop = asyncio.get_running_loop()
    waiter = asyncio.wrap_future(executor.submit(work, state, player))
    try:
        return await asyncio.wait_for(waiter, timeout=max(0.0, until - loop.time()))
    except TimeoutError:
        raise _Late from None


@functools.cache
def default_pool() -> BotPool:
    """The process's pool for :func:`decide_async`, made on first use (not at import)."""
    return BotPool()


async def decide_async(
    bot: Bot,
    state: MatchState,
    player: Player,
    *,
    timeout: float,
    pool: BotPool | None = None,
) -> Action:
    """``bot``'s action within ``timeout`` seconds, off the caller's thread (:class:`BotPool`)."""
    return await (default_pool() if pool is None else pool).decide(
        bot, state, player, timeout=timeout
    )
