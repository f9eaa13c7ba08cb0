"""Sharing a position: the server draws an XGID as an SVG picture in the asker's board theme."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from bidak.economy import shop
from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio
START_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:3:10"
SVG = "{http://www.w3.org/2000/svg}"


async def test_a_position_is_drawn_as_svg_in_the_board_asked_for(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        answer = await guest.http.get(
            "/api/positions/share.svg", params={"xgid": START_31, "board": "night"}
        )
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("image/svg+xml")
        root = ElementTree.fromstring(answer.text)
        assert len(root.findall(f"{SVG}circle")) == 30  # the checkers
        assert [node.text for node in root.findall(f"{SVG}text")] == ["3", "1"]  # the dice
        night = shop.board("night")
        assert f'fill="{night.surface}"' in answer.text

        bad = await guest.http.get("/api/positions/share.svg", params={"xgid": "XGID=nonsense"})
        assert bad.status_code == 422
