"""Every rated match reviewed in the background: each player's PR figures, think times and
whether they left, stored with the match for the fair-play signal.

A pass (:meth:`Reviewer.review_pending`) takes the oldest rated match without figures and reviews
it at the review depth on a pool of its own (one thread), and only while the hint and review
pools are idle: a player's own hint or review never waits behind it. The loop makes a pass every
:data:`PASS_SECONDS` on the injected clock.

Think times come from the event log: an action and the automatic steps after it are stored
together, with one time; a person's decision (a play, a double, a take, a drop) is the first
event of its batch, and its think time is the time since the batch before. Decisions made while
the player's auto-play was on are the bot's: they are not timed, and a player whose auto-play made
most of their decisions *left* the match (their PR figures are then the bot's and the signal
leaves the match out).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from bidak.engine.review import review_match
from bidak.engine.review_model import MatchReview
from bidak.errors import BidakError
from bidak.fairplay import MatchFigures
from bidak.match import (
    AutoplayChanged,
    Doubled,
    Dropped,
    Event,
    Played,
    Player,
    Taken,
    event_from_json,
)
from bidak.server.analysis import Analyst
from bidak.server.fairplay import queries
from bidak.server.fairplay.service import FairPlay
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.db import Database

log = logging.getLogger("bidak.fairplay")

PASS_SECONDS = 30.0
"""How often the background reviewer looks for a rated match to review."""
DEPTHS = {"1ply": 1, "2ply": 2, "3ply": 3}


@dataclass(frozen=True)
class Timing:
    """One player's think times in a match and how many of their decisions auto-play made."""

    seconds: list[float]
    autoplayed: int
    decided: int

    @property
    def left(self) -> bool:
        return self.autoplayed * 2 > self.autoplayed + self.decided


def timings(events: Sequence[tuple[Event, float]]) -> dict[Player, Timing]:
    """Each player's think times and auto-played decisions, from ``(event, stored at)`` pairs."""
    seconds: dict[Player, list[float]] = {Player.ZERO: [], Player.ONE: []}
    autoplayed = {Player.ZERO: 0, Player.ONE: 0}
    autoplay = {Player.ZERO: False, Player.ONE: False}
    batch_at: float | None = None
    previous_batch: float | None = None
    for event, at in events:
        first = at != batch_at
        if first:
            previous_batch, batch_at = batch_at, at
        if isinstance(event, AutoplayChanged):
            autoplay[event.player] = event.on
            continue
        if not first or not isinstance(event, Played | Doubled | Taken | Dropped):
            continue
        if autoplay[event.player]:
            autoplayed[event.player] += 1
        elif previous_batch is not None:
            seconds[event.player].append(max(0.0, at - previous_batch))
    return {p: Timing(seconds[p], autoplayed[p], len(seconds[p])) for p in seconds}


def figures(review: MatchReview, player: Player, timing: Timing) -> MatchFigures:
    """One player's figures: the review's counted decisions and losses, the think times."""
    losses = [d.loss for d in review.decisions if d.where.player is player and d.counted]
    return MatchFigures(
        decisions=len(losses),
        loss=sum(losses),
        squares=sum(x * x for x in losses),
        times=len(timing.seconds),
        seconds=sum(timing.seconds),
        seconds_squared=sum(s * s for s in timing.seconds),
    )


class Reviewer:
    """The background review of rated matches (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        fairplay: FairPlay,
        clock: Clock,
        busy: Sequence[Analyst],
        ply: str = "2ply",
    ) -> None:
        self.db = db
        self.fairplay = fairplay
        self.clock = clock
        self.busy = busy
        self.ply = ply
        self.pool = Analyst(1, 0, "bidak-fairplay")
        self._loop: asyncio.Task[None] | None = None

    async def review_pending(self) -> str | None:
        """Review the oldest rated match without figures, if the other pools are idle; the
        match reviewed, or None."""
        if not all(analyst.idle for analyst in self.busy):
            return None
        pending = await self.db.read(queries.unreviewed_rated)
        if pending is None:
            return None
        match_id, seats = pending
        rows = await self.db.read(partial(queries.events_of, match_id=match_id))
        events = [(event_from_json(payload), at) for payload, at in rows]
        try:
            review = await self.pool.run(lambda: review_match([e for e, _ in events], self.ply))
        except BidakError:
            log.exception("the background review of %s failed", match_id)
            review = None
        timing = timings(events)
        for seat, player_id in enumerate(seats):
            player = Player(seat)
            found = (
                figures(review, player, timing[player])
                if review is not None
                else MatchFigures(0, 0.0, 0.0)
            )
            await self.fairplay.store_figures(
                match_id, player_id, DEPTHS[self.ply], found, timing[player].left
            )
        return match_id

    def start(self) -> None:
        self._loop = asyncio.create_task(self._forever())

    async def _forever(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + PASS_SECONDS)
            try:
                while await self.review_pending() is not None:
                    pass
            except Exception:  # pragma: no cover - the next pass tries again
                log.exception("the background review failed")

    async def stop(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop
        self.pool.close()
