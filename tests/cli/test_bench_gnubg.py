"""``bidak bench bots --against gnubg``: the duel's bookkeeping (points per game of duplicate
pairs, or the share of matches won, with a 95% CI; a results file that resumes and refuses
another run's settings or mode), and, where the optional ``gnubg`` package is installed
(``pip install -e '.[bench]'``; skipped without it), gnubg's cube decisions on positions whose
answer is known and seeded pairs played for real against GNU Backgammon."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.bench.gnubg_duel import (
    PHASES,
    Ledger,
    PairResult,
    Settings,
    phase_of,
    play_pair,
    read_results,
    run_duel,
    summarise,
)
from bidak.bench.gnubg_match import (
    KINDS,
    MatchEnd,
    MatchGnubgBot,
    match_view,
    play_match_pair,
    score_pair,
)
from bidak.bench.gnubg_process import GnubgProcess, gnubg_available
from bidak.cli.app import app
from bidak.engine.levels import STYLES, Level, restyle
from bidak.engine.sage import PLIES
from bidak.match import Double, Drop, Phase, Player, Roll, RuleSet, Take, new_match
from bidak.rules import Position

SETTINGS = Settings(level="expert", ply=0, seed=5, judge_ply=0)


def _result(index: int, points: float) -> PairResult:
    ledger = Ledger()
    ledger.decisions["contact"] = 10
    ledger.disagreed["contact"] = 2
    ledger.bidak_lost["contact"] = 0.25
    return PairResult(
        index,
        points,
        {
            "decisions": dict(ledger.decisions),
            "disagreed": dict(ledger.disagreed),
            "bidak_lost": dict(ledger.bidak_lost),
            "gnubg_lost": dict(ledger.gnubg_lost),
        },
    )


def test_the_summary_is_the_mean_of_the_pairs_with_a_normal_95_percent_interval() -> None:
    points = [1.0, -0.5, 0.0, 1.5, -1.0, 0.5]
    summary = summarise(SETTINGS, [_result(i, p) for i, p in enumerate(points)])
    mean = sum(points) / len(points)
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))
    assert summary.pairs == 6 and summary.mean == pytest.approx(mean)
    assert summary.half_width == pytest.approx(1.96 * spread / math.sqrt(6))
    assert summary.low < mean < summary.high
    assert summary.ledger.decisions["contact"] == 60 and summary.ledger.disagreed["contact"] == 12
    assert summary.ledger.bidak_lost["contact"] == pytest.approx(1.5)
    assert summarise(SETTINGS, [_result(0, 1.0)]).half_width == math.inf


def test_a_results_file_resumes_its_own_run_and_refuses_another(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    # Settings as written before a duel recorded the level's style: which Expert played them
    # is unknown, so they are not resumed.
    out.write_text(json.dumps({"settings": {"level": "expert", "ply": 0, "seed": 5}}) + "\n")
    with pytest.raises(ValueError, match="before a duel recorded how its level plays"):
        read_results(out, SETTINGS)
    lines: list[dict[str, object]] = [{"settings": asdict(SETTINGS)}]
    lines += [
        {"index": r.index, "points": r.points, "ledger": r.ledger}
        for r in (_result(0, 1.0), _result(1, -0.5))
    ]
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert [r.index for r in read_results(out, SETTINGS)] == [0, 1]
    # Both pairs asked for are there: nothing is played, the summary is theirs.
    summary = run_duel(SETTINGS, 2, out, workers=1)
    assert summary.pairs == 2 and summary.mean == pytest.approx(0.25)
    assert len(out.read_text().splitlines()) == 3
    other = Settings(level="normal", ply=0, seed=5, judge_ply=0)
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, other)
    # The same level as it played before its style changed (the Expert before its second
    # look): another run, not one to resume.
    before = Settings(level="expert", ply=0, seed=5, judge_ply=0, style="Style(ply='2ply')")
    assert before.style != SETTINGS.style
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, before)


def test_the_phases_of_a_game() -> None:
    assert phase_of(Position.initial()) == "contact"
    race = Position.from_counts({9: 5, 6: 10}, {9: 15})
    assert race.is_race() and phase_of(race) == "race"
    assert phase_of(Position.from_counts({6: 5, 1: 10}, {9: 15})) == "bear-off"
    assert set(PHASES) == {"contact", "race", "bear-off"}


MATCH = Settings(level="expert", ply=0, seed=5, judge_ply=0, mode="match", length=3)


def _match_result(index: int, ends: list[MatchEnd]) -> PairResult:
    share, margin = score_pair(ends)
    ledger = Ledger.of(KINDS)
    ledger.decisions["double"], ledger.disagreed["double"] = 6, 1
    ledger.decisions["take"], ledger.bidak_lost["take"] = 2, 0.03
    return PairResult(index, share, ledger.as_json(), margin)


def test_a_match_pair_scores_bidaks_share_and_the_summary_its_mean_with_a_95_percent_interval() -> (
    None
):
    won, lost = MatchEnd(True, 3, 1), MatchEnd(False, 2, 3)
    assert score_pair([won, won]) == (1.0, 2.0)
    assert score_pair([won, lost]) == (0.5, 0.5)
    assert score_pair([lost, lost]) == (0.0, -1.0)
    pairs = [[won, won], [won, lost], [lost, lost], [won, lost], [won, won]]
    results = [_match_result(i, ends) for i, ends in enumerate(pairs)]
    shares = [r.points for r in results]
    summary = summarise(MATCH, results)
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((p - mean) ** 2 for p in shares) / (len(shares) - 1))
    assert summary.pairs == 5 and summary.mean == pytest.approx(mean)
    assert summary.half_width == pytest.approx(1.96 * spread / math.sqrt(5))
    assert summary.margin == pytest.approx(sum(r.margin for r in results) / 5)
    # Every kind of decision is carried: checker plays by phase, double and take.
    assert set(summary.ledger.decisions) == set(KINDS)
    assert summary.ledger.decisions["double"] == 30 and summary.ledger.disagreed["double"] == 5
    assert summary.ledger.bidak_lost["take"] == pytest.approx(0.15)


def test_a_results_file_of_the_other_mode_or_length_is_refused_and_its_own_resumes(
    tmp_path: Path,
) -> None:
    out = tmp_path / "match.jsonl"
    run_duel(MATCH, 0, out, workers=1)  # no pair asked for: the file only gets its settings
    assert json.loads(out.read_text())["settings"] == {
        "level": "expert",
        "ply": 0,
        "seed": 5,
        "judge_ply": 0,
        "mode": "match",
        "length": 3,
        "style": MATCH.style,
    }
    with out.open("a") as sink:
        sink.write(json.dumps({"index": 0, "points": 0.5, "ledger": {}, "margin": -1.0}) + "\n")
    assert read_results(out, MATCH) == [PairResult(0, 0.5, {}, -1.0)]
    with pytest.raises(ValueError, match="a match run with other settings"):
        read_results(out, SETTINGS)
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, replace(MATCH, length=5))
    money = tmp_path / "money.jsonl"
    run_duel(SETTINGS, 0, money, workers=1)
    with pytest.raises(ValueError, match="a money run with other settings"):
        read_results(money, MATCH)
    with pytest.raises(ValueError, match="match length"):
        Settings(level="expert", ply=0, seed=5, judge_ply=0, mode="match", length=0)


def test_the_worker_sees_the_match_from_the_player_on_roll() -> None:
    state = replace(
        new_match(RuleSet(length=7)),
        phase=Phase.ROLL,
        turn=Player.ONE,
        score=(4, 1),
        cube=2,
        cube_owner=Player.ONE,
    )
    seen = {"length": 7, "score": [1, 4], "cube": 2, "owner": 1, "crawford": False}
    assert match_view(state) == seen
    assert match_view(state, Player.ZERO) == {**seen, "score": [4, 1], "owner": 0}
    assert match_view(replace(state, cube_owner=None))["owner"] == -1


NOISY = repr(restyle(STYLES[Level.EXPERT], "ply=1ply,noise=1,cap=2,deeper=none", PLIES))
"""An engine setting far from the Expert's own: plays of the 1-ply ranking with a point of noise."""


