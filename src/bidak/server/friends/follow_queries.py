"""Follows and blocks: follow, unfollow, the friends list with when each was last seen and the
live table they sit at, block, unblock, who is blocked between whom, a name search.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.challenges import State
from bidak.server.accounts.tables import SessionRow
from bidak.server.friends.tables import BlockRow, ChallengeRow, FollowRow
from bidak.server.play.tables import MatchRow, RoomRow
from bidak.server.shared.store.models import PlayerRow

_FOLLOWS = cast(Table, FollowRow.__table__)
_BLOCKS = cast(Table, BlockRow.__table__)
_CHALLENGES = cast(Table, ChallengeRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)
_SESSIONS = cast(Table, SessionRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)

FRIENDS_MAX = 200
"""The friends list shows this many (the most recently followed first)."""
SEARCH_SIZE = 10


_LAST_SEEN = (
    select(_SESSIONS.c.player_id, func.max(_SESSIONS.c.last_seen))
    .where(_SESSIONS.c.player_id.in_(bindparam("ids", expanding=True)))
    .group_by(_SESSIONS.c.player_id)
)
_LIVE_TABLES = (
    select(
        _ROOMS.c.code, _ROOMS.c.private, _ROOMS.c.seat0_id, _ROOMS.c.seat1_id, _MATCHES.c.updated_at
    )
    .join(_MATCHES, _MATCHES.c.id == _ROOMS.c.match_id)
    .where(
        or_(
            _ROOMS.c.seat0_id.in_(bindparam("ids", expanding=True)),
            _ROOMS.c.seat1_id.in_(bindparam("ids", expanding=True)),
        ),
        _MATCHES.c.finished.is_(False),
        _ROOMS.c.days_per_move.is_(None),
    )
    .order_by(_MATCHES.c.updated_at)
)
"""The friends list's statements, built once with their ids bound when run: an IN of a list
built anew leaves a reference cycle each time it runs (the server's cyclic collector is off,
:mod:`bidak.server.shared.collector`)."""


@dataclass(frozen=True, slots=True)
class Friend:
    id: str
    name: str
    rating: float
    guest: bool
    last_seen: float | None
    """The latest "last seen" of any of their sessions (None: never)."""
    room: str | None = None
    """A live table of theirs in play that anybody may watch (not a private room's)."""
    playing: bool = False
    """Sitting at a live table whose match is in play (a private one too)."""


def exists(connection: Connection, player_id: str) -> bool:
    """Whether ``player_id`` is a player who has not deleted their account."""
    found = connection.execute(
        select(_PLAYERS.c.id).where(_PLAYERS.c.id == player_id, _PLAYERS.c.deleted_at.is_(None))
    ).first()
    return found is not None


def follow(connection: Connection, follower_id: str, followee_id: str, at: datetime) -> None:
    """Note that ``follower_id`` follows ``followee_id`` (twice keeps the first)."""
    if not follows(connection, follower_id, followee_id):
        connection.execute(
            insert(_FOLLOWS).values(follower_id=follower_id, followee_id=followee_id, at=at)
        )


def unfollow(connection: Connection, follower_id: str, followee_id: str) -> None:
    """Undo :func:`follow` (harmless when there is nothing to undo)."""
    connection.execute(
        delete(_FOLLOWS).where(
            _FOLLOWS.c.follower_id == follower_id, _FOLLOWS.c.followee_id == followee_id
        )
    )


def follows(connection: Connection, follower_id: str, followee_id: str) -> bool:
    found = connection.execute(
        select(_FOLLOWS.c.at).where(
            _FOLLOWS.c.follower_id == follower_id, _FOLLOWS.c.followee_id == followee_id
        )
    ).first()
    return found is not None


def friends(connection: Connection, player_id: str) -> list[Friend]:
    """The players ``player_id`` follows (the most recently followed first, at most
    :data:`FRIENDS_MAX`), each with when they were last seen and the live table they sit at.
    Three statements whatever the list's length."""
    rows = connection.execute(
        select(_PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.rating, _PLAYERS.c.email, _FOLLOWS.c.at)
        .join(_PLAYERS, _PLAYERS.c.id == _FOLLOWS.c.followee_id)
        .where(_FOLLOWS.c.follower_id == player_id, _PLAYERS.c.deleted_at.is_(None))
        .order_by(_FOLLOWS.c.at.desc(), _PLAYERS.c.id)
        .limit(FRIENDS_MAX)
    ).all()
    ids = [row.id for row in rows]
    if not ids:
        return []
    seen = dict(connection.execute(_LAST_SEEN, {"ids": ids}).all())
    tables = _live_tables(connection, ids)
    return [
        Friend(
            id=row.id,
            name=row.name,
            rating=float(row.rating),
            guest=row.email is None,
            last_seen=None if seen.get(row.id) is None else float(seen[row.id]),
            room=tables[row.id][0] if row.id in tables and not tables[row.id][1] else None,
            playing=row.id in tables,
        )
        for row in rows
    ]


def _live_tables(connection: Connection, ids: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Each player's latest live (not correspondence) table in play, with whether it is
    private: ``{player: (room, private)}``."""
    rows = connection.execute(_LIVE_TABLES, {"ids": list(ids)})
    found: dict[str, tuple[str, bool]] = {}
    wanted = set(ids)
    for row in rows:  # oldest first: the latest wins
        for seat in (row.seat0_id, row.seat1_id):
            if seat in wanted:
                found[seat] = (row.code, bool(row.private))
    return found


def last_seen(connection: Connection, player_id: str) -> float | None:
    found = connection.execute(
        select(func.max(_SESSIONS.c.last_seen)).where(_SESSIONS.c.player_id == player_id)
    ).scalar_one_or_none()
    return None if found is None else float(found)


def block(connection: Connection, blocker_id: str, blocked_id: str, at: datetime) -> None:
    """``blocker_id`` blocks ``blocked_id`` (twice keeps the first): the blocked player's follow
    of the blocker and the blocker's of them end, and every open challenge between the two
    is cancelled, in the same transaction."""
    if not blocks(connection, blocker_id, blocked_id):
        connection.execute(
            insert(_BLOCKS).values(blocker_id=blocker_id, blocked_id=blocked_id, at=at)
        )
    unfollow(connection, blocked_id, blocker_id)
    unfollow(connection, blocker_id, blocked_id)
    between = or_(
        and_(_CHALLENGES.c.from_id == blocker_id, _CHALLENGES.c.to_id == blocked_id),
        and_(_CHALLENGES.c.from_id == blocked_id, _CHALLENGES.c.to_id == blocker_id),
    )
    connection.execute(
        update(_CHALLENGES)
        .where(between, _CHALLENGES.c.state == State.OPEN.value)
        .values(state=State.CANCELLED.value)
    )


def unblock(connection: Connection, blocker_id: str, blocked_id: str) -> None:
    """Undo :func:`block` (harmless when there is nothing to undo; follows stay ended)."""
    connection.execute(
        delete(_BLOCKS).where(
            _BLOCKS.c.blocker_id == blocker_id, _BLOCKS.c.blocked_id == blocked_id
        )
    )


def blocks(connection: Connection, blocker_id: str, blocked_id: str) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id``."""
    found = connection.execute(
        select(_BLOCKS.c.at).where(
            _BLOCKS.c.blocker_id == blocker_id, _BLOCKS.c.blocked_id == blocked_id
        )
    ).first()
    return found is not None


def blocked_either(connection: Connection, player_id: str) -> set[str]:
    """The players ``player_id`` blocked or who blocked ``player_id``."""
    rows = connection.execute(
        select(_BLOCKS.c.blocker_id, _BLOCKS.c.blocked_id).where(
            or_(_BLOCKS.c.blocker_id == player_id, _BLOCKS.c.blocked_id == player_id)
        )
    )
    return {row.blocked_id if row.blocker_id == player_id else row.blocker_id for row in rows}


_BLOCKS_AMONG = select(_BLOCKS.c.blocker_id, _BLOCKS.c.blocked_id).where(
    or_(
        _BLOCKS.c.blocker_id.in_(bindparam("players", expanding=True)),
        _BLOCKS.c.blocked_id.in_(bindparam("players", expanding=True)),
    )
)
"""Built once: quick match asks it at every pairing pass (a list bound by ``in_`` per call
leaves a reference cycle behind, docs/architecture.md "Storage")."""


def blocked_pairs(connection: Connection, players: Sequence[str]) -> dict[str, set[str]]:
    """For each of ``players``, the others it may never meet because one blocked the other
    (quick match's seekers: ``bidak.pairing.Seeker.blocked``)."""
    if not players:
        return {}
    rows = connection.execute(_BLOCKS_AMONG, {"players": list(players)})
    found: dict[str, set[str]] = {}
    for row in rows:
        found.setdefault(row.blocker_id, set()).add(row.blocked_id)
        found.setdefault(row.blocked_id, set()).add(row.blocker_id)
    return found


def blocked_by(connection: Connection, player_id: str) -> list[tuple[str, str]]:
    """The players ``player_id`` blocked, ``(id, name)``, the latest first."""
    rows = connection.execute(
        select(_PLAYERS.c.id, _PLAYERS.c.name)
        .join(_BLOCKS, _BLOCKS.c.blocked_id == _PLAYERS.c.id)
        .where(_BLOCKS.c.blocker_id == player_id)
        .order_by(_BLOCKS.c.at.desc(), _PLAYERS.c.id)
        .limit(FRIENDS_MAX)
    )
    return [(row.id, row.name) for row in rows]


def search(connection: Connection, prefix: str, viewer_id: str) -> list[tuple[str, str, float]]:
    """Players whose name, as a person reads it (its skeleton), begins with ``prefix`` (a
    skeleton already): ``(id, name, rating)``, at most :data:`SEARCH_SIZE`, the viewer left
    out. The skeleton column is unique and indexed."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = connection.execute(
        select(_PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.rating)
        .where(
            _PLAYERS.c.skeleton.like(escaped + "%", escape="\\"),
            _PLAYERS.c.id != viewer_id,
            _PLAYERS.c.deleted_at.is_(None),
        )
        .order_by(_PLAYERS.c.skeleton)
        .limit(SEARCH_SIZE)
    )
    return [(row.id, row.name, float(row.rating)) for row in rows]
