"""Where Bidak's review and gnubg's analysis part on a player's checker plays, and which side a
rollout takes (issue 39, item 4).

    apt-get install -y gnubg          # Debian's gnubg 1.07, with its embedded Python
    python3 scripts/gnubg_disagreements.py --match expert-worldclass --player 0 \\
        --out tests/engine/data/gnubg/disagreements.json

For one player of a match in ``tests/engine/data/gnubg/`` this

1. has gnubg analyse the match at 2-ply (the analysis ``gnubg.json`` quotes) and reads, for
   every checker play, gnubg's candidate list (each play's cubeful match equity, EMG);
2. ranks the same decisions with Bidak's engine at ``3ply`` (the depth of Bidak's review) in the
   same match context, and finds the decisions where the two engines charge the play made
   differently by at least ``--gap`` (0.01 unless said);
3. rolls out, for each of those, the play made, gnubg's best and Bidak's best twice: by gnubg
   (``analyse rollout move``: cubeful, full games, its 0-ply checker play, variance reduction,
   quasi-random dice, ``--trials`` games) and by Bidak's engine (bgsage's cubeful rollout of the
   position after each play: full games, 1-ply checker play, ``--sage-trials`` games);
4. writes every figure to ``--out`` (one entry per match and player); a run of the same
   settings reuses the rollouts ``--out`` already has (``--again`` rolls them out anew).

``python3 scripts/gnubg_disagreements.py report FILE`` prints the tables of docs/analysis.md
("Where the two misses come from") from such a file.

Both rollouts are engines playing themselves, so each leans a little to its own choices; where
they agree, that is the answer a deeper look gives. Equities are the mover's, in EMG (+1 =
winning the cube's worth), as in the review's PR.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
DATA = Path("tests") / "engine" / "data" / "gnubg"
"""The matches, from the repository's root (gnubg runs this file without a ``__file__``)."""


def inside_gnubg() -> None:
    """Analyse at 2-ply, roll out the asked candidates, dump the analysis (run by gnubg)."""
    import gnubg

    command = gnubg.command
    command("set display off")
    command(f"import mat {os.environ['BIDAK_MAT']}")
    for part in ("chequerplay", "cubedecision"):
        command(f"set analysis {part} evaluation plies 2")
    command("analyse match")
    asked = json.loads(os.environ.get("BIDAK_ROLLOUTS", "[]"))
    emg: dict[str, dict[str, float]] = {}
    if asked:
        command(f"set rollout trials {os.environ['BIDAK_TRIALS']}")
        command("set rollout truncation enable off")
        command("set rollout cubeful on")
        command("set rollout seed 2026")
        for game, record, choices in asked:
            gnubg.navigate()
            if game:
                gnubg.navigate(game=game)
            if record:
                gnubg.navigate(next=record)
            board = gnubg.match(analysis=0)["games"][game]["game"][record]["board"]
            if gnubg.positionid() != board:
                raise SystemExit(f"navigation missed game {game} record {record}")
            command("analyse rollout move " + " ".join(str(i + 1) for i in choices))
            cube = gnubg.cubeinfo()  # the mover's, at this record
            moves = gnubg.match(analysis=1)["games"][game]["game"][record]["analysis"]["moves"]
            emg[f"{game}/{record}"] = {
                json.dumps(move["move"]): gnubg.mwc2eq(move["cubeful-eq"], cube)
                for move in moves
                if move.get("type") == "rollout"
            }
    match = gnubg.match(analysis=1, boards=1)
    match["bidak_rollouts"] = emg
    Path(os.environ["BIDAK_DUMP"]).write_text(json.dumps(match, default=str))


def run_gnubg(mat: Path, rollouts: list[tuple[int, int, list[int]]], trials: int) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "match.json"
        job = {
            "BIDAK_MAT": str(mat.resolve()),
            "BIDAK_DUMP": str(dump),
            "BIDAK_ROLLOUTS": json.dumps(rollouts),
            "BIDAK_TRIALS": str(trials),
        }
        subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(Path(sys.argv[0]).resolve())],
            env={**os.environ, **job},
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(dump.read_text())


