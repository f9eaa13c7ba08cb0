"""Room options (rules.md 9) and the match length the engine accepts (rules.md 8)."""

from __future__ import annotations

import pytest

from bidak.match import InvalidMatchData, OpeningRule, RuleSet, TimeoutPolicy
from bidak.match.serialize import rules_from_json, rules_to_json
from bidak.rules import Variant


def test_defaults_are_standard_backgammon() -> None:
    rules = RuleSet()
    assert (rules.length, rules.cube, rules.variant) == (1, True, Variant.STANDARD)
    assert (rules.opening, rules.timeout_policy) == (
        OpeningRule.HIGHER_STARTS,
        TimeoutPolicy.AUTOPLAY,
    )


@pytest.mark.parametrize(
    ("length", "cube", "in_use"), [(1, True, False), (3, True, True), (7, False, False)]
)
def test_the_cube_is_off_in_one_point_matches_and_when_disabled(
    length: int, cube: bool, in_use: bool
) -> None:
    assert RuleSet(length=length, cube=cube).cube_in_use is in_use


@pytest.mark.parametrize("length", [0, 26, -1, True, 2.0, "5"])
def test_lengths_outside_1_to_25_are_refused(length: object) -> None:
    with pytest.raises(InvalidMatchData):
        RuleSet(length=length)  # type: ignore[arg-type]


def test_enum_options_must_be_enums() -> None:
    with pytest.raises(InvalidMatchData):
        RuleSet(length=3, opening="lower")  # type: ignore[arg-type]


def test_rule_sets_round_trip_through_json() -> None:
    rules = RuleSet(
        length=25,
        cube=False,
        variant=Variant.NACKGAMMON,
        opening=OpeningRule.LOWER_STARTS,
        timeout_policy=TimeoutPolicy.THREE_STRIKES,
    )
    data = rules_to_json(rules)
    assert data == {
        "length": 25,
        "cube": False,
        "variant": "nackgammon",
        "opening": "lower",
        "timeout_policy": "three_strikes",
    }
    assert rules_from_json(data) == rules
