"""Tournaments' transactions (each inside ``Database.write``) and reads.

:func:`step` is the one transaction that moves a tournament on: it first takes or renews the
tournament's lease with one conditional update (so of two processes exactly one holds it, and a
holder that lost it changes nothing), then records the matches that ended (a result is written
with its match marked decided, so it counts once), and plans the next matches (their rows, with
the room codes to make, before any room exists: a process that dies after the commit leaves a
plan the next holder carries out). The grace of a match waiting for its players is in
:mod:`.grace_queries`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

from sqlalchemy import Table, and_, func, or_, select, update
from sqlalchemy.engine import Connection

from bidak.server.play.tables import RatedMatchRow, UnratedMatchRow
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import insert_rows
from bidak.server.tournaments.grace_queries import arena_absences, knockout_grace
from bidak.server.tournaments.step_queries import (
    ACTIVE,
    NOT_OVER,
    ROOMS,
    E,
    M,
    Step,
    T,
    TournamentError,
    arena_entrant,
    decide,
    save_entrant,
    tournament_row,
)
from bidak.server.tournaments.tables import TournamentMatchRow

__all__ = ["ACTIVE", "TournamentError"]  # the tournaments' refusal, as the rest imports it
from bidak.tournament import (
    Bracket,
    arena_pairs,
    forfeit_absent,
    length_of_round,
    new_bracket,
    record_result,
)
from bidak.tournament.knockout import advance, from_json, to_json

_T, _E, _M, _ROOMS = T, E, M, ROOMS
_RATED = cast(Table, RatedMatchRow.__table__)
_UNRATED = cast(Table, UnratedMatchRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)


def active(connection: Connection, now: float) -> list[str]:
    """Tournaments to step: started (by their time), not over yet, oldest start first."""
    return list(
        connection.execute(
            select(_T.c.id).where(NOT_OVER, _T.c.starts_at <= now).order_by(_T.c.starts_at)
        ).scalars()
    )


def _take_lease(
    connection: Connection, tournament_id: str, owner: str, now: float, seconds: float
) -> bool:
    taken = connection.execute(
        update(_T)
        .where(
            _T.c.id == tournament_id,
            NOT_OVER,
            or_(
                _T.c.lease_owner == owner,
                _T.c.lease_owner.is_(None),
                _T.c.lease_until < now,
            ),
        )
        .values(lease_owner=owner, lease_until=now + seconds)
    )
    return bool(taken.rowcount)


_ENTRANTS = (
    select(_E, or_(_PLAYERS.c.play_ban, _PLAYERS.c.rated_ban).label("barred"))
    .join(_PLAYERS, _PLAYERS.c.id == _E.c.player_id)
    .order_by(_E.c.player_id)
)
"""A tournament's entrants, each with whether a ban (from play or from rated play: a
tournament's matches are rated) keeps them from being paired (``bidak.fairplay.doors``)."""


def _entrants(connection: Connection, tournament_id: str) -> dict[str, Any]:
    return {
        row.player_id: row
        for row in connection.execute(_ENTRANTS.where(_E.c.tournament_id == tournament_id))
    }


def _ended(connection: Connection, tournament_id: str) -> list[Any]:
    """Undecided matches of the tournament whose end is stored, rated or not (a guest, a pair's
    fourth match of the day, a player banned from rated play): (match row, winner)."""
    return list(
        connection.execute(
            select(_M, func.coalesce(_RATED.c.winner_id, _UNRATED.c.winner_id).label("won_by"))
            .join(_ROOMS, _ROOMS.c.code == _M.c.room_code)
            .outerjoin(_RATED, _RATED.c.match_id == _ROOMS.c.match_id)
            .outerjoin(_UNRATED, _UNRATED.c.match_id == _ROOMS.c.match_id)
            .where(
                _M.c.tournament_id == tournament_id,
                _M.c.winner_id.is_(None),
                or_(_RATED.c.winner_id.is_not(None), _UNRATED.c.winner_id.is_not(None)),
            )
            .order_by(_M.c.created_at, _M.c.room_code)
        )
    )


def _plan(
    connection: Connection,
    t: Any,
    code: str,
    seats: tuple[str, str],
    length: int,
    now: float,
    place: tuple[int, int] | None = None,
) -> TournamentMatchRow:
    # Strictly after the tournament's last plan, even on a clock that stands still (a test's),
    # so a player's matches have an order (the table says "match 3").
    last = connection.execute(
        select(func.max(_M.c.created_at)).where(_M.c.tournament_id == t.id)
    ).scalar_one_or_none()
    if last is not None and now <= last:
        now = last + 0.001
    row = TournamentMatchRow(
        room_code=code,
        tournament_id=t.id,
        round=None if place is None else place[0],
        slot=None if place is None else place[1],
        seat0_id=seats[0],
        seat1_id=seats[1],
        length=length,
        created_at=now,
        winner_id=None,
        how=None,
    )
    insert_rows(connection, [row])
    return row


