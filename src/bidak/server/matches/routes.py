"""Matches: the event log, the .mat export and the dice proof."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import PlainTextResponse

from bidak.server.matches.schemas import (
    DiceProof,
    EventItem,
    MatchEvents,
    MatchRating,
    RatingLine,
    Unrated,
)
from bidak.server.matches.service import mat_text
from bidak.server.play import PlayDep, all_dice
from bidak.server.play.tables import MatchRow

router = APIRouter(prefix="/api/matches", tags=["matches"])

ALGORITHM = (
    "die n = first byte b < 252 of HMAC-SHA256(key=seed bytes, msg=ascii(n)), as b % 6 + 1;"
    " seed_hash = SHA-256(seed bytes); see docs/fair-dice.md"
)


async def _match(services: PlayDep, match_id: str) -> MatchRow:
    row = await services.store.match(match_id)
    if row is None:
        raise HTTPException(404, "There is no such match")
    return row


@router.get("/{match_id}/events", response_model=MatchEvents)
async def events(match_id: str, services: PlayDep, since: int = 0) -> MatchEvents:
    """Every event of the match after version ``since``, in order."""
    row = await _match(services, match_id)
    rows = await services.store.events(match_id, after=since)
    return MatchEvents(
        match_id=match_id,
        finished=row.finished,
        events=[EventItem(version=r.version, event=r.payload) for r in rows],
    )


@router.get("/{match_id}/mat", response_class=PlainTextResponse)
async def export_mat(match_id: str, services: PlayDep) -> PlainTextResponse:
    """The match as a .mat file (Jellyfish / GNU Backgammon)."""
    row = await _match(services, match_id)
    return PlainTextResponse(
        await mat_text(services, row),
        headers={"Content-Disposition": f'attachment; filename="bidak-{match_id[:8]}.mat"'},
    )


@router.get("/{match_id}/dice", response_model=DiceProof)
async def dice_proof(match_id: str, services: PlayDep) -> DiceProof:
    """The commitment before the match ends; the seed and every die after it."""
    row = await _match(services, match_id)
    revealed = row.seed if row.finished else None
    return DiceProof(
        match_id=match_id,
        algorithm=ALGORITHM,
        seed_hash=row.seed_hash,
        seed=revealed,
        dice_drawn=row.dice_drawn,
        dice=all_dice(row.seed, row.dice_drawn) if revealed else None,
    )


@router.get("/{match_id}/rating", response_model=MatchRating)
async def rating(match_id: str, services: PlayDep) -> MatchRating:
    """How a rated match moved both ratings (old rating, change, new rating), once it is over."""
    row = await _match(services, match_id)
    room = await services.store.room(row.room_code)
    rated = await services.store.rated_match(match_id)
    if room is None or rated is None:
        why = await services.store.unrated_reason(match_id) if room is not None else None
        # A ban from rated play is a moderator's matter between them and the player: the
        # opponent is not told why (``banned`` is stored for the tournaments, not shown).
        unrated: Unrated | None = (
            "guest" if why == "guest" else "pair_limit" if why == "pair_limit" else None
        )
        return MatchRating(match_id=match_id, rated=False, players=[], unrated=unrated)
    lines = []
    for seat, player_id in enumerate((room.seat0_id, room.seat1_id)):
        won = player_id == rated.winner_id
        before = rated.winner_before if won else rated.loser_before
        change = rated.winner_change if won else rated.loser_change
        lines.append(RatingLine(seat=seat, before=before, change=change, after=before + change))
    return MatchRating(match_id=match_id, rated=True, players=lines)
