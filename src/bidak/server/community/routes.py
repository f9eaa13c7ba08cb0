"""Profiles, the leaderboard and the live games list over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Literal, cast

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from bidak.server.accounts import PlayerDep
from bidak.server.community import queries
from bidak.server.shared.deps import SharedDep
from bidak.server.shared.store.rows import is_key

TYPICAL_LENGTH = 5
"""The match length "how many more matches" counts in (quick and friend matches' usual one)."""

router = APIRouter(tags=["community"])


class RecentMatch(BaseModel):
    match_id: str
    opponent_id: str
    opponent: str
    won: bool
    length: int
    rating_change: float
    at: str
    review: str = Field(description="the match's review page")


class TournamentResult(BaseModel):
    id: str | None = Field(description="the tournament's page /#/t/<id>; null: a private one")
    name: str
    kind: Literal["arena", "knockout"]
    place: int = Field(description="1 the winner; equal places are shared")
    players: int
    at: float = Field(description="its start, in seconds since the epoch")


class Trophy(BaseModel):
    kind: Literal["arena", "knockout"]
    place: int = Field(description="1, 2 or 3")
    count: int


class ProfileOut(BaseModel):
    id: str
    name: str
    rating: float
    experience: int
    member_since: str
    played: int = Field(description="rated matches played")
    won: int
    streak: int = Field(description="+n: the last n rated matches won; -n: lost")
    recent: list[RecentMatch] = Field(description="the last 20 rated matches, newest first")
    average_pr: float | None = Field(description="over the reviewed matches; null before any")
    reviewed: int
    tournaments: list[TournamentResult] = Field(
        description="the last 20 finished tournaments played, newest first"
    )
    trophies: list[Trophy] = Field(
        description="cosmetic badges: the first three places of all finished tournaments"
    )
    guest: bool = Field(False, description="no linked e-mail address: the player is unrated")
    tournament_played: int = Field(0, description="tournament matches decided, rated or not")
    tournament_won: int = 0


class Leader(BaseModel):
    rank: int
    id: str
    name: str
    rating: float
    experience: int


class LeaderboardOut(BaseModel):
    leaders: list[Leader]
    your_rank: int | None = Field(description="null: you are not on the board yet")
    min_experience: int = queries.MIN_EXPERIENCE
    active_days: int = queries.ACTIVE_DAYS
    your_experience: int = Field(0, description="your experience: the sum of your rated lengths")
    matches_to_go: int = Field(
        0,
        description="how many more rated 5-point matches bring your experience to"
        " min_experience (0: enough; then a rated match in active_days puts you on the board)",
    )


class LivePlayer(BaseModel):
    id: str
    name: str
    rating: float


class LiveGame(BaseModel):
    room: str
    kind: str
    match_id: str
    players: list[LivePlayer | None]
    length: int | None
    score: list[int] | None
    started_at: str


@router.get("/api/players/{player_id}", response_model=ProfileOut)
async def profile(player_id: str, services: SharedDep) -> ProfileOut:
    """A player's rating, results, recent rated matches and average PR (never their e-mail)."""
    found = (
        await services.db.read(partial(queries.profile, player_id=player_id))
        if is_key(player_id)
        else None
    )
    if found is None:
        raise HTTPException(404, "There is no such player")
    cup_played, cup_won = await services.db.read(
        partial(queries.tournament_matches, player_id=player_id)
    )
    return ProfileOut(
        guest=found.guest,
        tournament_played=cup_played,
        tournament_won=cup_won,
        id=found.id,
        name=found.name,
        rating=round(found.rating, 2),
        experience=found.experience,
        member_since=found.member_since.isoformat(),
        played=found.played,
        won=found.won,
        streak=found.streak,
        recent=[
            RecentMatch(
                match_id=line.match_id,
                opponent_id=line.opponent_id,
                opponent=line.opponent,
                won=line.won,
                length=line.length,
                rating_change=round(line.change, 2),
                at=line.at.isoformat(),
                review=f"/#/review/{line.match_id}",
            )
            for line in found.recent
        ],
        average_pr=None if found.average_pr is None else round(found.average_pr, 2),
        reviewed=found.reviewed,
        tournaments=[
            TournamentResult(
                id=line.tournament_id,
                name=line.name,
                kind=cast(Any, line.kind),
                place=line.place,
                players=line.players,
                at=line.at,
            )
            for line in found.tournaments
        ],
        trophies=[
            Trophy(kind=cast(Any, kind), place=place, count=count)
            for (kind, place), count in sorted(
                found.trophies.items(), key=lambda item: (item[0][1], item[0][0])
            )
        ],
    )


@router.get("/api/leaderboard", response_model=LeaderboardOut)
async def leaderboard(player: PlayerDep, services: SharedDep) -> LeaderboardOut:
    """The top 100 by rating among players with experience of at least 50 who played a rated
    match in the last 60 days (ties: more experience first), and your own rank."""
    now = datetime.fromtimestamp(services.clock.now(), UTC)
    since = now - timedelta(days=queries.ACTIVE_DAYS)
    top, rank = await services.db.read(
        partial(queries.leaderboard, viewer_id=player.id, since=since)
    )
    leaders = [Leader(**row | {"rating": round(row["rating"], 2)}) for row in top]
    missing = max(0, queries.MIN_EXPERIENCE - player.experience)
    return LeaderboardOut(
        leaders=leaders,
        your_rank=rank,
        your_experience=player.experience,
        matches_to_go=-(-missing // TYPICAL_LENGTH),
    )


@router.get("/api/live", response_model=list[LiveGame])
async def live(services: SharedDep) -> list[LiveGame]:
    """Matches being played now (quick matches, and friend rooms not marked private), newest
    first; open ``/#/room/{room}`` to watch."""
    games = await services.db.read(queries.live)
    return [
        LiveGame(
            **game
            | {
                "started_at": game["started_at"].isoformat(),
                "players": [
                    None if p is None else p | {"rating": round(p["rating"], 2)}
                    for p in game["players"]
                ],
            }
        )
        for game in games
    ]
