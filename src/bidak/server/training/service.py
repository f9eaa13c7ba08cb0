"""Training's use cases: cards from a reviewed match, the daily drill and its figures.

A card is taken from a review's decision (:func:`bidak.training.bankable`) with what the drill
needs to grade any answer: for a checker play the engine's ranking of every legal play (at the
review's depth, on the analysis pool), for a cube decision the review's three equities.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from bidak.engine.hints import play_hint
from bidak.engine.sage import Context, CubeOwner
from bidak.formats.ids import IdState, read_any_id
from bidak.match import played_steps
from bidak.rules import Position, legal_plays
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.db import Database, KeyTaken
from bidak.server.training import queries
from bidak.server.training.pictures import Pictures
from bidak.server.training.schedule import answered, new_schedule
from bidak.training import (
    Board,
    Grade,
    bankable,
    checker_theme,
    cube_loss,
    cube_theme,
    grade,
    loss_of_play,
    phase_of,
    streak,
)

T = TypeVar("T")
log = logging.getLogger(__name__)
Run = Callable[[Callable[[], T]], Awaitable[T]]
STREAK_DAYS = 400
"""How far back the streak is counted."""

_OWNERS = {"centred": CubeOwner.CENTRED, "on roll": CubeOwner.MOVER, "opponent": CubeOwner.OPPONENT}


class NoSuchCard(Exception):
    """The card is not the player's, or there is none."""


class BadAnswer(Exception):
    """The answer does not fit the card (a play that is not legal, a cube answer to a play)."""


def context_of(state: IdState) -> Context:
    """The engine context of an ID's state: money without a match, else the away scores."""
    owner = _OWNERS[state.cube_owner]
    if not state.length:
        return Context(state.cube, owner)
    mine, theirs = state.score or (0, 0)
    return Context(state.cube, owner, (state.length - mine, state.length - theirs), state.crawford)


def board_of(position: Position) -> Board:
    return Board(position.points, (position.bar.mover, position.bar.opponent))


def card_of(decision: Mapping[str, Any], ply: str) -> dict[str, Any]:
    """The card's stored fields for one review decision (runs the engine for a checker play).

    Its ``depth`` is the ply the decision was ranked at: a race's play in a ``2ply`` review at
    ``3ply`` (:func:`bidak.engine.hints.play_ply`), so a card banked before races were (a 2-ply
    ranking that could call the backgammon-saving play a blunder) takes the new figures when
    its match is reviewed again (:func:`bidak.server.training.queries.bank`)."""
    state = read_any_id(decision["xgid"])
    board = board_of(state.position)
    turn = int(decision["turn"])
    depth = int(ply[0])
    analysis: dict[str, Any]
    if decision["kind"] == "checker":
        dice = (int(decision["dice"][0]), int(decision["dice"][1]))
        hint = play_hint(state.position, dice, context_of(state), ply)
        depth = int(hint.ply[0])
        analysis = {
            "dice": list(dice),
            "ranking": [
                {"result": c.play.result.position_id, "notation": c.notation, "loss": c.loss}
                for c in hint.candidates
            ],
        }
        hits = any(step[2] for step in played_steps(hint.best.play))
        theme = checker_theme(board, turn, hits)
    else:
        analysis = {
            "decider": "taker" if decision["played"] in ("take", "drop") else "doubler",
            "no_double": decision["no_double"],
            "double_take": decision["double_take"],
            "double_pass": decision["double_pass"],
        }
        theme = cube_theme(decision)
    return {
        "game": int(decision["game"]),
        "turn": turn,
        "kind": decision["kind"],
        "seat": int(decision["player"]),
        "xgid": decision["xgid"],
        "played": decision["played"],
        "best": decision["best"],
        "loss": float(decision["loss"]),
        "depth": depth,
        "phase": phase_of(board, turn).value,
        "theme": theme.value,
        "analysis": analysis,
    }


async def bank_review(
    db: Database,
    run: Run[list[dict[str, Any]]],
    now: float,
    match_id: str,
    review: Mapping[str, Any],
    people: Mapping[int, str],
    ply: str,
) -> int:
    """Bank the cards of a finished match's review for the people at its seats (``people``:
    seat -> player id; bots have none). ``run`` runs the engine's work off the event loop (the
    reviews' pool). Returns how many cards are new: a second review of the match adds none."""
    decisions = [d for game in review["games"] for d in game["decisions"]]
    chosen = bankable(decisions, people.keys())
    if not chosen:
        return 0
    fields = await run(lambda: [card_of(decision, ply) for decision in chosen])
    schedule, due = new_schedule(now)
    cards = [
        {
            **card,
            "player_id": people[card["seat"]],
            "match_id": match_id,
            "schedule": schedule,
            "due": due,
            "created_at": now,
        }
        for card in fields
    ]
    try:
        return await db.write_keyed(partial(queries.bank, cards=cards))
    except KeyTaken:  # a twin review banked some first: this run finds them
        return await db.write_keyed(partial(queries.bank, cards=cards))


def day_of(now: float) -> date:
    return datetime.fromtimestamp(now, UTC).date()


