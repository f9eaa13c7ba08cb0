"""Have GNU Backgammon play and analyse matches, to check Bidak's PR against gnubg's figures.

    apt-get install -y gnubg          # Debian's gnubg 1.07, with its embedded Python
    python3 scripts/gnubg_matches.py --out tests/engine/data/gnubg

For each match in ``MATCHES`` (or ``--only NAME``) this runs ``gnubg -t -q -r -p`` on this same
file: inside gnubg it sets both seats to gnubg at the two levels named, plays a seeded match,
exports it as ``NAME.mat``, analyses it at each ``--plies`` depth (gnubg's counting: 2-ply is
Bidak's ``3ply``) and prints the match statistics. Outside gnubg it reads those statistics and
writes ``NAME.gnubg.txt`` (gnubg's own text, trimmed to the overall figures) and adds the
figures to ``gnubg.json``: per analysis depth and player, the unforced moves, the close or actual
cube decisions, the error totals (EMG) and the error rate per decision (mEMG).

gnubg's levels here are its named settings: ``beginner``, ``intermediate`` and ``advanced`` are
0-ply with noise 0.060, 0.040 and 0.015; ``expert`` is 0-ply without noise; ``worldclass`` is
2-ply. Moves gnubg made at a depth are not re-judged by an analysis at the same depth, so a
``worldclass`` player analysed at 2-ply shows no checker error by construction.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

LEVELS: dict[str, tuple[int, float]] = {
    "beginner": (0, 0.060),
    "intermediate": (0, 0.040),
    "advanced": (0, 0.015),
    "expert": (0, 0.0),
    "worldclass": (2, 0.0),
}

# name: (seed, length, level of player 0, level of player 1)
MATCHES: dict[str, tuple[int, int, str, str]] = {
    "beginner-expert": (101, 5, "beginner", "expert"),
    "beginner-intermediate": (201, 5, "beginner", "intermediate"),
    "intermediate-advanced": (202, 5, "intermediate", "advanced"),
    "advanced-expert": (203, 5, "advanced", "expert"),
    "expert-expert": (204, 5, "expert", "expert"),
    "expert-worldclass": (205, 5, "expert", "worldclass"),
    "advanced-advanced": (206, 5, "advanced", "advanced"),
    "intermediate-expert": (301, 3, "intermediate", "expert"),
    "intermediate-intermediate": (302, 3, "intermediate", "intermediate"),
}

MARK = "=== BIDAK ANALYSIS "


def inside_gnubg() -> None:
    """Play, export and analyse one match (run by gnubg; the job comes in the environment)."""
    import gnubg  # type: ignore[import-not-found]

    command = gnubg.command
    seed, length = os.environ["BIDAK_SEED"], os.environ["BIDAK_LENGTH"]
    levels = os.environ["BIDAK_LEVELS"].split(",")
    out = os.environ["BIDAK_OUT"]
    for setting in ("rng mersenne", f"seed {seed}", "display off", "automatic game on"):
        command("set " + setting)
    command("set automatic roll on")
    for seat, name in enumerate(levels):
        command(f"set player {seat} gnubg")
        plies, noise = LEVELS[name]
        for part in ("chequerplay", "cubedecision"):
            command(f"set player {seat} {part} evaluation plies {plies}")
            command(f"set player {seat} {part} evaluation noise {noise}")
            command(f"set player {seat} {part} evaluation deterministic on")
    command(f"new match {length}")  # both seats are gnubg: the match plays to its end
    for seat, name in enumerate(levels):
        command(f"set player {seat} name {name}{seat}")
    command(f"export match mat {out}")
    for plies in os.environ["BIDAK_PLIES"].split(","):
        for part in ("chequerplay", "cubedecision"):
            command(f"set analysis {part} evaluation plies {plies}")
        print(f"{MARK}{plies}-ply", flush=True)
        command("analyse match")
        command("show statistics match")


FIGURES = {
    "Unforced moves": "unforced_moves",
    "Close or actual cube decisions": "close_cube_decisions",
}
ERRORS = re.compile(
    r"(Error total EMG|Error rate mEMG) \(MWC\)\s+(-?[\d.]+)\s+\(.*?\)\s+(-?[\d.]+)"
)


def read_statistics(text: str) -> tuple[dict[str, list[dict[str, float]]], str]:
    """gnubg's figures per analysis depth and player, and the trimmed statistics text."""
    found: dict[str, list[dict[str, float]]] = {}
    kept: list[str] = []
    for block in text.split(MARK)[1:]:
        plies = block.split("-ply")[0]
        players: list[dict[str, float]] = [{}, {}]
        section = ""
        kept.append(f"gnubg analysis at {plies}-ply")
        for line in block.splitlines():
            words = line.split()
            if line.endswith("statistics") and len(words) == 2:
                section = words[0].lower()
                kept.append(line)
            for label, key in FIGURES.items():
                if line.startswith(label):
                    counts = line[len(label) :].split()
                    for seat in (0, 1):
                        players[seat][key] = int(counts[seat])
                    kept.append(line)
            match = ERRORS.match(line)
            if match and section in ("chequerplay", "cube", "overall"):
                key = "error_total_emg" if "total" in match.group(1) else "error_rate_memg"
                for seat in (0, 1):
                    players[seat][f"{section}_{key}"] = abs(float(match.group(2 + seat)))
                kept.append(line)
            if line.startswith("Player "):
                kept.append(line)
        found[f"{plies}-ply"] = players
    return found, "\n".join(kept) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the files")
    parser.add_argument("--only", action="append", help="a name of MATCHES (repeatable)")
    parser.add_argument("--plies", default="2", help="analysis depths, gnubg's counting: 1,2")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    index = args.out / "gnubg.json"
    figures = json.loads(index.read_text()) if index.exists() else {}
    for name in args.only or list(MATCHES):
        seed, length, first, second = MATCHES[name]
        mat = args.out / f"{name}.mat"
        job = {
            "BIDAK_SEED": str(seed),
            "BIDAK_LENGTH": str(length),
            "BIDAK_LEVELS": f"{first},{second}",
            "BIDAK_PLIES": args.plies,
            "BIDAK_OUT": str(mat.resolve()),
        }
        print(f"{name}: gnubg {first} vs {second}, {length} points, seed {seed}", flush=True)
        run = subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(Path(__file__).resolve())],
            env={**os.environ, **job},
            capture_output=True,
            text=True,
            check=True,
        )
        stats, text = read_statistics(run.stdout)
        (args.out / f"{name}.gnubg.txt").write_text(text)
        figures[name] = {
            "seed": seed,
            "length": length,
            "levels": [first, second],
            "gnubg": "1.07.001",
            "analysis": stats,
        }
        index.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
        for plies, players in stats.items():
            rates = [player["overall_error_rate_memg"] for player in players]
            print(f"  {plies}: error rate mEMG {rates}", flush=True)
    return 0


if "BIDAK_SEED" in os.environ:  # run by gnubg -p (whatever __name__ it gives)
    inside_gnubg()
elif __name__ == "__main__":
    sys.exit(main())
