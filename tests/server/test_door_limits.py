"""Every new door has a limit (issue 37): making tournaments, guessing tournament ids, and
drawing share pictures. Each is tried from one player (and one address) past its limit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, link_addresses, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

KNOCKOUT = {"max_players": 4, "lengths": [3], "starts_in_minutes": 30}


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock(1_800_000_000.0)
    settings = server_settings(
        tmp_path,
        database_url=database_url,
        arena_every_minutes=0,
        knockout_every_minutes=0,
        room_misses_per_minute=4,
    )
    async with running_server(settings, clock) as running:
        yield running, clock


async def me(client: Client) -> dict[str, Any]:
    found: dict[str, Any] = (await client.http.get("/api/me")).json()
    return found


async def test_tournaments_are_made_by_accounts_a_few_at_a_time(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    async with Client(running) as guest, Client(running) as host:
        refused = await guest.http.post("/api/tournaments", json=KNOCKOUT)
        assert refused.status_code == 403 and refused.json()["detail"]["code"] == "guest"
        await link_addresses(running, (await me(host))["id"])
        made = [await host.http.post("/api/tournaments", json=KNOCKOUT) for _ in range(4)]
        assert [m.status_code for m in made] == [201, 201, 409, 429]
        assert "not over" in made[2].json()["detail"]
        assert made[3].headers["Retry-After"]
        # 20 minutes on, one more may be made, but two of theirs are still open: refused.
        await clock.advance(20 * 60 + 1)
        assert (await host.http.post("/api/tournaments", json=KNOCKOUT)).status_code == 409


async def test_unknown_tournament_ids_spend_the_same_allowance_as_room_codes(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    arena = await running.services.tournaments.create_arena("Evening", clock.now() + 60, 30, 1, 90)
    async with Client(running) as guesser:
        assert (await guesser.http.get(f"/api/tournaments/{arena}")).status_code == 200
        codes = [
            (await guesser.http.get(f"/api/tournaments/ZZZZZZ{i:02d}")).status_code
            for i in range(4)
        ]
        assert codes == [404] * 4
        # The allowance is spent: no lookup at all, a known tournament or a room.
        assert (await guesser.http.get(f"/api/tournaments/{arena}")).status_code == 429
        assert (await guesser.http.post(f"/api/tournaments/{arena}/join")).status_code == 429
        assert (await guesser.http.get("/api/rooms/ABCDEFGH")).status_code == 429
        await clock.advance(60)
        assert (await guesser.http.get(f"/api/tournaments/{arena}")).status_code == 200


def position(i: int) -> str:
    """A distinct position each (the dice of the opening position: 11 to 66)."""
    dice = [f"{a}{b}" for a in range(1, 7) for b in range(1, 7)][i]
    return f"XGID=-b----E-C---eE---c-e----B-:0:0:1:{dice}:0:0:0:3:10"


async def test_share_pictures_are_limited_and_a_repeat_is_free(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    pictures = running.services.training.pictures
    async with Client(running) as sharer:
        drawn = pictures.drawn
        answers = [
            await sharer.http.get("/api/positions/share.png", params={"xgid": position(i)})
            for i in range(11)
        ]
        assert [a.status_code for a in answers] == [200] * 10 + [429]
        assert pictures.drawn - drawn == 10
        for answer in answers[:10]:
            assert answer.headers["content-type"] == "image/png"
            assert "public" not in answer.headers["cache-control"]
        # Past the limit, a picture drawn before is still given, and not drawn again.
        again = await sharer.http.get("/api/positions/share.png", params={"xgid": position(3)})
        assert again.status_code == 200 and again.content == answers[3].content
        assert pictures.drawn - drawn == 10
        svg = await sharer.http.get("/api/positions/share.svg", params={"xgid": position(12)})
        assert svg.status_code == 429
