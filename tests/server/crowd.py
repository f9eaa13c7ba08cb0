"""Players in a process of their own (``python -m tests.server.crowd URL PRACTICE FRIEND``),
over the real WebSocket: 1-point practice matches against a bot, asking for hints (after two of
them the player reviews the match, drills a card and answers a puzzle); friend matches between
two of them, live and by correspondence (as many of each); quick matches with a rematch and
challenges between friends (half as many, at most two quick pairs). They print how many intents
they sent; after a correspondence match each player also reads the pages a player reads between
turns (counted with the intents: each is a request the server answers). A test that counts the
server's garbage runs them here, so that their own (the HTTP and WebSocket clients') is not
counted."""

from __future__ import annotations

import asyncio
import sys
from typing import Any, cast

from tests.server.harness import Client, Running, friend_room
from tests.server.scripted import Script, drive, play_all


class CountingClient(Client):
    """A :class:`Client` that counts the intents it sends."""

    sent = 0

    async def act(self, action: dict[str, Any]) -> None:
        self.sent += 1
        await super().act(action)


HINTS = 10
"""Hints a practice player asks for, one before each of its first plays (the hints' rate limit
is 30 a minute)."""
TRAINING = 2
"""The practice players who review their match and train after it (a review is an engine's
work: the others do not, to keep the test short)."""
BANKING = 50
"""Looks (0.1 s apart) for the cards a review banks after its answer, before a player drills
without them."""


class HintingClient(CountingClient):
    """A player at a practice table who asks for the engine's hint before each of its first
    :data:`HINTS` plays (inside the hints' rate limit; each ask is counted: a request the
    server answers, with an engine search behind it)."""

    room = ""
    hints = 0

    async def act(self, action: dict[str, Any]) -> None:
        if action.get("type") == "play" and self.hints < HINTS:
            self.hints += 1
            asked = await self.http.get(f"/api/rooms/{self.room}/hint")
            asked.raise_for_status()
            self.sent += 1
        await super().act(action)


async def practice(running: Running, seed: int) -> int:
    guest = HintingClient(running)
    async with guest:
        created = await guest.http.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
        created.raise_for_status()
        guest.room = created.json()["code"]
        await guest.join(guest.room)
        await drive(guest, Script(seed, double=0.3), 0)
        if seed >= TRAINING:
            return guest.sent
        match_id = (await guest.http.get(f"/api/rooms/{guest.room}")).json()["match_id"]
        return guest.sent + await train(guest, match_id)


async def train(player: Client, match_id: str) -> int:
    """Review the match (its mistakes become drill cards), answer the drill's first card and
    the next puzzle, if there are any, as the first legal play or the cube's first answer; how
    many requests that was."""
    asked = [await player.http.get(f"/api/matches/{match_id}/review", params={"level": "1ply"})]
    for _ in range(BANKING):  # the cards are banked after the review's answer
        asked.append(await player.http.get("/api/training"))
        if asked[-1].json()["cards"]:
            break
        await asyncio.sleep(0.1)
    for found, key, answering in (
        ("/api/training/drill", "card", "/api/training/cards"),
        ("/api/puzzles/next", "puzzle", "/api/puzzles"),
    ):
        asked.append(await player.http.get(found))
        item = asked[-1].json()[key]
        if item is not None:
            answer = _first(item)
            asked.append(await player.http.post(f"{answering}/{item['id']}/answer", json=answer))
    for done in asked:
        done.raise_for_status()
    return len(asked)


def _first(item: dict[str, Any]) -> dict[str, Any]:
    if item["kind"] == "checker":
        return {"type": "play", "result": item["legal_plays"][0]["result"]}
    return {"type": "cube", "choice": "no_double" if item["decider"] == "doubler" else "take"}


async def play_room(clients: tuple[Client, Client], code: str, seed: int) -> None:
    """Both players join ``code`` (each finds its seat in the snapshot) and play it out."""
    seats = [(await client.join(code))["seat"] for client in clients]
    await play_all(
        *(
            drive(client, Script(seed + n, double=0.3), seat)
            for n, (client, seat) in enumerate(zip(clients, seats, strict=True))
        )
    )


