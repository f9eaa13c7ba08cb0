"""Fair play's part of a guest signing in (:mod:`bidak.server.shared.store.player_steps`): the
figures of the guest's reviewed matches join the account, and so does every restriction a
moderator set on the guest (signing in is no way out of a ban); and the names a moderator
replaced, which the player may not take again."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from bidak.fairplay.doors import carried
from bidak.server.fairplay.tables import ActionRow, FiguresRow
from bidak.server.shared.doors import standing_of
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.shared.store.rows import move_rows

_PLAYERS = cast(Table, PlayerRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_FIGURES = cast(Table, FiguresRow.__table__)

_CARRIED = {
    "play_ban": ("banned", "banned from play"),
    "rated_ban": ("rated_ban", "banned from rated play"),
    "talk_muted": ("muted", "muted"),
}
"""The restrictions a moderator sets on a player: by column, the field of
:class:`bidak.fairplay.doors.Standing` it is and how an audit entry names it."""


def merge_fair_play(connection: Connection, merge: GuestMerge) -> int:
    """The guest's match figures (a match the account has figures for keeps them), and its
    restrictions: an account that gains one (a ban from play or from rated play, a mute) is
    *held* until a moderator decides (it stands in their queue), with an audit entry the
    player sees."""
    move_rows(connection, _FIGURES, "player_id", merge.guest_id, merge.into_id, same="match_id")
    into_id = merge.into_id
    account = connection.execute(
        select(_PLAYERS).where(_PLAYERS.c.id == into_id).with_for_update()
    ).first()
    if account is None:
        return 0
    before = standing_of(PlayerRow(**account._mapping))
    after = carried(standing_of(PlayerRow(**merge.guest._mapping)), before)
    gained = [c for c, (f, _) in _CARRIED.items() if getattr(after, f) != getattr(before, f)]
    if not gained:
        return 0
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == into_id)
        .values({**{c: True for c in gained}, "held": True})
    )
    connection.execute(
        insert(_ACTIONS).values(
            player_id=into_id,
            by_id=None,
            kind="carried",
            note="A guest signed in to this account carried a moderator's decision",
            detail=", ".join(_CARRIED[c][1] for c in gained),
            at=merge.at,
        )
    )
    return 0


def replaced_names(connection: Connection, player_id: str) -> Iterable[str]:
    """The names a moderator replaced on this player."""
    found = connection.execute(
        select(_ACTIONS.c.detail).where(
            _ACTIONS.c.player_id == player_id, _ACTIONS.c.kind == "rename"
        )
    ).scalars()
    return [str(name) for name in found if name]