def step(
    connection: Connection,
    tournament_id: str,
    owner: str,
    now: float,
    lease_seconds: float,
    new_code: Callable[[], str],
    grace: float = 0.0,
) -> Step | None:
    """Move the tournament on, if ``owner`` holds (or may take) its lease; None if another
    process holds it. ``new_code`` makes the room code of each match planned; ``grace``: how
    long an arena match waits for its players to come to the table (0: it does not)."""
    if not _take_lease(connection, tournament_id, owner, now, lease_seconds):
        return None
    t = tournament_row(connection, tournament_id, lock=True)
    fresh = _codes(new_code)
    if t.kind == "arena":
        return _arena_step(connection, t, now, fresh, grace)
    return _knockout_step(connection, t, now, fresh, grace)


def _codes(new_code: Callable[[], str]) -> Iterator[str]:
    while True:
        yield new_code()


def _arena_step(
    connection: Connection, t: Any, now: float, fresh: Iterator[str], grace: float = 0.0
) -> Step:
    entrants = _entrants(connection, t.id)
    done = arena_absences(connection, t, now, grace, entrants)
    if done.changed:
        entrants = _entrants(connection, t.id)
    for ended in _ended(connection, t.id):
        loser = ended.seat1_id if ended.won_by == ended.seat0_id else ended.seat0_id
        won, lost = record_result(
            arena_entrant(entrants[ended.won_by]), arena_entrant(entrants[loser])
        )
        for entrant in (won, lost):
            save_entrant(connection, t.id, entrant)
        decide(connection, ended.room_code, ended.won_by, "played")
        done.changed = True
    if done.changed:
        entrants = _entrants(connection, t.id)
    if t.status == "open" and now >= t.starts_at:
        connection.execute(update(_T).where(_T.c.id == t.id).values(status="running"))
        done.changed = True
    over = t.ends_at is not None and now >= t.ends_at
    if now >= t.starts_at and not over:
        length = int(t.lengths["rounds"][0])
        for a, b in arena_pairs(arena_entrant(row) for row in entrants.values()):
            code = next(fresh)
            done.planned.append(_plan(connection, t, code, (a.player, b.player), length, now))
            connection.execute(
                update(_E)
                .where(
                    _E.c.tournament_id == t.id,
                    or_(_E.c.player_id == a.player, _E.c.player_id == b.player),
                )
                .values(room_code=code)
            )
            done.changed = True
    if over and not any(row.room_code for row in entrants.values()):
        ranked = sorted(
            entrants.values(), key=lambda r: (-r.score, -r.wins, -r.rating, r.player_id)
        )
        winner = ranked[0].player_id if ranked and ranked[0].played else None
        _finish(connection, t.id, "finished", winner)
        done.changed = done.finished = True
    return done


def _finish(connection: Connection, tournament_id: str, status: str, winner: str | None) -> None:
    connection.execute(
        update(_T)
        .where(_T.c.id == tournament_id)
        .values(status=status, winner_id=winner, lease_owner=None, lease_until=None)
    )


