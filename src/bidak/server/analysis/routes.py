"""The engine's advice over HTTP: hints at a practice table, and the review of a match.

Both run on threads of their own (:class:`~bidak.server.analysis.analyst.Analyst`), off the event
loop and away from the bots; when those are taken and the line is full, the answer is 503 with a
Retry-After. A review is kept in memory per match version and depth, so opening it again costs
nothing. The engine's verdicts on a friend match's decisions stay hidden until the match is
over: a review during the match would tell a player, for one, whether the double they face is a
take.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query

from bidak.engine.hints import CubeHint, PlayHint, state_hint
from bidak.engine.review import review_match
from bidak.errors import BidakError, IllegalPlay
from bidak.match import MatchState, Phase, Player, event_from_json, state_from_json
from bidak.rules import find_play
from bidak.server.accounts import PlayerDep
from bidak.server.analysis.analyst import Busy
from bidak.server.analysis.deps import AnalysisDep, AnalysisServices
from bidak.server.analysis.schemas import TUTOR_LOSS, Hint, Review, TutorAdvice, TutorAsk
from bidak.server.community import record_review
from bidak.server.play import RoomError, RoomKind, is_bot_seat, seat_of
from bidak.server.shared.deps import too_soon
from bidak.server.training import bank_review
from bidak.training import cube_loss

router = APIRouter(tags=["analysis"])

Ply = Literal["1ply", "2ply", "3ply"]
PlyQuery = Annotated[Ply, Query(alias="level")]
"""The engine's depth; the query parameter is called ``level`` on the wire."""
RETRY_SECONDS = 5


def _busy(error: Busy) -> HTTPException:
    return HTTPException(503, str(error), headers={"Retry-After": str(RETRY_SECONDS)})


@router.get("/api/rooms/{code}/hint", response_model=Hint)
async def hint(code: str, player: PlayerDep, services: AnalysisDep, ply: PlyQuery = "2ply") -> Hint:
    """The best plays (with equities) or the cube verdict for the decision you face now.

    Practice rooms only: in a friend room it would be help from outside the table.
    """
    try:
        room = await services.rooms.room(code)
    except RoomError as error:
        raise HTTPException(404, error.message) from None
    seat = seat_of(room, player.id)
    if room.kind is not RoomKind.PRACTICE or seat is None:
        raise HTTPException(403, "Hints are for your own practice matches")
    if room.match_id is None:
        raise HTTPException(409, "The match has not started")
    state = (await services.rooms.live(room.match_id)).state
    deciding = state.turn is seat and state.phase.value in ("roll", "move")
    if not deciding and not (state.phase.value == "doubled" and state.turn is not seat):
        raise HTTPException(409, "There is no decision of yours to advise on right now")
    limits = services.limits
    too_soon(await limits.wait(limits.hints, player.id, services.clock.now()), "hints")
    try:
        advice = await services.hints.run(partial(state_hint, state, ply))
    except Busy as error:
        raise _busy(error) from None
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    if advice is None:
        raise HTTPException(409, "There is no decision of yours to advise on right now")
    # The wire names of the two kinds (the client tells them apart by these words).
    kind = "PlayHint" if isinstance(advice, PlayHint) else "CubeHint"
    return Hint.model_validate({"version": state.version, "kind": kind, "hint": advice.to_json()})


@router.post("/api/rooms/{code}/tutor", response_model=TutorAdvice)
async def tutor(
    code: str, body: TutorAsk, player: PlayerDep, services: AnalysisDep, ply: PlyQuery = "1ply"
) -> TutorAdvice:
    """Tutor mode (practice only): what the play or cube decision about to be sent gives up,
    and whether the table should warn before sending it. Asking sends nothing; the review counts
    what is sent, whichever it is."""
    try:
        room = await services.rooms.room(code)
    except RoomError as error:
        raise HTTPException(404, error.message) from None
    seat = seat_of(room, player.id)
    if room.kind is not RoomKind.PRACTICE or seat is None:
        raise HTTPException(403, "The tutor is for your own practice matches")
    if room.match_id is None:
        raise HTTPException(409, "The match has not started")
    state = (await services.rooms.live(room.match_id)).state
    if (body.steps is None) == (body.cube is None):
        raise HTTPException(422, "Ask about a play (steps) or a cube decision (cube), one of them")
    if body.cube is not None:
        return await _tutor_cube(state, seat, body.cube, player.id, services, ply)
    if state.turn is not seat or state.phase is not Phase.MOVE or state.dice is None:
        raise HTTPException(409, "There is no play of yours to advise on right now")
    try:
        chosen = find_play(state.position, state.dice, [(s, e) for s, e in body.steps or []])
    except IllegalPlay as error:
        raise HTTPException(422, str(error)) from None
    limits = services.limits
    too_soon(await limits.wait(limits.hints, player.id, services.clock.now()), "hints")
    try:
        advice = await services.hints.run(partial(state_hint, state, ply))
    except Busy as error:
        raise _busy(error) from None
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    if not isinstance(advice, PlayHint):
        raise HTTPException(409, "There is no play of yours to advise on right now")
    loss = next(c.loss for c in advice.candidates if c.play.result == chosen.result)
    return TutorAdvice(
        version=state.version,
        loss=loss,
        warn=loss > TUTOR_LOSS,
        threshold=TUTOR_LOSS,
        best=advice.best.notation,
        level=advice.ply,
    )


