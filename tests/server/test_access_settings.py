"""The accessibility settings are kept with the account (issue 40): what one browser sets,
another browser of the same account reads; an unknown switch is refused."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio


async def test_settings_are_kept_per_account_and_unknown_ones_are_refused(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as alice:
        me = (await alice.http.get("/api/me")).json()
        assert me["access"] == {"motion": False, "contrast": False, "large": False, "shapes": False}
        answer = await alice.http.put("/api/me/access", json={"contrast": True, "shapes": True})
        assert answer.status_code == 200, answer.text
        assert answer.json()["access"]["contrast"] and answer.json()["access"]["shapes"]
        # Another browser of the same account (its cookie) finds them.
        other = httpx.AsyncClient(base_url=running.base, cookies=alice.http.cookies)
        async with other:
            again = (await other.get("/api/me")).json()["access"]
        assert again == {"motion": False, "contrast": True, "large": False, "shapes": True}
        refused = await alice.http.put("/api/me/access", json={"sparkles": True})
        assert refused.status_code == 422
        row = await running.services.store.player(me["id"])
        assert row is not None and row.access == "contrast,shapes"
