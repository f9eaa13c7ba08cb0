"""Training over HTTP: the lobby's figures, the next card of the daily drill, and answers."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from bidak.server.accounts import PlayerDep
from bidak.server.training.deps import TrainingDep
from bidak.server.training.schemas import Answer, Drill, DrillCard, Summary, Verdict
from bidak.server.training.service import BadAnswer, NoSuchCard

router = APIRouter(tags=["training"])


@router.get("/api/training", response_model=Summary)
async def summary(player: PlayerDep, services: TrainingDep) -> Summary:
    """Cards due today, all cards, and the drill streak (for the lobby)."""
    return Summary(**await services.training.summary(player.id))


@router.get("/api/training/drill", response_model=Drill)
async def drill(player: PlayerDep, services: TrainingDep) -> Drill:
    """The next card due: its position and question, never its answer."""
    card = await services.training.next_card(player.id)
    found = None if card is None else DrillCard.model_validate(card)
    return Drill(card=found, summary=Summary(**await services.training.summary(player.id)))


@router.post("/api/training/cards/{card_id}/answer", response_model=Verdict)
async def answer(card_id: int, body: Answer, player: PlayerDep, services: TrainingDep) -> Verdict:
    """Grade an answer by the equity it gave up (FSRS: best Good, close Hard, else Again) and
    schedule the card's return."""
    try:
        verdict = await services.training.answer(player.id, card_id, body.model_dump())
    except NoSuchCard as error:
        raise HTTPException(404, str(error)) from None
    except BadAnswer as error:
        raise HTTPException(422, str(error)) from None
    return Verdict(
        loss=verdict.loss,
        grade=verdict.grade.name.lower(),  # type: ignore[arg-type]
        best=verdict.best,
        played=verdict.played,
        due=verdict.due,
        summary=Summary(**await services.training.summary(player.id)),
    )
