"""Friends over HTTP: follow and unfollow, the friends list, a name search, what two players
are to each other, block and unblock, and challenges (make, list, accept, decline, withdraw)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, Field

from bidak.challenges import EXPIRES_AFTER
from bidak.server.accounts import PlayerDep, skeleton
from bidak.server.friends.challenge_queries import Listed
from bidak.server.friends.deps import FriendsDep
from bidak.server.friends.service import FriendsError, Relation
from bidak.server.play import FriendOptions
from bidak.server.shared.deps import too_soon
from bidak.server.shared.doors import Door, admit

router = APIRouter(tags=["friends"])

_STATUS = {
    "self": 400,
    "not_found": 404,
    "blocked": 403,
    "already_challenged": 409,
    "too_many_open": 409,
    "answered": 409,
    "unavailable": 409,
    "expired": 410,
}


def _refused(error: FriendsError) -> HTTPException:
    return HTTPException(
        _STATUS.get(error.code, 409), {"code": error.code, "message": error.message}
    )


class FriendOut(BaseModel):
    id: str
    name: str
    rating: float
    guest: bool = Field(description="no linked e-mail address: unrated")
    online: bool = Field(description="seen in the last 10 minutes")
    playing: bool = Field(description="at a live table whose match is in play")
    room: str | None = Field(description="that table, when anybody may watch it (not private)")


class FriendsOut(BaseModel):
    friends: list[FriendOut] = Field(description="the players you follow, latest first")


class FoundOut(BaseModel):
    id: str
    name: str
    rating: float


class SearchOut(BaseModel):
    players: list[FoundOut] = Field(description="at most 10 names that begin so")


class ChallengeOut(BaseModel):
    id: str
    player_id: str = Field(description="the other player: the challenger or the challenged")
    name: str
    created: float = Field(description="server time")
    expires: float = Field(description="when it lapses unanswered (three days on)")
    options: FriendOptions


class ChallengesOut(BaseModel):
    now: float = Field(description="the server's time")
    incoming: list[ChallengeOut] = Field(description="open challenges to you, newest first")
    outgoing: list[ChallengeOut] = Field(description="your open challenges, newest first")


class RelationOut(BaseModel):
    following: bool = Field(description="you follow them")
    blocking: bool = Field(description="you blocked them")
    online: bool
    incoming: list[ChallengeOut] = Field(description="their open challenges to you")
    outgoing: list[ChallengeOut] = Field(description="your open challenges to them")


class BlockedOut(BaseModel):
    players: list[FoundOut] = Field(description="the players you blocked, latest first")


class ChallengeIn(FriendOptions):
    """A friend room's options, and whom they challenge."""

    to: str = Field(max_length=32, description="the challenged player's id")


class AcceptOut(BaseModel):
    room: str = Field(description="the new table (/#/room/<room>), both seats taken")


class AnswerOut(BaseModel):
    state: str = Field(description="declined or cancelled")


def _challenge(found: Listed) -> ChallengeOut:
    return ChallengeOut(
        id=found.id,
        player_id=found.other_id,
        name=found.other,
        created=found.created,
        expires=found.created + EXPIRES_AFTER,
        options=FriendOptions.model_validate(found.options),
    )


def _relation(found: Relation) -> RelationOut:
    return RelationOut(
        following=found.following,
        blocking=found.blocking,
        online=found.online,
        incoming=[_challenge(c) for c in found.incoming],
        outgoing=[_challenge(c) for c in found.outgoing],
    )


@router.get("/api/friends", response_model=FriendsOut)
async def friends(player: PlayerDep, services: FriendsDep) -> FriendsOut:
    """The players you follow: who is online now, and the live table each sits at."""
    found = await services.friends.friends(player.id)
    return FriendsOut(
        friends=[
            FriendOut(
                id=f.id,
                name=f.name,
                rating=round(f.rating, 2),
                guest=f.guest,
                online=on,
                playing=f.playing,
                room=f.room,
            )
            for f, on in found
        ]
    )


@router.get("/api/friends/search", response_model=SearchOut)
async def search(
    player: PlayerDep, services: FriendsDep, name: str = Query(min_length=1, max_length=40)
) -> SearchOut:
    """Players whose name begins with ``name`` (as a person reads it: look-alikes match)."""
    if not name.isprintable():
        return SearchOut(players=[])
    prefix = skeleton(name)
    if not prefix or not prefix.isprintable():
        return SearchOut(players=[])
    found = await services.friends.search(player.id, prefix)
    return SearchOut(players=[FoundOut(id=i, name=n, rating=round(r, 2)) for i, n, r in found])


async def _relation_of(player_id: str, them: str, services: FriendsDep) -> RelationOut:
    try:
        return _relation(await services.friends.relation(player_id, them))
    except FriendsError as error:
        raise _refused(error) from None


