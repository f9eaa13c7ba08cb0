"""Fair play's transactions: reports, moderators, moderators' actions with their audit entries,
the rating refund of a ban, and the figures of reviewed rated matches.

Each function takes a connection inside the caller's
:meth:`~bidak.server.shared.store.db.Database.write` (or ``read``) transaction. An action locks
the player's row (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time) and checks,
under the lock, that it changes something, so two moderators pressing the same button at once
change the player once. A ban's refund is keyed by the match (``refunds.match_id``): a rating
loss is given back at most once, whatever the retries, lifts and bans again; on a race the
loser's whole transaction raises ``IntegrityError`` and is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from bidak.fairplay import WINDOW, MatchFigures
from bidak.server.accounts import skeleton
from bidak.server.shared.store.models import (
    ActionRow,
    EventRow,
    FiguresRow,
    MatchRow,
    PlayerRow,
    RatedMatchRow,
    RefundRow,
    ReportRow,
    RoomRow,
)

_PLAYERS = cast(Table, PlayerRow.__table__)
_REPORTS = cast(Table, ReportRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_REFUNDS = cast(Table, RefundRow.__table__)
_FIGURES = cast(Table, FiguresRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)

REFUND_DAYS = 30
"""A ban gives back the rating its player took from opponents in this many days before it."""


class NoSuchPlayer(Exception):
    """There is no player with that id."""


class NothingToChange(Exception):
    """The action would change nothing (already muted, not banned, ...): nothing is stored."""


class NameInUse(Exception):
    """A rename to a name another player wears (the same skeleton): nothing is stored."""


@dataclass(frozen=True)
class Action:
    """An audit entry (:class:`~bidak.server.shared.store.models.ActionRow`)."""

    id: int
    player_id: str
    by_id: str | None
    kind: str
    note: str
    detail: str | None
    at: datetime


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
class Standing:
    """What moderators' actions set on a player's row."""

    id: str
    name: str
    rating: float
    moderator: bool
    talk_muted: bool
    rated_ban: bool


@dataclass(frozen=True)
class Figures:
    """One reviewed rated match of a player, newest first in a history."""

    match_id: str
    figures: MatchFigures
    left: bool
    at: datetime


# -- players ----------------------------------------------------------------------------------


def _standing(connection: Connection, player_id: str, lock: bool = False) -> Standing:
    query = select(
        _PLAYERS.c.id,
        _PLAYERS.c.name,
        _PLAYERS.c.rating,
        _PLAYERS.c.moderator,
        _PLAYERS.c.talk_muted,
        _PLAYERS.c.rated_ban,
    ).where(_PLAYERS.c.id == player_id)
    row = connection.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise NoSuchPlayer(player_id)
    return Standing(
        row.id,
        row.name,
        row.rating,
        bool(row.moderator),
        bool(row.talk_muted),
        bool(row.rated_ban),
    )


def standing(connection: Connection, player_id: str) -> Standing:
    """The player's name, rating and what moderators set; :class:`NoSuchPlayer` if none."""
    return _standing(connection, player_id)


def _audit(
    connection: Connection,
    player_id: str,
    by_id: str | None,
    kind: str,
    note: str,
    at: datetime,
    detail: str | None = None,
) -> Action:
    action_id = connection.execute(
        insert(_ACTIONS)
        .values(player_id=player_id, by_id=by_id, kind=kind, note=note, detail=detail, at=at)
        .returning(_ACTIONS.c.id)
    ).scalar_one()
    return Action(action_id, player_id, by_id, kind, note, detail, at)


def _set(connection: Connection, player_id: str, **values: object) -> None:
    connection.execute(update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(**values))


def set_moderator(
    connection: Connection, player_id: str, moderator: bool, note: str, at: datetime
) -> Action:
    """Grant (or revoke) the moderator role, by the operator (``by_id`` None) with an audit
    entry; :class:`NothingToChange` if the player already is (or is not) a moderator."""
    player = _standing(connection, player_id, lock=True)
    if player.moderator == moderator:
        raise NothingToChange("already a moderator" if moderator else "not a moderator")
    _set(connection, player_id, moderator=moderator)
    return _audit(connection, player_id, None, "grant" if moderator else "revoke", note, at)


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


def _close_reports(connection: Connection, player_id: str, by_id: str, at: datetime) -> None:
    connection.execute(
        update(_REPORTS)
        .where(_REPORTS.c.reported_id == player_id, _REPORTS.c.open_key.is_not(None))
        .values(open_key=None, closed_at=at, closed_by=by_id)
    )


