"""The quick match queue's transactions (each inside ``Database.write``) and reads."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import cast

from sqlalchemy import Table, bindparam, delete, insert, select, text, update
from sqlalchemy.engine import Connection

from bidak.fairplay.doors import Standing
from bidak.match import RuleSet, TimeoutPolicy
from bidak.pairing import Options, Seeker, pair
from bidak.server.friends import blocked_pairs
from bidak.server.matchmaking.tables import QueueRow
from bidak.server.play.tables import MuteRow
from bidak.server.shared.store.models import PlayerRow

_QUEUE = cast(Table, QueueRow.__table__)
_MUTES = cast(Table, MuteRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)
# Built once: an ``in_`` of a list built per call leaves a reference cycle behind
# (docs/architecture.md, "Storage").
_WAITING = (
    select(_QUEUE, _PLAYERS.c.email, _PLAYERS.c.play_ban, _PLAYERS.c.rated_ban)
    .join(_PLAYERS, _PLAYERS.c.id == _QUEUE.c.player_id)
    .order_by(_QUEUE.c.since)
)
_TAKE = delete(_QUEUE).where(_QUEUE.c.player_id.in_(bindparam("pair", expanding=True)))
_ENTRIES_OF = select(_QUEUE).where(_QUEUE.c.player_id.in_(bindparam("players", expanding=True)))


def enqueue_all(
    connection: Connection, entries: Sequence[tuple[str, float, Options, float]]
) -> list[float]:
    """Put each player in the queue, ``(player_id, rating, options, since)``, replacing another
    entry of theirs; the time each waits from, in order (kept when they were already waiting
    with the same options). Three statements for all of them (one read, one delete, one
    insert), not two or three each: a crowd's joins share this transaction, and on PostgreSQL
    each statement is a round trip."""
    wanted = {player_id: options for player_id, _, options, _ in entries}
    found = {
        row.player_id: row for row in connection.execute(_ENTRIES_OF, {"players": list(wanted)})
    }
    kept: dict[str, float] = {}
    for player_id, row in found.items():
        if Options(row.length, row.move_seconds, row.cube) == wanted[player_id]:
            kept[player_id] = float(row.since)
    replaced = [player_id for player_id in found if player_id not in kept]
    if replaced:
        connection.execute(_TAKE, {"pair": replaced})
    sinces: list[float] = []
    new: dict[str, dict[str, object]] = {}
    for player_id, rating, options, since in entries:
        if player_id in kept:
            sinces.append(kept[player_id])
            continue
        sinces.append(since)
        new[player_id] = {  # a player twice in one batch: the last options count
            "player_id": player_id,
            "rating": rating,
            "length": options.length,
            "move_seconds": options.move_seconds,
            "cube": options.cube,
            "since": since,
            "offered": False,
        }
    if new:
        connection.execute(insert(_QUEUE), list(new.values()))
    return sinces


def leave(connection: Connection, player_id: str) -> bool:
    """Take the player out of the queue; False if they were not in it."""
    return bool(connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id)).rowcount)


QUEUE_LOCK = 0x62716D71  # "bqmq": the advisory lock a pairing pass holds (PostgreSQL)


def lock_queue(connection: Connection) -> None:
    """Take the queue's lock for the rest of the transaction (PostgreSQL): the pairing passes
    of several processes then take turns, each reading the queue as the last one left it, so
    no two pair the same player and none pairs with a stale list (on SQLite, writes already
    take turns)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": QUEUE_LOCK})


def pair_waiting(
    connection: Connection,
    now: float,
    seen: list[tuple[Seeker, bool]],
    seated: list[tuple[Seeker, Seeker]],
) -> list[tuple[str, str, RuleSet, int]]:
    """Under the queue's lock, pair whoever waits and take the pairs out of the queue; the
    matches to start, ``(first, second, rules, move_seconds)``. ``seen`` is filled with who
    waited (and whether each was offered a bot), ``seated`` with the pairs, first in seat 0
    (replaced, not added to, if the transaction runs again)."""
    lock_queue(connection)
    seen[:] = seekers(connection)
    pairs = pair([s for s, _ in seen], now)
    seated[:] = [(a, b) if secrets.randbelow(2) == 0 else (b, a) for a, b in pairs]
    take(connection, [s.player for two in seated for s in two])
    return [
        (
            first.player,
            second.player,
            RuleSet(
                length=first.options.length,
                cube=first.options.cube,
                timeout_policy=TimeoutPolicy.THREE_STRIKES,
            ),
            first.options.move_seconds,
        )
        for first, second in seated
    ]


def take(connection: Connection, players: Sequence[str]) -> None:
    """Take ``players`` out of the queue (they were paired)."""
    if players:
        connection.execute(_TAKE, {"pair": list(players)})


def mark_offered(connection: Connection, player_id: str) -> bool:
    """Note that the player was offered a bot; False if they were already (or are gone)."""
    marked = connection.execute(
        update(_QUEUE)
        .where(_QUEUE.c.player_id == player_id, _QUEUE.c.offered.is_(False))
        .values(offered=True)
    )
    return bool(marked.rowcount)


def seekers(connection: Connection) -> list[tuple[Seeker, bool]]:
    """Everybody waiting who may be paired (with whom they muted, whom they blocked or were
    blocked by (``bidak.server.friends``), and whether they expect a
    rated game or may play unrated ones only), and whether each was offered a bot. A player
    banned from play is left out: the door check refuses them the queue, and a ban that came
    while they waited (or a guest's, carried into the account at a sign-in) keeps them out of
    every pairing (``bidak.fairplay.doors``)."""
    muted: dict[str, set[str]] = {}
    for row in connection.execute(select(_MUTES.c.player_id, _MUTES.c.muted_id)):
        muted.setdefault(row.player_id, set()).add(row.muted_id)
    waiting = connection.execute(_WAITING).all()
    blocked = blocked_pairs(connection, [row.player_id for row in waiting])
    found = []
    for row in waiting:
        standing = Standing(
            guest=row.email is None, banned=bool(row.play_ban), rated_ban=bool(row.rated_ban)
        )
        if standing.banned:
            continue
        options = Options(row.length, row.move_seconds, row.cube)
        seeker = Seeker(
            row.player_id,
            row.rating,
            options,
            row.since,
            frozenset(muted.get(row.player_id, ())),
            blocked=frozenset(blocked.get(row.player_id, ())),
            expects_rated=standing.expects_rated,
            unrated_only=standing.rated_ban,
        )
        found.append((seeker, bool(row.offered)))
    return found


def entry(connection: Connection, player_id: str) -> QueueRow | None:
    """The player's entry in the queue, or None."""
    row = connection.execute(select(_QUEUE).where(_QUEUE.c.player_id == player_id)).first()
    return None if row is None else QueueRow(**row._mapping)
