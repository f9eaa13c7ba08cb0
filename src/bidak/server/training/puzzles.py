"""Puzzles' use cases: the solver's figures, the next puzzle near their rating, an answer judged
and rated (Glicko-2, :mod:`bidak.training.puzzles`), and the sharing switch.

A puzzle is shown without anything that says whose match it came from: the position, the
question, the legal plays and the puzzle's rating.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from bidak.formats.ids import read_any_id
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.db import Database, KeyTaken
from bidak.server.training import puzzle_queries
from bidak.server.training.service import NoSuchCard, loss_of, plays_of


class Puzzles:
    """Puzzles from reviewed matches across the site, for every solver."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def summary(self, player_id: str) -> dict[str, Any]:
        """The solver's rating and answers, the sharing switch, and puzzles left per theme."""
        return await self.db.read(partial(puzzle_queries.summary, player_id=player_id))

    async def next_puzzle(self, player_id: str, theme: str | None) -> dict[str, Any] | None:
        """The puzzle for the solver now: nearest their rating, in ``theme`` if given, one they
        have not answered; ``None`` when there is none left."""

        def work(connection: Any) -> Any:
            me = puzzle_queries.solver(connection, player_id)
            rating = me.puzzle_rating if me else 1500.0
            return puzzle_queries.next_puzzle(connection, player_id, theme, rating)

        row = await self.db.read(work)
        return None if row is None else puzzle_view(row)

    async def answer(
        self, player_id: str, puzzle_id: int, answer: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Judge the answer and move both ratings, once: a retry answers with the first verdict.
        :class:`NoSuchCard` for no such puzzle; ``BadAnswer`` for an answer that does not fit."""

        def judge(row: Any) -> tuple[str, float]:
            loss = loss_of(row, answer)
            given = answer.get("result") if row.kind == "checker" else answer.get("choice")
            return str(given), loss

        work = partial(
            puzzle_queries.answer,
            player_id=player_id,
            puzzle_id=puzzle_id,
            judge=judge,
            at=self.clock.now(),
        )
        try:
            found = await self.db.write_keyed(work)
        except KeyTaken:  # a twin of this answer stored first: answer with what it stored
            found = await self.db.read(
                partial(puzzle_queries.stored_verdict, player_id=player_id, puzzle_id=puzzle_id)
            )
        if found is None:
            raise NoSuchCard("There is no such puzzle")
        return found

    async def share(self, player_id: str, shared: bool) -> None:
        """Switch the player's contribution to the puzzles on or off (off removes theirs)."""
        await self.db.write(partial(puzzle_queries.share, player_id=player_id, shared=shared))


def puzzle_view(row: Any) -> dict[str, Any]:
    """A puzzle as the client draws it: never its answer, nor whose match it came from."""
    view: dict[str, Any] = {
        "id": row.id,
        "kind": row.kind,
        "seat": row.seat,
        "xgid": row.xgid,
        "phase": row.phase,
        "theme": row.theme,
        "rating": round(row.rating),
    }
    if row.kind == "checker":
        dice = tuple(row.analysis["dice"])
        view["dice"] = list(dice)
        view["legal_plays"] = plays_of(read_any_id(row.xgid).position, (dice[0], dice[1]))
    else:
        view["decider"] = row.analysis["decider"]
    return view
