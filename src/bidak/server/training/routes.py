"""Training over HTTP: the lobby's figures, the next card of the daily drill, and answers."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query, Response

from bidak.economy import shop
from bidak.errors import BidakError
from bidak.server.accounts import PlayerDep
from bidak.server.training.deps import TrainingDep
from bidak.server.training.schemas import AnswerIn, DrillCard, DrillOut, TrainingOut, VerdictOut
from bidak.server.training.service import BadAnswer, NoSuchCard
from bidak.server.training.share import position_svg

router = APIRouter(tags=["training"])


@router.get("/api/training", response_model=TrainingOut)
async def summary(player: PlayerDep, services: TrainingDep) -> TrainingOut:
    """Cards due today, all cards, and the drill streak (for the lobby)."""
    return TrainingOut(**await services.training.summary(player.id))


@router.get("/api/training/drill", response_model=DrillOut)
async def drill(player: PlayerDep, services: TrainingDep) -> DrillOut:
    """The next card due: its position and question, never its answer."""
    card = await services.training.next_card(player.id)
    found = None if card is None else DrillCard.model_validate(card)
    return DrillOut(card=found, summary=TrainingOut(**await services.training.summary(player.id)))


@router.post("/api/training/cards/{card_id}/answer", response_model=VerdictOut)
async def answer(
    card_id: int, body: AnswerIn, player: PlayerDep, services: TrainingDep
) -> VerdictOut:
    """Grade an answer by the equity it gave up (FSRS: best Good, close Hard, else Again) and
    schedule the card's return."""
    try:
        verdict = await services.training.answer(player.id, card_id, body.model_dump())
    except NoSuchCard as error:
        raise HTTPException(404, str(error)) from None
    except BadAnswer as error:
        raise HTTPException(422, str(error)) from None
    return VerdictOut(
        loss=verdict.loss,
        grade=verdict.grade.name.lower(),  # type: ignore[arg-type]
        best=verdict.best,
        played=verdict.played,
        due=verdict.due,
        summary=TrainingOut(**await services.training.summary(player.id)),
    )


@router.get(
    "/api/positions/share.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
async def share_svg(
    player: PlayerDep,
    xgid: str = Query(max_length=80, description="the position, as an XGID"),
    board: str | None = Query(None, max_length=32, description="a board theme; default: yours"),
) -> Response:
    """A position (from a review, a drill or a puzzle) as an SVG picture to share, from the
    view of the player on roll, in the board theme asked for or the one you chose."""
    try:
        svg = position_svg(
            xgid,
            shop.board(board or player.board),
            shop.checkers(player.checkers, 0),
            shop.checkers(None, 1),
        )
    except BidakError as error:
        raise HTTPException(422, str(error)) from None
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )
