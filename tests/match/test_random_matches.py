"""Random complete matches: the log rebuilds the state, everything survives JSON, and what the
queries offer is exactly what the core accepts."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bidak.errors import BidakError
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    ForfeitMatch,
    MatchState,
    Move,
    OpeningRoll,
    OpeningRule,
    Phase,
    Player,
    RejectResign,
    ResignGame,
    Roll,
    RuleSet,
    SetAutoplay,
    Take,
    TimeoutPolicy,
    allowed_actions,
    apply_event,
    check_action,
    current_plays,
    event_from_json,
    event_to_json,
    random_match,
    replay,
    state_from_json,
    state_to_json,
)
from bidak.match.simulate import QUIET, Habits
from bidak.rules import Variant

rule_sets = st.builds(
    RuleSet,
    length=st.sampled_from([1, 3, 5, 7]),
    cube=st.booleans(),
    variant=st.sampled_from(Variant),
    opening=st.sampled_from(OpeningRule),
    timeout_policy=st.sampled_from(TimeoutPolicy),
)


def plain(value: object) -> bool:
    """JSON made of dicts with str keys, lists, str, int, bool and None only."""
    if isinstance(value, dict):
        return all(isinstance(key, str) and plain(item) for key, item in value.items())
    if isinstance(value, list):
        return all(plain(item) for item in value)
    return value is None or isinstance(value, str | int | bool)


def through_json(data: dict[str, object]) -> object:
    assert plain(data)
    return json.loads(json.dumps(data))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=rule_sets,
    habits=st.sampled_from([Habits(), QUIET]),
)
def test_random_matches_replay_exactly_and_survive_json(
    seed: int, rules: RuleSet, habits: Habits
) -> None:
    final, events = random_match(seed, rules, habits)
    assert final.phase is Phase.MATCH_OVER and final.winner is not None
    assert final.score[final.winner] >= rules.length
    assert replay(events) == final
    assert final.version == len(events)

    state: MatchState | None = None
    for event in events:
        assert event_from_json(through_json(event_to_json(event))) == event
        previous, state = state, apply_event(state, event)
        assert state_from_json(through_json(state_to_json(state))) == state
        if previous is not None:
            assert all(a <= b for a, b in zip(previous.score, state.score, strict=True))


def test_the_same_seed_gives_the_same_match() -> None:
    rules = RuleSet(length=3)
    assert random_match(11, rules) == random_match(11, rules)
    assert random_match(11, rules).events != random_match(12, rules).events


def sample_action(name: str, state: MatchState, player: Player) -> Action:
    """An action of kind ``name`` by ``player`` that is legal whenever ``name`` is allowed."""
    plays = current_plays(state)
    actions: dict[str, Action] = {
        "opening_roll": OpeningRoll(player),
        "roll": Roll(player),
        "move": Move.of(player, plays[0]) if plays else Move(player, ()),
        "double": Double(player),
        "take": Take(player),
        "drop": Drop(player),
        "resign": ResignGame(player, 2),
        "accept_resign": AcceptResign(player),
        "reject_resign": RejectResign(player),
        "forfeit": ForfeitMatch(player),
        "set_autoplay": SetAutoplay(player, True),
    }
    return actions[name]


NAMES = (
    "opening_roll",
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "resign",
    "accept_resign",
    "reject_resign",
    "forfeit",
    "set_autoplay",
)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), rules=rule_sets)
def test_allowed_actions_are_exactly_the_accepted_ones(seed: int, rules: RuleSet) -> None:
    _, events = random_match(seed, rules)
    state: MatchState | None = None
    for event in events:
        state = apply_event(state, event)
        if state.phase is Phase.BETWEEN_GAMES:
            continue  # only inside a transition
        for player in Player:
            allowed = allowed_actions(state, player)
            for name in NAMES:
                try:
                    check_action(state, sample_action(name, state, player))
                except BidakError:
                    assert name not in allowed, (name, player, state)
                else:
                    assert name in allowed, (name, player, state)
