"""Tournaments over HTTP: the list, a player's knockout, joining, pausing, checking in, and one
tournament's standings or bracket (docs/tournaments.md). Updates come over the player's
WebSocket (``{"type": "tournament", ...}``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response

from bidak.server.accounts import PlayerDep
from bidak.server.shared import lookups
from bidak.server.shared.deps import too_soon
from bidak.server.shared.doors import Door, admit
from bidak.server.tournaments.deps import TournamentDep, TournamentServices
from bidak.server.tournaments.queries import TournamentError
from bidak.server.tournaments.schemas import (
    Created,
    KnockoutIn,
    Mine,
    NextMatch,
    PauseIn,
    SeatOut,
    SlotOut,
    StandingOut,
    TableTournament,
    TournamentItem,
    TournamentList,
    TournamentView,
)
from bidak.tournament import ArenaEntrant, standings
from bidak.tournament.knockout import from_json

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

_STATUS = {"not_found": 404, "bad_length": 422}


def _refused(error: TournamentError) -> HTTPException:
    return HTTPException(_STATUS.get(error.code, 409), error.message)


@router.get("", response_model=TournamentList)
async def listing(services: TournamentDep) -> TournamentList:
    """Public tournaments not over (the site's arenas, with their start for a countdown)."""
    rows = await services.tournaments.listing()
    items = [
        TournamentItem(
            id=row["id"],
            kind=row["kind"],
            name=row["name"],
            status=row["status"],
            starts_at=row["starts_at"],
            ends_at=row["ends_at"],
            length=row["lengths"]["rounds"][0],
            move_seconds=row["move_seconds"],
            players=row["players"],
        )
        for row in rows
    ]
    return TournamentList(now=services.clock.now(), tournaments=items)


@router.post("", response_model=Created, status_code=201)
async def create(body: KnockoutIn, player: PlayerDep, services: TournamentDep) -> Created:
    """A knockout of the player's, reached by its link (``/t/<id>``); the creator is in it.
    Only for a linked account that may play tournaments."""
    admit(player, Door.CREATE_TOURNAMENT)
    limits = services.limits
    too_soon(await limits.wait(limits.tournaments, player.id, services.clock.now()), "tournaments")
    try:
        made = await services.tournaments.create_knockout(
            player.id,
            body.name,
            body.max_players,
            tuple(body.lengths),
            body.move_seconds,
            body.starts_in_minutes * 60.0,
            body.round_minutes * 60.0,
        )
        await services.tournaments.join(made, player.id, player.rating)
    except TournamentError as error:
        raise _refused(error) from error
    return Created(id=made)


async def _may_look_up(request: Request, services: TournamentServices) -> None:
    await lookups.admit(request, services, "unknown tournaments")


async def _missed(
    request: Request, services: TournamentServices, error: TournamentError
) -> HTTPException:
    """The refusal of a request; an unknown id counts against the address, as an unknown room
    code does (:mod:`bidak.server.shared.lookups`)."""
    if error.code == "not_found":
        await lookups.count_miss(request, services)
    return _refused(error)


@router.get("/mine", response_model=Mine)
async def mine(player: PlayerDep, services: TournamentDep) -> Mine:
    """Whether you are in a tournament not over, and the match whose table waits for you:
    every page of yours goes there (asked when the page loads and its socket opens)."""
    return Mine.model_validate(await services.tournaments.mine(player.id))


@router.get("/room/{code}", response_model=TableTournament)
async def of_room(
    code: str, request: Request, player: PlayerDep, services: TournamentDep
) -> TableTournament:
    """The tournament a table belongs to, for its header and match-over dialog; 404 when it
    belongs to none, which spends the address's allowance of unknown codes as a room lookup
    does (so this is no way around it)."""
    await _may_look_up(request, services)
    found = await services.tournaments.of_room(code.strip().upper(), player.id)
    if found is None:
        raise await _missed(
            request, services, TournamentError("not_found", "That table is no tournament's")
        )
    return TableTournament.model_validate(found)


@router.get("/{tournament_id}", response_model=TournamentView)
async def view(
    tournament_id: str, request: Request, player: PlayerDep, services: TournamentDep
) -> TournamentView:
    await _may_look_up(request, services)
    try:
        found = await services.tournaments.view(tournament_id)
    except TournamentError as error:
        raise await _missed(request, services, error) from error
    return present(found, player.id, services.clock.now())


@router.post("/{tournament_id}/join", response_model=TournamentView)
async def join(
    tournament_id: str, request: Request, player: PlayerDep, services: TournamentDep
) -> TournamentView:
    """Enter (an arena: also come back from a pause). 409 when it is over, full, or a
    knockout that has started; 403 for a player banned from play or from rated play."""
    admit(player, Door.TOURNAMENT)
    await _may_look_up(request, services)
    try:
        await services.tournaments.join(tournament_id, player.id, player.rating)
        found = await services.tournaments.view(tournament_id)
    except TournamentError as error:
        raise await _missed(request, services, error) from error
    return present(found, player.id, services.clock.now())


@router.post("/{tournament_id}/pause", status_code=204, response_class=Response)
async def pause(
    tournament_id: str, body: PauseIn, player: PlayerDep, services: TournamentDep
) -> Response:
    """An arena's player stops being paired (a match in play goes on), or comes back."""
    try:
        await services.tournaments.pause(tournament_id, player.id, body.paused)
    except TournamentError as error:
        raise _refused(error) from error
    return Response(status_code=204)


@router.post("/{tournament_id}/ready", response_model=NextMatch | None)
async def ready(tournament_id: str, player: PlayerDep, services: TournamentDep) -> NextMatch | None:
    """Check in for one's knockout match of the current round; the match starts when both
    have. Who has not by the round's deadline forfeits it."""
    admit(player, Door.TOURNAMENT)
    try:
        await services.tournaments.check_in(tournament_id, player.id)
        found = await services.tournaments.view(tournament_id)
    except TournamentError as error:
        raise _refused(error) from error
    return present(found, player.id, services.clock.now()).next_match


def present(found: dict[str, Any], me: str, now: float) -> TournamentView:
    """The stored tournament as ``me`` sees it."""
    t = found["tournament"]
    players = {row["player_id"]: row for row in found["players"]}
    names = {pid: row["name"] for pid, row in players.items()}
    matches = found["matches"]
    table = standings(
        ArenaEntrant(
            pid,
            row["rating"],
            score=row["score"],
            streak=row["streak"],
            wins=row["wins"],
            played=row["played"],
        )
        for pid, row in players.items()
    )
    standing_out = [
        StandingOut(
            rank=s.rank,
            id=s.player,
            name=names[s.player],
            score=s.score,
            wins=s.wins,
            played=s.played,
            streak=s.streak,
            playing=players[s.player]["room_code"] is not None,
            paused=bool(players[s.player]["paused"]),
        )
        for s in table
    ]
    bracket_out = None
    current = None
    if t["bracket"] is not None:
        bracket = from_json(t["bracket"])
        current = bracket.current_round
        rooms = {(m["round"], m["slot"]): m["room_code"] for m in matches}

        def seat(pid: str | None) -> SeatOut | None:
            if pid is None:
                return None
            return SeatOut(id=pid, name=names.get(pid, "?"), seed=bracket.seed_of(pid))

        bracket_out = [
            [
                SlotOut(
                    a=seat(slot.a),
                    b=seat(slot.b),
                    winner=slot.winner,
                    how=slot.how,
                    room=rooms.get((number, index)),
                )
                for index, slot in enumerate(slots)
            ]
            for number, slots in enumerate(bracket.rounds)
        ]
    next_match = None
    for m in reversed(matches):
        if m["winner_id"] is None and me in (m["seat0_id"], m["seat1_id"]):
            other = m["seat1_id"] if m["seat0_id"] == me else m["seat0_id"]
            next_match = NextMatch(
                room=m["room_code"],
                opponent=other,
                opponent_name=names.get(other, "?"),
                started=m["match_id"] is not None,
                round=m["round"],
            )
            break
    mine = players.get(me)
    return TournamentView(
        id=t["id"],
        kind=t["kind"],
        name=t["name"],
        status=t["status"],
        now=now,
        starts_at=t["starts_at"],
        ends_at=t["ends_at"],
        round_deadline=t["round_deadline"],
        lengths=list(t["lengths"]["rounds"]),
        move_seconds=t["move_seconds"],
        max_players=t["max_players"],
        players=len(players),
        private=bool(t["private"]),
        winner=t["winner_id"],
        winner_name=names.get(t["winner_id"]) if t["winner_id"] else None,
        joined=mine is not None,
        paused=bool(mine["paused"]) if mine is not None else False,
        standings=standing_out,
        bracket=bracket_out,
        current_round=current,
        next_match=next_match,
    )