def test_a_changed_style_is_its_own_run_and_is_what_the_bidak_side_plays(tmp_path: Path) -> None:
    restyled = replace(SETTINGS, style=NOISY)
    assert SETTINGS.bot_style == STYLES[Level.EXPERT]
    assert restyled.bot_style.noise == 1.0 and restyled.bot_style.ply == "1ply"
    out = tmp_path / "duel.jsonl"
    out.write_text(json.dumps({"settings": asdict(SETTINGS)}) + "\n")
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, restyled)


def test_a_file_written_before_a_style_field_existed_resumes_as_that_style(tmp_path: Path) -> None:
    """The duels' files record the Expert as it played then; a field added since, at its
    default, is the same run (the match duel goes on as the Expert it began with)."""
    from tests.engine.test_style_overrides import EXPERT_BEFORE_RACES

    out = tmp_path / "duel.jsonl"
    pair = {"index": 0, "points": 0.5, "ledger": {}, "margin": 0.0}
    out.write_text(
        json.dumps({"settings": {**asdict(SETTINGS), "style": EXPERT_BEFORE_RACES}})
        + "\n"
        + json.dumps(pair)
        + "\n"
    )
    as_then = replace(SETTINGS, style=repr(restyle(STYLES[Level.EXPERT], "races=false", PLIES)))
    assert read_results(out, as_then) == [PairResult(0, 0.5, {}, 0.0)]
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, SETTINGS)  # today's Expert looks deeper in races: another run
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, replace(as_then, seed=6))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--against", "gnubg", "--style", "close=wide"], "close must be a number"),
        (["--against", "gnubg", "--style", "speed=9"], "unknown style field 'speed'"),
        (["--style", "speed=9"], "unknown style field 'speed'"),
        (["--levels", "normal,expert", "--style", "close=1"], "name the one level to restyle"),
    ],
)
def test_a_bad_style_is_refused_before_anything_is_played(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["bench", "bots", "--pairs", "1", *args])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split())


