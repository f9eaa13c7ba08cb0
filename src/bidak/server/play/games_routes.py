"""'Your games' and vacation over HTTP: every unfinished match of the visitor (the ones waiting
on them first), the count for the header's badge, and the vacation that stops their
correspondence clocks (docs/correspondence.md)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from bidak.server.accounts import PlayerDep
from bidak.server.play.deps import PlayDep
from bidak.server.play.room import RoomError
from bidak.server.play.your_games import Vacation
from bidak.server.shared.deps import too_soon

router = APIRouter(tags=["games"])


class GameOut(BaseModel):
    room: str
    match_id: str
    yours: bool = Field(description="the match waits on your decision")
    deadline: float | None = Field(description="when the pending decision runs out (server time)")
    seat: int
    opponent: str | None = Field(description="the opponent's name")
    opponent_id: str | None
    score: tuple[int, int] = Field(description="your score, then the opponent's")
    length: int
    days_per_move: int | None = Field(description="a correspondence match: days per move")
    board: list[int] = Field(
        description="the 24 points from your side, point 1 first: yours positive, theirs negative"
    )


class GamesOut(BaseModel):
    now: float = Field(description="the server's time")
    waiting: int = Field(description="how many games wait on you (the header's badge)")
    games: list[GameOut]


@router.get("/api/games", response_model=GamesOut)
async def games(player: PlayerDep, services: PlayDep) -> GamesOut:
    """Your unfinished matches, live and correspondence: the ones waiting on you first, by
    time left, each with the opponent, the score and the board."""
    found = await services.rooms.your_games(player.id)
    names = await services.store.players([g.opponent_id for g in found if g.opponent_id])
    out = [
        GameOut(
            room=g.room,
            match_id=g.match_id,
            yours=g.yours,
            deadline=g.deadline,
            seat=g.seat,
            opponent=g.bot or (names[g.opponent_id].name if g.opponent_id in names else None),
            opponent_id=None if g.bot else g.opponent_id,
            score=g.score,
            length=g.length,
            days_per_move=g.days_per_move,
            board=list(g.board),
        )
        for g in found
    ]
    return GamesOut(now=services.clock.now(), waiting=sum(g.yours for g in found), games=out)


class SettingsIO(BaseModel):
    model_config = ConfigDict(extra="forbid")

    auto_roll: bool = Field(
        description="in correspondence matches, a roll when you cannot double and a single legal"
        " play are applied for you (off by default: you tap to roll and play them)"
    )


@router.get("/api/games/settings", response_model=SettingsIO)
async def read_settings(player: PlayerDep, services: PlayDep) -> SettingsIO:
    """Your correspondence settings."""
    return SettingsIO(auto_roll=await services.rooms.auto_roll(player.id))


@router.put("/api/games/settings", response_model=SettingsIO)
async def write_settings(body: SettingsIO, player: PlayerDep, services: PlayDep) -> SettingsIO:
    """Change your correspondence settings (from your next decision on)."""
    await services.rooms.set_auto_roll(player.id, body.auto_roll)
    return body


class VacationOut(BaseModel):
    start: float | None = Field(description="the vacation you are on or booked, from (server time)")
    end: float | None
    days_left: float = Field(description="vacation days left this calendar year")
    bank: int = Field(description="vacation days a year")


class VacationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    days: int = Field(ge=1, le=366, description="whole days from now")


def _vacation(found: Vacation) -> VacationOut:
    current = found.current
    return VacationOut(
        start=None if current is None else current.start,
        end=None if current is None else current.end,
        days_left=found.days_left,
        bank=found.bank,
    )


@router.get("/api/vacation", response_model=VacationOut)
async def read_vacation(player: PlayerDep, services: PlayDep) -> VacationOut:
    """Your vacation and the days left in your yearly bank."""
    return _vacation(await services.rooms.vacation(player.id))


@router.post("/api/vacation", response_model=VacationOut)
async def take_vacation(body: VacationIn, player: PlayerDep, services: PlayDep) -> VacationOut:
    """Take ``days`` of vacation from now: your correspondence clocks stop until it ends (409
    past your bank, or while on vacation already)."""
    limits = services.limits
    too_soon(await limits.wait(limits.rooms, player.id, services.clock.now()), "vacations")
    try:
        return _vacation(await services.rooms.take_vacation(player.id, body.days))
    except RoomError as error:
        raise HTTPException(409, {"code": error.code, "message": error.message}) from None
