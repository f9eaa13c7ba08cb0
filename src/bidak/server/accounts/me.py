"""The visitor: their guest account, its name, and their match history."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from bidak.match import Phase, Player, state_from_json
from bidak.server.accounts.deps import PlayerDep
from bidak.server.accounts.names import NameRefused, clean_name
from bidak.server.accounts.schemas import Access, HistoryItem, Me, Rename
from bidak.server.mail import masked
from bidak.server.play import PlayDep, bot_seat_name, is_bot_seat, seat_of
from bidak.server.shared.store.models import PlayerRow

router = APIRouter(prefix="/api/me", tags=["me"])


def _me(player: PlayerRow) -> Me:
    return Me(
        id=player.id,
        name=player.name,
        coins=player.coins,
        email_linked=bool(player.email),
        email=masked(player.email) if player.email else None,
        rating=round(player.rating, 2),
        moderator=bool(player.moderator),
        talk_muted=bool(player.talk_muted),
        access=Access.of(player.access),
    )


@router.get("", response_model=Me)
async def read_me(request: Request, player: PlayerDep) -> Me:
    """The visitor's account; the first visit creates a guest and sets the session cookie
    (``signed_out``: the browser's session had ended, so this guest is new)."""
    return _me(player).model_copy(
        update={"signed_out": getattr(request.state, "signed_out", False)}
    )


@router.patch("", response_model=Me)
async def rename(body: Rename, player: PlayerDep, services: PlayDep) -> Me:
    """Rename the visitor. A refused name answers 422 with ``detail: {code, message}``
    (``name_length``, ``name_characters``, ``name_reserved``; ``name_taken``: another player's
    name reads the same; ``name_replaced``: a moderator replaced it) and changes nothing."""
    try:
        name = clean_name(body.name)
        return _me(await services.store.rename(player.id, name))
    except NameRefused as refused:
        raise HTTPException(422, {"code": refused.code, "message": refused.message}) from None


@router.put("/access", response_model=Me)
async def set_access(body: Access, player: PlayerDep, services: PlayDep) -> Me:
    """Keep the visitor's accessibility settings with the account (every browser it signs in
    on draws with them); an unknown switch answers 422."""
    return _me(await services.store.set_access(player.id, body.stored()))


@router.get("/matches", response_model=list[HistoryItem])
async def history(player: PlayerDep, services: PlayDep) -> list[HistoryItem]:
    """The visitor's matches, newest first."""
    rows = await services.store.rooms_of(player.id)
    others = [r.seat1_id if r.seat0_id == player.id else r.seat0_id for r, _ in rows]
    names = await services.store.players([o for o in others if o])
    items: list[HistoryItem] = []
    for (room, match), other in zip(rows, others, strict=True):
        state = state_from_json(match.state)
        seat = seat_of(room, player.id) or Player.ZERO
        bot = is_bot_seat(room, seat.opponent)
        if bot:
            opponent = bot_seat_name(room.bot_level)
        else:
            opponent = names[other].name if other in names else "(waiting)"
        finished = state.phase is Phase.MATCH_OVER
        items.append(
            HistoryItem(
                room=room.code,
                match_id=match.id,
                kind=room.kind.value,
                seat=int(seat),
                opponent=opponent,
                bot=room.bot_level if bot else None,
                length=state.rules.length,
                score=[state.score[seat], state.score[seat.opponent]],
                finished=finished,
                won=None if not finished else state.winner is seat,
                updated_at=match.updated_at.isoformat(),
            )
        )
    return items
