"""Tune a level's style towards a target PR before confirming it with ``scripts/calibrate.py``.

    .venv/bin/python scripts/tune_levels.py --level beginner --games 20 --target 25

Plays ``--games`` seeded games of the level against itself and, at each of its decisions,
records every candidate as the level's engine and the judge see it (sample cached in
``--sample``). A style's PR on that sample is then an *expected* value, computed without playing:
exactly for the softmax over plays, by sampling for noise, with the normal distribution for the
cube. A grid of styles around the current one is scored and the closest to the target printed.
The sample's positions come from one style's play, so confirm the winner with a real run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from bidak.engine.bots import SageBot, shared_engines
from bidak.engine.bots_choice import exposed_blots, hits
from bidak.engine.calibrate import default_judge_ply
from bidak.engine.context import context_for
from bidak.engine.duel import play
from bidak.engine.judging import CLOSE_CUBE, pr
from bidak.engine.levels import STYLES, Level, Style
from bidak.match import Action, MatchState, Phase, Player, RuleSet, SeededDice, current_plays


@dataclass
class Sample:
    plays: list[list[list[float]]]  # per decision, per candidate: own loss, judge loss, hits, shots
    doubles: list[list[float]]  # own nd, dt, dp; judge nd, dt, dp
    takes: list[list[float]]  # the doubler's verdicts, as for doubles


def collect(level: Level, games: int, judge_ply: str, seed: int) -> Sample:
    engines = shared_engines()
    own = engines.evaluator(STYLES[level].ply)
    judge = engines.evaluator(judge_ply)
    sample = Sample([], [], [])

    def triple(verdict: Any) -> list[float]:
        return [verdict.no_double, verdict.double_take, verdict.double_pass]

    def observe(state: MatchState, player: Player, action: Action) -> None:
        if state.phase is Phase.MOVE and len(current_plays(state)) > 1:
            assert state.dice is not None
            context = context_for(state, player)
            mine = own.rank(state.position, state.dice, context)
            theirs = {r.result: r.loss for r in judge.rank(state.position, state.dice, context)}
            sample.plays.append(
                [
                    [
                        r.loss,
                        theirs[r.result],
                        hits(state.position, r.result),
                        exposed_blots(r.result),
                    ]
                    for r in mine
                ]
            )
        elif state.phase in (Phase.ROLL, Phase.DOUBLED):
            doubler = player if state.phase is Phase.ROLL else player.opponent
            context = context_for(state, doubler)
            row = triple(own.cube(state.position, context))
            row += triple(judge.cube(state.position, context))
            (sample.doubles if state.phase is Phase.ROLL else sample.takes).append(row)

    played = 0
    match = 0
    while played < games:
        bots = [SageBot(level, random.Random(f"{seed}:{match}:{seat}")) for seat in (0, 1)]
        result = play(bots, RuleSet(length=7), SeededDice(f"{seed}:{match}"), observe=observe)
        played += len(result.games)
        match += 1
        print(f"sampled {played} games, {len(sample.plays)} plays", flush=True)
    return sample


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def probability(margin: float, noise: float) -> float:
    """P(margin + N(0, noise) > 0)."""
    if noise <= 0:
        return 1.0 if margin > 0 else 0.0
    return phi(margin / noise)


def play_loss(candidates: list[list[float]], style: Style, rng: random.Random) -> float:
    within = [c for c in candidates if c[0] <= style.cap] if not style.exact_plays else []
    if not within:
        return candidates[0][1]
    base = [-c[0] + style.hit_bias * c[2] - style.shot_bias * c[3] for c in within]
    if style.temperature > 0 and style.noise == 0:
        top = max(base)
        weights = [math.exp((u - top) / style.temperature) for u in base]
        return sum(w * c[1] for w, c in zip(weights, within, strict=True)) / sum(weights)
    draws = 16 if style.noise else 1
    total = 0.0
    for _ in range(draws):
        utilities = [u + rng.gauss(0.0, style.noise) for u in base]
        if style.temperature > 0:
            top = max(utilities)
            weights = [math.exp((u - top) / style.temperature) for u in utilities]
            total += sum(w * c[1] for w, c in zip(weights, within, strict=True)) / sum(weights)
        else:
            total += within[max(range(len(within)), key=utilities.__getitem__)][1]
    return total / draws


def cube_losses(sample: Sample, style: Style) -> tuple[float, float]:
    """Expected (loss, counted decisions) of the cube, doubling and taking.

    As bidak.engine.judging counts them: a double always, a hold only when doubling is within
    CLOSE_CUBE of the best (the sample does not tell a dead cube apart), an answer always.
    """
    loss = count = 0.0
    for nd1, dt1, dp1, nd2, dt2, dp2 in sample.doubles:
        if style.exact_cube:
            p = 1.0 if min(dt1, dp1) > nd1 else 0.0
        else:
            p = probability(min(dt1, dp1) - nd1 - style.double_bias, style.cube_noise)
        double2 = min(dt2, dp2)
        best = max(nd2, double2)
        lost_double, lost_hold = best - double2, best - nd2
        loss += p * lost_double + (1 - p) * lost_hold
        count += 1.0 if best - double2 < CLOSE_CUBE else p
    for _nd1, dt1, dp1, _nd2, dt2, dp2 in sample.takes:
        margin = dp1 - dt1 + (0.0 if style.exact_cube else style.take_bias)
        p = probability(margin, 0.0 if style.exact_cube else style.cube_noise)
        best = max(-dt2, -dp2)
        loss += p * (best + dt2) + (1 - p) * (best + dp2)
        count += 1
    return loss, count


def expected_pr(sample: Sample, style: Style) -> tuple[float, float, float]:
    rng = random.Random(7)
    checker = sum(play_loss(candidates, style, rng) for candidates in sample.plays)
    cube_loss, cube_count = cube_losses(sample, style)
    return (
        pr(checker + cube_loss, len(sample.plays) + cube_count),
        pr(checker, len(sample.plays)),
        pr(cube_loss, cube_count),
    )


GRIDS: dict[str, list[float]] = {
    "temperature": [0.03, 0.05, 0.07, 0.09, 0.12],
    "cap": [0.3, 0.4, 0.5],
    "noise": [0.0, 0.02, 0.04, 0.06],
    "hit_bias": [0.0, 0.04, 0.08],
    "shot_bias": [0.0, 0.02, 0.04],
    "double_bias": [0.0, 0.05, 0.1, 0.15],
    "take_bias": [0.0, 0.05, 0.1, 0.15],
    "cube_noise": [0.03, 0.06, 0.1],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--target", type=float, required=True)
    parser.add_argument("--sample", type=Path, help="cache of the sample (JSON)")
    parser.add_argument("--vary", default="temperature,cap,hit_bias,shot_bias")
    parser.add_argument("--seed", type=int, default=77)
    args = parser.parse_args()
    level = Level.parse(args.level)
    path = args.sample or Path(f"/tmp/bidak-tune-{level.value}.json")
    if path.exists():
        sample = Sample(**json.loads(path.read_text()))
    else:
        sample = collect(level, args.games, default_judge_ply(level), args.seed)
        path.write_text(json.dumps(asdict(sample)))
    base = STYLES[level]
    print(f"sample: {len(sample.plays)} plays, {len(sample.doubles)} on roll, {len(sample.takes)}")
    print("current", base, [round(x, 2) for x in expected_pr(sample, base)])
    print("engine best", [round(x, 2) for x in expected_pr(sample, Style(ply=base.ply))])
    names = args.vary.split(",")
    scored = []
    for values in itertools.product(*(GRIDS[name] for name in names)):
        style = replace(base, **dict(zip(names, values, strict=True)))
        scored.append((abs(expected_pr(sample, style)[0] - args.target), style))
    scored.sort(key=lambda item: item[0])
    for _, style in scored[:8]:
        pr = expected_pr(sample, style)
        print([round(x, 2) for x in pr], {name: getattr(style, name) for name in names})
    print("median plays per decision", statistics.median(len(c) for c in sample.plays))


if __name__ == "__main__":
    main()
