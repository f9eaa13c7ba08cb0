"""Sharing a position: the server draws an XGID as an SVG picture in the asker's board theme."""

from __future__ import annotations

import io
import sys
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


async def test_a_position_is_drawn_as_png_from_the_same_drawing(tmp_path: Path) -> None:
    from PIL import Image

    from bidak.server.training.share import PNG_SCALE, TOTAL_HEIGHT, WIDTH

    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        answer = await guest.http.get(
            "/api/positions/share.png", params={"xgid": START_31, "board": "night"}
        )
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "image/png"
        assert answer.content.startswith(b"\x89PNG\r\n\x1a\n")
        picture = Image.open(io.BytesIO(answer.content))
        picture.verify()
        picture = Image.open(io.BytesIO(answer.content))
        assert picture.format == "PNG"
        assert picture.size == (WIDTH * PNG_SCALE, TOTAL_HEIGHT * PNG_SCALE)
        # the playing surface is the theme's colour in the middle of the board's left half
        surface = shop.board("night").surface.lstrip("#")
        middle = picture.convert("RGB").getpixel(
            (PNG_SCALE * WIDTH // 4, PNG_SCALE * TOTAL_HEIGHT // 2)
        )
        assert middle == tuple(int(surface[i : i + 2], 16) for i in (0, 2, 4))
        artifacts = Path(__file__).resolve().parents[2] / "artifacts"  # to look at
        artifacts.mkdir(exist_ok=True)
        (artifacts / "share.png").write_bytes(answer.content)

        bad = await guest.http.get("/api/positions/share.png", params={"xgid": "XGID=nonsense"})
        assert bad.status_code == 422


async def test_without_pillow_the_png_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        answer = await guest.http.get("/api/positions/share.png", params={"xgid": START_31})
        assert answer.status_code == 503
        assert "Pillow" in answer.text
