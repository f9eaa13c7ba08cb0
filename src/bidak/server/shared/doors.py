"""The one door check of the server: what a player may do, from their row, by the pure rule of
:mod:`bidak.fairplay.doors`. Every route, WebSocket message and pairing that lets a player into
play or talk asks here (``docs/security.md``, "What a ban, a mute and a rated ban stop")."""

from __future__ import annotations

from fastapi import HTTPException

from bidak.fairplay.doors import Door, Refused, Standing, refusal
from bidak.server.shared.store.models import PlayerRow

__all__ = ["Door", "Refused", "admit", "refused", "standing_of"]


def standing_of(player: PlayerRow) -> Standing:
    """What the player's row says they may do."""
    return Standing(
        guest=player.email is None,
        banned=bool(player.play_ban),
        rated_ban=bool(player.rated_ban),
        muted=bool(player.talk_muted),
        moderator=bool(player.moderator),
    )


def refused(player: PlayerRow, door: Door) -> Refused | None:
    """Why ``player`` may not pass ``door`` now, or None."""
    return refusal(standing_of(player), door)


def admit(player: PlayerRow, door: Door) -> None:
    """Let ``player`` through ``door``, or refuse the request with ``403`` and the reason."""
    shut = refused(player, door)
    if shut is not None:
        raise HTTPException(403, {"code": shut.code, "message": shut.message})
