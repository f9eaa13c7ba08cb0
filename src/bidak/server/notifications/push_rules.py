"""Web Push's rules without I/O: which subscriptions are taken, what a push says, its VAPID
claims and headers, and when a failed push is tried again (docs/correspondence.md,
"Notifications: Web Push")."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
from dataclasses import dataclass
from email.utils import parseaddr
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

MAX_ENDPOINT = 2000
"""The longest endpoint taken (the push services' are 150-600 characters)."""
MAX_SUBSCRIPTIONS = 10
"""Subscriptions a player keeps; registering one more drops their oldest."""
TTL_SECONDS = 24 * 3600
"""How long a push service keeps a push for a browser that is offline."""
HIGH = frozenset({"turn", "time"})
"""Kinds pushed with ``Urgency: high`` (a phone wakes for them)."""
RETRIES = (60.0, 600.0, 3600.0)
"""Seconds before each new try of a push the push service did not take (5xx, 429, no answer);
after the last, the push is given up."""
LEASE_SECONDS = 60.0
"""How long the process sending a push holds it: if it dies meanwhile, another sends it."""
CLAIM_SECONDS = 12 * 3600
"""How long a VAPID token is valid (push services take at most 24 hours)."""
SERVICES = ".googleapis.com .mozilla.com .push.apple.com .notify.windows.com"
"""The push services a subscription may point at, by host suffix (``BIDAK_PUSH_SERVICES``):
Chrome, Edge on Android, Samsung Internet and Opera (FCM), Firefox (Mozilla), Safari (Apple),
Edge on Windows (WNS). The site sends to no other host: an endpoint is a URL a player gives."""

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "turn": "Your turn in a correspondence match",
        "time": "Time is almost up in a correspondence match",
        "over": "A match of yours is over",
        "moderator": "A moderator decided on your account",
        "tournament": "Your tournament match is ready",
        "challenge": "A player challenged you to a match",
        "accepted": "Your challenge was accepted: the table is ready",
        "declined": "Your challenge was declined",
    },
    "id": {
        "turn": "Giliranmu di pertandingan korespondensi",
        "time": "Waktumu hampir habis di pertandingan korespondensi",
        "over": "Pertandinganmu sudah selesai",
        "moderator": "Moderator memutuskan sesuatu tentang akunmu",
        "tournament": "Pertandingan turnamenmu sudah siap",
        "challenge": "Seorang pemain menantangmu bertanding",
        "accepted": "Tantanganmu diterima: mejanya sudah siap",
        "declined": "Tantanganmu ditolak",
    },
    "fi": {
        "turn": "Sinun vuorosi kirjeottelussa",
        "time": "Aikasi on loppumassa kirjeottelussa",
        "over": "Ottelusi on päättynyt",
        "moderator": "Moderaattori teki päätöksen tilistäsi",
        "tournament": "Turnausottelusi on valmis",
        "challenge": "Pelaaja haastoi sinut otteluun",
        "accepted": "Haasteesi hyväksyttiin: pöytä on valmis",
        "declined": "Haasteesi hylättiin",
    },
}
"""A push's text per language and kind: the notification centre's (the catalogs' ``notify.<kind>``;
tests/server/test_push_rules.py keeps them equal)."""


class Refused(ValueError):
    """A subscription the site does not take; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """Decode unpadded base64url (ValueError when it is not)."""
    if not text or any(c not in _B64URL for c in text):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as bad:
        raise ValueError("not base64url") from bad


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(url: str, services: str = SERVICES, loopback_http: bool = False) -> str:
    """``url`` if a push may go there, else :class:`Refused`: HTTPS on the default port, to a
    host ending in one of ``services`` (space-separated suffixes; ``*``: any named host, never
    an address); plain HTTP only to this machine and only with ``loopback_http`` (tests)."""
    if len(url) > MAX_ENDPOINT:
        raise Refused("bad_endpoint", f"an endpoint is at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        raise Refused("bad_endpoint", "the endpoint is not a URL") from None
    if parts.username is not None or parts.password is not None or not host:
        raise Refused("bad_endpoint", "the endpoint is not a push service's URL")
    if parts.scheme == "http" and loopback_http and _loopback(host):
        return url
    if parts.scheme != "https" or port not in (None, 443):
        raise Refused("bad_endpoint", "the endpoint must be an https:// URL")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise Refused("unknown_service", "the endpoint must name its push service's host")
    allowed = services.split()
    if "*" in allowed or any(host.endswith(s) or host == s.lstrip(".") for s in allowed):
        return url
    raise Refused("unknown_service", "the endpoint is not at a push service this site sends to")


def check_keys(p256dh: str, auth: str) -> None:
    """:class:`Refused` unless ``p256dh`` is a P-256 public key (65 bytes, uncompressed) and
    ``auth`` a 16-byte secret, both base64url, as browsers give them."""
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
        if len(point) != 65 or len(secret) != 16:
            raise ValueError("wrong length")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise Refused(
            "bad_keys", "keys.p256dh and keys.auth are not a browser's push keys"
        ) from None


def language_of(code: str | None) -> str:
    """The push's language for a browser's language tag (English when unknown)."""
    base = (code or "").split("-")[0].lower()
    return base if base in TEXTS else "en"


def url_of(room: str | None, kind: str = "") -> str:
    """The page a tap opens, as the notification centre's tap does: the match's table, the
    friends page for a declined challenge, else the list of one's games (where a challenge is
    answered)."""
    if room:
        return f"/#/room/{room}"
    return "/#/friends" if kind == "declined" else "/#/games"


def payload(kind: str, room: str | None, language: str) -> bytes:
    """What the service worker receives (JSON, well under the 3 KB a push may carry)."""
    texts = TEXTS[language_of(language)]
    body = {
        "kind": kind,
        "room": room,
        "title": "Bidak",
        "body": texts.get(kind, texts["turn"]),
        "url": url_of(room, kind),
        "tag": f"{kind}:{room}" if room else kind,
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def audience(endpoint: str) -> str:
    """The origin of a push service's endpoint: the ``aud`` of its VAPID token."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


def claims(endpoint: str, subject: str, now: float) -> dict[str, str | int]:
    """The VAPID token's claims for a push to ``endpoint`` (RFC 8292)."""
    return {"aud": audience(endpoint), "exp": int(now + CLAIM_SECONDS), "sub": subject}


def subject_of(configured: str, mail_from: str, public_url: str) -> str:
    """Whom a push service may write to about the site's pushes: ``BIDAK_VAPID_SUBJECT``, else
    the site's sender address, else its public https address."""
    if configured:
        return configured
    address = parseaddr(mail_from)[1]
    if "@" in address:
        return f"mailto:{address}"
    if public_url.startswith("https://"):
        return public_url.rstrip("/")
    return "mailto:no-reply@localhost"


def headers(kind: str, authorization: str) -> dict[str, str]:
    """The push request's headers beside its encrypted body (RFC 8030, RFC 8291, RFC 8292)."""
    return {
        "Authorization": authorization,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL_SECONDS),
        "Urgency": "high" if kind in HIGH else "normal",
    }


GONE = frozenset({404, 410})
"""A push service's answers that say the subscription no longer exists: it is deleted."""


def next_try(tries: int) -> float | None:
    """Seconds until a push that failed ``tries`` times is tried again; None: give it up."""
    return RETRIES[tries - 1] if 1 <= tries <= len(RETRIES) else None