async def _tutor_cube(
    state: MatchState,
    seat: Player,
    choice: str,
    player_id: str,
    services: AnalysisServices,
    ply: str,
) -> TutorAdvice:
    """The tutor on a cube decision: the doubler's (double, or roll: no_double) before a roll
    when the cube is theirs to turn, the taker's (take, drop) when a double is pending."""
    doubler = state.phase is Phase.ROLL and state.turn is seat
    taker = state.phase is Phase.DOUBLED and state.turn is not seat
    wanted = ("double", "no_double") if doubler else ("take", "drop") if taker else ()
    if choice not in wanted:
        raise HTTPException(409, "There is no such cube decision of yours right now")
    limits = services.limits
    too_soon(await limits.wait(limits.hints, player_id, services.clock.now()), "hints")
    try:
        advice = await services.hints.run(partial(state_hint, state, ply))
    except Busy as error:
        raise _busy(error) from None
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    if not isinstance(advice, CubeHint) or not advice.available:
        raise HTTPException(409, "There is no cube decision of yours to advise on right now")
    verdict = advice.verdict
    loss = max(
        cube_loss(
            "doubler" if doubler else "taker",
            choice,
            verdict.no_double,
            verdict.double_take,
            verdict.double_pass,
        ),
        0.0,
    )
    return TutorAdvice(
        version=state.version,
        loss=loss,
        warn=loss > TUTOR_LOSS,
        threshold=TUTOR_LOSS,
        best=advice.right_action,
        level=verdict.ply,
    )


@router.get("/api/matches/{match_id}/review", response_model=Review)
async def review(
    match_id: str, player: PlayerDep, services: AnalysisDep, ply: PlyQuery = "2ply"
) -> dict[str, Any]:
    """Every decision of the match with the engine's verdict, the luck of each roll, and each
    player's totals (PR, errors, blunders, luck); at 2ply unless asked otherwise (a 5-point
    match takes about 8 s of one core at 2ply, 1.5 s at 1ply, on the review pool's threads)."""
    row = await services.store.match(match_id)
    if row is None:
        raise HTTPException(404, "There is no such match")
    if state_from_json(row.state).phase is not Phase.MATCH_OVER:
        room = await services.store.room(row.room_code)
        if room is None or room.kind is not RoomKind.PRACTICE:
            raise HTTPException(409, "The review of a match between players opens when it ends")

    key = (match_id, row.version, ply)
    kept = services.reviews.kept(key)
    if kept is not None:
        return kept
    limits = services.limits
    too_soon(await limits.wait(limits.reviews, player.id, services.clock.now()), "reviews")
    rows = [r for r in await services.store.events(match_id) if r.version <= row.version]
    events = [event_from_json(r.payload) for r in rows]

    def work() -> dict[str, Any]:
        result = review_match(events, ply)
        return {"match_id": match_id, "version": row.version, **result.to_json()}

    try:
        result = await services.reviews.review(key, work)
    except Busy as error:
        raise _busy(error) from None
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    if row.finished:
        await _record(services, row.room_code, match_id, result, ply)
    return result


async def _record(
    services: AnalysisServices, room_code: str, match_id: str, result: dict[str, Any], ply: Ply
) -> None:
    """Keep each person's PR of a finished match for their profile (the deepest review), and
    bank each person's costly decisions as training cards (``bidak.server.training``)."""
    room = await services.store.room(room_code)
    if room is None:
        return
    prs: dict[str, float] = {}
    people: dict[int, str] = {}
    for seat, player_id in enumerate((room.seat0_id, room.seat1_id)):
        pr = result["totals"][seat].get("pr")
        if player_id is None or is_bot_seat(room, Player(seat)):
            continue
        people[seat] = player_id
        if isinstance(pr, int | float) and math.isfinite(pr):
            prs[player_id] = float(pr)
    if prs:
        await services.db.write(
            partial(record_review, match_id=match_id, prs=prs, depth=int(ply[0]))
        )
    if people:
        now = services.clock.now()
        services.training.bank_later(
            bank_review(services.db, services.reviews.run, now, match_id, result, people, ply)
        )
