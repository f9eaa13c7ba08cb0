"""A stand-in push service on 127.0.0.1 for the Web Push tests, and a browser's side of a push
subscription: its own P-256 key pair and 16-byte auth secret, which decrypt a push as a browser
would (aes128gcm, RFC 8291), and the check of the VAPID signature a push service makes."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import http_ece
import uvicorn
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from starlette.types import Receive, Scope, Send


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Takes every POST; answers each path with the statuses queued for it (201 after)."""

    base: str = ""
    received: list[Received] = field(default_factory=list)
    answers: dict[str, list[int]] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path: str = scope["path"]
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.received.append(Received(path, headers, body))
        queued = self.answers.get(path) or []
        status = queued.pop(0) if queued else 201
        self.arrived.set()
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def to(self, browser: Browser) -> list[Received]:
        return [r for r in self.received if r.path == browser.path]

    async def wait(self, count: int, timeout: float = 20.0) -> None:
        """Until ``count`` pushes arrived in all (a real wait on the server's POSTs)."""
        async with asyncio.timeout(timeout):
            while len(self.received) < count:
                self.arrived.clear()
                await self.arrived.wait()


@asynccontextmanager
async def push_service() -> AsyncIterator[PushService]:
    service = PushService()
    config = uvicorn.Config(service, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.005)
    port = server.servers[0].sockets[0].getsockname()[1]
    service.base = f"http://127.0.0.1:{port}"
    try:
        yield service
    finally:
        server.should_exit = True
        await task


class Browser:
    """One browser's push subscription at ``service``."""

    def __init__(self, service: PushService) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = f"/push/{secrets.token_urlsafe(12)}"
        self.endpoint = service.base + self.path

    def subscription(self, language: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
            "language": language,
        }

    def read(self, push: Received) -> dict[str, Any]:
        """The push's payload, decrypted with this browser's private key and auth secret."""
        assert push.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


def verify_vapid(push: Received, endpoint: str, now: float) -> dict[str, Any]:
    """Check ``Authorization: vapid t=<JWT>, k=<key>`` as a push service does: the JWT's ES256
    signature with the key k, ``aud`` the endpoint's origin, ``exp`` after ``now`` and within
    24 hours, ``sub`` present. Returns the claims and the key (``k``)."""
    scheme, _, rest = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    token, key = parts["t"], parts["k"]
    head, claims, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not
    found: dict[str, Any] = json.loads(unb64url(claims))
    origin = urlsplit(endpoint)
    assert found["aud"] == f"{origin.scheme}://{origin.netloc}"
    assert now < found["exp"] <= now + 24 * 3600
    assert found["sub"]
    found["k"] = key
    return found
