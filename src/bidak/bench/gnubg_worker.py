"""The one place GNU Backgammon runs: a small process the gnubg duel talks to over pipes.

Run as ``python -m bidak.bench.gnubg_worker``; never imported by Bidak's own modules (the
``gnubg`` package is GPL and its native bindings can crash or hang, so it stays at arm's length,
in a process of its own that the bench restarts or abandons). One JSON request a line on stdin,
one JSON answer a line on stdout:

- ``{"op": "move", "id": POSITION_ID, "dice": [a, b], "ply": 2}`` -> ``{"flat": [s, e, ...]}``:
  gnubg's best cubeless money play of the player on roll as its bindings give it (start, end
  of one die each, 25 the bar; the list stops at the first checker borne off, whose end is
  left out), at that ply with gnubg's own move filters and pruning nets, without noise: at
  2-ply this is its "World Class".
- ``{"op": "equity", "id": POSITION_ID, "ply": 3}`` -> ``{"equity": e}``: the cubeless money
  equity of the player on roll (gammons counted), for judging plays afterwards.
- ``{"op": "version"}`` -> ``{"version": "..."}``.

A request gnubg cannot answer gets ``{"error": "..."}``; the worker keeps going.
"""

from __future__ import annotations

import json
import sys
from typing import Any

gnubg: Any = None
"""The ``gnubg`` module, imported when the worker starts (:func:`main`), not when this module is
imported: the suite's doctest collection and the import checks read it without gnubg."""


def _context(ply: int) -> Any:
    # cubeless, ``ply`` plies, deterministic, pruning nets on, no noise
    return gnubg.evalcontext(0, max(0, min(4, int(ply))), 1, 1, 0.0)


_MONEY = None


def _money() -> Any:
    global _MONEY
    if _MONEY is None:
        # cube 1, centred, player 1 on roll (gnubg's boards put the player on roll second),
        # money (match length 0)
        _MONEY = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0)
    return _MONEY


def answer(request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "version":
        return {"version": str(gnubg.__version__)}
    board = gnubg.positionfromid(str(request["id"]))
    ply = int(request.get("ply", 2))
    if op == "move":
        a, b = (int(d) for d in request["dice"])
        found = gnubg.findbestmove(board, _money(), _context(ply), (a, b))
        return {"flat": [int(point) for point in found]}
    if op == "equity":
        return {"equity": float(gnubg.evaluate(board, _money(), _context(ply))[5])}
    return {"error": f"unknown op {op!r}"}


def main() -> None:
    global gnubg
    import gnubg as engine  # the only import of gnubg in Bidak (tests/test_layers.py holds it)

    gnubg = engine
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as failed:  # an answer for every question; the bench decides
            reply = {"error": repr(failed)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
