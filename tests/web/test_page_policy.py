"""The client works under its strict page policy, and a page on another origin can neither
frame the table nor act for its visitor (in Chromium, with the visitor's cookie)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import play_turn, set_language, start_practice, wait_for_my_move_or_end

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def rows(running: Any) -> dict[str, list[tuple[Any, ...]]]:
    path = running.services.settings.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def test_the_lobby_and_a_practice_move_run_under_the_policy(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base)
    page.add_init_script(WATCH_VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    fetched: list[str] = []
    page.on(
        "request",
        lambda request: (
            request.resource_type not in ("document", "websocket")
            and fetched.append(urlsplit(request.url).path)
        ),
    )
    answer = page.goto("/")
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy

    page.wait_for_selector("#start-practice")
    start_practice(page, "beginner", 1)
    assert wait_for_my_move_or_end(page) == "move"
    made = play_turn(page)
    assert made, "a move was made"
    page.click("#header-rules")  # the rules, with their own boards
    page.locator("#rules-sheet figure.example svg.board").first.wait_for()
    page.keyboard.press("Escape")
    page.locator("#rules-sheet").wait_for(state="detached")
    set_language(page, "fi")
    screenshot(page, "table-under-policy")

    assert page.evaluate("window.__violations") == []
    reported = [line for line in console if "Content Security Policy" in line]
    assert not reported, reported
    # Everything the client is made of came from the one version the page was given.
    client = [p for p in fetched if not p.startswith("/api/")]
    assert client and {p.split("/")[2] for p in client} == {p.split("/")[2] for p in client[:1]}
    assert all(p.startswith("/v/") for p in client), client
    for catalog in ("id", "en", "fi"):  # modules of the page's module graph
        assert any(p.endswith(f"/i18n/{catalog}.js") for p in client), client


@pytest.fixture
def other_site() -> Iterator[Callable[[str], str]]:
    """``other_site(html)``: the address of a page with ``html`` on another origin (a second
    tiny server on another port of this host: the same *site* as the Bidak server, so its
    SameSite=Lax cookie goes along, as from a sibling subdomain)."""
    servers: list[ThreadingHTTPServer] = []

    def serve(html: str) -> str:
        body = html.encode()

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        servers.append(httpd)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{httpd.server_address[1]}/"

    yield serve
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


ATTACK = """<!doctype html>
<title>Win coins</title>
<iframe id="table" src="{base}/#/" width="400" height="600"></iframe>
<script>
window.result = (async () => {{
  const out = {{}};
  const body = JSON.stringify({{ kind: "practice", length: 1, level: "beginner" }});
  try {{
    await fetch("{base}/api/rooms", {{ method: "POST", mode: "no-cors", credentials: "include",
      headers: {{ "Content-Type": "text/plain" }}, body }});
    out.post = "sent";
  }} catch (error) {{ out.post = String(error); }}
  out.socket = await new Promise((resolve) => {{
    const socket = new WebSocket("{ws}/ws");
    socket.onopen = () => {{ socket.close(); resolve("open"); }};
    socket.onerror = () => resolve("refused");
  }});
  return out;
}})();
</script>
"""


def test_a_page_on_another_origin_cannot_frame_the_table_or_act_for_its_visitor(
    server: Any, pages: Any, other_site: Callable[[str], str]
) -> None:
    running = server()
    page = pages.new(running.base)
    # The lobby is drawn before /api/me answers: wait for the answer that sets the cookie.
    with page.expect_response(lambda response: response.url.endswith("/api/me")):
        page.goto("/")
    page.wait_for_selector("#start-practice")  # the visitor has a guest and its cookie
    cookies = page.context.cookies()
    assert any(c["name"] == "bidak_session" for c in cookies)
    before = rows(running)

    ws = running.base.replace("http", "ws", 1)
    attacker = page.context.new_page()  # the same browser: the visitor's cookie goes along
    console: list[str] = []
    attacker.on("console", lambda message: console.append(message.text))
    statuses: list[int] = []
    attacker.on(
        "response",
        lambda response: response.url.endswith("/api/rooms") and statuses.append(response.status),
    )
    attacker.goto(other_site(ATTACK.format(base=running.base, ws=ws)))
    result = attacker.evaluate("window.result")
    assert result == {"post": "sent", "socket": "refused"}, result
    assert statuses == [403], statuses

    frame = attacker.frame_locator("#table")
    assert frame.locator("#header, #main").count() == 0, "the table rendered inside the frame"
    framed = [f for f in attacker.frames if f is not attacker.main_frame]
    assert framed and all(not f.url.startswith(running.base) for f in framed), [
        f.url for f in framed
    ]
    assert any("frame-ancestors" in line for line in console), console
    screenshot(attacker, "framed-table-refused")
    assert rows(running) == before, "the other page changed something"
