"""The one place GNU Backgammon runs: a small process the gnubg duel talks to over pipes.

Run as ``python -m bidak.bench.gnubg_worker``; never imported by Bidak's own modules (the
``gnubg`` package is GPL and its native bindings can crash or hang, so it stays at arm's length,
in a process of its own that the bench restarts or abandons). One JSON request a line on stdin,
one JSON answer a line on stdout:

- ``{"op": "move", "id": POSITION_ID, "dice": [a, b], "ply": 2}`` -> ``{"flat": [s, e, ...]}``:
  gnubg's best play of the player on roll as its bindings give it (start, end of one die each,
  25 the bar; the list stops at the first checker borne off, whose end is left out), at that
  ply with gnubg's own move filters and pruning nets, without noise: at 2-ply this is its
  "World Class". Cubeless money unless the request carries a ``"match"`` (below): then the
  play is gnubg's cubeful choice at that score and cube.
- ``{"op": "equity", "id": POSITION_ID, "ply": 3}`` -> ``{"equity": e}``: the cubeless money
  equity of the player on roll (gammons counted), for judging plays afterwards.
- ``{"op": "cube", "id": ..., "ply": 2, "match": MATCH}`` -> ``{"nd": .., "dt": .., "dp": ..,
  "double": bool, "take": bool}``: the cube decision of the player on roll, before rolling.
- ``{"op": "value", "id": ..., "ply": 3, "match": MATCH}`` -> ``{"mwc": m}``: the match-winning
  chance of the player on roll before rolling, the cube used as gnubg would (judging plays).
- ``{"op": "won", "points": k, "match": MATCH}`` -> ``{"mwc": m}``: the match-winning chance of
  the player on roll after winning ``k`` times the cube now (a play that ends the game).
- ``{"op": "version"}`` -> ``{"version": "..."}``.

``MATCH`` is ``{"length": L, "score": [mine, theirs], "cube": c, "owner": o, "crawford": b}``,
seen by the player on roll: ``o`` is 1 when that player owns the cube, 0 when the opponent does,
-1 when it is centred; ``b`` says whether this game is the Crawford game.

**What the bindings give, and the cube.** ``gnubg.evaluate(board, cubeinfo, evalcontext)``
returns gnubg's outputs 0 to 5 only: the five cubeless chances and ``OUTPUT_EQUITY``, the
*cubeless* equity (in a match, normalised with the gammon prices of the score and cube),
whatever the context: at 2-ply and deeper a cubeful context only changes the plays chosen
inside the search, moving it in the fourth decimal. gnubg's cubeful equity (its output 6, a
match-winning chance in match play) is computed but dropped, and ``gnubg.hint()`` refuses cube
actions. The scores of ``gnubg.findbestmoves`` are cubeful with a cubeful context: each is the
mover's equity after the play, normalised to the cube in the ``cubeinfo`` passed (so
``gnubg.eq2mwc(score, cubeinfo)`` is the mover's match-winning chance), with the opponent
then on roll *and free to double* (a position the opponent cashes scores -1 with the cube
centred, a little better than cubeless when the mover owns it). So the cube comes from them:

- ``ND``, no double: the mean over the 36 rolls of the match-winning chance after the roll's
  best play, the cube as it is, the plays found and scored by ``findbestmoves`` at
  ``ply - 1`` (gnubg's own cubeful evaluation at ``ply`` likewise averages the 21 rolls one
  ply down, though its pick of each roll's play may differ; at ply 0 the plays are scored at
  0-ply, so a 0-ply cube decision is in fact a 1-ply one);
- ``DT``, double/take: the same mean with the cube doubled and owned by the opponent;
- ``DP``, double/pass: winning the cube's value now, ``eq2mwc(1.0, cubeinfo)`` (the match
  equity table at the score after the win; 1.0 when it wins the match).

gnubg doubles when it may (its ``GetDPEq``: not the Crawford game, the cube centred or its own, a
win at the present cube not already enough for the match, not the leader after Crawford) and
``min(DT, DP) > ND``; it takes when ``DT <= DP`` (a take leaves the taker ``1 - DT``, a pass
``1 - DP``). A roll with no legal play (a dance) leaves the same position to the opponent: its
value is one minus the opponent's ``value`` (``max(ND, min(DT, DP))`` where the opponent may
double, else ``ND``) at the depth the plays are scored at, looked through twice in a row at
most, then gnubg's cubeless match-winning chance stands in. All figures are match-winning
chances of the player on roll.

A request gnubg cannot answer gets ``{"error": "..."}``; the worker keeps going.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from typing import Any, NamedTuple

gnubg: Any = None
"""The ``gnubg`` module, imported when the worker starts (:func:`main`), not when this module is
imported: the suite's doctest collection and the import checks read it without gnubg."""

