"""Friends' use cases: follow, the friends list (who is online, at which table), block, and
challenges: make one, accept (the room, once), decline, withdraw, the open ones.

The rules are :mod:`bidak.challenges`' (pure); this module reads what they need, applies
them on the injected clock, stores the outcome and tells the other player through the
notification centre. An accept is race-safe: one conditional update moves the challenge from
``open`` to ``accepted`` and names the room (:mod:`.challenge_queries`); only the request that
made that change tells the challenger, and every accept (the winner's, a second tab's, a retry
after a crash between the two commits) makes and starts that one room, once
(:meth:`bidak.server.play.RoomService.create_challenge_room`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from bidak.challenges import (
    BLOCK_SELF,
    NOT_YOURS,
    UNKNOWN,
    Answer,
    Refused,
    State,
    after,
    may_answer,
    may_challenge,
    may_follow,
    online,
)
from bidak.server.friends import challenge_queries as challenges
from bidak.server.friends import follow_queries as follows
from bidak.server.friends.challenge_queries import Listed, Stored
from bidak.server.friends.follow_queries import Friend
from bidak.server.notifications import Notifications
from bidak.server.play import FriendOptions, RoomService, new_room_code
from bidak.server.shared.clocks import Clock
from bidak.server.shared.doors import Door, refused
from bidak.server.shared.refusal import Refusal
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import is_key, new_id

UNAVAILABLE = Refused("unavailable", "The challenger may not play now; the challenge is withdrawn")


class FriendsError(Refusal):
    """A friends' request the server refuses (see :class:`Refusal`)."""

    @classmethod
    def of(cls, refused: Refused) -> FriendsError:
        return cls(refused.code, refused.message)


@dataclass(frozen=True, slots=True)
class Relation:
    """What one player's page shows another about the two of them."""

    following: bool
    blocking: bool
    online: bool
    incoming: list[Listed]
    """Their open challenges to the viewer."""
    outgoing: list[Listed]
    """The viewer's open challenges to them."""


