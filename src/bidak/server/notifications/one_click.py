"""One-click unsubscribe tokens (RFC 8058): which player's e-mail of which kind a letter's
unsubscribe link switches off, signed with the site's secret; pure.

A token is ``1.<player id>.<kind>.<signature>``: the version, the player id as URL-safe base64
without padding, the kind, and an HMAC-SHA256 (its first 128 bits) of the three under a key
derived from ``BIDAK_SECRET_KEY`` for this use alone. It does not expire: the link of an old
letter still stops the letters (switching them off again changes nothing); a changed secret
makes every link sent before it invalid (the settings still switch them off).

    >>> links = OneClick("a" * 32, kinds=("turn", "time"))
    >>> token = links.sign("p1", "turn")
    >>> links.verify(token)
    Unsubscribe(player_id='p1', kind='turn')
    >>> links.verify(token.replace("turn", "time"))
    Traceback (most recent call last):
    ...
    bidak.server.notifications.one_click.BadToken: this unsubscribe link is not valid
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

VERSION = "1"
MAX_LENGTH = 200
"""No token this site makes is longer (a 32-character id, a kind, a signature)."""
_SIGNATURE_BYTES = 16


class BadToken(ValueError):
    """Not a token this site made (changed, cut short, or for something it does not send)."""


@dataclass(frozen=True, slots=True)
class Unsubscribe:
    player_id: str
    kind: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class OneClick:
    """Signs and checks unsubscribe tokens for the e-mail kinds ``kinds``."""

    def __init__(self, secret: str, kinds: tuple[str, ...]) -> None:
        self._key = hmac.digest(secret.encode("utf-8"), b"bidak unsubscribe v1", hashlib.sha256)
        self.kinds = kinds

    def _signature(self, body: str) -> bytes:
        return hmac.digest(self._key, body.encode("ascii"), hashlib.sha256)[:_SIGNATURE_BYTES]

    def sign(self, player_id: str, kind: str) -> str:
        """The token that switches ``kind`` e-mails off for ``player_id``."""
        if kind not in self.kinds:
            raise ValueError(f"no e-mail of kind {kind!r}")
        body = ".".join((VERSION, _b64(player_id.encode("utf-8")), kind))
        return f"{body}.{_b64(self._signature(body))}"

    def verify(self, token: str) -> Unsubscribe:
        """What ``token`` unsubscribes from, or :class:`BadToken`."""
        parts = token.split(".") if len(token) <= MAX_LENGTH and token.isascii() else []
        if len(parts) != 4 or parts[0] != VERSION or parts[2] not in self.kinds:
            raise BadToken("this unsubscribe link is not valid")
        version, who, kind, signature = parts
        try:
            given = _unb64(signature)
            player_id = _unb64(who).decode("utf-8")
        except ValueError:  # not base64, or not UTF-8 (binascii.Error, UnicodeDecodeError)
            raise BadToken("this unsubscribe link is not valid") from None
        canonical = _b64(given) == signature  # one spelling per token: no spare bits changed
        if not canonical or not hmac.compare_digest(
            given, self._signature(f"{version}.{who}.{kind}")
        ):
            raise BadToken("this unsubscribe link is not valid")
        return Unsubscribe(player_id, kind)
