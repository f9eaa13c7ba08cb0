"""Calibration, duels and the bench, in miniature: they run and give numbers that make sense."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from bidak.engine.bots import Bot, make_bot, quick_bot
from bidak.engine.bots_choice import choose_play, exposed_blots, hits
from bidak.engine.calibrate import (
    Calibration,
    Setup,
    calibrate_match,
    default_judge_ply,
    make_judge,
)
from bidak.engine.duel import duel
from bidak.engine.judging import Tally
from bidak.engine.levels import STYLES, Level, Style, UnknownLevel, restyle
from bidak.engine.sage import PLIES, Probabilities, RankedPlay
from bidak.errors import BidakError
from bidak.match import Double, Move, Phase, Player, Roll, RuleSet, decider, new_match
from bidak.rules import Position


def test_a_smoke_calibration_gives_a_pr() -> None:
    setup = Setup(Level.BEGINNER, STYLES[Level.BEGINNER], "1ply", length=3, seed=5)
    calibration = Calibration(setup)
    judge = make_judge(setup.judge_ply)
    while calibration.games < 2:
        calibration.reports.append(calibrate_match(setup, len(calibration.reports), judge))
    summary = calibration.summary()
    assert summary["games"] >= 2 and summary["decisions"] > 20
    assert isinstance(summary["pr"], float) and 0.0 < summary["pr"] < 200.0
    # The record survives JSON, so a run can be resumed from its file.
    again = Calibration.from_json(json.loads(json.dumps(calibration.to_json())))
    assert again.setup == setup and again.summary() == summary


def test_the_judge_finds_no_error_in_its_own_choices() -> None:
    expert = make_bot(Level.EXPERT, 1)
    judge = make_judge("2ply")
    state = replace(new_match(RuleSet(length=5)), phase=Phase.MOVE, turn=Player.ZERO, dice=(4, 2))
    judged = judge.action(state, Player.ZERO, expert.decide(state, Player.ZERO))
    assert judged is not None and judged.loss == 0.0 and judged.counted
    bad = judge.action(state, Player.ZERO, Move(Player.ZERO, ((24, 20), (24, 22))))
    assert bad is not None and bad.loss > 0.05 and bad.best == "8/4 6/4"
    rolling = replace(state, phase=Phase.ROLL, dice=None)
    opening_double = judge.action(rolling, Player.ZERO, Double(Player.ZERO))
    assert opening_double is not None and opening_double.loss > 0.1 and opening_double.counted
    # Not doubling at the start is no decision at all: nothing close, no error.
    assert judge.action(rolling, Player.ZERO, Roll(Player.ZERO)) is None


def test_the_judge_ply_is_one_deeper_than_the_level() -> None:
    assert default_judge_ply(Level.BEGINNER) == "2ply"
    assert default_judge_ply(Level.NORMAL) == "2ply"
    assert default_judge_ply(Level.EXPERT) == "3ply"


def test_paired_duels_share_dice_and_give_an_interval() -> None:
    def maker(level: str) -> Callable[[str], Bot]:
        return lambda seed: make_bot(level, seed)

    result = duel(("beginner", "normal"), (maker("beginner"), maker("normal")), 3, seed=4)
    assert result.pairs == 3 and len(result.per_pair) == 3
    assert math.isfinite(result.half_width)
    # A deterministic bot against itself on shared dice plays the same game from both seats.
    mirror = duel(("quick", "quick"), (lambda _: quick_bot(), lambda _: quick_bot()), 2, seed=4)
    assert mirror.per_pair == (0.0, 0.0)


def test_the_bench_prints_both_tables() -> None:
    from bidak.bench.bots import run

    tables = run(states=6, pairs=1, levels=(Level.BEGINNER, Level.NORMAL), judge_ply="2ply")
    assert [table.title for table in tables] == [
        "Decision time per level, PR judged at 2ply on the same decisions",
        "Duels: game 1 of 25-point matches, dice shared by paired games",
    ]
    assert tables[0].row_count == 2 and tables[1].row_count == 1
    # Each level's PR on the sample, by the one judging definition.
    pr, counted = (tables[0].columns[index] for index in (-2, -1))
    assert all(float(cell) >= 0.0 for cell in pr._cells)  # type: ignore[attr-defined]
    assert all(0 < int(cell) <= 6 for cell in counted._cells)  # type: ignore[attr-defined]


def test_a_restyled_level_plays_its_style_in_the_bench() -> None:
    from bidak.bench.bots import Contender, decision_states, time_levels

    states = decision_states(12, seed=3)
    exact = restyle(STYLES[Level.BEGINNER], "noise=0,ply=2ply", PLIES)
    own, restyled = time_levels(
        states, (Level.BEGINNER, Contender("exact beginner", Level.BEGINNER, exact))
    )
    assert own.bot.name == "beginner" and restyled.bot.style == exact
    bot = make_bot(Level.BEGINNER, 2026, style=exact)
    expected = []
    for state in states:
        player = decider(state)
        assert player is not None
        expected.append(bot.decide(state, player))
    assert list(restyled.actions) == expected
    assert own.actions != restyled.actions  # the level's own style is noisier


def test_the_bench_judges_with_the_judging_module() -> None:
    from bidak.bench.bots import decision_states, judge_timings, time_levels

    states = decision_states(8, seed=3)
    timings = judge_timings(states, time_levels(states, (Level.BEGINNER,)), "2ply")
    judge = make_judge("2ply")
    expected = Tally()
    for state, action in zip(states, timings[0].actions, strict=True):
        player = decider(state)
        assert player is not None
        expected.add_judged(judge.action(state, player, action))
    assert timings[0].tally == expected and expected.decisions() > 0


# -- levels and the choice model ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "level"),
    [("beginner", Level.BEGINNER), (" Normal ", Level.NORMAL), ("EXPERT", Level.EXPERT)],
)
def test_level_names_parse(name: str, level: Level) -> None:
    assert Level.parse(name) is level
    assert Level.parse(level) is level


@pytest.mark.parametrize("name", ["", "master", "1", "beginners"])
def test_unknown_level_names_are_refused_readably(name: str) -> None:
    with pytest.raises(UnknownLevel) as error:
        Level.parse(name)
    assert isinstance(error.value, BidakError)
    assert str(error.value) == (f"unknown bot level {name!r}; choose beginner, normal or expert")


def test_every_level_has_a_style_and_expert_plays_exactly() -> None:
    assert set(STYLES) == set(Level)
    assert STYLES[Level.EXPERT].exact_plays and STYLES[Level.EXPERT].exact_cube
    assert STYLES[Level.EXPERT].ply == "2ply"
    assert STYLES[Level.NORMAL].ply == STYLES[Level.BEGINNER].ply == "1ply"


def ranked(losses: list[float]) -> list[RankedPlay]:
    start = Position.initial()
    zero = Probabilities(0.5, 0.1, 0.0, 0.1, 0.0)
    return [RankedPlay(start, -loss, -loss, zero, loss, "1-ply") for loss in losses]


def test_the_cap_holds_even_at_a_huge_temperature() -> None:
    style = Style(ply="1ply", cap=0.4, temperature=1e6, noise=0.5)
    rng = random.Random(1)
    plays = ranked([0, 0.1, 0.39, 0.41, 1.0])
    picked = [choose_play(Position.initial(), plays, style, rng).loss for _ in range(2000)]
    assert set(picked) == {0, 0.1, 0.39}


def test_a_cold_softmax_plays_the_best() -> None:
    style = Style(ply="1ply", cap=0.4, temperature=1e-6)
    plays = ranked([0, 0.01, 0.2])
    assert all(
        choose_play(Position.initial(), plays, style, random.Random(i)).loss == 0 for i in range(50)
    )


def test_play_features() -> None:
    # The mover hit a blot on its 20-point and left its own blot on 9, 3 pips in front of an
    # opposing checker on 6 (the opponent's 19-point).
    before = Position.from_counts({24: 1, 9: 1, 13: 13}, {5: 1, 19: 1, 6: 13})
    after = Position.from_counts({20: 1, 9: 1, 13: 13}, {19: 1, 6: 13}, bar=(0, 1))
    assert hits(before, after) == 1
    # Both blots are in direct range: 9 of the checker on 6, 20 of the ones on 19.
    assert exposed_blots(after) == 2
    assert exposed_blots(Position.from_counts({9: 1, 13: 14}, {1: 1, 6: 14})) == 0  # out of range
