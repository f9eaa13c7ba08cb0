"""How often one address may make new players and one player new rooms (429 past that)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.limits import Bucket, Buckets
from tests.server.harness import running_server, server_settings

pytestmark = pytest.mark.anyio


def test_a_bucket_allows_a_burst_then_one_act_per_interval() -> None:
    bucket = Bucket(rate=0.5, burst=2, now=100.0)
    assert bucket.take(100.0) == 0.0 and bucket.take(100.0) == 0.0
    assert bucket.take(100.0) == pytest.approx(2.0), "seconds until the next token"
    assert bucket.take(101.0) == pytest.approx(1.0)
    assert bucket.take(102.0) == 0.0
    assert bucket.take(50.0) > 0, "a clock that steps back gives no tokens"


def test_each_key_has_its_own_bucket_and_idle_keys_are_forgotten_first() -> None:
    buckets = Buckets(rate=1.0, burst=1, size=3)
    assert buckets.take("a", 0.0) == 0.0
    assert buckets.take("a", 0.0) > 0
    assert buckets.take("b", 0.0) == 0.0, "another address is not held back"
    buckets.take("c", 10.0)  # a and b have refilled by now: nothing to remember
    assert buckets.take("d", 10.0) == 0.0
    assert len(buckets) <= 3
    busy = Buckets(rate=1.0, burst=1, size=2)
    for key in "xyz":
        busy.take(key, 0.0)
    assert len(busy) <= 2, "memory stays bounded even when every key is in use"


async def new_visitor(base: str, **headers: str) -> httpx.Response:
    """A browser's first visit (no cookie)."""
    async with httpx.AsyncClient(base_url=base, headers=headers) as browser:
        return await browser.get("/api/me")


async def test_one_address_makes_only_so_many_new_players_a_minute(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, guests_per_minute=2)
    async with running_server(settings, clock) as running:
        async with httpx.AsyncClient(base_url=running.base) as known:
            me = (await known.get("/api/me")).json()
            assert (await new_visitor(running.base)).is_success
            refused = await new_visitor(running.base)
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == "30"
            assert "try again in 30 s" in refused.json()["detail"]
            assert "set-cookie" not in refused.headers
            assert (await known.get("/api/me")).json()["id"] == me["id"], "known players go on"

            # Behind a trusted proxy each client address has its own allowance.
            assert (
                await new_visitor(running.base, **{"X-Forwarded-For": "203.0.113.7"})
            ).is_success

            await clock.advance(30)
            assert (await new_visitor(running.base)).is_success


async def test_one_player_creates_only_so_many_rooms_a_minute(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, rooms_per_minute=2)
    practice = {"kind": "practice", "length": 1, "level": "beginner"}
    async with running_server(settings, clock) as running:
        site = {"Origin": running.base}
        async with (
            httpx.AsyncClient(base_url=running.base, headers=site) as alice,
            httpx.AsyncClient(base_url=running.base, headers=site) as bob,
        ):
            for _ in range(2):
                assert (await alice.post("/api/rooms", json=practice)).status_code == 201
            refused = await alice.post("/api/rooms", json=practice)
            assert refused.status_code == 429 and refused.headers["retry-after"] == "30"
            assert len((await alice.get("/api/me/matches")).json()) == 2, "nothing was made"
            assert (await bob.post("/api/rooms", json=practice)).status_code == 201
            await clock.advance(30)
            assert (await alice.post("/api/rooms", json=practice)).status_code == 201
