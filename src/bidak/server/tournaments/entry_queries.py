"""Entering tournaments: making one (within the caps on open ones), joining, pausing, checking
in for a knockout match. Each function runs inside the caller's ``Database.write``."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import insert_rows
from bidak.server.tournaments.step_queries import (
    ACTIVE,
    NOT_OVER,
    E,
    M,
    T,
    TournamentError,
    tournament_row,
)
from bidak.server.tournaments.tables import TournamentRow
from bidak.tournament.knockout import from_json

PLAYERS = cast(Table, PlayerRow.__table__)

OPEN_PER_PLAYER = 2
"""Tournaments a player may have made that are not over yet."""
OPEN_PER_SITE = 100
"""Players' tournaments not over yet, over the whole site (each is stepped every second)."""


def create(connection: Connection, row: TournamentRow) -> bool:
    """Store a new tournament; False (nothing stored) when a site arena of the same schedule
    slot is stored already. A player's tournament is refused (``too_many``) past
    :data:`OPEN_PER_PLAYER` of theirs or :data:`OPEN_PER_SITE` of all players' not over; the
    creator's row is locked first, so two at once from one player are counted in turn."""
    if row.creator_id is not None:
        connection.execute(
            select(PLAYERS.c.id).where(PLAYERS.c.id == row.creator_id).with_for_update()
        )
        players = select(func.count()).where(NOT_OVER, T.c.creator_id.is_not(None))
        mine = connection.execute(players.where(T.c.creator_id == row.creator_id)).scalar_one()
        if mine >= OPEN_PER_PLAYER:
            raise TournamentError(
                "too_many", f"You have {mine} tournaments not over yet; wait for one to end"
            )
        if connection.execute(players).scalar_one() >= OPEN_PER_SITE:
            raise TournamentError("too_many", "The site has all the tournaments it can run now")
    if row.schedule_key is not None:
        found = connection.execute(
            select(T.c.id).where(T.c.schedule_key == row.schedule_key)
        ).first()
        if found is not None:
            return False
    insert_rows(connection, [row])
    return True


def join(
    connection: Connection, tournament_id: str, player_id: str, rating: float, now: float
) -> None:
    """Enter the player (in an arena again: back from a pause). Refused when the tournament is
    over, a knockout has started, or it is full."""
    t = tournament_row(connection, tournament_id, lock=True)
    entrant = connection.execute(
        select(E.c.player_id).where(E.c.tournament_id == t.id, E.c.player_id == player_id)
    ).first()
    if entrant is not None:
        if t.kind == "arena":
            connection.execute(
                update(E)
                .where(E.c.tournament_id == t.id, E.c.player_id == player_id)
                .values(paused=False)
            )
        return
    if t.status not in ACTIVE or (t.kind == "arena" and t.ends_at is not None and now >= t.ends_at):
        raise TournamentError("over", "This tournament is over")
    if t.kind == "knockout" and t.status != "open":
        raise TournamentError("started", "This knockout has started; nobody can join now")
    count = connection.execute(
        select(func.count()).select_from(E).where(E.c.tournament_id == t.id)
    ).scalar_one()
    if count >= t.max_players:
        raise TournamentError("full", "This tournament is full")
    connection.execute(
        insert(E).values(
            tournament_id=t.id,
            player_id=player_id,
            rating=rating,
            joined_at=now,
            score=0,
            streak=0,
            wins=0,
            played=0,
            paused=False,
        )
    )


def set_paused(connection: Connection, tournament_id: str, player_id: str, paused: bool) -> None:
    """Pause (no new pairing; a match in play goes on) or come back."""
    t = tournament_row(connection, tournament_id)
    if t.kind != "arena":
        raise TournamentError("not_arena", "Only an arena can be paused")
    done = connection.execute(
        update(E)
        .where(E.c.tournament_id == tournament_id, E.c.player_id == player_id)
        .values(paused=paused)
    ).rowcount
    if not done:
        raise TournamentError("not_joined", "Join the tournament first")


def check_in(connection: Connection, tournament_id: str, player_id: str) -> tuple[str, bool] | None:
    """The player came to their knockout match of the current round: (its room, whether the
    opponent came too); None if they have no match to play now."""
    t = tournament_row(connection, tournament_id)
    if t.kind != "knockout" or t.status != "running" or t.bracket is None:
        return None
    number = from_json(t.bracket).current_round
    match = connection.execute(
        select(M).where(
            M.c.tournament_id == t.id,
            M.c.round == number,
            M.c.winner_id.is_(None),
            or_(M.c.seat0_id == player_id, M.c.seat1_id == player_id),
        )
    ).first()
    if match is None:
        return None
    connection.execute(
        update(E)
        .where(E.c.tournament_id == t.id, E.c.player_id == player_id)
        .values(ready_round=number)
    )
    other = match.seat1_id if match.seat0_id == player_id else match.seat0_id
    came = connection.execute(
        select(E.c.ready_round).where(E.c.tournament_id == t.id, E.c.player_id == other)
    ).scalar_one_or_none()
    return match.room_code, came == number
