"""Would the Expert play better ranking by a blend of two plies? (issue 39, item 2)

    BGBOT_MULTIPLY_THREADS=1 .venv/bin/python scripts/expert_blend.py collect \\
        --rows calibration/tuning/expert-rollouts.jsonl --out /tmp/blend.jsonl
    .venv/bin/python scripts/expert_blend.py report \\
        --rows calibration/tuning/expert-rollouts.jsonl calibration/tuning/expert-blend.jsonl

An even ply and an odd ply of a search err in opposite directions on some positions (the
money duel's dearest contact misses: ``1ply`` and ``3ply`` prefer gnubg's play where ``2ply``
alone does not, docs/analysis.md). A blend of ``1ply`` and ``2ply`` (each play's mean equity at
the two) costs what ``2ply`` costs, as a ``2ply`` search scores every play at ``1ply`` first.

``collect`` replays the decisions of ``scripts/expert_rollouts.py``'s rows (the seeded 2-ply
Expert self-play games, seed ``deeper``), ranks each at ``1ply`` and ``2ply`` again (and at
``3ply`` where the roll has at most 50 plays), and records the blends' choices: ``1ply+2ply``
(over the plays ``2ply`` scored at its own depth) and ``2ply+3ply``. Every choice the rows did
not judge yet is judged by the same ``truncated2`` rollout (same seed and trials). One JSON
line a decision; resumed by game.

``report`` prints, for each policy, how often its play differs from the ``2ply`` one and what
the judge says it gains a decision and a game (95% intervals over (game, seat) units), beside
today's Expert's and ``3ply``'s from the rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from expert_deeper import game_states, timed
from expert_rollouts import _policies, print_policies, second_look

from bidak.engine.bots import shared_engines
from bidak.engine.context import context_for
from bidak.engine.sage import RankedPlay, Rollout

MAX_PLAYS = 50


def _by_id(ranked: list[RankedPlay], level: str | None = None) -> dict[str, float]:
    return {r.result.position_id: r.equity for r in ranked if level is None or r.ply == level}


def _blend(first: dict[str, float], second: dict[str, float]) -> str:
    shared = [key for key in second if key in first]
    return max(shared, key=lambda key: (first[key] + second[key]) / 2)


def collect(rows_path: Path, seed: str, out: Path) -> None:
    rows = [json.loads(line) for line in rows_path.read_text().splitlines() if line]
    by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_game[row["game"]].append(row)
    done = set()
    if out.exists():
        done = {json.loads(line)["game"] for line in out.read_text().splitlines() if line}
    engines = shared_engines()
    one, two, three = (engines.evaluator(ply) for ply in ("1ply", "2ply", "3ply"))
    judge = Rollout("truncated2", threads=1)
    with out.open("a") as sink:
        for game in sorted(by_game):
            if game in done:
                continue
            states = game_states(seed, game)
            assert len(states) == len(by_game[game]), (game, len(states), len(by_game[game]))
            for index, (state, row) in enumerate(zip(states, by_game[game], strict=True)):
                assert state.position.position_id == row["id"], (game, row["id"])
                assert state.dice is not None and state.turn is not None
                context = context_for(state, state.turn)
                ranked1, _, cpu1 = timed(lambda s=state, c=context: one.rank(s.position, s.dice, c))
                ranked2, _, cpu2 = timed(lambda s=state, c=context: two.rank(s.position, s.dice, c))
                assert ranked2[0].result.position_id == row["best2"], (game, row["id"])
                levels = {r.ply for r in ranked2}
                deepest = ranked2[0].ply  # the best is scored at the search's own depth
                eq1, eq2 = _by_id(ranked1), _by_id(ranked2, deepest)
                line: dict[str, Any] = {
                    "game": game,
                    "index": index,
                    "cpu1": cpu1,
                    "cpu2": cpu2,
                    "levels": sorted(levels),
                    "scored2": len(eq2),
                    "blend12": _blend(eq1, eq2),
                }
                if row["plays"] <= MAX_PLAYS:
                    ranked3, _, cpu3 = timed(
                        lambda s=state, c=context: three.rank(s.position, s.dice, c)
                    )
                    line.update(cpu3=cpu3, blend23=_blend(eq2, _by_id(ranked3, ranked3[0].ply)))
                judged = dict(row.get("judge", {}))
                wanted = {line["blend12"], line.get("blend23", line["blend12"]), row["best2"]}
                if len(wanted) > 1 or judged:
                    results = {r.result.position_id: r.result for r in ranked2}
                    for key in wanted - set(judged):
                        judged[key] = judge.equity_after(results[key], context)[0]
                    line["judge"] = judged
                sink.write(json.dumps(line) + "\n")
            sink.flush()
            print(f"game {game}: {len(states)} decisions", flush=True)


def report(rows_path: Path, path: Path) -> None:
    rows = [json.loads(line) for line in rows_path.read_text().splitlines() if line]
    lines = [json.loads(line) for line in path.read_text().splitlines() if line]
    by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_game[row["game"]].append(row)
    merged = []  # each decision's row with the blends' choices and every judgement of it
    for line in lines:
        row = by_game[line["game"]][line["index"]]
        judged = {**row.get("judge", {}), **line.get("judge", {})}
        merged.append(
            {**row, "blend12": line["blend12"], "blend23": line.get("blend23")}
            | ({"judge": judged} if judged else {})
        )
    print(f"{len(merged)} decisions of {len(rows)}, {len(by_game)} games")

    known = _policies([])  # 2ply, today's Expert, 3ply: as the rollout rows' own report

    def blend12(r: dict[str, Any]) -> tuple[str, float]:
        return r["blend12"], r["cpu2"]

    def blend12_today(r: dict[str, Any]) -> tuple[str, float]:
        return known["today (3ply within 0.005)"](r) if second_look(r) else blend12(r)

    def blend23(r: dict[str, Any]) -> tuple[str, float]:
        return (r["blend23"], r["cpu2"] + r["cpu3"]) if r["blend23"] else blend12(r)

    print_policies(
        merged,
        {
            **known,
            "1ply+2ply blend": blend12,
            "blend, 3ply within 0.005": blend12_today,
            "2ply+3ply blend": blend23,
        },
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect")
    gather.add_argument("--rows", type=Path, required=True)
    gather.add_argument("--seed", default="deeper")
    gather.add_argument("--out", type=Path, required=True)
    show = sub.add_parser("report")
    show.add_argument("--rows", type=Path, required=True)
    show.add_argument("file", type=Path)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.rows, args.seed, args.out)
    else:
        report(args.rows, args.file)


if __name__ == "__main__":
    main()
