"""Short-lived tokens signed with the site's secret (``BIDAK_SECRET_KEY``); pure, time injected.

A token says one thing (``subject``, e.g. a player id or an e-mail address) for one purpose
(``"unsubscribe"``, ``"invite"``) until a time, and nobody without the secret can make or change
one. It is for links that need no row of their own and may be used more than once until they
expire; a link that must work only once (the e-mail sign-in links of
:mod:`bidak.server.accounts`) is a random token whose hash is stored and consumed instead.

The purpose is part of what is signed, so a token made for one purpose is refused for any
other. A token is ``{expiry}.{subject}.{signature}``, the subject and the signature URL-safe
base64 without padding, the signature an HMAC-SHA256 over the purpose, the expiry and the
subject under a key derived from the secret for tokens (the secret itself signs nothing
directly).

    >>> signer = Signer("a" * 32)
    >>> token = signer.sign("sign-in", "player-1", now=1000.0, seconds=600)
    >>> signer.verify("sign-in", token, now=1300.0)
    'player-1'
    >>> signer.verify("link-email", token, now=1300.0)
    Traceback (most recent call last):
    ...
    bidak.server.accounts.tokens.BadToken: this link is not valid
    >>> signer.verify("sign-in", token, now=1601.0)
    Traceback (most recent call last):
    ...
    bidak.server.accounts.tokens.ExpiredToken: this link has expired

Session cookies are not signed: they are random tokens whose SHA-256 is stored (see
``bidak.server.shared.store.rows``), which a keyed hash would not make safer, and a lost or changed
secret would then end every session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac


class BadToken(ValueError):
    """A token that was not made by this site for this purpose (or was changed)."""


class ExpiredToken(BadToken):
    """A token that was valid until a time that has passed."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    def __init__(self, secret: str) -> None:
        # One derived key for tokens: another use of the secret would derive its own.
        self._key = hmac.digest(secret.encode("utf-8"), b"bidak tokens v1", hashlib.sha256)

    def _signature(self, purpose: str, expiry: str, subject: str) -> bytes:
        message = "\n".join((purpose, expiry, subject)).encode("utf-8")
        return hmac.digest(self._key, message, hashlib.sha256)

    def sign(self, purpose: str, subject: str, now: float, seconds: float) -> str:
        """A token for ``subject`` and ``purpose``, valid for ``seconds`` from ``now``."""
        if "\n" in purpose:
            raise ValueError("a purpose is one line")
        expiry = str(int(now + seconds))
        signature = self._signature(purpose, expiry, subject)
        return ".".join((expiry, _b64(subject.encode("utf-8")), _b64(signature)))

    def verify(self, purpose: str, token: str, now: float, expired_ok: bool = False) -> str:
        """The subject of ``token`` if this site made it for ``purpose`` and it has not
        expired (or ``expired_ok``); else :class:`BadToken` (or :class:`ExpiredToken`)."""
        try:
            expiry, encoded, signature = token.split(".")
            subject = _unb64(encoded).decode("utf-8")
            given = _unb64(signature)
            valid_until = int(expiry)
        except ValueError:
            raise BadToken("this link is not valid") from None
        if not hmac.compare_digest(given, self._signature(purpose, expiry, subject)):
            raise BadToken("this link is not valid")
        if now > valid_until and not expired_ok:
            raise ExpiredToken("this link has expired")
        return subject
