"""A ban is a ban (issue 37): a walk through every door into play with a player banned from play,
one banned from rated play and a muted one, on SQLite and PostgreSQL; the restrictions of a guest
follow it into the account it signs in to; moderators do not act on moderators.

Each door is tried by the player's own HTTP client (and the talk door over the WebSocket), as
the browser would: a refusal is ``403`` with the door's ``code``, and what a ban leaves open
(practice against a bot, one's own friend room) still opens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, link_addresses, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink

__all__ = ["database_url", "postgres_url", "smtp_sink"]
pytestmark = pytest.mark.anyio

NOW = 1_800_000_000.0


@pytest.fixture
async def site(
    database_url: str, tmp_path: Path, smtp_sink: SmtpSink
) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock(NOW)
    settings = server_settings(
        tmp_path,
        database_url=database_url,
        smtp_url=smtp_sink.url,
        arena_every_minutes=0,
        knockout_every_minutes=0,
    )
    async with running_server(settings, clock) as running:
        yield running, clock


async def me(client: Client) -> dict[str, Any]:
    found: dict[str, Any] = (await client.http.get("/api/me")).json()
    return found


async def act(mod: Client, player_id: str, kind: str) -> int:
    answer = await mod.http.post(
        f"/api/mod/players/{player_id}/actions", json={"kind": kind, "note": "test of the doors"}
    )
    return answer.status_code


def refused(answer: Any, code: str) -> bool:
    return bool(answer.status_code == 403 and answer.json()["detail"]["code"] == code)


QUICK = {"length": 3, "move_seconds": 45, "cube": True}
KNOCKOUT = {"max_players": 4, "lengths": [3], "starts_in_minutes": 10}


async def test_every_door_into_play_is_shut_to_a_banned_player_and_open_again_after(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    tournaments = running.services.tournaments
    async with (
        Client(running) as mod,
        Client(running) as banned,
        Client(running) as friend,
    ):
        mod_id = (await me(mod))["id"]
        banned_id = (await me(banned))["id"]
        await running.services.fairplay.set_moderator(mod_id, True, "test")
        await link_addresses(running, banned_id, (await me(friend))["id"])
        arena = await tournaments.create_arena("Evening", clock.now() + 60, 30, 1, 90)
        assert arena is not None
        room = (await friend.http.post("/api/rooms", json={"kind": "friend"})).json()["code"]
        # Waiting in quick match when the ban comes: out of the queue at once.
        assert (await banned.http.post("/api/quick", json=QUICK)).json()["waiting"] is True
        assert await act(mod, banned_id, "ban_play") == 200
        assert (await banned.http.get("/api/quick")).json()["waiting"] is False

        assert refused(await banned.http.post("/api/quick", json=QUICK), "banned")
        assert refused(await banned.http.post("/api/tournaments", json=KNOCKOUT), "banned")
        assert refused(await banned.http.post(f"/api/tournaments/{arena}/join"), "banned")
        assert refused(await banned.http.post(f"/api/tournaments/{arena}/ready"), "banned")
        assert refused(await banned.http.post(f"/api/rooms/{room}/join"), "banned")
        # What a ban leaves open: practice against a bot, and a room of one's own.
        practice = await banned.http.post("/api/rooms", json={"kind": "practice", "length": 1})
        assert practice.status_code == 201
        own = await banned.http.post("/api/rooms", json={"kind": "friend"})
        assert own.status_code == 201
        assert (await banned.http.get("/api/me/actions")).json()[0]["kind"] == "ban_play"

        assert await act(mod, banned_id, "unban_play") == 200
        assert (await banned.http.post("/api/quick", json=QUICK)).status_code == 200
        assert (await banned.http.post(f"/api/tournaments/{arena}/join")).status_code == 200
        assert (await banned.http.post(f"/api/rooms/{room}/join")).json()["seat"] == 1


async def test_a_rated_ban_plays_unrated_only_and_a_mute_only_silences(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    arena = await running.services.tournaments.create_arena("Evening", clock.now() + 60, 30, 1, 90)
    async with (
        Client(running) as mod,
        Client(running) as rated,
        Client(running) as clean,
        Client(running) as guest,
        Client(running) as muted,
        Client(running) as muted_friend,
    ):
        ids = {name: (await me(c))["id"] for name, c in (("mod", mod), ("rated", rated))}
        ids |= {"clean": (await me(clean))["id"], "muted": (await me(muted))["id"]}
        await running.services.fairplay.set_moderator(ids["mod"], True, "test")
        await link_addresses(running, ids["rated"], ids["clean"])
        assert await act(mod, ids["rated"], "ban") == 200
        assert await act(mod, ids["muted"], "mute") == 200

        assert refused(await rated.http.post(f"/api/tournaments/{arena}/join"), "rated_banned")
        assert refused(await rated.http.post("/api/tournaments", json=KNOCKOUT), "rated_banned")
        # Quick match: never with a player who expects a rated game; a guest is fine.
        await rated.http.post("/api/quick", json=QUICK)
        await clean.http.post("/api/quick", json=QUICK)
        await clock.advance(60)
        await running.services.quick.pair_now()
        assert (await rated.http.get("/api/quick")).json()["room"] is None
        assert (await clean.http.get("/api/quick")).json()["room"] is None
        await clean.http.delete("/api/quick")
        await guest.http.post("/api/quick", json=QUICK)
        await running.services.quick.pair_now()
        paired = (await rated.http.get("/api/quick")).json()["room"]
        assert paired is not None and paired == (await guest.http.get("/api/quick")).json()["room"]

        # A mute shuts talk, nothing else.
        assert (await muted.http.post("/api/quick", json=QUICK)).status_code == 200
        await muted.http.delete("/api/quick")
        room = (await muted.http.post("/api/rooms", json={"kind": "friend"})).json()["code"]
        await muted_friend.http.post(f"/api/rooms/{room}/join")
        await muted.connect()
        await muted.join(room)
        await muted.send({"type": "talk", "phrase": "hello"})
        said = await muted.until(lambda m: m["type"] == "error")
        assert said["code"] == "muted"


async def test_a_banned_guest_signing_in_brings_the_ban_into_the_account(
    site: tuple[Running, ManualClock], smtp_sink: SmtpSink
) -> None:
    running, _ = site
    async with Client(running) as mod, Client(running) as owner, Client(running) as guest:
        mod_id = (await me(mod))["id"]
        owner_id = (await me(owner))["id"]
        await running.services.fairplay.set_moderator(mod_id, True, "test")
        linked = await owner.http.post("/api/me/email", json={"email": "owner@example.com"})
        assert linked.status_code == 202
        token = link_in(await smtp_sink.wait_for("owner@example.com")).split("token=", 1)[1]
        assert (await owner.http.post("/api/auth/email", json={"token": token})).is_success
        assert await act(mod, (await me(guest))["id"], "ban_play") == 200

        await guest.http.post("/api/auth/email-login", json={"email": "owner@example.com"})
        letter = await smtp_sink.wait_for("owner@example.com", 2)
        token = link_in(letter).split("token=", 1)[1]
        signed = await guest.http.post("/api/auth/email", json={"token": token})
        assert signed.json()["signed_in"] == owner_id
        # Signed in to the account, the ban holds; so it does in the owner's other browser.
        for browser in (guest, owner):
            assert refused(await browser.http.post("/api/quick", json=QUICK), "banned")
        actions = (await owner.http.get("/api/me/actions")).json()
        assert actions[0]["kind"] == "carried"
        queue = (await mod.http.get("/api/mod/queue")).json()
        held = [c["player"] for c in queue if c["player"]["id"] == owner_id]
        assert held and held[0]["held"] and held[0]["banned_play"]
        # The moderator decides: lifted, the account plays and leaves the queue.
        assert await act(mod, owner_id, "unban_play") == 200
        assert (await owner.http.post("/api/quick", json=QUICK)).status_code == 200
        queue = (await mod.http.get("/api/mod/queue")).json()
        assert owner_id not in [c["player"]["id"] for c in queue]


async def test_a_moderator_does_not_act_on_a_moderator(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with Client(running) as one, Client(running) as other:
        for client in (one, other):
            await running.services.fairplay.set_moderator((await me(client))["id"], True, "t")
        other_id = (await me(other))["id"]
        for kind in ("ban_play", "ban", "mute", "rename", "warn"):
            answer = await one.http.post(
                f"/api/mod/players/{other_id}/actions", json={"kind": kind, "note": "rival"}
            )
            assert refused(answer, "moderator"), (kind, answer.text)
        assert (await other.http.post("/api/quick", json=QUICK)).status_code == 200
        # The operator's word (bidak mod revoke) makes them a player the others may act on.
        await running.services.fairplay.set_moderator(other_id, False, "stepped down")
        assert await act(one, other_id, "ban_play") == 200
