"""The grace of a tournament match (issue 36): a match starts when both players opened its
table (``rooms.came0``, ``rooms.came1``, written by the rooms' service); a step finds the matches
whose grace ran out unstarted and decides them, in the step's transaction (so once), from the
database and the step's clock alone (so any process, after any restart)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from bidak.server.tournaments.step_queries import (
    NOBODY,
    ROOMS,
    M,
    Step,
    arena_entrant,
    decide,
    save_entrant,
)
from bidak.tournament import Bracket, forfeit_absent, record_absence


def arena_absences(
    connection: Connection, t: Any, now: float, grace: float, entrants: dict[str, Any]
) -> Step:
    """Arena matches whose grace ran out with their match not started: the one who came wins
    (:func:`record_absence`), decided with its match row (``how`` = ``absent``) in this
    transaction, so it counts once; both came: to start (a start that failed)."""
    done = Step()
    if grace <= 0:
        return done
    waiting = connection.execute(
        select(M.c.room_code, M.c.seat0_id, M.c.seat1_id, ROOMS.c.came0, ROOMS.c.came1)
        .join(ROOMS, ROOMS.c.code == M.c.room_code)
        .where(
            M.c.tournament_id == t.id,
            M.c.winner_id.is_(None),
            ROOMS.c.match_id.is_(None),
            M.c.created_at <= now - grace,
        )
        .order_by(M.c.created_at, M.c.room_code)
    )
    for row in waiting:
        if row.came0 and row.came1:
            done.start.append(row.room_code)
            continue
        a, b = (arena_entrant(entrants[p]) for p in (row.seat0_id, row.seat1_id))
        if row.came0 or row.came1:
            present, missing = (a, b) if row.came0 else (b, a)
            after = record_absence(present, missing)
            winner = present.player
        else:
            after, winner = record_absence(None, a, b), NOBODY
        for entrant in after:
            save_entrant(connection, t.id, entrant)
        decide(connection, row.room_code, winner, "absent")
        done.changed = True
    return done


def knockout_grace(
    connection: Connection, t: Any, bracket: Bracket, now: float, grace: float, done: Step
) -> Bracket:
    """A knockout's next round (after its first, whose players check in until the round's
    deadline): a match planned at least ``grace`` ago whose match has not started goes to the
    player who came to its table, or to the better seed when neither did (a bracket never
    stalls); both came (a start that failed): to start."""
    number = bracket.current_round
    if grace <= 0 or number is None or number < 1:
        return bracket
    rows = list(
        connection.execute(
            select(
                M.c.room_code,
                M.c.slot,
                M.c.seat0_id,
                M.c.seat1_id,
                M.c.created_at,
                ROOMS.c.match_id,
                ROOMS.c.came0,
                ROOMS.c.came1,
            )
            .join(ROOMS, ROOMS.c.code == M.c.room_code)
            .where(M.c.tournament_id == t.id, M.c.round == number, M.c.winner_id.is_(None))
        )
    )
    late = []
    for row in rows:
        if row.match_id is not None or row.created_at > now - grace:
            continue
        if row.came0 and row.came1:
            done.start.append(row.room_code)
        else:
            late.append(row)
    if not late:
        return bracket
    present = {row.seat0_id for row in late if row.came0} | {
        row.seat1_id for row in late if row.came1
    }
    keep = set(range(len(bracket.rounds[number]))) - {row.slot for row in late}
    bracket = forfeit_absent(bracket, present, keep)
    for row in late:
        slot = bracket.rounds[number][row.slot]
        if slot.winner is not None:
            decide(connection, row.room_code, slot.winner, "forfeit")
    done.changed = True
    return bracket
