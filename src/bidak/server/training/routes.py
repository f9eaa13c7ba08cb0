"""Training over HTTP: the lobby's figures, the next card of the daily drill, and answers;
puzzles and their sharing switch; a position as a picture (SVG or PNG)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response

from bidak.economy import shop
from bidak.economy.shop import BoardTheme, CheckerSet
from bidak.errors import BidakError
from bidak.server.accounts import PlayerDep
from bidak.server.shared.deps import too_soon
from bidak.server.shared.store.models import PlayerRow
from bidak.server.training.deps import TrainingDep, TrainingServices
from bidak.server.training.schemas import (
    AnswerIn,
    DrillCard,
    DrillOut,
    NextPuzzleOut,
    PuzzleOut,
    PuzzleSummaryOut,
    PuzzleVerdictOut,
    SharingIn,
    TrainingOut,
    VerdictOut,
)
from bidak.server.training.service import BadAnswer, NoSuchCard
from bidak.server.training.share import NoRasteriser
from bidak.training import Theme

router = APIRouter(tags=["training"])

RowId = Annotated[int, Path(ge=1, le=2**63 - 1, description="a row's id")]
"""An id the database can hold (a 64-bit integer): a larger one is refused with 422 before any
query (a 500 ``OverflowError`` before, issue 37)."""


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
    card_id: RowId, body: AnswerIn, player: PlayerDep, services: TrainingDep
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
        due_in=max(0.0, verdict.due - services.training.clock.now()),
        summary=TrainingOut(**await services.training.summary(player.id)),
    )


@router.get("/api/puzzles", response_model=PuzzleSummaryOut)
async def puzzles(player: PlayerDep, services: TrainingDep) -> PuzzleSummaryOut:
    """The solver's puzzle rating and answers, the sharing switch, and puzzles left by theme."""
    return PuzzleSummaryOut(**await services.training.puzzles.summary(player.id))


@router.get("/api/puzzles/next", response_model=NextPuzzleOut)
async def next_puzzle(
    player: PlayerDep,
    services: TrainingDep,
    theme: Annotated[Theme | None, Query(description="only puzzles of this theme")] = None,
) -> NextPuzzleOut:
    """The puzzle nearest your puzzle rating that you have not answered (none of your own)."""
    chosen = services.training.puzzles
    found = await chosen.next_puzzle(player.id, None if theme is None else theme.value)
    return NextPuzzleOut(
        puzzle=None if found is None else PuzzleOut.model_validate(found),
        summary=PuzzleSummaryOut(**await chosen.summary(player.id)),
    )


@router.post("/api/puzzles/{puzzle_id}/answer", response_model=PuzzleVerdictOut)
async def answer_puzzle(
    puzzle_id: RowId, body: AnswerIn, player: PlayerDep, services: TrainingDep
) -> PuzzleVerdictOut:
    """Judge the answer (right: the best, or within PUZZLE_RIGHT of it) and move your rating and
    the puzzle's (Glicko-2) in one transaction. Each puzzle is answered once: sending again,
    whatever the answer, gives the first verdict with ``repeated`` true."""
    try:
        found = await services.training.puzzles.answer(player.id, puzzle_id, body.model_dump())
    except NoSuchCard as error:
        raise HTTPException(404, str(error)) from None
    except BadAnswer as error:
        raise HTTPException(422, str(error)) from None
    return PuzzleVerdictOut(**found)


@router.put("/api/puzzles/sharing", response_model=PuzzleSummaryOut)
async def sharing(body: SharingIn, player: PlayerDep, services: TrainingDep) -> PuzzleSummaryOut:
    """Whether your banked positions may become puzzles for others (anonymous). Off: your
    puzzles leave the pool at once, and cards banked from then on are not offered."""
    await services.training.puzzles.share(player.id, body.shared)
    return PuzzleSummaryOut(**await services.training.puzzles.summary(player.id))


@router.get(
    "/api/positions/share.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
async def share_svg(
    request: Request,
    player: PlayerDep,
    services: TrainingDep,
    xgid: str = Query(max_length=80, description="the position, as an XGID"),
    board: str | None = Query(None, max_length=32, description="a board theme; default: yours"),
) -> Response:
    """A position (from a review, a drill or a puzzle) as an SVG picture to share, from the
    view of the player on roll, in the board theme asked for or the one you chose. A picture
    drawn before is free; a new one counts against the player's and the address's picture
    allowance (429 past it)."""
    looks = _looks(player, board)
    svg = services.training.pictures.cached(services.training.pictures.key("svg", xgid, *looks))
    if svg is None:
        await _may_draw(request, player, services)
        try:
            svg = await services.training.pictures.svg(xgid, *looks)
        except BidakError as error:
            raise HTTPException(422, str(error)) from None
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": PRIVATE})


PRIVATE = "private, max-age=86400"
"""A picture is drawn in the asker's checkers: a shared cache must not give it to others."""


def _looks(player: PlayerRow, board: str | None) -> tuple[BoardTheme, CheckerSet, CheckerSet]:
    return (
        shop.board(board or player.board),
        shop.checkers(player.checkers, 0),
        shop.checkers(None, 1),
    )


async def _may_draw(request: Request, player: PlayerRow, services: TrainingServices) -> None:
    """A picture not drawn before counts against the player's allowance and the address's."""
    limits, now = services.limits, services.clock.now()
    address = request.client.host if request.client else ""
    too_soon(await limits.wait(limits.pictures, player.id, now), "pictures")
    too_soon(await limits.wait(limits.pictures_address, address, now), "pictures")


@router.get(
    "/api/positions/share.png",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}, 503: {"description": "no rasteriser"}},
)
async def share_png(
    request: Request,
    player: PlayerDep,
    services: TrainingDep,
    xgid: str = Query(max_length=80, description="the position, as an XGID"),
    board: str | None = Query(None, max_length=32, description="a board theme; default: yours"),
) -> Response:
    """The share picture as a PNG (for chat apps that show no SVG), drawn from the same drawing
    as the SVG at twice its size, on the pictures' own threads (:mod:`.pictures`: at most two
    at once, kept in a bounded cache). A new picture counts against the player's and the
    address's allowance (429 past it); 503 when the server has no rasteriser (Pillow)."""
    looks = _looks(player, board)
    png = services.training.pictures.cached(services.training.pictures.key("png", xgid, *looks))
    if png is None:
        await _may_draw(request, player, services)
        try:  # about 0.2 s of one core: off the event loop
            png = await services.training.pictures.png(xgid, *looks)
        except BidakError as error:
            raise HTTPException(422, str(error)) from None
        except NoRasteriser as error:
            raise HTTPException(503, str(error)) from None
    return Response(png, media_type="image/png", headers={"Cache-Control": PRIVATE})
