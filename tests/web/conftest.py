"""Browser tests: Debian's Chromium driven by Playwright against a real server.

Each test gets a fresh server (and database). Every page fails its test on a console error or
an uncaught exception. Screenshots go to ``artifacts/screenshots/`` (not committed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.server import ServerThread

CHROMIUM = os.environ.get("BIDAK_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module at a time: while Playwright's synchronous API is open its
    event loop counts as running on the thread, and an asynchronous test that came after it on
    the same worker failed ("Cannot run the event loop while another loop is running"; a
    worker that steals the server tests after its browser tests does that). The browser is
    closed when the worker moves to another module (a launch takes well under a second)."""
    if not Path(CHROMIUM).exists():  # pragma: no cover - CI installs it (.ci/run)
        pytest.skip(f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Callable[..., ServerThread]]:
    """``server(clock=None, **settings)`` starts a fresh server; all are stopped at the end."""
    started: list[ServerThread] = []

    def start(**kwargs: Any) -> ServerThread:
        folder = tmp_path / f"server{len(started)}"
        folder.mkdir()
        running = ServerThread(folder, **kwargs).start()
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()


class Pages:
    """Browser contexts (each its own guest) whose pages record console errors."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(
        self,
        base: str,
        size: dict[str, int] = PHONE,
        locale: str = "en-US",
        reduced_motion: str = "reduce",
        touch: bool | None = None,
    ) -> Any:
        phone = size["width"] < 600
        context = self.browser.new_context(
            viewport=size,
            locale=locale,
            reduced_motion=reduced_motion,
            has_touch=phone if touch is None else touch,
            is_mobile=False,
            device_scale_factor=2 if phone else 1,
            base_url=base,
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.on(
            "console",
            lambda message: message.type == "error" and self.errors.append(message.text),
        )
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()
    assert not opened.errors, f"console errors: {opened.errors}"


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
