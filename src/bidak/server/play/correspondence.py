"""Correspondence clocks on the server: a decision's deadline with the decider's vacations
(the pure rule is :func:`bidak.correspondence.deadline`), and a player's vacation booked.

A correspondence room stores, with each state, the deadline ``asked + allowance`` like any
timed room (:func:`bidak.server.play.timeouts.deadline`); the clock armed for it
(:meth:`bidak.server.play.timeouts.Timers.schedule`) first asks :func:`due` when the decision
really runs out, moves the stored deadline when a vacation pushed it later, and sleeps until
then, asking again on waking (a vacation booked meanwhile). A timeout loses the match
(``TimeoutPolicy.FORFEIT``); the store's version check lets exactly one process apply it.
"""

from __future__ import annotations

from functools import partial

from bidak.correspondence import Away, deadline
from bidak.match import Action, Drop, Move, Phase, Player, current_plays, fixed_fallback
from bidak.server.play.corr_queries import asked_at, move_deadline, take_lease, vacations
from bidak.server.play.live import Live
from bidak.server.shared.store.db import Database


async def due(db: Database, live: Live, player_id: str | None) -> float | None:
    """When the decision pending in ``live`` runs out, counting its decider's vacations (the
    stored deadline when it cannot be worked out)."""
    seconds = live.room.move_seconds
    if seconds is None or player_id is None or live.deadline is None:
        return live.deadline
    asked = await db.read(partial(asked_at, match_id=live.match_id, version=live.state.version))
    if asked is None:
        return live.deadline
    away: list[Away] = await db.read(partial(vacations, player_id=player_id))
    return deadline(asked, float(seconds), away)


async def store_deadline(db: Database, live: Live, at: float) -> bool:
    """Move the stored deadline of ``live``'s pending decision to ``at`` (False when the match
    moved on meanwhile)."""
    moved: bool = await db.write(
        partial(move_deadline, match_id=live.match_id, version=live.state.version, deadline=at)
    )
    return moved


LEASE_SECONDS = 60.0
"""How long the process applying a correspondence timeout holds the match."""


async def lease(db: Database, live: Live, now: float) -> bool:
    """Whether this process takes the match's lease to apply its timeout now."""
    taken: bool = await db.write(
        partial(
            take_lease,
            match_id=live.match_id,
            version=live.state.version,
            now=now,
            seconds=LEASE_SECONDS,
        )
    )
    return taken


def forfeit_fallback(live: Live, player: Player) -> Action:
    """A legal action for the Timeout that loses a correspondence match: it is checked, never
    played (``TimeoutPolicy.FORFEIT``), so no engine is asked for a play."""
    fixed = fixed_fallback(live.state, player)
    if fixed is not None:
        return fixed
    if live.state.phase is Phase.DOUBLED:
        return Drop(player)
    return Move.of(player, current_plays(live.state)[0])
