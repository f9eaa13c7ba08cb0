"""The site's address never comes from a request's Host header (issue 23, change 1).

A probe signed in as a victim: one request with ``Host: evil.example:PORT`` and the matching
``Origin`` passed the same-origin check, and the sign-in letter sent to the victim linked to
``http://evil.example:PORT/auth/email?token=...``. Production now refuses to start without
``BIDAK_PUBLIC_URL``; without it, only loopback hosts and the address a request reached are
served, and every link is built from them.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from pydantic import ValidationError
from websockets.typing import Origin

from bidak.server.shared.security import Refused, SiteCheck
from bidak.server.shared.settings import Settings
from tests.server.harness import Running, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink

__all__ = ["smtp_sink"]
pytestmark = pytest.mark.anyio


def evil(running: Running) -> tuple[str, str]:
    """A forged Host naming another site at the server's port, and that site's origin."""
    port = running.base.rsplit(":", 1)[1]
    return f"evil.example:{port}", f"http://evil.example:{port}"


async def test_a_forged_host_gets_no_sign_in_letter_and_no_link_to_itself(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    settings = server_settings(tmp_path, smtp_url=smtp_sink.url)
    async with running_server(settings) as running:
        host, origin = evil(running)
        async with httpx.AsyncClient(base_url=running.base, headers={"Origin": origin}) as http:
            for method, path, body in [
                ("POST", "/api/auth/email-login", {"email": "victim@example.com"}),
                ("POST", "/api/me/email", {"email": "victim@example.com"}),
                ("POST", "/api/rooms", {"kind": "friend", "length": 1}),
                ("GET", "/api/me", None),
            ]:
                answer = await http.request(method, path, json=body, headers={"Host": host})
                assert answer.status_code == 400, (path, answer.text)
                assert "Unknown host" in answer.json()["detail"]
        # The site's own address: the letter's link and the invitation point at the site.
        async with httpx.AsyncClient(
            base_url=running.base, headers={"Origin": running.base}
        ) as http:
            sent = await http.post("/api/me/email", json={"email": "victim@example.com"})
            assert sent.status_code == 202
            link = link_in(await smtp_sink.wait_for("victim@example.com"))
            assert link.startswith(running.base + "/auth/email?token="), link
            room = await http.post("/api/rooms", json={"kind": "friend", "length": 1})
            assert room.json()["invite_url"].startswith(running.base + "/#/room/")
        assert len(smtp_sink.letters) == 1, "the forged requests sent nothing"


async def test_a_forged_host_cannot_open_a_websocket(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        host, origin = evil(running)
        port = int(host.rsplit(":", 1)[1])
        # The address says evil.example (so does the Host header); the connection is to us.
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with websockets.connect(
                f"ws://{host}/ws", origin=Origin(origin), host="127.0.0.1", port=port
            ):
                pass  # pragma: no cover
        assert refused.value.response.status_code == 400
        async with websockets.connect(running.ws_url, origin=Origin(running.base)) as socket:
            await socket.send('{"type": "ping"}')
            assert "pong" in await socket.recv()


def test_production_refuses_to_start_without_a_public_address() -> None:
    secret = secrets.token_urlsafe(32)
    with pytest.raises(ValidationError, match="BIDAK_PUBLIC_URL"):
        Settings(environment="production", secret_key=secret)
    chosen = Settings(environment="production", secret_key=secret, public_url="https://b.example")
    assert chosen.public_url == "https://b.example"


def scope(host: str, origin: str, reached: str = "127.0.0.1") -> dict[str, Any]:
    headers = [(b"host", host.encode()), (b"origin", origin.encode())]
    return {"type": "http", "scheme": "http", "headers": headers, "server": (reached, 8000)}


def test_without_a_public_address_only_this_machines_own_hosts_are_the_site() -> None:
    check = SiteCheck(hosts=["bidak.lan"])
    for host, reached in [
        ("localhost:8000", "127.0.0.1"),
        ("127.0.0.1:8000", "127.0.0.1"),
        ("127.5.6.7:8000", "127.0.0.1"),
        ("[::1]:8000", "::1"),
        ("bidak.lan:8000", "192.168.1.5"),  # the address the operator made it listen on
        ("192.168.1.5:8000", "192.168.1.5"),  # the address the request reached
    ]:
        check.check(scope(host, f"http://{host}", reached))
    for host in ("evil.example:8000", "192.168.1.6:8000", "localhost.evil.example:8000"):
        with pytest.raises(Refused) as refused:
            check.check(scope(host, f"http://{host}"))
        assert refused.value.status == 400
        assert check.expected(scope(host, f"http://{host}")) is None