class Friends:
    def __init__(
        self, db: Database, rooms: RoomService, clock: Clock, notifications: Notifications
    ) -> None:
        self.db, self.rooms, self.clock, self.notifications = db, rooms, clock, notifications

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def _exists(self, player_id: str) -> bool:
        return is_key(player_id) and await self.db.read(
            partial(follows.exists, player_id=player_id)
        )

    # -- follows ------------------------------------------------------------------------------

    async def follow(self, player_id: str, them: str) -> None:
        exists = await self._exists(them)
        blocked = exists and await self.db.read(
            partial(follows.blocks, blocker_id=them, blocked_id=player_id)
        )
        shut = may_follow(player_id, them, exists=exists, blocked_by_them=blocked)
        if shut is not None:
            raise FriendsError.of(shut)
        await self.db.write(
            partial(follows.follow, follower_id=player_id, followee_id=them, at=self._now())
        )

    async def unfollow(self, player_id: str, them: str) -> None:
        if not is_key(them):
            return
        await self.db.write(partial(follows.unfollow, follower_id=player_id, followee_id=them))

    async def friends(self, player_id: str) -> list[tuple[Friend, bool]]:
        """The players ``player_id`` follows, each with whether they are online now."""
        found = await self.db.read(partial(follows.friends, player_id=player_id))
        now = self.clock.now()
        return [(friend, online(friend.last_seen, now)) for friend in found]

    async def search(self, player_id: str, prefix: str) -> list[tuple[str, str, float]]:
        return await self.db.read(partial(follows.search, prefix=prefix, viewer_id=player_id))

    async def relation(self, player_id: str, them: str) -> Relation:
        if not await self._exists(them):
            raise FriendsError.of(UNKNOWN)

        def read(connection: Any) -> Relation:
            now = self.clock.now()
            incoming, outgoing = challenges.listed(connection, player_id, now)
            return Relation(
                following=follows.follows(connection, player_id, them),
                blocking=follows.blocks(connection, player_id, them),
                online=online(follows.last_seen(connection, them), now),
                incoming=[c for c in incoming if c.other_id == them],
                outgoing=[c for c in outgoing if c.other_id == them],
            )

        return await self.db.read(read)

    # -- blocks -------------------------------------------------------------------------------

    async def block(self, player_id: str, them: str) -> None:
        """Block ``them``: their follow of the player ends, every open challenge between the
        two is withdrawn, and from now on no challenge, talk or pairing joins them."""
        if player_id == them:
            raise FriendsError.of(BLOCK_SELF)
        if not await self._exists(them):
            raise FriendsError.of(UNKNOWN)
        await self.db.write(
            partial(follows.block, blocker_id=player_id, blocked_id=them, at=self._now())
        )

    async def unblock(self, player_id: str, them: str) -> None:
        if not is_key(them):
            return
        await self.db.write(partial(follows.unblock, blocker_id=player_id, blocked_id=them))

    async def blocked(self, player_id: str) -> list[tuple[str, str]]:
        return await self.db.read(partial(follows.blocked_by, player_id=player_id))

    async def blocked_either(self, player_id: str) -> set[str]:
        """Whom ``player_id`` blocked and who blocked them (table talk between them is not
        passed on; ``bidak.server.play.ws``)."""
        return await self.db.read(partial(follows.blocked_either, player_id=player_id))

    # -- challenges ---------------------------------------------------------------------------

    async def challenge(self, player_id: str, them: str, options: FriendOptions) -> Listed:
        """Challenge ``them`` to a match with ``options`` (the door check and the hourly limit
        are the route's); they are told in their notification centre."""
        exists = await self._exists(them)
        now = self.clock.now()

        def check_and_add(connection: Any) -> Listed:
            open_count, already = challenges.open_from(connection, player_id, them, now)
            shut = may_challenge(
                player_id,
                them,
                exists=exists,
                blocked_by_them=exists and follows.blocks(connection, them, player_id),
                blocked_by_me=exists and follows.blocks(connection, player_id, them),
                already=already,
                open_count=open_count,
            )
            if shut is not None:
                raise FriendsError.of(shut)
            made = new_id()
            stored = options.model_dump(exclude={"kind"})
            challenges.add(
                connection,
                challenge_id=made,
                from_id=player_id,
                to_id=them,
                now=now,
                options=stored,
            )
            return Listed(made, them, "", now, stored)

        made = await self.db.write(check_and_add)
        await self.notifications.tell_quietly(f"challenge:{made.id}", them, "challenge")
        return made

    async def challenges(self, player_id: str) -> tuple[list[Listed], list[Listed]]:
        """The open challenges to the player and theirs to others, newest first."""
        return await self.db.read(
            partial(challenges.listed, player_id=player_id, now=self.clock.now())
        )

    async def _stored(self, challenge_id: str) -> Stored:
        found = (
            await self.db.read(partial(challenges.get, challenge_id=challenge_id))
            if is_key(challenge_id)
            else None
        )
        if found is None:
            raise FriendsError.of(NOT_YOURS)
        return found

    async def accept(self, player: PlayerRow, challenge_id: str) -> str:
        """Accept a challenge to ``player``: the room's code, with both seats taken and the
        match started. Accepting again (or at once from two places) answers the same room."""
        stored = await self._stored(challenge_id)
        now = self.clock.now()
        shut = may_answer(stored.challenge, player.id, Answer.ACCEPT, now)
        if shut is not None:
            raise FriendsError.of(shut)
        if stored.challenge.state is State.OPEN:
            await self._challenger_may_play(stored)
            code = new_room_code()
            won = await self.db.write(
                partial(
                    challenges.answer,
                    challenge_id=challenge_id,
                    state=State.ACCEPTED,
                    now=now,
                    room=code,
                )
            )
            stored = await self._stored(challenge_id)
            if not won and stored.challenge.state is not State.ACCEPTED:
                raise FriendsError.of(
                    may_answer(stored.challenge, player.id, Answer.ACCEPT, now) or NOT_YOURS
                )
            if won:
                key = f"accepted:{challenge_id}"
                await self.notifications.tell_quietly(
                    key, stored.challenge.from_id, "accepted", code
                )
        assert stored.room is not None
        seats = (stored.challenge.from_id, stored.challenge.to_id)
        options = FriendOptions.model_validate(stored.options)
        room = await self.rooms.create_challenge_room(stored.room, seats, options)
        return room.code

    async def _challenger_may_play(self, stored: Stored) -> None:
        """A challenger banned since the challenge: withdrawn, and the accept refused."""
        row = await self.db.rows(lambda s: s.get(PlayerRow, stored.challenge.from_id))
        if row is None or refused(row, Door.CHALLENGE) is not None:
            await self.db.write(
                partial(
                    challenges.answer,
                    challenge_id=stored.challenge.id,
                    state=State.CANCELLED,
                    now=self.clock.now(),
                )
            )
            raise FriendsError.of(UNAVAILABLE)

    async def decline(self, player_id: str, challenge_id: str) -> State:
        """Decline a challenge to the player (the challenger is told once)."""
        return await self._close(player_id, challenge_id, Answer.DECLINE)

    async def cancel(self, player_id: str, challenge_id: str) -> State:
        """Withdraw one's own open challenge."""
        return await self._close(player_id, challenge_id, Answer.CANCEL)

    async def _close(self, player_id: str, challenge_id: str, answer: Answer) -> State:
        stored = await self._stored(challenge_id)
        now = self.clock.now()
        shut = may_answer(stored.challenge, player_id, answer, now)
        if shut is not None:
            raise FriendsError.of(shut)
        if stored.challenge.state is State.OPEN:
            won = await self.db.write(
                partial(challenges.answer, challenge_id=challenge_id, state=after(answer), now=now)
            )
            if not won:  # another answer came first: refused unless it was this same one
                stored = await self._stored(challenge_id)
                shut = may_answer(stored.challenge, player_id, answer, now)
                if shut is not None:
                    raise FriendsError.of(shut)
            elif answer is Answer.DECLINE:
                key = f"declined:{challenge_id}"
                await self.notifications.tell_quietly(key, stored.challenge.from_id, "declined")
        return after(answer)
