"""A Bidak match written to .mat and read back is the same match (plays, cube, scores)."""

from __future__ import annotations

import dataclasses

import pytest

from bidak.errors import InvalidMatchFile
from bidak.formats import read_mat, write_mat
from bidak.formats.mat import EXAMPLE
from bidak.formats.match_mat import mat_to_match, match_to_mat
from bidak.match import (
    Doubled,
    Dropped,
    Event,
    GameWon,
    Phase,
    Played,
    RuleSet,
    Taken,
)
from bidak.match.simulate import QUIET, Habits, random_match

KEPT = (Played, Doubled, Taken, Dropped, GameWon)


def _what_a_mat_keeps(events: tuple[Event, ...] | list[Event]) -> list[Event]:
    return [event for event in events if isinstance(event, KEPT)]


@pytest.mark.parametrize("seed", range(6))
def test_a_random_seven_point_match_round_trips_through_mat(seed: int) -> None:
    final, events = random_match(f"mat-{seed}", RuleSet(length=7), QUIET)
    assert any(isinstance(event, Taken) for event in events), "the match should use the cube"
    text = write_mat(match_to_mat(events, ("Alice", "Bob")))
    state, log = mat_to_match(read_mat(text))
    assert state.phase is Phase.MATCH_OVER
    assert state.score == final.score and state.winner == final.winner
    assert _what_a_mat_keeps(log) == _what_a_mat_keeps(events)


def test_accepted_resignations_survive_the_round_trip() -> None:
    habits = Habits(resign=0.05, accept_resign=1.0, timeout=0.0, autoplay=0.0, forfeit=0.0)
    final, events = random_match("mat-resign", RuleSet(length=7), habits)
    resigned = [e for e in events if isinstance(e, GameWon) and e.kind == "resign"]
    assert resigned, "the seed should produce at least one resignation"
    state, log = mat_to_match(read_mat(write_mat(match_to_mat(events))))
    assert state.score == final.score
    assert _what_a_mat_keeps(log) == _what_a_mat_keeps(events)


def test_the_formats_example_replays_as_a_bidak_match() -> None:
    state, log = mat_to_match(read_mat(EXAMPLE))
    assert state.score == (3, 0)
    assert state.phase is Phase.MATCH_OVER
    assert [e.kind for e in log if isinstance(e, GameWon)] == ["drop", "resign"]


def test_a_money_session_is_not_a_bidak_match() -> None:
    record = read_mat(EXAMPLE)
    with pytest.raises(InvalidMatchFile, match="1 to 25 points"):
        mat_to_match(dataclasses.replace(record, length=0, games=()))
