"""Accounts that last: link an e-mail, sign in anywhere by a one-time link, sessions, own data.

No passwords. Every link is one-time (256 random bits, only the hash stored), lasts
:data:`LINK_SECONDS`, carries the site's signature (``BIDAK_SECRET_KEY``: a changed, foreign or
expired link is refused before the database is asked, and changing the secret voids every link
in flight), and is consumed only by an explicit click on the page it opens (a mail
scanner that fetches the link consumes nothing). Whether an address is known is never told: the
requests that send letters answer the same either way, and in the same time: what depends on
the address (finding its owner, storing the link, composing the letter) is done after the
answer, in a task of its own. Letters go through the outbox, so nothing waits for the mail
server.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import zipfile
from collections.abc import Coroutine
from datetime import UTC, datetime
from functools import partial
from typing import Any

import orjson

from bidak.server.accounts import player_queries as players
from bidak.server.accounts import queries
from bidak.server.accounts.devices import UNKNOWN, device_parts
from bidak.server.accounts.queries import Confirmed, LinkRefused, NotYours
from bidak.server.accounts.tokens import BadToken, ExpiredToken, Signer
from bidak.server.mail import BadAddress, Language, Outbox, Purpose, compose, masked, normalise
from bidak.server.shared.clocks import Clock
from bidak.server.shared.forgetting import Forgetting
from bidak.server.shared.limiter import Limits
from bidak.server.shared.sockets import RENEWED, SIGNED_OUT, SocketCap
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import token_hash

log = logging.getLogger(__name__)

LINK_SECONDS = 30 * 60
LINK_PURPOSE = "email-link"
"""What the secret signs a link for: the link is ``Signer.sign(LINK_PURPOSE, random part)``."""


ANSWER_WAIT = 1.0
"""Seconds a letter's work waits for its request's answer to be sent before it goes ahead."""


class AccountError(Exception):
    """A refused request: ``status`` for HTTP, the message for people."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class Accounts:
    def __init__(
        self,
        db: Database,
        outbox: Outbox | None,
        clock: Clock,
        limits: Limits,
        signer: Signer,
        sockets: SocketCap | None = None,
        forgetting: Forgetting | None = None,
    ) -> None:
        self.db, self.outbox, self.clock, self.limits = db, outbox, clock, limits
        self.forgetting = forgetting or Forgetting()
        """What the capabilities above delete with an account (``shared/forgetting.py``)."""
        self.signer = signer
        self.sockets = sockets
        """Where an ended session's WebSockets are closed, in every process (None: nowhere)."""
        self._later: set[asyncio.Task[None]] = set()

    def _after_answer(
        self, work: Coroutine[Any, Any, None], answered: asyncio.Event | None = None
    ) -> None:
        """Run ``work`` after the request has been answered, so how long it takes (which may
        depend on whether an address is known) never shows in the answer's time. ``answered``
        is set once the answer has been sent (a background task of the response): the work
        waits for it, or :data:`ANSWER_WAIT` seconds for a client that went away. A task made
        at once could run on the loop while the answer was still being written."""

        async def guarded() -> None:
            try:
                if answered is not None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(answered.wait(), ANSWER_WAIT)
                await work
            except Exception:
                log.exception("a sign-in letter could not be prepared")

        task = asyncio.create_task(guarded())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def close(self, seconds: float = 5.0) -> None:
        """Let the letters being prepared finish (at most ``seconds``), then stop them."""
        pending = list(self._later)
        if pending:
            _, late = await asyncio.wait(pending, timeout=seconds)
            for task in late:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _ended(
        self, sessions: list[str] | None = None, player: str | None = None, code: int = SIGNED_OUT
    ) -> None:
        """Close the WebSockets of sessions just ended in the store (token hashes), or of
        every session of ``player``."""
        if self.sockets is not None:
            await self.sockets.end(sessions, player, code)

    def _raw(self, token: str, expired_ok: bool = False) -> str:
        """The random part of a link the site signed, else :class:`AccountError` (a link
        changed, from another site, signed under an old secret, or too old)."""
        try:
            return self.signer.verify(LINK_PURPOSE, token, self.clock.now(), expired_ok)
        except ExpiredToken:
            raise AccountError(410, _REFUSED["expired"]) from None
        except BadToken:
            raise AccountError(404, _REFUSED["unknown"]) from None

    @property
    def delivery(self) -> str:
        """Where letters go: "smtp", or "log" in development without BIDAK_SMTP_URL."""
        if self.outbox is None:
            return "off"
        return "log" if self.outbox.logs_only else "smtp"

    def _outbox(self) -> Outbox:
        if self.outbox is None:
            raise AccountError(
                503, "E-mail is not set up on this site (its operator must set BIDAK_SMTP_URL)"
            )
        return self.outbox

    async def _allowed(self, address: str, client: str) -> None:
        """Whether ``client`` may have one more link sent to ``address`` now: its own share of
        the address's links (so a stranger cannot use up the owner's), its own links in all,
        and the address's ceiling over every client; else :class:`AccountError` 429."""
        limits = self.limits
        for rule, key in (
            (limits.email_address, f"{address} {client}"),
            (limits.email_client, client),
            (limits.email_ceiling, address),
        ):
            wait = await limits.wait(rule, key, self.clock.now())
            if wait > 0:
                raise AccountError(
                    429, "Too many links asked for; try again later", retry_after=wait
                )

    async def _send(
        self,
        purpose: Purpose,
        player: PlayerRow,
        to: str,
        carried: str,
        language: Language,
        base: str,
    ) -> None:
        now = self.clock.now()
        token = await self.db.write(
            partial(
                queries.new_link,
                purpose=purpose.value,
                player_id=player.id,
                email=carried,
                now=now,
                seconds=LINK_SECONDS,
            )
        )
        signed = self.signer.sign(LINK_PURPOSE, token, now, LINK_SECONDS)
        link = f"{base}/auth/email?token={signed}"
        letter = compose(purpose, language, player.name, link, LINK_SECONDS // 60)
        self._outbox().send(letter, to)

    # -- asking for links -------------------------------------------------------------------

    async def ask_to_link(
        self,
        player: PlayerRow,
        text: str,
        language: Language,
        client: str,
        base: str,
        answered: asyncio.Event | None = None,
    ) -> None:
        """Send a link that links ``text`` to ``player`` (or, when the account has an address
        already, a link to that address that allows the change)."""
        self._outbox()
        address = _address(text)
        await self._allowed(address, client)
        if player.email == address:
            return
        self._after_answer(self._link_letter(player, address, language, base), answered)

    async def _link_letter(
        self, player: PlayerRow, address: str, language: Language, base: str
    ) -> None:
        if player.email is not None:
            await self._send(Purpose.CHANGE_EMAIL, player, player.email, address, language, base)
            return
        owner = await self.db.read(partial(queries.owner_of, email=address))
        if owner is not None:
            # Someone else's address: its owner gets a sign-in link, the asker learns nothing.
            await self._send(Purpose.SIGN_IN, owner, address, address, language, base)
            return
        await self._send(Purpose.LINK_EMAIL, player, address, address, language, base)

    async def ask_to_sign_in(
        self,
        text: str,
        language: Language,
        client: str,
        base: str,
        answered: asyncio.Event | None = None,
    ) -> None:
        """Send a sign-in link to ``text`` if an account owns it (the answer is the same, in the
        same time, if none does: the work begins once ``answered`` is set)."""
        self._outbox()
        address = _address(text)
        await self._allowed(address, client)
        self._after_answer(self._sign_in_letter(address, language, base), answered)

    async def _sign_in_letter(self, address: str, language: Language, base: str) -> None:
        owner = await self.db.read(partial(queries.owner_of, email=address))
        if owner is not None:
            await self._send(Purpose.SIGN_IN, owner, address, address, language, base)

    async def ask_to_remove(
        self, player: PlayerRow, language: Language, client: str, base: str
    ) -> None:
        """A link to the account's address that removes it."""
        await self._to_own_address(player, Purpose.CHANGE_EMAIL, "", language, client, base)

    async def ask_to_delete(
        self, player: PlayerRow, language: Language, client: str, base: str
    ) -> None:
        """A link to the account's address that deletes the account."""
        email = player.email or ""
        await self._to_own_address(player, Purpose.DELETE_ACCOUNT, email, language, client, base)

    async def _to_own_address(
        self,
        player: PlayerRow,
        purpose: Purpose,
        carried: str,
        language: Language,
        client: str,
        base: str,
    ) -> None:
        if player.email is None:
            raise AccountError(409, "This account has no e-mail address")
        self._outbox()
        await self._allowed(player.email, client)
        await self._send(purpose, player, player.email, carried, language, base)

    async def delete_now(self, player: PlayerRow) -> None:
        """A guest without an address deletes itself (nobody could receive a link)."""
        if player.email is not None:
            raise AccountError(409, "Confirm with the link sent to your e-mail address")
        at = datetime.fromtimestamp(self.clock.now(), UTC)
        await self.db.write(
            partial(queries.delete_account, player_id=player.id, at=at, forgetting=self.forgetting)
        )
        await self._ended(player=player.id)

    # -- opening a link ------------------------------------------------------------------------

    async def preview(self, token: str) -> dict[str, Any]:
        """What the link would do, without using it (for the page that asks for the click)."""
        found = await self.db.read(partial(queries.peek_with_owner, token=self._raw(token, True)))
        if found is None:
            raise AccountError(404, _REFUSED["unknown"])
        link, owner = found
        state = (
            "used"
            if link.used_at is not None
            else "expired"
            if link.expires_at < self.clock.now()
            else "ready"
        )
        return {
            "purpose": link.purpose,
            "state": state,
            "name": owner.name if owner else "",
            "address": masked(link.email) if link.email else "",
        }

    async def confirm(
        self,
        token: str,
        player: PlayerRow | None,
        session: str | None,
        device: str,
        language: Language,
        base: str,
    ) -> Confirmed:
        """Use the link in this browser (``player``, ``session``: who it is signed in as)."""
        now = self.clock.now()
        work = partial(
            queries.confirm,
            token=self._raw(token),
            now=now,
            at=datetime.fromtimestamp(now, UTC),
            player_id=None if player is None else player.id,
            session=session,
            device=device,
            forgetting=self.forgetting,
        )
        try:
            result, carried = await self.db.write(work)
        except LinkRefused as refused:
            status = 404 if refused.code == "unknown" else 410
            raise AccountError(status, _REFUSED[refused.code]) from None
        except NotYours:
            raise AccountError(
                403,
                "This link was made for another account: open it in the browser that asked for it",
            ) from None
        except queries.AddressTaken:
            raise AccountError(409, "That address is linked to another account") from None
        purpose = result.purpose
        if purpose is Purpose.DELETE_ACCOUNT and player is not None:
            await self._ended(player=player.id)  # the link was the account's own (NotYours)
        elif result.token is not None and session is not None:
            # This browser's session was replaced: a copy of the old cookie acts no more.
            await self._ended([token_hash(session)], code=RENEWED)
        if purpose is Purpose.CHANGE_EMAIL and carried:
            assert result.player_id is not None
            owner = await self.db.read(partial(players.player_row, player_id=result.player_id))
            assert owner is not None
            await self._send(Purpose.LINK_EMAIL, owner, carried, carried, language, base)
        return result

    # -- sessions and data ---------------------------------------------------------------------

    async def sessions(self, player_id: str, session: str | None) -> list[dict[str, Any]]:
        rows = await self.db.read(partial(players.sessions_of, player_id=player_id))
        mine = token_hash(session) if session else None
        return [
            {
                "id": row["id"],
                "created_at": row["created_at"].isoformat(),
                "last_seen": row["last_seen"],
                "device": row["device"] or UNKNOWN,
                "browser": device_parts(row["device"])[0],
                "system": device_parts(row["device"])[1],
                "current": row["token_hash"] == mine,
            }
            for row in rows
        ]

    async def end_session(self, player_id: str, session_id: str) -> bool:
        """End one of the player's sessions (and its sockets); False if there is no such one."""
        ended = await self.db.write(
            partial(players.end_session, player_id=player_id, session_id=session_id)
        )
        if ended is not None:
            await self._ended([ended])
        return ended is not None

    async def logout(self, session: str) -> None:
        await self.db.write(partial(players.end_token, token=session))
        await self._ended([token_hash(session)])

    async def logout_all(self, player_id: str) -> int:
        ended = await self.db.write(partial(players.end_all, player_id=player_id))
        await self._ended(player=player_id)
        return ended

    async def seen(self, session: str, device: str) -> None:
        await self.db.write(
            partial(players.seen, token=session, now=self.clock.now(), device=device)
        )

    async def export(self, player_id: str, mats: dict[str, str]) -> bytes:
        """A zip: account.json (everything stored about the account) and each finished match
        as .mat (``mats``, by match id)."""
        document = await self.db.read(partial(queries.export, player_id=player_id))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(
                "account.json",
                orjson.dumps(document, option=orjson.OPT_INDENT_2, default=str),
            )
            for match_id, text in mats.items():
                archive.writestr(f"matches/{match_id}.mat", text)
        return buffer.getvalue()


_REFUSED = {
    "unknown": "This link is not valid",
    "used": "This link was used already; ask for a new one",
    "expired": "This link has expired; ask for a new one",
}


def _address(text: str) -> str:
    try:
        return normalise(text)
    except BadAddress as bad:
        raise AccountError(422, str(bad)) from None