def test_a_restyled_level_is_timed_and_dueled_beside_its_own_style(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bidak.cli import bench

    monkeypatch.setattr(bench.console, "width", 200)  # the tables' full names, as in a terminal
    sample = ["--states", "4", "--pairs", "1", "--judge", "none"]
    restyled = ["--levels", "beginner", "--style", "noise=0, ply=1ply"]
    result = CliRunner().invoke(app, ["bench", "bots", *sample, *restyled])
    assert result.exit_code == 0, result.output
    rows = [line.split("│")[1].strip() for line in result.output.splitlines() if "│" in line]
    assert "beginner" in rows and "beginner noise=0,ply=1ply" in rows
    assert "beginner vs beginner noise=0,ply=1ply" in rows  # the duel of the two styles


needs_gnubg = pytest.mark.skipif(
    not gnubg_available(), reason="gnubg is not installed (pip install -e '.[bench]')"
)


@needs_gnubg
def test_a_seeded_pair_against_gnubg_plays_both_seats_and_repeats_exactly() -> None:
    gnubg = GnubgProcess()
    heard: list[float] = []
    try:
        first = play_pair(SETTINGS, 3, gnubg)
        again = play_pair(
            SETTINGS, 3, gnubg, lambda state, mine, theirs, worth: heard.append(worth)
        )
    finally:
        gnubg.close()
    assert first == again  # the same dice, the same bots: the same pair
    # The plays it tells of (scripts/expert_misses.py) are the ones the ledger charged.
    assert len(heard) == sum(first.ledger["disagreed"].values())
    lost = sum(first.ledger["bidak_lost"].values())
    assert sum(-worth for worth in heard if worth < 0) == pytest.approx(lost)
    assert first.points * 2 in {-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6}
    assert first.luck is not None and abs(first.luck) < 4  # a money pair records its luck
    assert sum(first.ledger["decisions"].values()) > 20
    for phase in PHASES:
        assert first.ledger["disagreed"][phase] <= first.ledger["decisions"][phase]
        assert first.ledger["bidak_lost"][phase] >= 0 and first.ledger["gnubg_lost"][phase] >= 0


@needs_gnubg
def test_a_pair_with_a_changed_style_plays_that_style() -> None:
    gnubg = GnubgProcess()
    try:
        expert = play_pair(SETTINGS, 3, gnubg)
        noisy = play_pair(replace(SETTINGS, style=NOISY), 3, gnubg)
    finally:
        gnubg.close()
    # The same dice: a Bidak side playing the 1-ply ranking with a point of noise disagrees
    # with gnubg on other plays than the Expert does.
    assert noisy.ledger != expert.ledger


CLOSED_OUT = Position.from_counts(
    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, bar=(0, 1)
)
"""The mover's board closed, an opponent's checker on the bar and two of theirs off: the mover
wins nearly every game and no gammon is left, so it doubles and the opponent passes."""


def _cube(
    gnubg: GnubgProcess, position: Position, score: tuple[int, int] = (0, 0), **cube: object
) -> dict[str, float]:
    match = {"length": 5, "score": list(score), "cube": 1, "owner": -1, "crawford": False}
    return gnubg.ask({"op": "cube", "id": position.position_id, "ply": 1, "match": match | cube})


@needs_gnubg
def test_gnubgs_cube_decisions_on_positions_whose_answer_is_known() -> None:
    gnubg = GnubgProcess()
    try:
        # The opening position: no double, and a double would be taken.
        opening = _cube(gnubg, Position.initial())
        assert not opening["double"] and opening["take"]
        assert opening["dt"] < opening["nd"] < opening["dp"]
        # A closed-out checker without gammons: double, pass.
        closed = _cube(gnubg, CLOSED_OUT)
        assert closed["double"] and not closed["take"] and closed["dt"] > closed["dp"]
        # Last roll, the opponent off next turn; the mover bears off both checkers with any 5
        # or 6 and with 2-2, 3-3 and 4-4, 23 rolls in 36: double, take.
        last = _cube(gnubg, Position.from_counts({5: 1, 1: 1}, {1: 1}))
        assert last["double"] and last["take"]
        assert last["nd"] == pytest.approx((23 * last["dp"] + 13 * (1 - last["dp"])) / 36, abs=1e-4)
        # Two checkers on the 3-point (17 rolls in 36) at the same score: no double.
        assert not _cube(gnubg, Position.from_counts({3: 2}, {1: 1}))["double"]
        # After Crawford the trailer doubles at once, and the leader passes it for free.
        trailer = _cube(gnubg, Position.initial(), score=(3, 4))
        assert trailer["double"] and not trailer["take"] and trailer["dp"] == pytest.approx(0.5)
        # Never in the Crawford game, nor when a win at the present cube already takes the
        # match, nor with the cube on the other side.
        assert not _cube(gnubg, CLOSED_OUT, score=(3, 4), crawford=True)["double"]
        assert not _cube(gnubg, CLOSED_OUT, score=(4, 2))["double"]
        assert not _cube(gnubg, CLOSED_OUT, cube=2, owner=0)["double"]
    finally:
        gnubg.close()


@needs_gnubg
def test_gnubgs_seat_doubles_and_answers_from_the_match_state() -> None:
    gnubg = GnubgProcess()
    try:
        bot = MatchGnubgBot(gnubg, ply=1)
        state = replace(
            new_match(RuleSet(length=5)), phase=Phase.ROLL, turn=Player.ONE, position=CLOSED_OUT
        )
        assert bot.decide(state, Player.ONE) == Double(Player.ONE)
        assert bot.decide(replace(state, phase=Phase.DOUBLED), Player.ZERO) == Drop(Player.ZERO)
        # The opening position at the same score: roll on, and take a double.
        opening = replace(state, position=Position.initial())
        assert bot.decide(opening, Player.ONE) == Roll(Player.ONE)
        assert bot.decide(replace(opening, phase=Phase.DOUBLED), Player.ZERO) == Take(Player.ZERO)
    finally:
        gnubg.close()


@needs_gnubg
def test_a_seeded_match_pair_against_gnubg_repeats_exactly() -> None:
    results = []
    for _ in range(2):  # a fresh gnubg each time: nothing is remembered from the first
        gnubg = GnubgProcess()
        try:
            results.append(play_match_pair(MATCH, 2, gnubg))
        finally:
            gnubg.close()
    first, again = results
    assert first == again
    assert first.points in {0.0, 0.5, 1.0}
    # The winner of a match has the higher score: a won pair has a positive margin.
    assert first.points != 1.0 or first.margin > 0
    assert first.points != 0.0 or first.margin < 0
    decisions, disagreed = first.ledger["decisions"], first.ledger["disagreed"]
    assert set(decisions) == set(KINDS)
    assert decisions["double"] > 0 and sum(decisions[phase] for phase in PHASES) > 20
    assert decisions["take"] <= decisions["double"]  # a take answers a double
    for kind in KINDS:
        assert disagreed[kind] <= decisions[kind]
        assert first.ledger["bidak_lost"][kind] >= 0 and first.ledger["gnubg_lost"][kind] >= 0