@dataclass(frozen=True)
class Verdict:
    """What an answer gave up, its grade, the engine's best, and when the card comes back."""

    loss: float
    grade: Grade
    best: str
    played: str
    due: float


class Training:
    """The daily drill of one site: next card, answers, and the lobby's figures."""

    def __init__(self, db: Database, clock: Clock) -> None:
        from bidak.server.training.puzzles import Puzzles  # it uses this module's judging

        self.db = db
        self.clock = clock
        self.puzzles = Puzzles(db, clock)
        """Puzzles from every player's cards (:mod:`bidak.server.training.puzzles`)."""
        self.pictures = Pictures()
        """The share pictures this process drew (:mod:`bidak.server.training.pictures`)."""
        self._banking: set[asyncio.Task[int]] = set()

    def bank_later(self, banking: Awaitable[int]) -> None:
        """Bank a review's cards after its answer is sent (the engine ranks each checker card:
        about a third of a second at 2ply); a failure is logged, the review stands."""

        async def run() -> int:
            try:
                return await banking
            except Exception:
                log.exception("banking a review's training cards failed")
                return 0

        task = asyncio.ensure_future(run())
        self._banking.add(task)
        task.add_done_callback(self._banking.discard)

    async def settle(self) -> None:
        """Wait for the banking under way (tests; the app's shutdown, before the database)."""
        while self._banking:
            await asyncio.gather(*self._banking)

    async def summary(self, player_id: str) -> dict[str, int]:
        """Cards due now (the ones the drill would show, so the count falls as they are
        answered), all cards, and the streak."""
        now = self.clock.now()
        today = day_of(now)
        due, total = await self.db.read(partial(queries.counts, player_id=player_id, until=now))
        since = (today - timedelta(days=STREAK_DAYS)).isoformat()
        days = await self.db.read(partial(queries.drill_days, player_id=player_id, since=since))
        return {
            "due": due,
            "cards": total,
            "streak": streak([date.fromisoformat(d) for d in days], today),
        }

    async def next_card(self, player_id: str) -> dict[str, Any] | None:
        """The card to drill now, as the client draws it, or ``None`` when none is due."""
        row = await self.db.read(
            partial(queries.next_due, player_id=player_id, now=self.clock.now())
        )
        return None if row is None else drill_view(row)

    async def answer(self, player_id: str, card_id: int, answer: Mapping[str, Any]) -> Verdict:
        """Grade an answer by the equity it gave up and reschedule the card."""
        row = await self.db.read(partial(queries.card, player_id=player_id, card_id=card_id))
        if row is None:
            raise NoSuchCard("There is no such card")
        loss = loss_of(row, answer)
        mark = grade(loss)
        now = self.clock.now()
        schedule, due = answered(row.schedule, mark, now)
        await self.db.write(
            partial(
                queries.answer,
                card_id=card_id,
                player_id=player_id,
                schedule=schedule,
                due=due,
                at=now,
                day=day_of(now).isoformat(),
                loss=loss,
                grade=int(mark),
            )
        )
        return Verdict(loss, mark, row.best, row.played, due)


def loss_of(row: Any, answer: Mapping[str, Any]) -> float:
    """The equity ``answer`` gives up on the card ``row``."""
    analysis = row.analysis
    if row.kind == "checker":
        if answer.get("type") != "play":
            raise BadAnswer("This card asks for a play")
        loss = loss_of_play(analysis["ranking"], str(answer.get("result", "")))
        if loss is None:
            raise BadAnswer("That is not a legal play of this roll")
        return max(loss, 0.0)
    choice = answer.get("choice")
    allowed = ("take", "drop") if analysis["decider"] == "taker" else ("double", "no_double")
    if answer.get("type") != "cube" or choice not in allowed:
        raise BadAnswer(f"This card asks for one of: {', '.join(allowed)}")
    found = cube_loss(
        analysis["decider"],
        str(choice),
        analysis["no_double"],
        analysis["double_take"],
        analysis["double_pass"],
    )
    return max(found, 0.0)


def drill_view(row: Any) -> dict[str, Any]:
    """A card as the drill shows it: the position, the question and the legal plays (the board
    lets only those be made); never the answer."""
    view: dict[str, Any] = {
        "id": row.id,
        "kind": row.kind,
        "seat": row.seat,
        "xgid": row.xgid,
        "phase": row.phase,
        "theme": row.theme,
        "match_id": row.match_id,
    }
    if row.kind == "checker":
        state = read_any_id(row.xgid)
        dice = tuple(row.analysis["dice"])
        view["dice"] = list(dice)
        view["legal_plays"] = plays_of(state.position, (dice[0], dice[1]))
    else:
        view["decider"] = row.analysis["decider"]
    return view


def plays_of(position: Position, dice: tuple[int, int]) -> list[dict[str, Any]]:
    """Each legal play with its steps (the mover's numbering: 25 the bar, 0 off) and the
    position it reaches, which is what an answer names."""
    return [
        {
            "steps": [list(step) for step in played_steps(play)],
            "notation": str(play),
            "result": play.result.position_id,
        }
        for play in legal_plays(position, dice)
    ]


__all__ = ["BadAnswer", "NoSuchCard", "Training", "Verdict", "bank_review"]
