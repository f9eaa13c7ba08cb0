"""JSON for events and states: exact round trips, and malformed input refused with a BidakError."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidak.errors import BidakError
from bidak.match import (
    Event,
    GameEnd,
    GameStarted,
    GameWon,
    InvalidMatchData,
    MatchStarted,
    OpeningRolled,
    Phase,
    Played,
    Player,
    RuleSet,
    TimedOut,
    TimeoutPolicy,
    event_from_json,
    event_to_json,
    new_match,
    random_match,
    replay,
    rules_from_json,
    state_from_json,
    state_to_json,
)
from bidak.rules import Position

ZERO, ONE = Player.ZERO, Player.ONE


def test_events_are_plain_json() -> None:
    assert event_to_json(MatchStarted(RuleSet(length=3))) == {
        "type": "match_started",
        "rules": {
            "length": 3,
            "cube": True,
            "variant": "standard",
            "opening": "higher",
            "timeout_policy": "autoplay",
        },
    }
    played = Played(ONE, (6, 4), ((24, 18, True), (18, 14, False)), "24/18*/14")
    assert event_to_json(played) == {
        "type": "played",
        "player": 1,
        "dice": [6, 4],
        "steps": [[24, 18, True], [18, 14, False]],
        "notation": "24/18*/14",
    }
    won = GameWon(ZERO, 4, GameEnd.GAMMON, (4, 1))
    assert event_to_json(won) == {
        "type": "game_won",
        "winner": 0,
        "points": 4,
        "kind": "gammon",
        "score": [4, 1],
    }
    for event in (played, won):
        assert event_from_json(event_to_json(event)) == event


def test_a_state_is_plain_json_with_the_position_id_from_the_view_of_the_player_on_roll() -> None:
    bar = Position.from_position_id("4HPwARHgc/AAWA")  # the player on roll is on the bar
    state = replace(
        new_match(RuleSet(length=7)),
        game=2,
        phase=Phase.MOVE,
        turn=ONE,
        position=bar,
        dice=(5, 2),
        cube=2,
        cube_owner=ZERO,
        score=(1, 3),
    )
    data = state_to_json(state)
    assert data["position"] == "4HPwARHgc/AAWA"
    assert (data["phase"], data["turn"], data["dice"], data["cube_owner"]) == ("move", 1, [5, 2], 0)
    assert state_from_json(data) == state


VALID_EVENT = {"type": "doubled", "player": 1, "value": 4}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "doubled",
        {},
        {"type": "no_such_event"},
        {"type": 3},
        {"type": "doubled", "player": 1},
        {**VALID_EVENT, "extra": 1},
        {**VALID_EVENT, "player": 2},
        {**VALID_EVENT, "player": True},
        {**VALID_EVENT, "player": "1"},
        {**VALID_EVENT, "value": 3},
        {**VALID_EVENT, "value": 128},
        {"type": "dice_rolled", "player": 0, "dice": [0, 3]},
        {"type": "dice_rolled", "player": 0, "dice": [1, 2, 3]},
        {"type": "dice_rolled", "player": 0, "dice": {"a": 1}},
        {"type": "played", "player": 0, "dice": [1, 2], "steps": [[1, 2]], "notation": ""},
        {"type": "played", "player": 0, "dice": [1, 2], "steps": [[26, 2, False]], "notation": ""},
        {"type": "game_won", "winner": 0, "points": 1, "kind": "draw", "score": [1, 0]},
        {"type": "match_started", "rules": {"length": 0}},
        {
            "type": "match_started",
            "rules": {
                "length": 30,
                "cube": True,
                "variant": "standard",
                "opening": "higher",
                "timeout_policy": "autoplay",
            },
        },
    ],
)
def test_malformed_events_are_refused(data: Any) -> None:
    with pytest.raises(InvalidMatchData):
        event_from_json(data)


def test_a_state_stored_before_strikes_were_kept_loads_with_no_strikes() -> None:
    stored = state_to_json(replace(new_match(RuleSet(length=3)), strikes=(2, 1)))
    del stored["strikes"], stored["struck"]
    state = state_from_json(stored)
    assert (state.strikes, state.struck) == ((0, 0), (False, False))
    assert state_from_json(state_to_json(state)) == state


def test_a_log_stored_when_every_timeout_was_a_strike_still_replays() -> None:
    """Older servers counted a strike per timed-out decision and wrote no ``left``."""
    rules = RuleSet(length=3, timeout_policy=TimeoutPolicy.THREE_STRIKES)
    old = [
        event_to_json(MatchStarted(rules)),
        {"type": "game_started", "game": 1, "score": [0, 0], "crawford": False},
        {"type": "opening_rolled", "dice": [3, 1], "starter": 0},
        {"type": "timed_out", "player": 0, "strikes": 1},
        {
            "type": "played",
            "player": 0,
            "dice": [3, 1],
            "steps": [[8, 5, False], [6, 5, False]],
            "notation": "8/5 6/5",
        },
        {"type": "timed_out", "player": 1, "strikes": 1},
        {"type": "dice_rolled", "player": 1, "dice": [2, 1]},
        {"type": "timed_out", "player": 1, "strikes": 2},
    ]
    events = [event_from_json(data) for data in old]
    assert events[3] == TimedOut(ZERO, 1, None)
    assert replay(events).strikes == (1, 2)
    # Written again, the event says what it did not before: nothing left unknown is invented.
    assert event_to_json(events[3]) == {**old[3], "left": None}


def test_a_timeout_that_does_not_add_up_is_refused_on_replay() -> None:
    rules = RuleSet(length=3, timeout_policy=TimeoutPolicy.THREE_STRIKES)
    start: list[Event] = [
        MatchStarted(rules),
        GameStarted(1, (0, 0), crawford=False),
        OpeningRolled((3, 1), ZERO),
    ]
    with pytest.raises(InvalidMatchData, match="strikes do not add up"):
        replay([*start, TimedOut(ZERO, 2, 1)])
    with pytest.raises(InvalidMatchData, match="strikes left"):
        replay([*start, TimedOut(ZERO, 1, 0)])
    assert replay([*start, TimedOut(ZERO, 1, 2)]).strikes == (1, 0)


def test_malformed_states_are_refused() -> None:
    good = state_to_json(new_match(RuleSet(length=3)))
    bad: list[dict[str, Any]] = [
        {**good, "position": "not an id"},
        {**good, "position": 7},
        {**good, "cube": 3},
        {**good, "phase": "thinking"},
        {**good, "strikes": [0]},
        {**good, "struck": [1, 0]},
        {**good, "turn": 0},  # the opening has nobody on roll
        {**good, "phase": "move", "turn": 0},  # no dice
        {**good, "phase": "match_over"},  # no winner
        {**good, "resigner": 1},  # no resignation level
        {key: value for key, value in good.items() if key != "version"},
    ]
    for data in bad:
        with pytest.raises(InvalidMatchData):
            state_from_json(data)
    with pytest.raises(InvalidMatchData):
        rules_from_json({"length": 3})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
SAMPLE = random_match(5, RuleSet(length=3))
SAMPLE_EVENTS = [event_to_json(event) for event in SAMPLE.events]


@settings(max_examples=300, deadline=None)
@given(
    event=st.sampled_from(SAMPLE_EVENTS),
    key=st.sampled_from(["type", "player", "dice", "steps", "score", "rules", "value", "kind"]),
    value=json_values,
)
def test_any_mangled_event_either_reads_or_raises_a_bidak_error(
    event: dict[str, Any], key: str, value: object
) -> None:
    with contextlib.suppress(BidakError):
        event_from_json({**event, key: value})


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(sorted(state_to_json(SAMPLE.state))), value=json_values)
def test_any_mangled_state_either_reads_or_raises_a_bidak_error(key: str, value: object) -> None:
    with contextlib.suppress(BidakError):
        state_from_json({**state_to_json(SAMPLE.state), key: value})
