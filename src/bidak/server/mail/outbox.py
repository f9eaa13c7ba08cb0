"""Delivering letters without making a request wait: an outbox over SMTP, or the server log.

``BIDAK_SMTP_URL`` names the server: ``smtp://user:password@host:587`` (STARTTLS when the server
offers it) or ``smtps://user:password@host:465`` (TLS from the first byte); user and password
are optional and percent-decoded. :class:`Outbox.send` returns at once; a background task
delivers, and retries a failed delivery after 5, 30 and 120 seconds (on the injected clock),
then gives up and logs it. Without an SMTP URL, :class:`LogTransport` writes each letter, its
link included, to the log: that is for development only, where the person reading the log is
the person who asked for the link.
"""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Protocol

from bidak.server.mail.letters import Letter
from bidak.server.shared.clocks import Clock
from bidak.server.shared.settings import SmtpConfig

__all__ = ["LogTransport", "Outbox", "SmtpConfig", "SmtpTransport", "Transport"]

log = logging.getLogger(__name__)

RETRY_AFTER = (5.0, 30.0, 120.0)
"""Seconds to wait before each new attempt after a failed one."""


class Transport(Protocol):
    async def deliver(self, message: EmailMessage) -> None:
        """Hand the message over, or raise."""
        ...


class SmtpTransport:
    """Delivery through aiosmtplib, one connection per letter (letters are rare)."""

    def __init__(self, config: SmtpConfig, timeout: float = 30.0) -> None:
        self.config = config
        self.timeout = timeout

    async def deliver(self, message: EmailMessage) -> None:
        import aiosmtplib

        config = self.config
        await aiosmtplib.send(
            message,
            hostname=config.host,
            port=config.port,
            username=config.username,
            password=config.password,
            use_tls=config.implicit_tls,
            # None: STARTTLS if the server offers it (never on top of implicit TLS).
            start_tls=False if config.implicit_tls else None,
            timeout=self.timeout,
        )


class LogTransport:
    """Development: the letter goes to the server log, where its reader finds the link."""

    async def deliver(self, message: EmailMessage) -> None:
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        log.warning(
            "no BIDAK_SMTP_URL: this letter was not sent, here it is instead\n"
            "To: %s\nSubject: %s\n\n%s",
            message["To"],
            message["Subject"],
            text,
        )


def build_message(letter: Letter, sender: str, to: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = letter.subject
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    for name, value in letter.headers:
        message[name] = value
    message.set_content(letter.text)
    message.add_alternative(letter.html, subtype="html")
    return message


class Outbox:
    """Letters on their way: :meth:`send` never waits for the mail server."""

    def __init__(
        self,
        transport: Transport,
        sender: str,
        clock: Clock,
        retry_after: tuple[float, ...] = RETRY_AFTER,
    ) -> None:
        self.transport = transport
        self.sender = sender
        self.clock = clock
        self.retry_after = retry_after
        self._tasks: set[asyncio.Task[bool]] = set()
        self.delivered = 0
        self.failed = 0

    @property
    def logs_only(self) -> bool:
        """Whether letters go to the log instead of a mail server (development)."""
        return isinstance(self.transport, LogTransport)

    def send(self, letter: Letter, to: str) -> asyncio.Task[bool]:
        """Start delivering ``letter`` to ``to``; the task ends True once delivered."""
        task = asyncio.create_task(self._deliver(build_message(letter, self.sender, to)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _deliver(self, message: EmailMessage) -> bool:
        waits = (0.0, *self.retry_after)
        for attempt, wait in enumerate(waits, start=1):
            if wait:
                await self.clock.sleep_until(self.clock.now() + wait)
            try:
                await self.transport.deliver(message)
            except Exception as error:
                log.warning(
                    "sending %r failed (attempt %d of %d): %r",
                    message["Subject"],
                    attempt,
                    len(waits),
                    error,
                )
                continue
            self.delivered += 1
            return True
        self.failed += 1
        log.error("gave up sending %r to %s", message["Subject"], _masked(message["To"]))
        return False

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def flush(self) -> None:
        """Wait until every letter handed over so far is delivered or given up (tests, and
        a shutdown that may wait)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop: letters still waiting for a retry are dropped (and logged as such)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except asyncio.CancelledError:
                log.warning("a letter was still being sent at shutdown and was dropped")


def _masked(address: str) -> str:
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
