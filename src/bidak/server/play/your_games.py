"""'Your games': every unfinished match of a player, live or correspondence, the ones waiting
on them first by time left (:func:`bidak.correspondence.waiting_first`), and the count of
those waiting on them (the header's badge); and a player's vacation, which stops their
correspondence clocks (docs/correspondence.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

from bidak.correspondence import Away, Game, remaining_days, waiting_first
from bidak.match import Phase, Player, decider, state_from_json
from bidak.server.play.corr_queries import Unfinished, unfinished, vacations
from bidak.server.play.room import RoomKind, bot_seat_name
from bidak.server.shared.store.db import Database


@dataclass(frozen=True, slots=True)
class YourGame(Game):
    """A game as its player's list shows it: ``board`` is the 24 points from the player's side
    (point 1 first; their checkers positive, the opponent's negative)."""

    match_id: str
    seat: int
    opponent_id: str | None
    bot: str | None
    """The opponent's name when a bot plays them (a practice match)."""
    score: tuple[int, int]
    length: int
    days_per_move: int | None
    board: tuple[int, ...]


def _game(row: Unfinished, player_id: str) -> YourGame:
    state = state_from_json(row.state)
    seat = Player.ZERO if row.seat0_id == player_id else Player.ONE
    who = decider(state)
    on_roll = Player.ZERO if state.turn is None else state.turn
    position = state.position if on_roll is seat else state.position.flipped()
    clock = row.deadline if row.deadline_version == row.version else None
    return YourGame(
        room=row.room,
        yours=who is seat and state.phase is not Phase.MATCH_OVER,
        deadline=clock,
        match_id=row.match_id,
        seat=int(seat),
        opponent_id=row.seat1_id if seat is Player.ZERO else row.seat0_id,
        bot=bot_seat_name(row.bot_level) if row.kind == RoomKind.PRACTICE else None,
        score=(state.score[seat], state.score[seat.opponent]),
        length=state.rules.length,
        days_per_move=row.days_per_move,
        board=tuple(position.points),
    )


async def your_games(db: Database, player_id: str, now: float) -> list[YourGame]:
    """The player's unfinished matches, waiting on them first, least time left first."""
    rows = await db.read(partial(unfinished, player_id=player_id))
    return waiting_first([_game(row, player_id) for row in rows], now)


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation as they see it: the one they are on (or booked), the days left."""

    current: Away | None
    days_left: float
    bank: int


async def vacation(db: Database, player_id: str, now: float, bank: int) -> Vacation:
    aways = await db.read(partial(vacations, player_id=player_id))
    current = next((a for a in aways if a.end > now), None)
    year = datetime.fromtimestamp(now, UTC).year
    return Vacation(current, remaining_days(aways, year, bank), bank)
