"""A match being played, as this process last stored or read it (:class:`Live`), made from its
stored row, and its pending decision's deadline as the wire shows it."""

from __future__ import annotations

from dataclasses import dataclass

from bidak.match import MatchState, Phase, decider, state_from_json
from bidak.server.play.room import Room
from bidak.server.play.tables import MatchRow
from bidak.server.play.wire.table import Deadline as DeadlineJson


@dataclass(frozen=True)
class Live:
    """A match being played, as this process last stored or read it."""

    match_id: str
    room: Room
    state: MatchState
    dice_drawn: int
    seed: str
    seed_hash: str
    deadline: float | None
    deadline_version: int | None

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.MATCH_OVER


def live_from_row(row: MatchRow, room: Room) -> Live:
    return Live(
        row.id,
        room,
        state_from_json(row.state),
        row.dice_drawn,
        row.seed,
        row.seed_hash,
        row.deadline,
        row.deadline_version,
    )


def deadline_json(live: Live) -> DeadlineJson | None:
    """The pending decision's deadline as the wire shows it, or None when nobody is timed."""
    if live.deadline is None or live.deadline_version != live.state.version:
        return None
    who = decider(live.state)
    return {
        "player": None if who is None else int(who),
        "at": live.deadline,
        "seconds": live.room.move_seconds,
    }
