"""The table sent as text (:func:`table_json`, joined from kept texts) is :func:`match_view`'s
table, key for key and in the same order, at every state of random matches, for both seats and
a spectator: what a client is sent does not depend on which of the two drew it."""

from __future__ import annotations

import json
import random

import pytest

from bidak.match import MatchState, Phase, Player, RuleSet, SeededDice, apply, start_match
from bidak.match.simulate import random_action
from bidak.server.play.protocol import PlayTexts, match_view, table_json


def _states(seed: int, length: int) -> list[MatchState]:
    """Every state a random match passes through (the cube used, some resigning and timing out)."""
    rng, dice = random.Random(seed), SeededDice(f"table-json:{seed}")
    state, _ = start_match(RuleSet(length=length))
    seen = [state]
    while state.phase is not Phase.MATCH_OVER and len(seen) < 2_000:
        state, _ = apply(state, random_action(state, rng), dice)
        seen.append(state)
    return seen


@pytest.mark.parametrize(("seed", "size"), [(1, 100_000), (2, 100_000), (3, 5)])
def test_the_text_table_is_the_view_for_every_seat(seed: int, size: int) -> None:
    texts = PlayTexts(size)  # size 5: the kept texts are forgotten again and again
    states = _states(seed, 5)
    with_plays = 0
    for state in states:
        for seat in (Player.ZERO, Player.ONE, None):
            sent = table_json(state, seat, texts)
            drawn = match_view(state, seat)
            assert json.loads(sent) == drawn
            assert list(json.loads(sent)) == list(drawn), "the members' order"
            with_plays += bool(drawn["legal_plays"])
    assert with_plays > 20, "the random match gave the mover plays to list"
    assert any(
        "alternatives" in play
        for state in states
        if state.turn is not None
        for play in match_view(state, state.turn)["legal_plays"]
    ), "some play was reachable in several orders"