# -- moderators' actions ----------------------------------------------------------------------


def act(
    connection: Connection,
    player_id: str,
    by_id: str,
    kind: str,
    note: str,
    at: datetime,
    new_name: str | None = None,
) -> Action:
    """A moderator's action on a player, with its audit entry; closes the open reports about
    the player. ``kind`` is ``warn``, ``dismiss``, ``rename`` (to ``new_name``; the old name is
    refused to the player from then on), ``mute``, ``unmute``, ``ban`` (with the refund) or
    ``unban``. :class:`NothingToChange` when it would change nothing (nothing is stored)."""
    player = _standing(connection, player_id, lock=True)
    detail: str | None = None
    if kind == "rename":
        if new_name is None or new_name == player.name:
            raise NothingToChange("the new name is the name")
        key = skeleton(new_name)
        holder = connection.execute(
            select(_PLAYERS.c.id).where(_PLAYERS.c.skeleton == key, _PLAYERS.c.id != player_id)
        ).first()
        if holder is not None:
            raise NameInUse(new_name)
        _set(connection, player_id, name=new_name, skeleton=key)
        detail = player.name
    elif kind in ("mute", "unmute"):
        if player.talk_muted == (kind == "mute"):
            raise NothingToChange("already muted" if kind == "mute" else "not muted")
        _set(connection, player_id, talk_muted=kind == "mute")
    elif kind in ("ban", "unban"):
        if player.rated_ban == (kind == "ban"):
            raise NothingToChange("already banned" if kind == "ban" else "not banned")
        _set(connection, player_id, rated_ban=kind == "ban")
    elif kind not in ("warn", "dismiss"):
        raise ValueError(f"no such action: {kind}")
    action = _audit(connection, player_id, by_id, kind, note, at, detail)
    if kind == "ban":
        given = refund(connection, player_id, action.id, at)
        if given:
            text = f"{len(given)} refund(s), {sum(given.values()):.2f} rating points"
            connection.execute(
                update(_ACTIONS).where(_ACTIONS.c.id == action.id).values(detail=text)
            )
            action = Action(action.id, player_id, by_id, kind, note, text, at)
    _close_reports(connection, player_id, by_id, at)
    return action


def refund(
    connection: Connection, banned_id: str, action_id: int, at: datetime
) -> dict[str, float]:
    """Give back to each opponent what they lost to ``banned_id`` in rated matches of the last
    :data:`REFUND_DAYS` days, once per match: a match refunded before (the ``refunds`` key) is
    skipped. Returns the points given back per match. The opponents' rows are locked in one
    order, so two bans at once never deadlock."""
    since = at - timedelta(days=REFUND_DAYS)
    done = select(_REFUNDS.c.match_id)
    rows = connection.execute(
        select(_RATED.c.match_id, _RATED.c.loser_id, _RATED.c.loser_change)
        .where(
            _RATED.c.winner_id == banned_id,
            _RATED.c.at >= since,
            _RATED.c.match_id.not_in(done),
        )
        .order_by(_RATED.c.loser_id, _RATED.c.match_id)
    ).all()
    given: dict[str, float] = {}
    for row in rows:
        amount = -row.loser_change
        if amount <= 0:
            continue
        connection.execute(
            insert(_REFUNDS).values(
                match_id=row.match_id, player_id=row.loser_id, amount=amount, action_id=action_id
            )
        )
        rating = connection.execute(
            select(_PLAYERS.c.rating).where(_PLAYERS.c.id == row.loser_id).with_for_update()
        ).scalar_one()
        _set(connection, row.loser_id, rating=rating + amount)
        given[row.match_id] = amount
    return given


def actions_on(connection: Connection, player_id: str, limit: int = 100) -> list[Action]:
    """The audit entries about a player, newest first."""
    rows = connection.execute(
        select(_ACTIONS)
        .where(_ACTIONS.c.player_id == player_id)
        .order_by(_ACTIONS.c.at.desc(), _ACTIONS.c.id.desc())
        .limit(limit)
    ).all()
    return [Action(**row._mapping) for row in rows]


def names_of(connection: Connection, ids: list[str]) -> dict[str, str]:
    rows = connection.execute(select(_PLAYERS.c.id, _PLAYERS.c.name).where(_PLAYERS.c.id.in_(ids)))
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
