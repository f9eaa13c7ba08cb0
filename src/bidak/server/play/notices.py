"""What a stored state tells the players at a table (issue 38): their turn in a correspondence
match, a match over. Each notice has a key that is the same for the same news, so storing it
again (a retry, another process, the roll after which the same player still decides) adds
nothing (:class:`bidak.server.notifications.Notifications` stores each key once)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from bidak.match import MatchState, Phase, Player, decider
from bidak.server.play.room import Room, RoomKind, is_bot_seat, player_at

Notify = Callable[[str, str, str, str | None], Coroutine[Any, Any, None]]
"""Store a notification: its key, the player, its kind, the room a tap opens."""


async def no_notice(key: str, player_id: str, kind: str, room: str | None) -> None:
    """Without a notification centre (some tests): nothing."""


@dataclass(frozen=True, slots=True)
class Notice:
    key: str
    player_id: str
    kind: str
    room: str


def _person(room: Room, seat: Player) -> str | None:
    return None if is_bot_seat(room, seat) else player_at(room, seat)


def notices(room: Room, match_id: str, state: MatchState) -> list[Notice]:
    """The news of ``state`` at ``room``: the match over (to each person seated, not at
    practice), or in a correspondence match the decision it waits on (one notice per turn: a
    roll that leaves the same player to move is the same turn)."""
    if room.kind is RoomKind.PRACTICE:
        return []
    if state.phase is Phase.MATCH_OVER:
        seated = (_person(room, seat) for seat in (Player.ZERO, Player.ONE))
        return [
            Notice(f"over:{match_id}:{player}", player, "over", room.code)
            for player in dict.fromkeys(p for p in seated if p is not None)
        ]
    if not room.correspondence:  # a live match's every action passes here: nothing more
        return []
    who = decider(state)
    if who is None or state.autoplay[who]:
        return []
    player = _person(room, who)
    if player is None:
        return []
    turn = f"{state.game}:{int(who)}:{state.cube}:{state.position!r}"
    digest = hashlib.sha256(turn.encode()).hexdigest()[:24]
    return [Notice(f"turn:{match_id}:{digest}", player, "turn", room.code)]
