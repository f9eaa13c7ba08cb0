"""Letters in three languages, delivered over real SMTP (aiosmtpd in the test process)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bidak.server.mail.letters import LANGUAGES, Purpose, compose, language_of
from bidak.server.mail.outbox import LogTransport, Outbox, SmtpConfig, SmtpTransport
from bidak.server.shared.clocks import ManualClock
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink

__all__ = ["smtp_sink"]

LINK = "https://bidak.example/auth/email?token=abc_DEF-123"


@pytest.mark.parametrize("purpose", list(Purpose))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_letter_carries_its_link_its_lifetime_and_an_if_not_you_line(
    purpose: Purpose, language: str
) -> None:
    letter = compose(purpose, language_of(language), "Swift Otter 42", LINK, 30)
    assert LINK in letter.text
    assert "30" in letter.text
    assert "Swift Otter 42" in letter.text
    assert f'href="{LINK}"' in letter.html
    assert f'lang="{language}"' in letter.html


def test_the_three_languages_really_differ() -> None:
    texts = {compose(Purpose.SIGN_IN, lang, "A", LINK, 30).text for lang in LANGUAGES}
    subjects = {compose(Purpose.SIGN_IN, lang, "A", LINK, 30).subject for lang in LANGUAGES}
    assert len(texts) == len(subjects) == 3


def test_a_name_with_markup_is_escaped_in_the_html_part() -> None:
    letter = compose(Purpose.LINK_EMAIL, "en", '<img src=x onerror="alert(1)">', LINK, 30)
    assert "<img" not in letter.html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in letter.html


@pytest.mark.parametrize(
    ("code", "expected"),
    [("fi", "fi"), ("en-GB", "en"), ("id_ID", "id"), ("de", "id"), (None, "id"), ("", "id")],
)
def test_the_letter_language_follows_the_ui_language(code: str | None, expected: str) -> None:
    assert language_of(code) == expected


def test_smtp_urls() -> None:
    plain = SmtpConfig.from_url("smtp://mailer%40bidak.example:p%3Ass@mail.example")
    assert (plain.host, plain.port, plain.implicit_tls) == ("mail.example", 587, False)
    assert (plain.username, plain.password) == ("mailer@bidak.example", "p:ss")
    assert "p:ss" not in plain.safe()
    tls = SmtpConfig.from_url("smtps://mail.example")
    assert (tls.port, tls.implicit_tls, tls.username) == (465, True, None)
    for bad in ("http://mail.example", "smtp://", "mail.example:25", "smtp://h:port"):
        with pytest.raises(ValueError, match="BIDAK_SMTP_URL"):
            SmtpConfig.from_url(bad)


def outbox_for(sink: SmtpSink, clock: ManualClock) -> Outbox:
    return Outbox(
        SmtpTransport(SmtpConfig.from_url(sink.url)), "Bidak <no-reply@bidak.test>", clock
    )


@pytest.mark.anyio
async def test_a_letter_arrives_with_a_plain_and_an_html_part(smtp_sink: SmtpSink) -> None:
    outbox = outbox_for(smtp_sink, ManualClock())
    letter = compose(Purpose.SIGN_IN, "fi", "Ilo", LINK, 30)
    task = outbox.send(letter, "ilo@example.com")
    assert await task
    message = await smtp_sink.wait_for("ilo@example.com")
    assert message["Subject"] == letter.subject
    assert message["From"] == "Bidak <no-reply@bidak.test>"
    assert link_in(message) == LINK
    html = message.get_body(("html",))
    assert html is not None and f'href="{LINK}"' in html.get_content()


@pytest.mark.anyio
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
async def test_credentials_from_the_url_are_used() -> None:
    sink = SmtpSink(credentials=("mailer", "s3cret"))
    sink.controller.start()
    try:
        good = outbox_for(sink, ManualClock())
        assert await good.send(compose(Purpose.SIGN_IN, "en", "A", LINK, 30), "a@example.com")
        bad = Outbox(
            SmtpTransport(SmtpConfig.from_url(f"smtp://mailer:wrong@127.0.0.1:{sink.port}")),
            "no-reply@bidak.test",
            ManualClock(),
            retry_after=(),
        )
        assert not await bad.send(compose(Purpose.SIGN_IN, "en", "A", LINK, 30), "b@example.com")
        assert len(sink.to("a@example.com")) == 1 and sink.to("b@example.com") == []
    finally:
        sink.controller.stop()


async def sleeping(clock: ManualClock, timeout: float = 10.0) -> None:
    """Return once something waits on ``clock`` (the outbox, before its next attempt)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while clock.waiting == 0:
        assert loop.time() < end, "nothing came to wait on the clock"
        await asyncio.sleep(0.001)


@pytest.mark.anyio
async def test_a_busy_mail_server_is_tried_again_later(smtp_sink: SmtpSink) -> None:
    clock = ManualClock()
    outbox = outbox_for(smtp_sink, clock)
    smtp_sink.refuse = 2
    task = outbox.send(compose(Purpose.LINK_EMAIL, "id", "A", LINK, 30), "a@example.com")
    await smtp_sink.wait_attempts(1)  # the first attempt happens at once
    await sleeping(clock)
    assert not task.done() and smtp_sink.letters == []
    await clock.advance(5)  # the first retry, refused again
    await smtp_sink.wait_attempts(2)
    await sleeping(clock)
    await clock.advance(30)  # the second retry goes through
    assert await task
    assert len(smtp_sink.to("a@example.com")) == 1 and smtp_sink.attempts == 3
    assert outbox.delivered == 1 and outbox.failed == 0


@pytest.mark.anyio
async def test_it_gives_up_after_the_last_retry_and_says_so(
    smtp_sink: SmtpSink, caplog: pytest.LogCaptureFixture
) -> None:
    outbox = Outbox(
        SmtpTransport(SmtpConfig.from_url(smtp_sink.url)), "n@bidak.test", ManualClock(), (0, 0)
    )
    smtp_sink.refuse = 99
    assert not await outbox.send(compose(Purpose.SIGN_IN, "en", "A", LINK, 30), "ab@example.com")
    assert smtp_sink.attempts == 3 and smtp_sink.letters == []
    assert outbox.failed == 1
    assert "gave up" in caplog.text and "a***@example.com" in caplog.text
    assert "ab@example.com" not in caplog.text.split("gave up")[1]


@pytest.mark.anyio
async def test_without_smtp_the_letter_and_its_link_go_to_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    outbox = Outbox(LogTransport(), "no-reply@localhost", ManualClock())
    assert outbox.logs_only
    assert await outbox.send(compose(Purpose.SIGN_IN, "en", "A", LINK, 30), "a@example.com")
    assert LINK in caplog.text and "no BIDAK_SMTP_URL" in caplog.text


def test_a_smtp_url_the_server_cannot_use_is_refused_by_name() -> None:
    from pydantic import ValidationError

    from bidak.server.shared.settings import Settings

    with pytest.raises(ValidationError, match="BIDAK_SMTP_URL must look like"):
        Settings(smtp_url="mail.example.com:25")
    assert Settings(smtp_url="smtps://u:p@mail.example").smtp_url.startswith("smtps://")