def gnubg_records(match: Any) -> dict[tuple[int, str, tuple[int, int]], tuple[int, Any]]:
    """gnubg's checker-play records by (game, position ID, dice): (record index, record)."""
    found: dict[tuple[int, str, tuple[int, int]], tuple[int, Any]] = {}
    for game, entry in enumerate(match["games"]):
        for index, record in enumerate(entry["game"]):
            if record.get("action") != "move" or "analysis" not in record:
                continue
            dice = tuple(sorted(record["dice"], reverse=True))
            found[(game, record["board"], (dice[0], dice[1]))] = (index, record)
    return found


def _charges(decision: dict[str, Any], candidate: Any) -> dict[str, Any]:
    """A candidate's result (its position ID, the mover's view) and what each engine charges it."""
    return {
        "after": candidate.position_id,
        "bidak_loss": decision["_bidak_loss_of"][candidate],
        "gnubg_loss": decision["_gnubg_loss_of"].get(candidate),
    }


def _kept_rollouts(entry: Any, trials: int, sage_trials: int) -> dict[str, list[dict[str, Any]]]:
    """The rollouts of an earlier run of the same settings, by decision (gnubg ID): the
    candidates' own figures only, in the order the candidates come."""
    if not entry or (entry["trials"], entry["sage_trials"]) != (trials, sage_trials):
        return {}
    keep = ("roles", "gnubg_rollout", "bidak_rollout", "bidak_rollout_se")
    return {
        d["gnubg_id"]: [{k: c[k] for k in keep} for c in d["candidates"]] for d in entry["parted"]
    }


def rollout_charge(decision: dict[str, Any], engine: str) -> float | None:
    """What a rollout (``gnubg`` or ``bidak``) charges the play made: its best candidate's
    equity minus the played one's (None where it did not roll a candidate out)."""
    equities = [c[f"{engine}_rollout"] for c in decision["candidates"]]
    played = [c[f"{engine}_rollout"] for c in decision["candidates"] if "played" in c["roles"]]
    if None in equities or not played:
        return None
    return float(max(equities) - played[0])


ROLES = {"played": "the play made", "gnubg_best": "gnubg's", "bidak_best": "Bidak's"}


def _rollout_best(decision: dict[str, Any], engine: str) -> str:
    """Which candidate a rollout ranks first, by its roles (``gnubg's = Bidak's``)."""
    equities = [c[f"{engine}_rollout"] for c in decision["candidates"]]
    if None in equities:
        return "-"
    top = decision["candidates"][equities.index(max(equities))]
    return " = ".join(ROLES[role] for role in top["roles"])