@router.get("/api/friends/{player_id}", response_model=RelationOut)
async def relation(player_id: str, player: PlayerDep, services: FriendsDep) -> RelationOut:
    """What you and this player are to each other: following, blocking, their open
    challenges to you and yours to them, and whether they are online."""
    return await _relation_of(player.id, player_id, services)


@router.put("/api/friends/{player_id}", response_model=RelationOut)
async def follow(player_id: str, player: PlayerDep, services: FriendsDep) -> RelationOut:
    """Follow this player (again: nothing changes). Refused when they blocked you."""
    try:
        await services.friends.follow(player.id, player_id)
    except FriendsError as error:
        raise _refused(error) from None
    return await _relation_of(player.id, player_id, services)


@router.delete("/api/friends/{player_id}", response_model=RelationOut)
async def unfollow(player_id: str, player: PlayerDep, services: FriendsDep) -> RelationOut:
    """Stop following this player."""
    await services.friends.unfollow(player.id, player_id)
    return await _relation_of(player.id, player_id, services)


@router.get("/api/blocks", response_model=BlockedOut)
async def blocked(player: PlayerDep, services: FriendsDep) -> BlockedOut:
    """The players you blocked."""
    found = await services.friends.blocked(player.id)
    return BlockedOut(players=[FoundOut(id=i, name=n, rating=0.0) for i, n in found])


@router.put("/api/blocks/{player_id}", response_model=RelationOut)
async def block(player_id: str, player: PlayerDep, services: FriendsDep) -> RelationOut:
    """Block this player: no challenge, follow, table talk or quick match between you; their
    follow of you ends and every open challenge between you is withdrawn."""
    try:
        await services.friends.block(player.id, player_id)
    except FriendsError as error:
        raise _refused(error) from None
    return await _relation_of(player.id, player_id, services)


@router.delete("/api/blocks/{player_id}", response_model=RelationOut)
async def unblock(player_id: str, player: PlayerDep, services: FriendsDep) -> RelationOut:
    """Unblock this player."""
    await services.friends.unblock(player.id, player_id)
    return await _relation_of(player.id, player_id, services)


@router.get("/api/challenges", response_model=ChallengesOut)
async def open_challenges(player: PlayerDep, services: FriendsDep) -> ChallengesOut:
    """The open challenges to you and yours to others (expired ones left out)."""
    incoming, outgoing = await services.friends.challenges(player.id)
    return ChallengesOut(
        now=services.clock.now(),
        incoming=[_challenge(c) for c in incoming],
        outgoing=[_challenge(c) for c in outgoing],
    )


@router.post("/api/challenges", response_model=ChallengeOut, status_code=201)
async def make_challenge(
    body: ChallengeIn, player: PlayerDep, services: FriendsDep
) -> ChallengeOut:
    """Challenge a player to a match with a friend room's options; they are told in their
    notification centre, and it lapses unanswered after three days. At most 10 an hour and
    20 waiting at once; never to yourself or to a player who blocked you (or you them)."""
    admit(player, Door.CHALLENGE)
    limits = services.limits
    too_soon(await limits.wait(limits.challenges, player.id, services.clock.now()), "challenges")
    options = FriendOptions.model_validate(body.model_dump(exclude={"to"}))
    try:
        made = await services.friends.challenge(player.id, body.to, options)
    except FriendsError as error:
        raise _refused(error) from None
    return _challenge(made)


@router.post("/api/challenges/{challenge_id}/accept", response_model=AcceptOut)
async def accept(challenge_id: str, player: PlayerDep, services: FriendsDep) -> AcceptOut:
    """Accept a challenge to you: the table, both seats taken and the match started; the
    challenger is told. Accepting twice (or from two places at once) answers the same table."""
    admit(player, Door.SEAT)
    try:
        room = await services.friends.accept(player, challenge_id)
    except FriendsError as error:
        raise _refused(error) from None
    return AcceptOut(room=room)


@router.post("/api/challenges/{challenge_id}/decline", response_model=AnswerOut)
async def decline(challenge_id: str, player: PlayerDep, services: FriendsDep) -> AnswerOut:
    """Decline a challenge to you (again: the same answer); the challenger is told."""
    try:
        state = await services.friends.decline(player.id, challenge_id)
    except FriendsError as error:
        raise _refused(error) from None
    return AnswerOut(state=state.value)


@router.delete("/api/challenges/{challenge_id}", response_model=AnswerOut)
async def withdraw(challenge_id: str, player: PlayerDep, services: FriendsDep) -> AnswerOut:
    """Withdraw your open challenge."""
    try:
        state = await services.friends.cancel(player.id, challenge_id)
    except FriendsError as error:
        raise _refused(error) from None
    return AnswerOut(state=state.value)
