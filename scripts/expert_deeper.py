"""Is the Expert's second look at 3-ply worth its time? A paired measurement on fixed decisions.

    BGBOT_MULTIPLY_THREADS=1 nice -n 19 .venv/bin/python scripts/expert_deeper.py collect \\
        --games 12 --out /tmp/deeper.jsonl
    .venv/bin/python scripts/expert_deeper.py report /tmp/deeper.jsonl
    BGBOT_MULTIPLY_THREADS=1 nice -n 19 .venv/bin/python scripts/expert_deeper.py timing

``collect`` plays ``--games`` seeded games of the 2-ply Expert against itself in the setting of
the gnubg duel (the first game of a 25-point match with the cube off: cubeless, money-like) and,
at every checker play with a choice, ranks the roll at bgsage ``2ply`` and ``3ply`` (timing both:
wall and process CPU; with ``BGBOT_MULTIPLY_THREADS=1`` bgsage searches on one thread, so CPU is
the one-core cost). Where the two plies pick different plays, GNU Backgammon at ``--judge``
plies (3: one deeper than bgsage ``3ply``, through :class:`bidak.bench.gnubg_process.GnubgProcess`)
gives both results their cubeless money equity. One JSON line a decision, resumed by game.

``report`` replays the Expert with each ``close`` threshold on those decisions without playing
again: it looks deeper when the 2-ply gap between the best two plays is at most ``close`` (and
there is more than one play), so its choice is the 3-ply best there and the 2-ply best
elsewhere (``--max-plays``: nor at rolls with more legal plays). For each threshold: the share
of decisions that go deeper, the share whose play changes, the decision time it costs
(p50/p95/p99/max and how many exceed a live bot's 2.7 s, the 3-ply time added where it goes
deeper), and what gnubg says the changes gain: per decision and per game for one side, with a
95% interval over (game, seat) units (the decisions of a game are not independent). The
positions are those the 2-ply Expert reached, so this is a static, paired comparison: no dice
luck, no effect of a play on the positions after it.

``timing`` times every decision of ``bidak bench bots``'s sample (checker plays with a choice and
cube decisions from seeded Normal-vs-Normal 7-point matches) by the plain 2-ply Expert and by the
Expert of :data:`bidak.engine.levels.STYLES`, both clocks, p50/p95/max per kind.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bidak.bench.bots import decision_states
from bidak.bench.gnubg_duel import equity_after, mean_ci
from bidak.bench.gnubg_process import GnubgProcess
from bidak.bench.server.report import quantile
from bidak.engine.bots import SageBot, shared_engines
from bidak.engine.context import context_for
from bidak.engine.duel import play
from bidak.engine.levels import STYLES, Level, Style, restyle
from bidak.engine.sage import PLIES
from bidak.match import (
    Action,
    MatchState,
    Phase,
    Player,
    RuleSet,
    SeededDice,
    current_plays,
    decider,
)

RULES = RuleSet(length=25, cube=False)
LIVE = 2.7
"""Seconds a live bot may think: the server's 3 s ``bot_budget`` less the fallback's 0.3 s."""
CLOSES = (0.0, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.02, 0.03, 0.05, 0.08, 0.15, math.inf)


def timed(work: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = work()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def game_states(seed: str, game: int) -> list[MatchState]:
    """The checker plays with a choice of one seeded 2-ply Expert self-play game."""
    found: list[MatchState] = []

    def keep(state: MatchState, player: Player, action: Action) -> None:
        if state.phase is Phase.MOVE and len(current_plays(state)) > 1:
            found.append(state)

    # The plain 2-ply Expert, whatever STYLES says today: the positions are the old Expert's.
    bots = [
        SageBot(Level.EXPERT, random.Random(f"{seed}:{game}:{seat}"), style=Style(ply="2ply"))
        for seat in (0, 1)
    ]
    play(bots, RULES, SeededDice(f"{seed}:{game}"), games=1, observe=keep)
    return found


def collect(games: int, seed: str, judge: int, out: Path) -> None:
    done = set()
    if out.exists():
        done = {json.loads(line)["game"] for line in out.read_text().splitlines() if line}
    engines = shared_engines()
    two, three = engines.evaluator("2ply"), engines.evaluator("3ply")
    gnubg = GnubgProcess(deadline=300.0)
    try:
        with out.open("a") as sink:
            for game in range(games):
                if game in done:
                    continue
                started = time.perf_counter()
                states = game_states(seed, game)
                for state in states:
                    sink.write(json.dumps(_decision(state, game, two, three, gnubg, judge)) + "\n")
                sink.flush()
                took = time.perf_counter() - started
                print(f"game {game}: {len(states)} decisions, {took:.0f} s", flush=True)
    finally:
        gnubg.close()


def _decision(
    state: MatchState, game: int, two: Any, three: Any, gnubg: GnubgProcess, judge: int
) -> dict[str, Any]:
    assert state.dice is not None and state.turn is not None
    context = context_for(state, state.turn)
    ranked2, wall2, cpu2 = timed(lambda: two.rank(state.position, state.dice, context))
    ranked3, wall3, cpu3 = timed(lambda: three.rank(state.position, state.dice, context))
    best2, best3 = ranked2[0].result, ranked3[0].result
    row: dict[str, Any] = {
        "game": game,
        "seat": state.turn.value,
        "id": state.position.position_id,
        "dice": list(state.dice),
        "plays": len(ranked2),
        "gap2": ranked2[1].loss if len(ranked2) > 1 else None,
        "best2": best2.position_id,
        "best3": best3.position_id,
        "wall2": wall2,
        "cpu2": cpu2,
        "wall3": wall3,
        "cpu3": cpu3,
    }
    if best2 != best3:
        row["gnubg2"] = equity_after(gnubg, best2, judge)
        row["gnubg3"] = equity_after(gnubg, best3, judge)
        # bgsage 3ply's own view of the 2-ply choice, for the tests' positions
        row["loss2_at_3ply"] = next((r.loss for r in ranked3 if r.result == best2), None)
    return row


def report(path: Path, clock: str, max_plays: int | None) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    units = sorted({(r["game"], r["seat"]) for r in rows})
    games = len({r["game"] for r in rows})
    differ = [r for r in rows if r["best2"] != r["best3"]]
    print(
        f"{len(rows)} decisions, {games} games, {len(units)} (game, seat) units; "
        f"2-ply and 3-ply differ on {len(differ)}; time: {clock}"
    )
    wins = sum(1 for r in differ if r["gnubg3"] > r["gnubg2"] + 1e-9)
    ties = sum(1 for r in differ if abs(r["gnubg3"] - r["gnubg2"]) <= 1e-9)
    print(f"gnubg prefers the 3-ply play in {wins}, the 2-ply play in {len(differ) - wins - ties}")
    print(
        f"2-ply alone: p50 {quantile([r[clock + '2'] for r in rows], 0.5) * 1000:.0f} ms, "
        f"p95 {quantile([r[clock + '2'] for r in rows], 0.95) * 1000:.0f} ms; 3-ply alone: "
        f"p50 {quantile([r[clock + '3'] for r in rows], 0.5) * 1000:.0f} ms, "
        f"p95 {quantile([r[clock + '3'] for r in rows], 0.95) * 1000:.0f} ms"
    )
    print(
        "close   deeper  changed  p50 ms  p95 ms  p99 ms  max ms  >2.7 s  "
        "gain/decision (95%)    gain/game (95%)"
    )
    per_unit_decisions = len(rows) / len(units)
    for close in CLOSES:
        style = Style(ply="2ply", deeper="3ply", close=close, max_plays=max_plays)
        times, gains = [], []
        by_unit: dict[tuple[int, int], float] = defaultdict(float)
        went = changed = 0
        for r in rows:
            look = style.looks_deeper(r["gap2"], r["plays"])
            went += look
            times.append(r[clock + "2"] + (r[clock + "3"] if look else 0.0))
            gain = 0.0
            if look and r["best2"] != r["best3"]:
                changed += 1
                gain = r["gnubg3"] - r["gnubg2"]
            gains.append(gain)
            by_unit[(r["game"], r["seat"])] += gain
        mean, half = mean_ci(gains)
        game_mean, game_half = mean_ci([by_unit[u] for u in units])
        print(
            f"{close:<7} {went / len(rows):6.1%}  {changed / len(rows):6.1%}  "
            f"{quantile(times, 0.5) * 1000:6.0f}  {quantile(times, 0.95) * 1000:6.0f}  "
            f"{quantile(times, 0.99) * 1000:6.0f}  {max(times) * 1000:6.0f}  "
            f"{sum(t > LIVE for t in times):6}  {mean:+.5f} ± {half:.5f}   "
            f"{game_mean:+.4f} ± {game_half:.4f}"
        )
    print(f"(one side makes {per_unit_decisions:.1f} of these decisions a game)")


def timing(count: int, seed: int, overrides: str) -> None:
    states = decision_states(count, seed)
    old = Style(ply="2ply")
    new = restyle(STYLES[Level.EXPERT], overrides, PLIES)
    for ply in ("1ply", "2ply", "3ply"):
        shared_engines().evaluator(ply)  # read the networks before the clocks start
    kinds = ["checker" if state.phase is Phase.MOVE else "cube" for state in states]
    print(f"{len(states)} decisions: {kinds.count('checker')} checker, {kinds.count('cube')} cube")
    for name, style in (("2-ply Expert", old), (f"Expert ({new.depth})", new)):
        bot = SageBot(Level.EXPERT, random.Random(seed), style=style)
        walls, cpus = [], []
        for state in states:
            player = decider(state)
            assert player is not None
            _, wall, cpu = timed(functools.partial(bot.decide, state, player))
            walls.append(wall)
            cpus.append(cpu)
        for kind in ("all", "checker", "cube"):
            for clock, values in (("cpu", cpus), ("wall", walls)):
                picked = [v for v, k in zip(values, kinds, strict=True) if kind in ("all", k)]
                print(
                    f"{name:42} {kind:8} {clock:5} p50 {quantile(picked, 0.5) * 1000:6.0f} ms  "
                    f"p95 {quantile(picked, 0.95) * 1000:6.0f} ms  max {max(picked) * 1000:6.0f} ms"
                    f"  mean {sum(picked) / len(picked) * 1000:6.0f} ms"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gather = sub.add_parser("collect")
    gather.add_argument("--games", type=int, default=12)
    gather.add_argument("--seed", default="deeper")
    gather.add_argument("--judge", type=int, default=3, help="gnubg's ply judging the changes")
    gather.add_argument("--out", type=Path, required=True)
    show = sub.add_parser("report")
    show.add_argument("file", type=Path)
    show.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    show.add_argument("--max-plays", type=int, help="no second look at rolls with more plays")
    clock = sub.add_parser("timing")
    clock.add_argument("--states", type=int, default=300)
    clock.add_argument("--seed", type=int, default=2026)
    clock.add_argument("--style", default="", help="the Expert's style changed: close=1,...")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.games, args.seed, args.judge, args.out)
    elif args.command == "report":
        report(args.file, args.clock, args.max_plays)
    else:
        timing(args.states, args.seed, args.style)


if __name__ == "__main__":
    main()
