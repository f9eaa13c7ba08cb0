"""The site's VAPID key pair (RFC 8292), which push services see sign every push.

Given by ``BIDAK_VAPID_PRIVATE_KEY``, or made by the first process that starts and kept in the
database: the key is stored under one unique name, so of two processes starting at once one
stores its key and the other, refused, reads that one (docs/operating.md, "Web Push").
"""

from __future__ import annotations

from functools import partial

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from bidak.server.notifications import push_queries
from bidak.server.notifications.push_rules import b64url, claims, unb64url
from bidak.server.shared.store.db import Database, KeyTaken


def new_private_key() -> str:
    """A new P-256 private key, as its 32-byte scalar in base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def check_private_key(text: str) -> str:
    """``text`` if it is a P-256 private scalar in base64url, else ValueError."""
    scalar = unb64url(text.strip())
    if len(scalar) != 32:
        raise ValueError("a VAPID private key is 32 bytes in base64url (43 characters)")
    ec.derive_private_key(int.from_bytes(scalar, "big"), ec.SECP256R1())
    return text.strip()


class Vapid:
    """Signs pushes with the private key ``private`` (base64url) for ``subject``."""

    def __init__(self, private: str, subject: str) -> None:
        self._signer = Vapid02.from_raw(check_private_key(private).encode("ascii"))
        self.subject = subject
        point = self._signer.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(point)
        """The application server key the browsers subscribe with (base64url, 65 bytes)."""

    def authorization(self, endpoint: str, now: float) -> str:
        """The ``Authorization: vapid t=<JWT>, k=<public key>`` of a push to ``endpoint``."""
        signed: dict[str, str] = self._signer.sign(claims(endpoint, self.subject, now))
        return signed["Authorization"]


async def site_key(db: Database, configured: str, now: float) -> str:
    """The private key: ``configured`` (the setting), else the stored one, else a new one
    stored now (or, when another process stored one first, that one)."""
    if configured:
        return check_private_key(configured)
    stored = await db.read(push_queries.vapid_key)
    if stored is not None:
        return stored
    made = new_private_key()
    try:
        await db.write_keyed(partial(push_queries.store_vapid_key, private_key=made, at=now))
    except KeyTaken:
        stored = await db.read(push_queries.vapid_key)
        assert stored is not None
        return stored
    return made
