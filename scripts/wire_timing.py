"""Time building and encoding a typical ``events`` message (the hot broadcast path).

    .venv/bin/python scripts/wire_timing.py

A seeded 7-point match is played (first legal play, no doubles) until the player in seat 0 is
to move; the last change (the opponent's play and this roll) is the ``events`` message every
connection at the room is sent. Prints microseconds per message, best of 5 rounds:

- ``message``: the ``events`` message around a table already drawn (each further connection
  that had seen another version pays this);
- ``table``: drawing the mover's table (legal plays and their orders) and encoding it, once per
  match version and seat;
- ``both``: a fresh :class:`~bidak.server.play.views.Views`, so both at once;
- ``validate``: what checking the message with pydantic would add (the broadcast path does
  not: the messages are TypedDicts, checked by the tests), when the wire package exists.
"""

from __future__ import annotations

import json
import timeit
from typing import Any

from bidak.match import (
    MatchState,
    Move,
    Phase,
    Player,
    Roll,
    SeededDice,
    apply,
    automatic_action,
    current_plays,
    event_to_json,
    start_match,
    state_to_json,
)
from bidak.match.ruleset import RuleSet
from bidak.server.play.protocol import match_view
from bidak.server.play.views import Views, dumps


def _position(turns: int) -> tuple[MatchState, dict[str, Any]]:
    """The state after ``turns`` plays, and what the rooms service publishes for the last
    change (as ``RoomService._publish`` builds it)."""
    dice = SeededDice(15)
    state, _ = start_match(RuleSet(length=7))
    events: list[Any] = []
    plays = 0
    while True:
        action = automatic_action(state)
        if action is None and state.phase is Phase.ROLL and state.turn is not None:
            action = Roll(state.turn)
        if action is None and state.phase is Phase.MOVE and state.turn is not None:
            if plays >= turns and state.turn is Player.ZERO:
                break
            action = Move(
                state.turn, tuple((s.start, s.end) for s in current_plays(state)[0].steps)
            )
            plays += 1
            events = []
        assert action is not None, state.phase
        state, more = apply(state, action, dice)
        events.extend(more)
    first = state.version - len(events) + 1
    message = {
        "kind": "events",
        "room": "r" * 22,
        "match": "m" * 32,
        "from": first,
        "events": [event_to_json(event) for event in events],
        "state": state_to_json(state),
        "deadline": {"player": 0, "at": 1_700_000_000.25, "seconds": 45},
        "seed": None,
    }
    return state, message


def main() -> None:
    state, message = _position(turns=9)
    assert state.dice is not None and current_plays(state)
    views = Views(lambda _match: state)
    seen = message["from"] - 1
    print(f"legal plays: {len(current_plays(state))}, dice {state.dice}")
    print(f"message bytes: {len(views.compose(message, Player.ZERO, [], seen, 1.0))}")

    def message_only() -> None:
        views.compose(message, Player.ZERO, [], seen, 1.0)

    def table_only() -> None:
        dumps(match_view(state, Player.ZERO, views.notation))

    def both() -> None:
        Views(lambda _match: state).compose(message, Player.ZERO, [], seen, 1.0)

    runs = [
        ("message", message_only, 20_000),
        ("table", table_only, 2_000),
        ("both", both, 2_000),
    ]
    try:
        from bidak.server.play.wire.messages import ServerMessage
    except ImportError:  # before the wire package
        pass
    else:
        full = json.loads(views.compose(message, Player.ZERO, [], seen, 1.0))

        def validate() -> None:
            ServerMessage.validate_python(full)

        runs.append(("validate", validate, 2_000))
    for name, work, number in runs:
        best = min(timeit.repeat(work, number=number, repeat=5)) / number
        print(f"{name:8} {best * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
