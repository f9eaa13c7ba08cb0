"""Moderators' actions on players, each with its audit entry: the standing they set (mute, bans,
the moderator role), a ban's rating refund, and the restrictions a guest carries into the
account it merges into.

Each function takes a connection inside the caller's
:meth:`~bidak.server.shared.store.db.Database.write` transaction. An action locks the player's
row (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time) and checks, under the lock,
that it changes something, so two moderators pressing the same button at once change the player
once. A rated ban's refund is keyed by the match (``refunds.match_id``): a rating loss is given
back at most once, whatever the retries, lifts and bans again; on a race the loser's whole
transaction raises ``IntegrityError`` and is rolled back. A moderator never acts on a
moderator: the operator does (``bidak mod``; :func:`bidak.fairplay.doors.may_act_on`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from bidak.fairplay import doors
from bidak.fairplay.doors import may_act_on
from bidak.server.accounts import skeleton
from bidak.server.fairplay.tables import ActionRow, RefundRow, ReportRow
from bidak.server.matchmaking import leave_queue
from bidak.server.play.tables import RatedMatchRow
from bidak.server.shared.store.models import PlayerRow

_PLAYERS = cast(Table, PlayerRow.__table__)
_REPORTS = cast(Table, ReportRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_REFUNDS = cast(Table, RefundRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)

REFUND_DAYS = 30
"""A ban gives back the rating its player took from opponents in this many days before it."""


class NoSuchPlayer(Exception):
    """There is no player with that id."""


class NothingToChange(Exception):
    """The action would change nothing (already muted, not banned, ...): nothing is stored."""


class OnModerator(Exception):
    """The player is a moderator: only the operator acts on them (nothing is stored)."""


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
class Standing:
    """What moderators' actions set on a player's row."""

    id: str
    name: str
    rating: float
    moderator: bool
    talk_muted: bool
    rated_ban: bool
    play_ban: bool = False
    held: bool = False
    """Carries a merged guest's restrictions until a moderator decides."""


# -- players ----------------------------------------------------------------------------------


def _standing(connection: Connection, player_id: str, lock: bool = False) -> Standing:
    query = select(
        _PLAYERS.c.id,
        _PLAYERS.c.name,
        _PLAYERS.c.rating,
        _PLAYERS.c.moderator,
        _PLAYERS.c.talk_muted,
        _PLAYERS.c.rated_ban,
        _PLAYERS.c.play_ban,
        _PLAYERS.c.held,
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
        bool(row.play_ban),
        bool(row.held),
    )


def _doors_standing(player: Standing) -> doors.Standing:
    return doors.Standing(
        banned=player.play_ban,
        rated_ban=player.rated_ban,
        muted=player.talk_muted,
        moderator=player.moderator,
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


def _close_reports(connection: Connection, player_id: str, by_id: str | None, at: datetime) -> None:
    connection.execute(
        update(_REPORTS)
        .where(_REPORTS.c.reported_id == player_id, _REPORTS.c.open_key.is_not(None))
        .values(open_key=None, closed_at=at, closed_by=by_id)
    )


# -- moderators' actions ----------------------------------------------------------------------


def act(
    connection: Connection,
    player_id: str,
    by_id: str | None,
    kind: str,
    note: str,
    at: datetime,
    new_name: str | None = None,
) -> Action:
    """A moderator's action on a player, with its audit entry; closes the open reports about
    the player. ``kind`` is ``warn``, ``dismiss``, ``rename`` (to ``new_name``; the old name is
    refused to the player from then on), ``mute``, ``unmute``, ``ban`` from rated play (with
    the refund), ``unban``, ``ban_play`` (banned from play: out of the quick match queue at
    once, and no door into play opens for them) or ``unban_play``. Any action is the
    moderator's decision on an account held for one (``held``, a merged guest's restrictions):
    it is held no longer. ``by_id`` None is the operator (``bidak mod act``), who may act on
    a moderator. :class:`NothingToChange` when it would change nothing, :class:`OnModerator`
    when a moderator acts on a moderator (nothing is stored)."""
    player = _standing(connection, player_id, lock=True)
    if by_id is not None and may_act_on(_doors_standing(player)) is not None:
        raise OnModerator(player_id)
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
    elif kind in ("ban_play", "unban_play"):
        if player.play_ban == (kind == "ban_play"):
            raise NothingToChange("already banned" if kind == "ban_play" else "not banned")
        _set(connection, player_id, play_ban=kind == "ban_play")
        if kind == "ban_play":
            leave_queue(connection, player_id)
    elif kind not in ("warn", "dismiss"):
        raise ValueError(f"no such action: {kind}")
    if player.held:
        _set(connection, player_id, held=False)
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
    skipped; a correspondence match's loss goes back to the correspondence rating. Returns
    the points given back per match. The opponents' rows are locked in one
    order, so two bans at once never deadlock."""
    since = at - timedelta(days=REFUND_DAYS)
    done = select(_REFUNDS.c.match_id)
    rows = connection.execute(
        select(_RATED.c.match_id, _RATED.c.loser_id, _RATED.c.loser_change, _RATED.c.correspondence)
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
        column = "corr_rating" if row.correspondence else "rating"  # the rating it moved
        rating = connection.execute(
            select(_PLAYERS.c[column]).where(_PLAYERS.c.id == row.loser_id).with_for_update()
        ).scalar_one()
        _set(connection, row.loser_id, **{column: rating + amount})
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


def held_players(connection: Connection) -> list[str]:
    """The accounts held for a moderator's decision (they took in a restricted guest)."""
    rows = connection.execute(select(_PLAYERS.c.id).where(_PLAYERS.c.held.is_(True)))
    return [row.id for row in rows]
