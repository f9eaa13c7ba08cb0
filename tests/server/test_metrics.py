"""/metrics: off unless the operator serves it (BIDAK_METRICS), local to the machine unless told
otherwise, and counting what players do."""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.harness import Client, running_server, server_settings
from tests.server.scripted import Script, drive

pytestmark = pytest.mark.anyio


def _samples(text: str) -> dict[str, float]:
    """Every sample by its name and labels, e.g. ``bidak_actions_total{outcome=accepted}``."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[sample.name + (f"{{{labels}}}" if labels else "")] = sample.value
    return found


async def test_metrics_are_not_served_unless_the_operator_says_so(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        assert (await guest.http.get("/metrics")).status_code == 404


async def test_local_metrics_count_a_match_and_refuse_what_came_through_a_proxy(
    tmp_path: Path,
) -> None:
    settings = server_settings(tmp_path, metrics="local")
    async with running_server(settings) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
            )
        ).json()
        await guest.join(room["code"])
        playing = _samples((await guest.http.get("/metrics")).text)
        assert playing["bidak_open_sockets"] == 1
        assert playing["bidak_live_matches"] == 1
        await drive(guest, Script(7), 0)

        answer = await guest.http.get("/metrics")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain")
        seen = _samples(answer.text)
        intents = seen["bidak_actions_total{outcome=accepted}"]
        assert intents > 0
        assert seen["bidak_action_seconds_count"] == intents
        assert seen["bidak_loop_lag_seconds_count"] > 0
        assert seen["bidak_live_matches"] == 0
        # The Beginner decided at every turn of its seat; nobody timed out.
        assert seen["bidak_bot_decision_seconds_count{level=beginner}"] > 0
        assert seen["bidak_bot_decision_seconds_sum{level=beginner}"] > 0
        assert not any(
            k.startswith("bidak_bot_decision_seconds_count{level=autoplay") for k in seen
        )
        for name in (
            "bidak_loop_stall_recent_seconds",
            "bidak_gc_pause_recent_seconds",
            "bidak_gc_full_collections",
            "bidak_heap_blocks",
            "bidak_quick_waiting",
            "bidak_mail_outbox",
            "bidak_analysis_queue{pool=hint}",
            "bidak_analysis_queue{pool=review}",
            "bidak_pairing_wait_seconds_count",
        ):
            assert name in seen, name

        proxied = await guest.http.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        assert proxied.status_code == 404
