"""How much would a deeper Expert gain, judged by a rollout instead of gnubg? (issue 39, item 2)

    BGBOT_MULTIPLY_THREADS=1 nice -n 19 .venv/bin/python scripts/expert_rollouts.py collect \\
        --games 16 --out /tmp/rollouts.jsonl
    .venv/bin/python scripts/expert_rollouts.py report /tmp/rollouts.jsonl

``collect`` plays the seeded 2-ply Expert self-play games of ``scripts/expert_deeper.py`` (the
gnubg duel's setting: the first game of a 25-point match, cube off) and at every checker play
with a choice ranks the roll at bgsage ``2ply`` and ``3ply``; where the best two at ``3ply`` are
within ``--window`` (0.05) of each other it also rolls out the (at most three) ``3ply``
candidates that close to the best with bgsage's ``truncated1`` (72 games, 5 rolls deep, 1-ply
plays: XG Roller's kind of rollout) and takes its best. Every play one of these looks would
choose is then judged by bgsage's ``truncated2`` (360 games, 7 rolls deep, 2-ply plays and
leaves: stronger than all three looks, and not gnubg, whose own plays its deeper search
favours). CPU seconds of each look are kept (``BGBOT_MULTIPLY_THREADS=1``: one core). One JSON
line a decision, resumed by game; ``--games A:B`` collects games A to B-1 (two processes share
the cores).

``report`` replays the policies an Expert could follow on those decisions without playing
again: the plain ``2ply`` ranking, today's Expert (``3ply`` when the ``2ply`` gap is within
0.005, at most 50 plays), ``3ply`` at every roll of at most 50 plays, and that plus the rollout
look when the ``3ply`` gap is within a threshold. For each: how often its play differs from the
``2ply`` one, the equity the judge says that gains a decision and a game (95% intervals over
(game, seat) units), and its decision time. The positions are the 2-ply Expert's: a paired,
static comparison, not a match result.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expert_deeper import LIVE, game_states, timed

from bidak.bench.gnubg_duel import mean_ci
from bidak.bench.server.report import quantile
from bidak.engine.bots import shared_engines
from bidak.engine.context import context_for
from bidak.engine.sage import Rollout

MAX_PLAYS = 50


def collect(first: int, last: int, seed: str, window: float, out: Path) -> None:
    done = set()
    if out.exists():
        done = {json.loads(line)["game"] for line in out.read_text().splitlines() if line}
    engines = shared_engines()
    two, three = engines.evaluator("2ply"), engines.evaluator("3ply")
    look, judge = Rollout("truncated1", threads=1), Rollout("truncated2", threads=1)
    with out.open("a") as sink:
        for game in range(first, last):
            if game in done:
                continue
            states = game_states(seed, game)
            for state in states:
                assert state.dice is not None and state.turn is not None
                context = context_for(state, state.turn)
                dice = state.dice
                position = state.position
                ranked2, _, cpu2 = timed(lambda p=position, d=dice, c=context: two.rank(p, d, c))
                ranked3, _, cpu3 = timed(lambda p=position, d=dice, c=context: three.rank(p, d, c))
                gap3 = ranked3[1].loss if len(ranked3) > 1 else None
                row: dict[str, Any] = {
                    "game": game,
                    "seat": state.turn.value,
                    "id": state.position.position_id,
                    "dice": list(dice),
                    "plays": len(ranked2),
                    "gap2": ranked2[1].loss if len(ranked2) > 1 else None,
                    "gap3": gap3,
                    "cpu2": cpu2,
                    "cpu3": cpu3,
                    "best2": ranked2[0].result.position_id,
                    "best3": ranked3[0].result.position_id,
                }
                chosen = {ranked2[0].result, ranked3[0].result}
                if gap3 is not None and gap3 <= window:
                    near = [r.result for r in ranked3[:3] if r.loss <= window]
                    rolled, _, cpu_roll = timed(
                        lambda near=near, c=context: [look.equity_after(r, c)[0] for r in near]
                    )
                    best = near[rolled.index(max(rolled))]
                    row.update(cpu_roll=cpu_roll, best_roll=best.position_id, rolled=len(near))
                    chosen.add(best)
                if len(chosen) > 1:
                    row["judge"] = {
                        r.position_id: judge.equity_after(r, context)[0] for r in chosen
                    }
                sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(f"game {game}: {len(states)} decisions", flush=True)


def second_look(r: dict[str, Any]) -> bool:
    """Whether today's Expert looks at ``3ply`` in this row's roll (the ``2ply`` gap within
    0.005, at most :data:`MAX_PLAYS` plays)."""
    return r["gap2"] is not None and r["gap2"] <= 0.005 and r["plays"] <= MAX_PLAYS


def _policies(thresholds: list[float]) -> dict[str, Any]:
    def plain(r: dict[str, Any]) -> tuple[str, float]:
        return r["best2"], r["cpu2"]

    def today(r: dict[str, Any]) -> tuple[str, float]:
        return (r["best3"], r["cpu2"] + r["cpu3"]) if second_look(r) else plain(r)

    def deeper(r: dict[str, Any]) -> tuple[str, float]:
        if r["plays"] <= MAX_PLAYS:
            return r["best3"], r["cpu2"] + r["cpu3"]
        return plain(r)

    def rolled(threshold: float) -> Any:
        def policy(r: dict[str, Any]) -> tuple[str, float]:
            if r["plays"] > MAX_PLAYS:
                return plain(r)
            if "best_roll" in r and r["gap3"] <= threshold:
                return r["best_roll"], r["cpu2"] + r["cpu3"] + r["cpu_roll"]
            return deeper(r)

        return policy

    found: dict[str, Any] = {
        "2ply": plain,
        "today (3ply within 0.005)": today,
        f"3ply (<= {MAX_PLAYS} plays)": deeper,
    }
    for threshold in thresholds:
        found[f"3ply + 1T within {threshold}"] = rolled(threshold)
    return found


def report(path: Path, thresholds: list[float]) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    judged = sum("judge" in r for r in rows)
    rolled = sum("best_roll" in r for r in rows)
    games = len({r["game"] for r in rows})
    units = len({(r["game"], r["seat"]) for r in rows})
    print(
        f"{len(rows)} decisions, {games} games, {units} units; judged: {judged}; "
        f"rolled out: {rolled}"
    )
    print_policies(rows, _policies(thresholds))


def print_policies(rows: list[dict[str, Any]], policies: dict[str, Any]) -> None:
    """A line a policy (a row -> its choice and decision time): how often it leaves the
    ``2ply`` play, its time, and what the judge says it gains, a decision and a game, over the
    ``2ply`` play and (after the policy named "today...") over today's Expert."""
    units = sorted({(r["game"], r["seat"]) for r in rows})
    print(
        f"{'policy':30} changed  p50 ms  p95 ms  p99 ms  max ms  >2.7 s  "
        "gain/decision (95%)     gain/game, one side (95%)  over today's, a game (95%)"
    )
    today: dict[tuple[int, int], float] = {}
    for name, policy in policies.items():
        gains, times = [], []
        by_unit: dict[tuple[int, int], float] = defaultdict(float)
        changed = 0
        for r in rows:
            choice, took = policy(r)
            times.append(took)
            gain = 0.0
            if choice != r["best2"]:
                changed += 1
                gain = r["judge"][choice] - r["judge"][r["best2"]]
            gains.append(gain)
            by_unit[(r["game"], r["seat"])] += gain
        mean, half = mean_ci(gains)
        game_mean, game_half = mean_ci([by_unit[u] for u in units])
        if name.startswith("today"):
            today = dict(by_unit)
        over, over_half = mean_ci([by_unit[u] - today.get(u, 0.0) for u in units])
        print(
            f"{name:30} {changed / len(rows):6.1%}  {quantile(times, 0.5) * 1000:6.0f}  "
            f"{quantile(times, 0.95) * 1000:6.0f}  {quantile(times, 0.99) * 1000:6.0f}  "
            f"{max(times) * 1000:6.0f}  {sum(t > LIVE for t in times):6}  "
            f"{mean:+.5f} ± {half:.5f}   {game_mean:+.4f} ± {game_half:.4f}"
            + (f"          {over:+.4f} ± {over_half:.4f}" if today else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect")
    gather.add_argument("--games", default="16", help="N, or A:B for games A to B-1")
    gather.add_argument("--seed", default="deeper")
    gather.add_argument("--window", type=float, default=0.05, help="3ply gap rolled out")
    gather.add_argument("--out", type=Path, required=True)
    show = sub.add_parser("report")
    show.add_argument("file", type=Path)
    show.add_argument("--thresholds", default="0.005,0.01,0.02,0.05")
    args = parser.parse_args()
    if args.command == "collect":
        first, _, last = args.games.rpartition(":")
        collect(int(first or 0), int(last), args.seed, args.window, args.out)
    else:
        report(args.file, [float(x) for x in args.thresholds.split(",")])


if __name__ == "__main__":
    main()