def _knockout_step(
    connection: Connection, t: Any, now: float, fresh: Iterator[str], grace: float = 0.0
) -> Step:
    done = Step()
    if t.status == "open":
        if now < t.starts_at:
            return done
        entrants = _entrants(connection, t.id)
        if len(entrants) < 4:
            _finish(connection, t.id, "cancelled", None)
            done.changed = done.finished = True
            return done
        bracket = new_bracket({p: row.rating for p, row in entrants.items()})
        _save_bracket(connection, t, bracket, now + float(t.round_seconds or 0), "running")
        t = tournament_row(connection, t.id)
        done.changed = True
    bracket = from_json(t.bracket)
    before = bracket.current_round
    deadline = t.round_deadline
    for ended in _ended(connection, t.id):
        if ended.round == bracket.current_round:
            bracket = advance(bracket, ended.round, ended.slot, ended.won_by)
            decide(connection, ended.room_code, ended.won_by, "played")
            done.changed = True
    number = bracket.current_round
    if number is not None and number == before and deadline is not None and now >= deadline:
        rows = list(
            connection.execute(
                select(
                    _M.c.room_code,
                    _M.c.slot,
                    _M.c.seat0_id,
                    _M.c.seat1_id,
                    _ROOMS.c.match_id,
                    _ROOMS.c.came0,
                    _ROOMS.c.came1,
                )
                .join(_ROOMS, _ROOMS.c.code == _M.c.room_code, isouter=True)
                .where(_M.c.tournament_id == t.id, _M.c.round == number)
            )
        )
        started = {row.slot for row in rows if row.match_id is not None}
        present = set(
            connection.execute(
                select(_E.c.player_id).where(_E.c.tournament_id == t.id, _E.c.ready_round == number)
            ).scalars()
        )
        # Opening the match's table is checking in too.
        present |= {row.seat0_id for row in rows if row.came0}
        present |= {row.seat1_id for row in rows if row.came1}
        barred = {pid for pid, row in _entrants(connection, t.id).items() if row.barred}
        bracket = forfeit_absent(bracket, present, started, barred)
        for row in rows:
            slot = bracket.rounds[number][row.slot]
            if slot.how == "forfeit" and slot.winner is not None:
                decide(connection, row.room_code, slot.winner, "forfeit")
        done.changed = True
    bracket = knockout_grace(connection, t, bracket, now, grace, done)
    if bracket.current_round != before:
        deadline = now + float(t.round_seconds or 0)
    if bracket.champion is not None:
        _save_bracket(connection, t, bracket, None, "finished")
        _finish(connection, t.id, "finished", bracket.champion)
        done.changed = done.finished = True
        return done
    planned = {
        row.slot
        for row in connection.execute(
            select(_M.c.slot).where(_M.c.tournament_id == t.id, _M.c.round == bracket.current_round)
        )
    }
    lengths = tuple(int(n) for n in t.lengths["rounds"])
    for number, index, slot in bracket.playable():
        if index in planned:
            continue
        assert slot.a is not None and slot.b is not None
        length = length_of_round(lengths, number)
        done.planned.append(
            _plan(connection, t, next(fresh), (slot.a, slot.b), length, now, (number, index))
        )
        done.changed = True
    if done.changed:
        _save_bracket(connection, t, bracket, deadline, "running")
    return done


def _save_bracket(
    connection: Connection, t: Any, bracket: Bracket, deadline: float | None, status: str
) -> None:
    connection.execute(
        update(_T)
        .where(_T.c.id == t.id)
        .values(bracket=to_json(bracket), round_deadline=deadline, status=status)
    )


def unmade(connection: Connection, tournament_id: str, at_once: bool = False) -> list[Any]:
    """Undecided matches whose room is not made, or (an arena's when ``at_once``: started at
    once, with no grace) not started: what a process that died between planning and making
    left, with the tournament's kind and move clock."""
    missing: Any = _ROOMS.c.code.is_(None)
    if at_once:
        missing = or_(missing, and_(_T.c.kind == "arena", _ROOMS.c.match_id.is_(None)))
    return list(
        connection.execute(
            select(_M, _T.c.kind, _T.c.move_seconds)
            .join(_T, _T.c.id == _M.c.tournament_id)
            .join(_ROOMS, _ROOMS.c.code == _M.c.room_code, isouter=True)
            .where(_M.c.tournament_id == tournament_id, _M.c.winner_id.is_(None), missing)
        )
    )


def players_of(connection: Connection, tournament_id: str) -> list[str]:
    return list(
        connection.execute(
            select(_E.c.player_id).where(_E.c.tournament_id == tournament_id)
        ).scalars()
    )


# -- reads ---------------------------------------------------------------------------------


def view(connection: Connection, tournament_id: str) -> dict[str, Any]:
    """The tournament, its players (with names) and its matches, as stored now."""
    t = tournament_row(connection, tournament_id)
    players = [
        dict(row._mapping)
        for row in connection.execute(
            select(_E, _PLAYERS.c.name)
            .join(_PLAYERS, _PLAYERS.c.id == _E.c.player_id)
            .where(_E.c.tournament_id == tournament_id)
        )
    ]
    matches = [
        dict(row._mapping)
        for row in connection.execute(
            select(_M, _ROOMS.c.match_id)
            .join(_ROOMS, _ROOMS.c.code == _M.c.room_code, isouter=True)
            .where(_M.c.tournament_id == tournament_id)
            .order_by(_M.c.created_at, _M.c.room_code)
        )
    ]
    return {"tournament": dict(t._mapping), "players": players, "matches": matches}


def listing(connection: Connection, since: float, limit: int = 20) -> list[dict[str, Any]]:
    """Public tournaments not over, and those that ended after ``since``, soonest first, each
    with its number of players."""
    count = (
        select(func.count())
        .select_from(_E)
        .where(_E.c.tournament_id == _T.c.id)
        .scalar_subquery()
        .label("players")
    )
    rows = connection.execute(
        select(_T, count)
        .where(
            _T.c.private.is_(False),
            or_(NOT_OVER, _T.c.starts_at >= since),
        )
        .order_by(_T.c.starts_at)
        .limit(limit)
    )
    return [dict(row._mapping) for row in rows]