def report(path: Path) -> str:
    """The Markdown table of every entry of a results file, and each player's totals."""
    lines: list[str] = []
    for name, entry in json.loads(path.read_text()).items():
        match, player = name.split("/")
        lines += [
            f"{match}, player {player}: {entry['unforced']} unforced plays, Bidak `3ply` charges "
            f"{entry['bidak_total']:.3f}, gnubg 2-ply {entry['gnubg_total']:.3f}; rollouts of "
            f"{entry['trials']} (gnubg) and {entry['sage_trials']} (bgsage) games",
            "",
            "| game | roll | gnubg ID | Bidak `3ply` | gnubg 2-ply | gnubg rollout "
            "| bgsage rollout | best by both rollouts |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        sums = [0.0, 0.0, 0.0, 0.0]
        for d in entry["parted"]:
            charges = [
                d["bidak_loss"],
                d["gnubg_loss"],
                rollout_charge(d, "gnubg"),
                rollout_charge(d, "bidak"),
            ]
            best = [_rollout_best(d, engine) for engine in ("gnubg", "bidak")]
            agreed = best[0] if best[0] == best[1] else f"gnubg: {best[0]}; bgsage: {best[1]}"
            cells = ["-" if c is None else f"{c:.3f}" for c in charges]
            for i, c in enumerate(charges):
                sums[i] += c or 0.0
            roll = "-".join(str(x) for x in d["dice"])
            lines.append(
                f"| {d['game']} | {roll} | `{d['gnubg_id']}` | "
                + " | ".join(cells)
                + f" | {agreed} |"
            )
        lines += ["| all | | | " + " | ".join(f"**{x:.3f}**" for x in sums) + " | |", ""]
        for engine, charged in (("gnubg's", sums[2]), ("bgsage's", sums[3])):
            mine = entry["bidak_total"] - sums[0] + charged
            theirs = entry["gnubg_total"] - sums[1] + charged
            lines.append(
                f"With these plays charged by {engine} rollout: Bidak {mine:.3f}, gnubg "
                f"{theirs:.3f} (Bidak / gnubg {mine / theirs:.2f}, from "
                f"{entry['bidak_total'] / entry['gnubg_total']:.2f})."
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from bidak.engine.context import context_for
    from bidak.engine.review_walk import CheckerSpot, played_play, state_ids, walk
    from bidak.engine.sage import Evaluator, Rollout
    from bidak.formats.mat import read_mat
    from bidak.formats.match_mat import mat_to_match
    from bidak.match import Player
    from bidak.rules import Position, find_play, legal_plays

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", required=True, help="a match of tests/engine/data/gnubg")
    parser.add_argument("--player", type=int, choices=(0, 1), required=True)
    parser.add_argument("--gap", type=float, default=0.01, help="EMG between the two charges")
    parser.add_argument("--trials", type=int, default=324, help="games a gnubg rollout")
    parser.add_argument("--sage-trials", type=int, default=1296, help="games a bgsage rollout")
    parser.add_argument("--most", type=int, default=8, help="plays rolled out, widest first")
    parser.add_argument("--out", type=Path, required=True, help="JSON file (entries merged)")
    parser.add_argument("--again", action="store_true", help="roll out what --out already has")
    if argv is None and sys.argv[1:2] == ["report"]:
        print(report(Path(sys.argv[2])))
        return 0
    args = parser.parse_args(argv)
    mat = DATA / f"{args.match}.mat"

    print(f"{args.match}, player {args.player}: gnubg analyses at 2-ply", flush=True)
    records = gnubg_records(run_gnubg(mat, [], args.trials))
    _, events = mat_to_match(read_mat(mat.read_text()))
    bidak = Evaluator("3ply")
    decisions: list[dict[str, Any]] = []
    game = -1
    for item in walk(events):
        if not isinstance(item, CheckerSpot):
            if getattr(item, "started", None) is not None:
                game += 1
            continue
        state = item.state
        if item.player is not Player(args.player) or state.dice is None:
            continue
        position, dice = state.position, state.dice
        if len(legal_plays(position, dice)) < 2:
            continue
        gnubg_id = state_ids(state)[0]
        key = (game, gnubg_id.split(":")[0], tuple(sorted(dice, reverse=True)))
        if key not in records:
            print(f"  not in gnubg's analysis: game {game + 1} {gnubg_id} {dice}", flush=True)
            continue
        index, record = records[key]
        context = context_for(state, item.player)
        played = played_play(item).result
        ranked = bidak.rank(position, dice, context)
        bidak_loss = {r.result: r.loss for r in ranked}
        moves = record["analysis"]["moves"]
        theirs: list[tuple[Position, float]] = []
        for move in moves:
            steps = [(int(a), int(b)) for a, b in move["move"]]
            theirs.append((find_play(position, dice, steps).result, float(move["score"])))
        gnubg_loss = {result: theirs[0][1] - score for result, score in theirs}
        if played not in gnubg_loss:
            print(f"  the play made is not in gnubg's list: game {game + 1} {gnubg_id}", flush=True)
            continue
        decisions.append(
            {
                "game": game + 1,
                "record": index,
                "gnubg_id": gnubg_id,
                "dice": list(dice),
                "context": {
                    "cube": context.cube,
                    "owner": context.owner.value,
                    "away": list(context.away),
                    "crawford": context.crawford,
                },
                "bidak_loss": bidak_loss[played],
                "gnubg_loss": gnubg_loss[played],
                "_played": played,
                "_bidak_loss_of": bidak_loss,
                "_gnubg_loss_of": gnubg_loss,
                "_bidak_best": ranked[0].result,
                "_gnubg_best": theirs[0][0],
                "_theirs": [result for result, _ in theirs],
                "_position": position,
                "_context": context,
            }
        )
    bidak_total = sum(d["bidak_loss"] for d in decisions)
    gnubg_total = sum(d["gnubg_loss"] for d in decisions)
    print(
        f"  {len(decisions)} unforced plays: Bidak 3ply charges {bidak_total:.3f}, "
        f"gnubg 2-ply {gnubg_total:.3f}",
        flush=True,
    )
    parted = [d for d in decisions if abs(d["bidak_loss"] - d["gnubg_loss"]) >= args.gap]
    parted.sort(key=lambda d: -abs(d["bidak_loss"] - d["gnubg_loss"]))
    parted = parted[: args.most]
    asked: list[tuple[int, int, list[int]]] = []
    for d in parted:
        wanted = [d["_played"], d["_gnubg_best"], d["_bidak_best"]]
        candidates = list(dict.fromkeys(wanted))
        d["_candidates"] = candidates
        choices = [d["_theirs"].index(c) for c in candidates if c in d["_theirs"]]
        asked.append((d["game"] - 1, d["record"], choices))
    out: dict[str, Any] = json.loads(args.out.read_text()) if args.out.exists() else {}
    name = f"{args.match}/{args.player}"
    kept = {} if args.again else _kept_rollouts(out.get(name), args.trials, args.sage_trials)
    asked = [a for a, d in zip(asked, parted, strict=True) if d["gnubg_id"] not in kept]
    print(f"  {len(parted)} plays parted by >= {args.gap}: {len(asked)} to roll out", flush=True)
    dumped = run_gnubg(mat, asked, args.trials) if asked else {"bidak_rollouts": {}}
    roller = Rollout("full", trials=args.sage_trials, seed=2026)
    names = {0: "played", 1: "gnubg_best", 2: "bidak_best"}
    for d in parted:
        position, context = d["_position"], d["_context"]
        if d["gnubg_id"] in kept:
            d["candidates"] = [
                {**c, **_charges(d, candidate)}
                for c, candidate in zip(kept[d["gnubg_id"]], d["_candidates"], strict=True)
            ]
            continue
        emg = dumped["bidak_rollouts"].get(f"{d['game'] - 1}/{d['record']}", {})
        by_result = {}
        for text, equity in emg.items():
            steps = [(int(a), int(b)) for a, b in json.loads(text)]
            by_result[find_play(position, tuple(d["dice"]), steps).result] = equity
        d["candidates"] = []
        for candidate in d["_candidates"]:
            roles = [
                names[i]
                for i, c in enumerate((d["_played"], d["_gnubg_best"], d["_bidak_best"]))
                if c == candidate
            ]
            equity, error = roller.equity_after(candidate, context)
            d["candidates"].append(
                {
                    "roles": roles,
                    **_charges(d, candidate),
                    "gnubg_rollout": by_result.get(candidate),
                    "bidak_rollout": equity,
                    "bidak_rollout_se": error,
                }
            )
            print(
                f"    game {d['game']} {d['gnubg_id']} {d['dice']} {roles}: {d['candidates'][-1]}",
                flush=True,
            )
    entry = {
        "trials": args.trials,
        "sage_trials": args.sage_trials,
        "unforced": len(decisions),
        "bidak_total": bidak_total,
        "gnubg_total": gnubg_total,
        "parted": [{k: v for k, v in d.items() if not k.startswith("_")} for d in parted],
    }
    out[name] = entry
    args.out.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    return 0


if "BIDAK_MAT" in os.environ:  # run by gnubg -p (whatever __name__ it gives)
    inside_gnubg()
elif __name__ == "__main__":
    sys.exit(main())
