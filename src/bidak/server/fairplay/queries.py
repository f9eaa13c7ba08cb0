"""Fair play's transactions: reports, and the figures of reviewed rated matches (moderators'
actions and their audit entries are in :mod:`.action_queries`).

Each function takes a connection inside the caller's
:meth:`~bidak.server.shared.store.db.Database.write` (or ``read``) transaction. A second open
report by one reporter on one match raises ``IntegrityError`` (the open key).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select
from sqlalchemy.engine import Connection

from bidak.fairplay import WINDOW, MatchFigures
from bidak.server.fairplay.tables import FiguresRow, ReportRow
from bidak.server.play.tables import EventRow, MatchRow, RatedMatchRow, RoomRow
from bidak.server.shared.store.models import PlayerRow

_PLAYERS = cast(Table, PlayerRow.__table__)
_REPORTS = cast(Table, ReportRow.__table__)
_FIGURES = cast(Table, FiguresRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)


@dataclass(frozen=True)
class Report:
    id: int
    reporter_id: str
    reported_id: str
    match_id: str
    reason: str
    note: str | None
    at: datetime
    open: bool


@dataclass(frozen=True)
class Figures:
    """One reviewed rated match of a player, newest first in a history."""

    match_id: str
    figures: MatchFigures
    left: bool
    at: datetime


# -- reports ----------------------------------------------------------------------------------


class NotYourMatch(Exception):
    """The reporter did not play that match against a person (or there is no such match)."""


def seats_of(connection: Connection, match_id: str) -> tuple[str | None, str | None] | None:
    """The two seated players of a match (None for a bot's seat); None if there is no match."""
    row = connection.execute(
        select(_ROOMS.c.seat0_id, _ROOMS.c.seat1_id, _ROOMS.c.bot_level)
        .select_from(_MATCHES.join(_ROOMS, _ROOMS.c.code == _MATCHES.c.room_code))
        .where(_MATCHES.c.id == match_id)
    ).first()
    if row is None:
        return None
    return row.seat0_id, row.seat1_id


def report(
    connection: Connection,
    reporter_id: str,
    match_id: str,
    reason: str,
    note: str | None,
    at: datetime,
) -> Report:
    """Store a report of the reporter's opponent in ``match_id``. The open key makes a second
    open report by the same reporter on the same match raise ``IntegrityError``."""
    seats = seats_of(connection, match_id)
    if seats is None or reporter_id not in seats:
        raise NotYourMatch(match_id)
    other = seats[1] if seats[0] == reporter_id else seats[0]
    if other is None or other == reporter_id:
        raise NotYourMatch(match_id)
    report_id = connection.execute(
        insert(_REPORTS)
        .values(
            reporter_id=reporter_id,
            reported_id=other,
            match_id=match_id,
            reason=reason,
            note=note,
            at=at,
            open_key=f"{reporter_id}:{match_id}",
        )
        .returning(_REPORTS.c.id)
    ).scalar_one()
    return Report(report_id, reporter_id, other, match_id, reason, note, at, True)


def open_report(connection: Connection, reporter_id: str, match_id: str) -> Report | None:
    """The reporter's open report on ``match_id``, if any."""
    row = connection.execute(
        select(_REPORTS).where(_REPORTS.c.open_key == f"{reporter_id}:{match_id}")
    ).first()
    return None if row is None else _report(row)


def _report(row: object) -> Report:
    r = row._mapping  # type: ignore[attr-defined]
    return Report(
        r["id"],
        r["reporter_id"],
        r["reported_id"],
        r["match_id"],
        r["reason"],
        r["note"],
        r["at"],
        r["open_key"] is not None,
    )


def reports_about(connection: Connection, player_id: str) -> list[Report]:
    """Every report about the player, newest first."""
    rows = connection.execute(
        select(_REPORTS)
        .where(_REPORTS.c.reported_id == player_id)
        .order_by(_REPORTS.c.at.desc(), _REPORTS.c.id.desc())
    ).all()
    return [_report(row) for row in rows]


def open_reports(connection: Connection) -> list[Report]:
    """Every open report, newest first."""
    rows = connection.execute(
        select(_REPORTS)
        .where(_REPORTS.c.open_key.is_not(None))
        .order_by(_REPORTS.c.at.desc(), _REPORTS.c.id.desc())
    ).all()
    return [_report(row) for row in rows]


_NAMES = select(_PLAYERS.c.id, _PLAYERS.c.name).where(
    _PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)


def names_of(connection: Connection, ids: list[str]) -> dict[str, str]:
    rows = connection.execute(_NAMES, {"ids": ids})
    return {row.id: row.name for row in rows}


# -- figures ----------------------------------------------------------------------------------


def store_figures(
    connection: Connection,
    match_id: str,
    player_id: str,
    depth: int,
    figures: MatchFigures,
    left: bool,
    at: datetime,
) -> bool:
    """Store one player's figures of a reviewed rated match; False if they were stored before
    (the match and player are the key: a review done twice is stored once)."""
    found = connection.execute(
        select(_FIGURES.c.match_id).where(
            _FIGURES.c.match_id == match_id, _FIGURES.c.player_id == player_id
        )
    ).first()
    if found is not None:
        return False
    connection.execute(
        insert(_FIGURES).values(
            match_id=match_id,
            player_id=player_id,
            depth=depth,
            decisions=figures.decisions,
            loss=figures.loss,
            squares=figures.squares,
            times=figures.times,
            seconds=figures.seconds,
            seconds_squared=figures.seconds_squared,
            left=left,
            at=at,
        )
    )
    return True


def history(connection: Connection, player_id: str, limit: int = 3 * WINDOW) -> list[Figures]:
    """The player's reviewed rated matches, newest first."""
    rows = connection.execute(
        select(_FIGURES)
        .where(_FIGURES.c.player_id == player_id)
        .order_by(_FIGURES.c.at.desc(), _FIGURES.c.match_id)
        .limit(limit)
    ).all()
    return [
        Figures(
            row.match_id,
            MatchFigures(
                row.decisions,
                row.loss,
                row.squares,
                row.times,
                row.seconds,
                row.seconds_squared,
            ),
            bool(row.left),
            row.at,
        )
        for row in rows
    ]


def players_with_figures(connection: Connection, since: datetime) -> list[str]:
    """The players with a reviewed rated match since ``since``."""
    rows = connection.execute(
        select(_FIGURES.c.player_id).where(_FIGURES.c.at >= since).distinct()
    ).all()
    return [row.player_id for row in rows]


def unreviewed_rated(connection: Connection) -> tuple[str, tuple[str, str]] | None:
    """The oldest rated match with no figures stored, and its two players by seat; None if
    every rated match has its figures."""
    row = connection.execute(
        select(_RATED.c.match_id, _ROOMS.c.seat0_id, _ROOMS.c.seat1_id)
        .select_from(
            _RATED.join(_MATCHES, _MATCHES.c.id == _RATED.c.match_id).join(
                _ROOMS, _ROOMS.c.code == _MATCHES.c.room_code
            )
        )
        .where(_RATED.c.match_id.not_in(select(_FIGURES.c.match_id)))
        .order_by(_RATED.c.at, _RATED.c.match_id)
        .limit(1)
    ).first()
    if row is None or row.seat0_id is None or row.seat1_id is None:
        return None
    return row.match_id, (row.seat0_id, row.seat1_id)


def events_of(connection: Connection, match_id: str) -> list[tuple[dict[str, Any], float]]:
    """A match's events in order, each with the time it was stored."""
    rows = connection.execute(
        select(_EVENTS.c.payload, _EVENTS.c.created_at)
        .where(_EVENTS.c.match_id == match_id)
        .order_by(_EVENTS.c.version)
    ).all()
    return [(row.payload, row.created_at) for row in rows]