ROLLS = tuple(((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 rolls and their weight out of 36."""

DANCES = 2
"""Dances in a row looked through before a cubeless figure stands in."""


def _context(ply: int, cubeful: bool = False) -> Any:
    # ``ply`` plies, deterministic, pruning nets on, no noise
    return gnubg.evalcontext(int(cubeful), max(0, min(4, int(ply))), 1, 1, 0.0)


_MONEY = None


def _money() -> Any:
    global _MONEY
    if _MONEY is None:
        # cube 1, centred, player 1 on roll (gnubg's boards put the player on roll second),
        # money (match length 0)
        _MONEY = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0)
    return _MONEY


class Cube(NamedTuple):
    """The match and cube seen by the player on roll, who is gnubg's player 1."""

    length: int
    mine: int
    theirs: int
    value: int
    owner: int
    crawford: bool

    @classmethod
    def of(cls, match: dict[str, Any]) -> Cube:
        mine, theirs = (int(points) for points in match["score"])
        owner = int(match["owner"])
        if owner not in (-1, 0, 1):
            raise ValueError(f"cube owner {owner} is not -1, 0 or 1")
        return cls(
            int(match["length"]), mine, theirs, int(match["cube"]), owner, bool(match["crawford"])
        )

    def swapped(self) -> Cube:
        """The same match seen by the opponent."""
        owner = self.owner if self.owner < 0 else 1 - self.owner
        return Cube(self.length, self.theirs, self.mine, self.value, owner, self.crawford)

    def doubled(self) -> Cube:
        return self._replace(value=2 * self.value, owner=0)

    def info(self) -> Any:
        return _cubeinfo(self)

    def may_double(self) -> bool:
        """gnubg's ``GetDPEq`` for match play: whether the player on roll has a live cube."""
        post_crawford = not self.crawford and self.length - 1 in (self.mine, self.theirs)
        return (
            not self.crawford
            and self.owner != 0
            and self.mine + self.value < self.length
            and not (post_crawford and self.mine == self.length - 1)
        )


@cache
def _cubeinfo(cube: Cube) -> Any:
    return gnubg.cubeinfo(
        cube.value, cube.owner, 1, cube.length, (cube.theirs, cube.mine), int(cube.crawford)
    )


def _swap(board: Any) -> Any:
    return (board[1], board[0])


def _after(board: Any, cube: Cube, dice: tuple[int, int], plies: int, dances: int) -> float:
    """The roller's match-winning chance after the best play of ``dice``, scored at ``plies``."""
    moves = gnubg.findbestmoves(board, cube.info(), _context(plies, cubeful=True), dice)
    if moves:
        return float(gnubg.eq2mwc(float(moves[0]["score"]), cube.info()))
    return 1.0 - value(_swap(board), cube.swapped(), plies, dances - 1)


def _mean(board: Any, cube: Cube, plies: int, dances: int) -> float:
    return sum(w * _after(board, cube, dice, plies, dances) for dice, w in ROLLS) / 36


def verdict(board: Any, cube: Cube, ply: int, dances: int = DANCES) -> dict[str, Any]:
    """ND, DT, DP and gnubg's double and take, at ``ply`` (module docstring)."""
    plies = max(0, ply - 1)
    nd = _mean(board, cube, plies, dances)
    dt = _mean(board, cube.doubled(), plies, dances)
    dp = float(gnubg.eq2mwc(1.0, cube.info()))
    return {
        "nd": nd,
        "dt": dt,
        "dp": dp,
        "double": cube.may_double() and min(dt, dp) > nd,
        "take": dt <= dp,
    }


def value(board: Any, cube: Cube, ply: int, dances: int = DANCES) -> float:
    """The match-winning chance of the player on roll, the cube used as gnubg would."""
    if dances < 0:
        cubeless = gnubg.evaluate(board, cube.info(), _context(max(0, ply - 1)))
        return float(gnubg.eq2mwc(float(cubeless[5]), cube.info()))
    plies = max(0, ply - 1)
    nd = _mean(board, cube, plies, dances)
    if not cube.may_double():
        return nd
    dt = _mean(board, cube.doubled(), plies, dances)
    return max(nd, min(dt, float(gnubg.eq2mwc(1.0, cube.info()))))


_ANSWERS: dict[str, dict[str, Any]] = {}
"""Answers already given (every op is deterministic): a double asked of gnubg and then its
answer, or the same state judged twice, cost one evaluation."""


def answer(request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "version":
        return {"version": str(gnubg.__version__)}
    key = json.dumps(request, sort_keys=True)
    if key not in _ANSWERS:
        if len(_ANSWERS) > 100_000:
            _ANSWERS.clear()
        _ANSWERS[key] = _compute(op, request)
    return _ANSWERS[key]


def _compute(op: object, request: dict[str, Any]) -> dict[str, Any]:
    match = request.get("match")
    cube = Cube.of(match) if match is not None else None
    if op == "won":
        assert cube is not None, "won needs a match"
        won = cube._replace(value=cube.value * int(request["points"]))
        return {"mwc": float(gnubg.eq2mwc(1.0, won.info()))}
    board = gnubg.positionfromid(str(request["id"]))
    ply = int(request.get("ply", 2))
    if op == "move":
        a, b = (int(d) for d in request["dice"])
        if cube is None:
            found = gnubg.findbestmove(board, _money(), _context(ply), (a, b))
        else:
            found = gnubg.findbestmove(board, cube.info(), _context(ply, cubeful=True), (a, b))
        return {"flat": [int(point) for point in found]}
    if op == "equity":
        return {"equity": float(gnubg.evaluate(board, _money(), _context(ply))[5])}
    if op in ("cube", "value"):
        assert cube is not None, f"{op} needs a match"
        return verdict(board, cube, ply) if op == "cube" else {"mwc": value(board, cube, ply)}
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
