"""Guests: the first visit makes an account and a session cookie, the same browser keeps it."""

from __future__ import annotations

from http.cookies import SimpleCookie
from pathlib import Path

import httpx
import pytest

from tests.server.harness import running_server, server_settings

pytestmark = pytest.mark.anyio


def session_cookie(answer: httpx.Response) -> SimpleCookie:
    """The ``bidak_session`` cookie the answer sets, with its attributes."""
    headers = [v for k, v in answer.headers.multi_items() if k.lower() == "set-cookie"]
    assert len(headers) == 1, headers
    cookie = SimpleCookie()
    cookie.load(headers[0])
    assert "bidak_session" in cookie, headers[0]
    return cookie


async def test_a_first_visit_makes_a_guest_that_the_browser_keeps(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with httpx.AsyncClient(base_url=running.base) as browser:
            first = await browser.get("/api/me")
            me = first.json()
            assert first.status_code == 200 and me["name"] and me["coins"] >= 0
            morsel = session_cookie(first)["bidak_session"]
            assert morsel["httponly"] and morsel["samesite"].lower() == "lax"
            assert morsel["path"] == "/" and int(morsel["max-age"]) > 30 * 24 * 3600
            assert not morsel["secure"], "plain HTTP cannot carry a Secure cookie"
            assert len(morsel.value) >= 22, "a session token is unguessable"

            again = await browser.get("/api/me")
            assert again.json()["id"] == me["id"]
            assert "set-cookie" not in again.headers, "a known browser gets no new cookie"

        async with httpx.AsyncClient(base_url=running.base) as stranger:
            other = (await stranger.get("/api/me")).json()
            assert other["id"] != me["id"]


async def test_an_unknown_session_gets_a_new_guest_not_an_error(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with httpx.AsyncClient(base_url=running.base) as browser:
            me = (await browser.get("/api/me")).json()
        forged = httpx.Cookies({"bidak_session": "not-a-session-anyone-was-given"})
        async with httpx.AsyncClient(base_url=running.base, cookies=forged) as visitor:
            answer = await visitor.get("/api/me")
            assert answer.status_code == 200
            assert answer.json()["id"] != me["id"]
            assert session_cookie(answer)["bidak_session"].value != "not-a-session-anyone-was-given"


async def test_the_cookie_is_secure_when_the_site_is_reached_over_https(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        # A TLS-terminating proxy on this host (uvicorn trusts 127.0.0.1 by default).
        async with httpx.AsyncClient(
            base_url=running.base, headers={"X-Forwarded-Proto": "https"}
        ) as browser:
            assert session_cookie(await browser.get("/api/me"))["bidak_session"]["secure"]
    async with running_server(server_settings(tmp_path, secure_cookies=True)) as running:
        async with httpx.AsyncClient(base_url=running.base) as browser:
            assert session_cookie(await browser.get("/api/me"))["bidak_session"]["secure"]


async def test_a_guest_renames_themselves_and_bad_names_change_nothing(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        site = {"Origin": running.base}
        async with httpx.AsyncClient(base_url=running.base, headers=site) as browser:
            me = (await browser.get("/api/me")).json()
            renamed = await browser.patch("/api/me", json={"name": "  Budi   Santoso "})
            assert renamed.status_code == 200 and renamed.json()["name"] == "Budi Santoso"
            for bad in ["", "   ", "x" * 25, "bell\x07", {"nested": 1}]:
                refused = await browser.patch("/api/me", json={"name": bad})
                assert refused.status_code == 422, (bad, refused.text)
                assert refused.json()["detail"], "the refusal says why"
            now = (await browser.get("/api/me")).json()
            assert now == {**me, "name": "Budi Santoso"}