async def quick(running: Running, seed: int, cube: bool) -> int:
    """Two players press Quick match for a 1-point match, are paired, greet each other, play,
    then one offers a rematch, the other accepts, and they play that too. ``cube`` tells the
    pairs apart (the queue pairs the same options only): at most two pairs at once."""
    alice, bob = CountingClient(running), CountingClient(running)
    async with alice, bob:
        options = {"length": 1, "move_seconds": 90, "cube": cube}
        asked = [await player.http.post("/api/quick", json=options) for player in (alice, bob)]
        asked[1].raise_for_status()
        code = asked[1].json()["room"]  # the second to come is paired at once
        await play_room((alice, bob), code, seed)
        await alice.send({"type": "talk", "phrase": "good_game"})
        asked.append(await alice.http.post(f"/api/rooms/{code}/rematch"))  # offered
        asked.append(await bob.http.post(f"/api/rooms/{code}/rematch"))  # accepted
        for answer in asked:
            answer.raise_for_status()
        await play_room((alice, bob), asked[-1].json()["room"], seed + 10)
        return alice.sent + bob.sent + len(asked) + 1  # the talk


async def challenge(running: Running, seed: int) -> int:
    """One player follows another, challenges them to a live 1-point match from their
    profile, the other accepts it, and they play it."""
    alice, bob = CountingClient(running), CountingClient(running)
    async with alice, bob:
        bob_id = (await bob.http.get("/api/me")).json()["id"]
        asked = [
            await alice.http.put(f"/api/friends/{bob_id}"),
            await alice.http.post(
                "/api/challenges", json={"to": bob_id, "length": 1, "move_seconds": 60}
            ),
        ]
        for answer in asked:
            answer.raise_for_status()
        asked.append(await bob.http.post(f"/api/challenges/{asked[1].json()['id']}/accept"))
        asked[-1].raise_for_status()
        await play_room((alice, bob), asked[2].json()["room"], seed)
        return alice.sent + bob.sent + len(asked)


async def friend(running: Running, seed: int, correspondence: bool = False) -> int:
    alice, bob = CountingClient(running), CountingClient(running)
    async with alice, bob:
        days = {"days_per_move": 3} if correspondence else {}
        room, _ = await friend_room(alice, bob, length=1, **days)
        await alice.join(room["code"])
        await bob.join(room["code"])
        await play_all(
            drive(alice, Script(seed, double=0.3), 0), drive(bob, Script(seed + 1, double=0.3), 1)
        )
        if not correspondence:
            return alice.sent + bob.sent
        pages = await browse(alice, bob, room) + await browse(bob, alice, room)
        return alice.sent + bob.sent + pages


PAGES = (
    "/api/me",
    "/api/friends",
    "/api/challenges",
    "/api/notifications",
    "/api/notifications/unread",
    "/api/games",
    "/api/leaderboard",
    "/api/live",
    "/api/me/wallet",
    "/api/training",
    "/api/puzzles",
    "/api/shop",
    "/api/tournaments",
    "/api/vacation",
    "/api/me/sessions",
    "/api/blocks",
    "/api/games/settings",
    "/api/notifications/settings",
    "/api/puzzles/next",
    "/api/training/drill",
    "/api/friends/search?name=a",
)
"""What a player looks at between turns (each read once after a correspondence match)."""


async def browse(me: Client, other: Client, room: dict[str, Any]) -> int:
    """Follow ``other``, read the pages a player reads between turns, the other's profile and
    the match's record, and mark the notifications read; how many requests that was."""
    other_id = (await other.http.get("/api/me")).json()["id"]
    match_id = (await me.http.get(f"/api/rooms/{room['code']}")).json()["match_id"]
    asked = [
        await me.http.put(f"/api/friends/{other_id}"),
        *[await me.http.get(page) for page in PAGES],
        await me.http.get(f"/api/players/{other_id}"),
        await me.http.get(f"/api/matches/{match_id}/events"),
        await me.http.post("/api/notifications/read", json={}),
        await me.http.post("/api/me/checkin"),
    ]
    for answer in asked:
        answer.raise_for_status()
    return len(asked)


async def crowd(base: str, practices: int, friends: int) -> int:
    """Play the matches, all at once; how many intents were sent."""
    running = Running(base, services=cast(Any, None))  # the server is in another process
    sent = await asyncio.gather(
        *(practice(running, n) for n in range(practices)),
        *(friend(running, 1000 + 2 * n) for n in range(friends)),
        *(friend(running, 2000 + 2 * n, correspondence=True) for n in range(friends)),
        *(quick(running, 3000 + 20 * n, cube=n == 0) for n in range(min(2, friends // 2))),
        *(challenge(running, 4000 + 2 * n) for n in range(friends // 2)),
    )
    return sum(sent)


if __name__ == "__main__":
    url, practices, friends = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(asyncio.run(crowd(url, practices, friends)))
