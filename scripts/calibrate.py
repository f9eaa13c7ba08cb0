"""Measure the PR of a bot level over seeded bot-vs-bot matches, judged deeper than it plays.

    .venv/bin/python scripts/calibrate.py --level beginner --games 200 \
        --out calibration/beginner.json

Prints one line per game and writes the JSON after every match (atomically), so a run of hours
can be watched (``tail -f calibration/beginner.log``, or the ``summary`` in the JSON) and resumed:
run the same command again and it continues after the last finished match. A run only resumes
with the same setup (level, style, judge, opponent, length, seed); ``--fresh`` starts over.

Tuning: ``--set temperature=0.06 --set cap=0.4`` overrides fields of the level's style for this
run (the style is stored in the JSON); copy the winners into ``src/bidak/engine/levels.py``.
Set ``BGBOT_MULTIPLY_THREADS=1`` to keep the engine's N-ply search on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from bidak.engine.calibrate import (
    Calibration,
    Setup,
    calibrate_match,
    default_judge_ply,
    make_judge,
)
from bidak.engine.levels import STYLES, Level, Style
from bidak.match import GameWon


def parse_style(level: Level, overrides: list[str]) -> Style:
    style = STYLES[level]
    kinds = {f.name: f.type for f in fields(Style)}
    for item in overrides:
        name, _, value = item.partition("=")
        if name not in kinds:
            raise SystemExit(f"unknown style field {name!r}; fields: {', '.join(kinds)}")
        parsed: Any = value  # a ply name, None or a number, per field
        if name == "deeper":
            parsed = None if value in ("", "none") else value
        elif name == "max_plays":
            parsed = None if value in ("", "none") else int(value)
        elif name != "ply":
            parsed = float(value)
        style = replace(style, **{name: parsed})
    return style


def save(calibration: Calibration, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_suffix(out.suffix + ".tmp")
    temporary.write_text(json.dumps(calibration.to_json(), indent=1) + "\n")
    os.replace(temporary, out)


def load(out: Path, setup: Setup, fresh: bool) -> Calibration:
    if fresh or not out.exists():
        return Calibration(setup)
    data = json.loads(out.read_text())
    found = Setup.from_json(data["setup"])
    if found != setup:
        raise SystemExit(
            f"{out} holds a run with another setup ({found}); use --fresh or another --out"
        )
    return Calibration.from_json(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", required=True, help="beginner, normal or expert")
    parser.add_argument("--games", type=int, default=200, help="play at least this many games")
    parser.add_argument("--out", type=Path, required=True, help="the JSON results file")
    parser.add_argument("--judge-ply", help="1ply, 2ply or 3ply (default: one deeper)")
    parser.add_argument("--opponent", help="another level to play (default: the level itself)")
    parser.add_argument("--length", type=int, default=7, help="match length (default 7)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--fresh", action="store_true", help="start over, ignoring --out")
    args = parser.parse_args(argv)

    level = Level.parse(args.level)
    setup = Setup(
        level,
        parse_style(level, args.set),
        args.judge_ply or default_judge_ply(level),
        None if args.opponent is None else Level.parse(args.opponent),
        args.length,
        args.seed,
    )
    calibration = load(args.out, setup, args.fresh)
    judge = make_judge(setup.judge_ply)
    print(f"calibrating {setup} -> {args.out}", flush=True)
    if calibration.reports:
        print(f"resuming after {calibration.games} games: {calibration.summary()}", flush=True)
    started = time.perf_counter()

    while calibration.games < args.games:
        index = len(calibration.reports)

        def on_game(game: GameWon, index: int = index) -> None:
            elapsed = time.perf_counter() - started
            print(
                f"match {index} game: {game.kind.value} {game.points} pt(s) for player"
                f" {game.winner.value}, score {game.score[0]}-{game.score[1]}"
                f" [{elapsed:.0f} s]",
                flush=True,
            )

        report = calibrate_match(setup, index, judge, on_game=on_game)
        calibration.reports.append(report)
        save(calibration, args.out)
        summary = calibration.summary()
        print(
            f"match {index} done in {report.seconds:.0f} s: {calibration.games}/{args.games} games,"
            f" {summary['decisions']} decisions, PR {summary['pr']}"
            f" ± {summary['pr_95_half_width']} (checker {summary['pr_checker']},"
            f" cube {summary['pr_cube']})",
            flush=True,
        )
    print(json.dumps(calibration.summary()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
