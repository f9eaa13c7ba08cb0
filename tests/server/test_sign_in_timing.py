"""Asking for a sign-in link answers before any work that depends on the address (issue 23,
change 4).

A probe told known addresses from unknown ones by time: ``POST /api/auth/email-login`` answered
~8 ms later for a known address, since the link was stored before the answer. Measuring times
would make a flaky test; instead the work that depends on the address is held until the answer
has arrived: a server that does it before answering never answers, one that does it after
answers at once, for a known address as for an unknown one, and the letter still arrives.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bidak.server.accounts.service import Accounts
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink

__all__ = ["database_url", "postgres_url", "smtp_sink"]
pytestmark = pytest.mark.anyio

ANSWER = 20.0
"""Seconds the answer may take (it needs milliseconds, on a CI machine under load up to seconds).
The work it must not wait for is held until the answers are in, so past them it waited."""


async def test_the_answer_does_not_wait_for_the_link_of_a_known_address(
    database_url: str, tmp_path: Path, smtp_sink: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server_settings(tmp_path, database_url=database_url, smtp_url=smtp_sink.url)
    async with (
        running_server(settings) as running,
        Client(running) as owner,
        Client(running) as stranger,
    ):
        linked = await owner.http.post("/api/me/email", json={"email": "known@example.com"})
        assert linked.status_code == 202
        link = link_in(await smtp_sink.wait_for("known@example.com"))
        token = link.split("token=", 1)[1]
        assert (await owner.http.post("/api/auth/email", json={"token": token})).is_success

        accounts = running.services.accounts
        release = asyncio.Event()
        held: list[str] = []
        send = Accounts._send

        async def held_send(self: Accounts, *args: Any, **kwargs: Any) -> None:
            held.append(args[2])  # the address the letter goes to
            await release.wait()
            await send(self, *args, **kwargs)

        monkeypatch.setattr(Accounts, "_send", held_send)
        answers = []
        try:
            for address in ("known@example.com", "unknown@example.com"):
                asked = stranger.http.post("/api/auth/email-login", json={"email": address})
                answers.append(await asyncio.wait_for(asked, ANSWER))
        finally:
            release.set()  # a server that waited for the work (before the change) stops too
        assert [a.status_code for a in answers] == [202, 202]
        assert answers[0].json() == answers[1].json()
        await asyncio.wait_for(_until(lambda: held == ["known@example.com"]), ANSWER)
        letter = await smtp_sink.wait_for("known@example.com", 2)
        assert link_in(letter).startswith(running.base)
        await accounts.close()
        assert smtp_sink.to("unknown@example.com") == []


async def _until(done: Any) -> None:
    while not done():
        await asyncio.sleep(0.01)


async def test_known_and_unknown_addresses_do_the_same_work_before_the_answer(
    database_url: str, tmp_path: Path, smtp_sink: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two paths compared by their work, not their time: for a known address and an
    unknown one the same steps happen in the same order, and the one step that depends on the
    address (looking up its owner, then storing a link) comes after the answer's last byte has
    gone out, however slowly it goes. The answer is held here as a slow network would hold it
    (the loop runs other work meanwhile); a task started at once looked the owner up, and for a
    known address stored the link, while the answer was still being written."""
    from bidak.server.accounts import queries
    from bidak.server.app import BidakApp

    settings = server_settings(tmp_path, database_url=database_url, smtp_url=smtp_sink.url)
    steps: list[str] = []
    owner_of = queries.owner_of

    def watched_owner_of(*args: Any, **kwargs: Any) -> Any:
        steps.append("owner looked up")
        return owner_of(*args, **kwargs)

    answer = BidakApp.__call__

    async def slow(self: BidakApp, scope: Any, receive: Any, send: Any) -> None:
        async def slow_send(message: Any) -> None:
            last = message["type"] == "http.response.body" and not message.get("more_body")
            if last and scope.get("path") == "/api/auth/email-login":
                for _ in range(50):  # the last bytes on a slow network: the loop runs on
                    await asyncio.sleep(0)
                await send(message)
                steps.append("answered")
                return
            await send(message)

        await answer(self, scope, receive, slow_send)

    async with running_server(settings) as running, Client(running) as owner:
        linked = await owner.http.post("/api/me/email", json={"email": "known@example.com"})
        assert linked.status_code == 202
        token = link_in(await smtp_sink.wait_for("known@example.com")).split("token=", 1)[1]
        assert (await owner.http.post("/api/auth/email", json={"token": token})).is_success
        monkeypatch.setattr(queries, "owner_of", watched_owner_of)
        monkeypatch.setattr(BidakApp, "__call__", slow)
        seen: dict[str, list[str]] = {}
        for address in ("known@example.com", "unknown@example.com"):
            steps.clear()
            async with Client(running) as stranger:
                asked = await stranger.http.post("/api/auth/email-login", json={"email": address})
                assert asked.status_code == 202
                # The work after the answer runs on the server's loop: wait for its one step.
                for _ in range(500):
                    if "owner looked up" in steps:
                        break
                    await asyncio.sleep(0.01)
            seen[address] = list(steps)
        assert seen["known@example.com"] == ["answered", "owner looked up"]
        assert seen["unknown@example.com"] == seen["known@example.com"]
        await smtp_sink.wait_for("known@example.com", 2)
