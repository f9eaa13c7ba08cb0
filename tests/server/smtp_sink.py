"""A real SMTP server in the test process (aiosmtpd), keeping what it receives.

``SmtpSink`` listens on a free loopback port in aiosmtpd's own thread. ``refuse`` makes it answer
the next DATA commands with a temporary failure (451), as a busy mail server does. ``wait_for``
blocks (in a thread, so it may be awaited from a test's loop) until a letter for an address
arrives, without sleeping a fixed time.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
import socket
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class SmtpSink:
    def __init__(self, credentials: tuple[str, str] | None = None) -> None:
        self.letters: list[EmailMessage] = []
        self.refuse = 0
        self.attempts = 0
        self._arrived = threading.Condition()
        self.credentials = credentials
        self.port = _free_port()
        options: dict[str, Any] = {}
        if credentials is not None:
            options = {
                "auth_required": True,
                "auth_require_tls": False,
                "authenticator": self._authenticate,
            }
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **options)

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
    ) -> AuthResult:
        ok = (
            isinstance(auth_data, LoginPassword)
            and self.credentials is not None
            and (auth_data.login.decode(), auth_data.password.decode()) == self.credentials
        )
        return AuthResult(success=ok, handled=False)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self._arrived:
            self.attempts += 1
            if self.refuse > 0:
                self.refuse -= 1
                self._arrived.notify_all()
                return "451 4.3.0 Busy, try again later"
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            self.letters.append(message)
            self._arrived.notify_all()
        return "250 OK"

    @property
    def url(self) -> str:
        if self.credentials is None:
            return f"smtp://127.0.0.1:{self.port}"
        user, password = self.credentials
        return f"smtp://{user}:{password}@127.0.0.1:{self.port}"

    def _wait(self, to: str, count: int, timeout: float) -> list[EmailMessage]:
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.to(to)) >= count, timeout=timeout)
            found = self.to(to)
        if len(found) < count:
            raise AssertionError(f"no letter for {to} arrived within {timeout} s")
        return found

    def received(self, to: str, count: int = 1, timeout: float = 10.0) -> EmailMessage:
        """``wait_for`` for a test without an event loop (a browser test)."""
        return self._wait(to, count, timeout)[count - 1]

    async def wait_for(self, to: str, count: int = 1, timeout: float = 10.0) -> EmailMessage:
        """The ``count``-th letter to ``to``, once it has arrived."""
        found = await asyncio.to_thread(self._wait, to, count, timeout)
        return found[count - 1]

    def _wait_attempts(self, count: int, timeout: float) -> None:
        with self._arrived:
            if not self._arrived.wait_for(lambda: self.attempts >= count, timeout=timeout):
                raise AssertionError(f"fewer than {count} deliveries were tried in {timeout} s")

    async def wait_attempts(self, count: int, timeout: float = 10.0) -> None:
        """Return once ``count`` deliveries (accepted or refused) have been tried."""
        await asyncio.to_thread(self._wait_attempts, count, timeout)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.letters if address.lower() in str(m["To"]).lower()]


def link_in(message: EmailMessage) -> str:
    """The one-time link in a letter's plain-text part."""
    body = message.get_body(("plain",))
    assert body is not None
    found = re.search(r"https?://\S+", body.get_content())
    assert found is not None, "the letter has no link"
    return found[0]


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    sink.controller.start()
    try:
        yield sink
    finally:
        sink.controller.stop()
