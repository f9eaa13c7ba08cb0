"""Where the Expert loses most to World Class, play by play, and whether a rollout agrees (39).

The money duel's results file keeps each pair's ledger only (how much equity each engine lost by
phase), not the plays. Its pairs are seeded, so they can be played again exactly: ``collect``
replays the pairs whose ledger charges the Expert most, keeps every play where gnubg's judge
(``judge_ply`` of the file's settings) ranked gnubg's choice at least ``--least`` above the
Expert's, and rolls both plays out with bgsage's ``truncated2`` (360 games 7 rolls deep at
2-ply, seeded: both plays see the same dice). Each kept play also records what the Expert's
``3ply`` ranking and its ``--style close=1`` (``3ply`` at every roll of at most 50 plays)
would play, so a candidate style can be read against the misses. ``report`` prints the table.

    nice -n 19 .venv/bin/python scripts/expert_misses.py collect --pairs 12 \\
        --out calibration/tuning/expert-misses.jsonl
    .venv/bin/python scripts/expert_misses.py report calibration/tuning/expert-misses.jsonl \
        --agreed tests/engine/data/gnubg/money-misses.json

``--agreed`` writes the plays where the rollout sides with gnubg, for the Expert's tests.

Needs gnubg from PyPI (``pip install -e '.[bench]'``) for the replay.
"""

from __future__ import annotations

import argparse
import json
import random
from functools import partial
from pathlib import Path
from typing import Any

from bidak.bench.gnubg_duel import Settings, play_pair, read_results
from bidak.bench.gnubg_process import GnubgProcess
from bidak.engine.bots import SageBot, shared_engines
from bidak.engine.context import context_for
from bidak.engine.levels import Level, restyle
from bidak.engine.sage import PLIES, Rollout
from bidak.match import MatchState, Move, Player, decider
from bidak.match.serialize import state_to_json
from bidak.rules import Play, find_play

DUEL = Path("calibration/duels/money-expert-vs-gnubg2.jsonl")


def dearest_pairs(path: Path, count: int) -> tuple[Settings, list[int]]:
    """The duel's settings and the ``count`` pairs whose ledger charged the Expert most."""
    settings = Settings(**json.loads(path.read_text().splitlines()[0])["settings"])
    results = read_results(path, settings)
    ranked = sorted(results, key=lambda pair: -sum(pair.ledger["bidak_lost"].values()))
    return settings, [pair.index for pair in ranked[:count]]


def choice(bot: SageBot, state: MatchState) -> str:
    """The position id after the play ``bot`` makes in ``state``."""
    action = bot.decide(state, mover(state))
    assert isinstance(action, Move) and state.dice is not None
    return find_play(state.position, state.dice, action.steps).result.position_id


def mover(state: MatchState) -> Player:
    player = decider(state)
    assert player is not None
    return player


def keep(
    kept: list[tuple[MatchState, Play, Play, float]],
    least: float,
    state: MatchState,
    mine: Play,
    theirs: Play,
    difference: float,
) -> None:
    """A play the judge charged the Expert ``least`` or more for, kept."""
    if difference <= -least:
        kept.append((state, mine, theirs, difference))


def collect(args: argparse.Namespace) -> None:
    settings, pairs = dearest_pairs(args.duel, args.pairs)
    out: Path = args.out
    done = (
        {json.loads(line)["pair"] for line in out.read_text().splitlines()}
        if out.exists()
        else set()
    )
    judge = Rollout("truncated2", threads=1)
    deeper = restyle(settings.bot_style, "close=1", PLIES)  # the duel's Expert, looking deeper
    three = shared_engines().evaluator("3ply")
    gnubg = GnubgProcess()
    try:
        for index in pairs:
            if index in done:
                continue
            kept: list[tuple[MatchState, Play, Play, float]] = []
            play_pair(settings, index, gnubg, partial(keep, kept, args.least))
            lines = []
            for state, mine, theirs, difference in kept:
                context = context_for(state, mover(state))
                rolled = {
                    role: judge.equity_after(play.result, context)
                    for role, play in (("expert", mine), ("gnubg", theirs))
                }
                assert state.dice is not None
                ranked = three.rank(state.position, state.dice, context)
                record: dict[str, Any] = {
                    "pair": index,
                    "state": state_to_json(state),
                    "dice": list(state.dice),
                    "expert": mine.result.position_id,
                    "gnubg": theirs.result.position_id,
                    "judged": difference,
                    "rollout": {role: list(figures) for role, figures in rolled.items()},
                    "3ply": ranked[0].result.position_id,
                    "close=1": choice(SageBot(Level.EXPERT, random.Random(1), style=deeper), state),
                }
                lines.append(json.dumps(record) + "\n")
            if not lines:  # the pair is done even when it kept nothing
                lines = [json.dumps({"pair": index, "state": None}) + "\n"]
            with out.open("a") as file:
                file.writelines(lines)
            print(f"pair {index}: {len(kept)} plays kept", flush=True)
    finally:
        gnubg.close()


def agreed(record: dict[str, Any]) -> bool:
    """Whether the rollout prefers gnubg's play by more than twice its error."""
    (expert, expert_se), (gnubg, gnubg_se) = record["rollout"]["expert"], record["rollout"]["gnubg"]
    return bool(gnubg - expert > 2 * max(expert_se, gnubg_se, 1e-4))


def report(args: argparse.Namespace) -> None:
    records = [json.loads(line) for line in args.file.read_text().splitlines()]
    plays = [record for record in records if record["state"] is not None]
    pairs = {record["pair"] for record in records}
    print(f"{len(pairs)} pairs replayed, {len(plays)} plays charged >= the cut by gnubg's judge\n")
    print("| pair | dice | judge | rollout gnubg - Expert | agrees | 3ply plays | close=1 plays |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for record in plays:
        (expert, se), (gnubg, _) = record["rollout"]["expert"], record["rollout"]["gnubg"]
        names = {record["expert"]: "Expert's", record["gnubg"]: "gnubg's"}
        print(
            f"| {record['pair']} | {record['dice'][0]}-{record['dice'][1]} "
            f"| {record['judged']:+.3f} | {gnubg - expert:+.3f} (se {se:.3f}) "
            f"| {'yes' if agreed(record) else 'no'} | {names.get(record['3ply'], 'other')} "
            f"| {names.get(record['close=1'], 'other')} |"
        )
    sided = [record for record in plays if agreed(record)]
    fixed = [record for record in sided if record["close=1"] == record["gnubg"]]
    print(
        f"\nThe rollout sides with gnubg in {len(sided)} of {len(plays)}; "
        f"`close=1` plays gnubg's choice in {len(fixed)} of those."
    )
    if args.agreed is not None:
        args.agreed.write_text(json.dumps(sided, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(required=True)
    gather = commands.add_parser("collect", help="replay the dearest pairs and roll out")
    gather.add_argument("--duel", type=Path, default=DUEL)
    gather.add_argument("--pairs", type=int, default=12)
    gather.add_argument("--least", type=float, default=0.02, help="the judge's charge to keep")
    gather.add_argument("--out", type=Path, required=True)
    gather.set_defaults(run=collect)
    table = commands.add_parser("report", help="the table of a collected file")
    table.add_argument("file", type=Path)
    table.add_argument("--agreed", type=Path, help="write the plays the rollout sides with gnubg")
    table.set_defaults(run=report)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
