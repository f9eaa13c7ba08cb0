"""Where a tournament's player is expected, read for the browser: the match waiting for them to
come to its table (any page of theirs goes there), and the tournament a table belongs to (the
table's header, its match-over dialog)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.engine import Connection

from bidak.server.tournaments.step_queries import NOT_OVER, ROOMS, E, M, T

_T, _E, _M, _ROOMS = T, E, M, ROOMS


def _seated(player_id: str) -> Any:
    return or_(_M.c.seat0_id == player_id, _M.c.seat1_id == player_id)


def mine(connection: Connection, player_id: str) -> dict[str, Any]:
    """Whether the player is in a tournament not over, and the newest undecided match of theirs
    whose room is made and whose match has not started (it waits for them to come)."""
    active = connection.execute(
        select(func.count())
        .select_from(_E)
        .join(_T, _T.c.id == _E.c.tournament_id)
        .where(_E.c.player_id == player_id, NOT_OVER)
    ).scalar_one()
    waiting = connection.execute(
        select(_M.c.tournament_id, _M.c.room_code)
        .join(_ROOMS, _ROOMS.c.code == _M.c.room_code)
        .join(_T, _T.c.id == _M.c.tournament_id)
        .where(
            _seated(player_id),
            _M.c.winner_id.is_(None),
            _ROOMS.c.match_id.is_(None),
            NOT_OVER,
        )
        .order_by(_M.c.created_at.desc())
        .limit(1)
    ).first()
    return {
        "active": bool(active),
        "waiting": None
        if waiting is None
        else {"tournament": waiting.tournament_id, "room": waiting.room_code},
    }


def of_room(connection: Connection, code: str, player_id: str) -> dict[str, Any] | None:
    """The tournament of the table ``code`` (None: no tournament's): its id, name, kind and
    status, the match's round (knockout) or its number among the player's matches there
    (arena), the bracket's rounds, the viewer's next match if one is planned, and whether the
    viewer waits for an opponent (an arena's free player, not paused)."""
    match = connection.execute(select(_M).where(_M.c.room_code == code)).first()
    if match is None:
        return None
    t = connection.execute(select(_T).where(_T.c.id == match.tournament_id)).one()
    seat = match.seat0_id if player_id not in (match.seat0_id, match.seat1_id) else player_id
    number = connection.execute(
        select(func.count())
        .select_from(_M)
        .where(
            _M.c.tournament_id == t.id,
            _seated(seat),
            or_(
                _M.c.created_at < match.created_at,
                and_(_M.c.created_at == match.created_at, _M.c.room_code <= match.room_code),
            ),
        )
    ).scalar_one()
    following = connection.execute(
        select(_M.c.room_code)
        .where(
            _M.c.tournament_id == t.id,
            _seated(player_id),
            _M.c.winner_id.is_(None),
            _M.c.room_code != code,
            _M.c.created_at >= match.created_at,
        )
        .order_by(_M.c.created_at.desc())
        .limit(1)
    ).scalar_one_or_none()
    entrant = connection.execute(
        select(_E.c.room_code, _E.c.paused, _E.c.absences).where(
            _E.c.tournament_id == t.id, _E.c.player_id == player_id
        )
    ).first()
    waiting = (
        t.kind == "arena"
        and t.status == "running"
        and entrant is not None
        and entrant.room_code is None
        and not entrant.paused
        and following is None
    )
    rounds = None if t.bracket is None else len(t.bracket.get("rounds", []))
    return {
        "id": t.id,
        "name": t.name,
        "kind": t.kind,
        "status": t.status,
        "round": match.round,
        "rounds": rounds,
        "number": int(number),
        "next_room": following,
        "waiting": bool(waiting),
        "paused": bool(entrant.paused) if entrant is not None else False,
        "absences": int(entrant.absences or 0) if entrant is not None else 0,
    }
