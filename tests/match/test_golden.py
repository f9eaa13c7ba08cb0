"""A golden transcript: one complete 5-point match with the cube, seeded dice and a fixed policy.

Any change in how the match machine plays, scores or logs shows up as a diff of
``golden/five_point_match.txt``. If the change is intended, regenerate the file with
``BIDAK_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/match/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

from bidak.match import (
    Action,
    Double,
    Drop,
    Event,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Player,
    Roll,
    RuleSet,
    SeededDice,
    Take,
    apply,
    can_double,
    current_plays,
    decider,
    replay,
    start_match,
    transcript,
)

GOLDEN = Path(__file__).parent / "golden" / "five_point_match.txt"
SEED = 25
RULES = RuleSet(length=5)


def lead(state: MatchState, player: Player) -> float:
    """How far ``player`` is ahead in the race, as a share of their own pip count."""
    mine, theirs = state.pips_for(player), state.pips_for(player.opponent)
    return (theirs - mine) / mine


def policy(state: MatchState) -> Action:
    """Double with a 10% race lead, drop against a 20% lead, else take; the first legal play."""
    if state.phase is Phase.OPENING:
        return OpeningRoll(Player.ZERO)
    player = decider(state)
    assert player is not None
    match state.phase:
        case Phase.ROLL:
            if can_double(state, player) and lead(state, player) >= 0.10:
                return Double(player)
            return Roll(player)
        case Phase.MOVE:
            play = current_plays(state)[0]
            return Move.of(player, play)
        case Phase.DOUBLED:
            return Drop(player) if lead(state, player.opponent) >= 0.20 else Take(player)
        case _:
            raise AssertionError(f"the policy has nothing to do in phase {state.phase}")


def play_match(seed: int) -> tuple[MatchState, list[Event]]:
    dice = SeededDice(seed)
    state, first = start_match(RULES)
    events = list(first)
    while state.phase is not Phase.MATCH_OVER:
        state, more = apply(state, policy(state), dice)
        events.extend(more)
    return state, events


def test_the_five_point_match_plays_as_recorded() -> None:
    state, events = play_match(SEED)
    assert replay(events) == state
    kinds = {event.type for event in events}
    assert {"doubled", "taken", "dropped", "match_won"} <= kinds
    text = "\n".join(transcript(events)) + "\n"
    if os.environ.get("BIDAK_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
