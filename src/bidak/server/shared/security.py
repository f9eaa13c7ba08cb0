"""Same-origin writes and the page policy, as one pure ASGI middleware (docs/security.md).

A browser sends a cross-site request's cookies when the cookie allows it (SameSite=Lax still
allows top-level navigations and lets a sibling subdomain count as "same site"), so the cookie
alone cannot tell a change the visitor made from one another site made for them. Every browser
names the page a request comes from: ``Origin`` on every POST/PUT/PATCH/DELETE fetch and on every
WebSocket upgrade, and ``Sec-Fetch-Site`` on the requests of browsers from 2020 on. A change is
let through only when its ``Origin`` is the site's own, or, without an ``Origin``, when
``Sec-Fetch-Site`` says ``same-origin``; everything else is refused before any route runs. A
state-changing request's body must be JSON (a form or ``text/plain`` body, which a page on
another site can send without asking, is refused with 415). The one exception is a path whose
change a signed token in its address authorises, never a cookie (:attr:`SiteCheck.signed`:
the one-click unsubscribe of a letter, RFC 8058, which a mail provider posts form-encoded).

Every HTTP response also carries the page policy: a Content-Security-Policy that lets the page
run only the site's own scripts and styles and connect only to the site and its WebSocket, no
framing (``frame-ancestors 'none'``), ``nosniff``, ``Referrer-Policy: same-origin``, and
``Strict-Transport-Security`` over HTTPS.

The site's origin is ``BIDAK_PUBLIC_URL`` when it is set (production requires it); otherwise the
request's own scheme (uvicorn's, which follows a trusted proxy's ``X-Forwarded-Proto``) and
``Host`` header, but only for a host that cannot be another site's: a loopback name or address,
the address the request reached, or one the operator named. A request naming any other host is
refused whole (400): the client writes ``Host``, so trusting it would let one request choose the
origin it is compared with and the address of the links the site writes. This is
pure ASGI rather than Starlette's BaseHTTPMiddleware, which would run every request in a task of
its own and stream its body through a queue.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that may change something. A GET changes nothing a visitor has: the one it
creates, a first visit's guest, is limited per address (BIDAK_GUESTS_PER_MINUTE)."""
DEFAULT_PORTS = {"http": 80, "https": 443}
HSTS = b"max-age=31536000"
"""A year; no includeSubDomains: the site cannot know what else runs under its domain."""
JSON_TYPES = ("application/json",)
KEPT = 64
"""Sites (Host headers) whose origin and headers are kept worked out."""
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine's
    loopback: only this machine can reach a server under such a name."""
    host = host.strip("[]").lower().rstrip(".")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` as a browser writes an Origin (lower case, no default
    port); ValueError when ``url`` is not an http(s) address with a host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"{url!r} is not an address (give https://your.site)") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"{url!r} is not an http:// or https:// address with a host")
    host = parts.hostname.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if port is not None and port != DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return f"{scheme}://{host}"


def _host_origin(scheme: str, host: str) -> str | None:
    """The origin of a request that came with ``Host: host`` over ``scheme``, or None when the
    Host header is not a plain host[:port]."""
    if not host or not all(c.isalnum() or c in ".-:[]" for c in host):
        return None
    try:
        return origin_of(f"{scheme}://{host}")
    except ValueError:
        return None


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


NUL_REFUSED = Refused(400, "An address may not hold a NUL character")


def has_nul(scope: Scope) -> bool:
    """Whether the request's path or query holds a NUL character, which no id, code or name
    holds and PostgreSQL refuses in text (a ``StorageError``, then a 500, before this)."""
    query: bytes = scope.get("query_string", b"")
    return "\x00" in scope.get("path", "") or b"\x00" in query or b"%00" in query.lower()


class SiteCheck:
    """Whether a request comes from the site's own pages. ``public_url``: the site's address;
    empty: each request's own scheme and Host, for a host that is loopback, the address the
    request reached, or one of ``hosts`` (the address the server was told to listen on)."""

    def __init__(
        self, public_url: str = "", hosts: Iterable[str] = (), signed: Iterable[str] = ()
    ) -> None:
        self.public = origin_of(public_url) if public_url else None
        self.hosts = frozenset(h.strip("[]").lower() for h in hosts if h)
        self.signed = frozenset(signed)
        """Paths whose changes a signed token in the address authorises, never a cookie: the
        one-click unsubscribe of RFC 8058, which a mail provider posts form-encoded, with no
        Origin and no cookies. Their routes read no session, so another site's page gains
        nothing by posting them; the origin and JSON checks are not made for them."""
        self._origins: dict[tuple[str, bytes | None, str], str | None] = {}
        self._headers: dict[tuple[str | None, bool], list[tuple[bytes, bytes]]] = {}

    def _served(self, origin: str, scope: Scope) -> bool:
        """Whether the host of ``origin`` (from a request's Host) is one this server may take
        its own address from (never true of a name only the client chose)."""
        host = (urlsplit(origin).hostname or "").lower()
        server = scope.get("server")
        reached = str(server[0]).lower() if server else ""
        return is_loopback(host) or host in self.hosts or (host == reached and reached != "")

    def expected(self, scope: Scope) -> str | None:
        """The site's origin for this request (None: its Host header is unusable, or names a
        host this server does not take as its own)."""
        if self.public is not None:
            return self.public
        scheme: str = scope["scheme"]
        host = _header(scope, b"host")
        server = scope.get("server")
        key = (scheme, host, str(server[0]) if server else "")
        if key in self._origins:
            return self._origins[key]
        text = None if host is None else host.decode("latin-1")
        if text is None and server:
            name, port = server[0], server[1]
            text = f"{name}:{port}" if port else name
        found = _host_origin({"ws": "http", "wss": "https"}.get(scheme, scheme), text or "")
        if found is not None and not self._served(found, scope):
            found = None
        if len(self._origins) >= KEPT:  # any client may send any Host: keep few
            self._origins.clear()
        self._origins[key] = found
        return found

    def host_refused(self, scope: Scope) -> Refused | None:
        """Without a public address, a request whose Host this server does not take as its own
        is refused whole: nothing the site answers may be built from a host the client chose."""
        if self.public is not None or self.expected(scope) is not None:
            return None
        return Refused(
            400,
            "Unknown host: this server answers to its loopback and listening addresses only"
            " (its operator sets BIDAK_PUBLIC_URL for any other)",
        )

    def headers(self, scope: Scope) -> list[tuple[bytes, bytes]]:
        """The page policy's headers for a response to this request (built once per site)."""
        site = self.expected(scope)
        # HSTS: browsers heed it only over HTTPS; sent too when the public address is https,
        # for a proxy whose X-Forwarded-Proto uvicorn was not told to trust.
        https = scope["scheme"] == "https" or (site or "").startswith("https:")
        key = (site, https)
        found = self._headers.get(key)
        if found is None:
            found = policy_headers(site)
            if https:
                found.append((b"strict-transport-security", HSTS))
            if len(self._headers) >= KEPT:
                self._headers.clear()
            self._headers[key] = found
        return found

    def check(self, scope: Scope) -> None:
        """Raise :class:`Refused` unless the request comes from the site's own pages."""
        unknown = self.host_refused(scope)
        if unknown is not None:
            raise unknown
        origin = fetch_site = None
        for name, value in scope["headers"]:
            if name == b"origin":
                origin = value.decode("latin-1")
            elif name == b"sec-fetch-site":
                fetch_site = value.decode("latin-1").lower()
        expected = self.expected(scope)
        site = expected or "this site"
        if fetch_site in ("cross-site", "same-site"):
            raise Refused(
                403, f"Refused: a change must come from a page of {site}, not another site"
            )
        if origin is None:
            if fetch_site == "same-origin":
                return
            raise Refused(
                403,
                f"Refused: a change must come from a page of {site}; a browser says so itself,"
                f" other clients must send the header Origin: {site}",
            )
        if expected is not None and origin == expected:
            return  # as browsers write it
        try:
            given = origin_of(origin)
        except ValueError:
            given = None
        if expected is None or given != expected:
            shown = origin[:100]
            raise Refused(403, f"Refused: a change must come from a page of {site}, not {shown}")


PERSONAL = "personal"
"""The request's state key that marks an answer about the signed-in player (set by whoever
reads the session): such an answer carries ``Cache-Control: no-store``, so no shared cache (a
proxy, a CDN) and no browser cache keeps one player's data to give it to anyone else."""


def mark_personal(state: Any) -> None:
    """Mark a request's answer as personal (``request.state``)."""
    setattr(state, PERSONAL, True)


def is_personal(scope: Scope) -> bool:
    state = scope.get("state")
    return bool(state.get(PERSONAL)) if isinstance(state, dict) else False


class SiteGuard:
    """The middleware: refuses changes and WebSocket upgrades that :class:`SiteCheck` refuses,
    and adds the page policy to every HTTP response."""

    def __init__(self, app: ASGIApp, check: SiteCheck) -> None:
        self.app = app
        self.site = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            try:
                self.site.check(scope)
            except Refused as refused:
                await refuse_socket(scope, receive, send, refused)
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        site = self.site
        headers = site.headers(scope)
        unknown = site.host_refused(scope)
        if unknown is not None:
            await refuse_http(send, unknown, headers)
            return
        if has_nul(scope):
            await refuse_http(send, NUL_REFUSED, headers)
            return

        async def send_with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                own = list(message.get("headers", ()))
                if is_personal(scope):  # whatever the route said, no cache keeps it
                    own = [(n, v) for n, v in own if n.lower() != b"cache-control"]
                    own.append((b"cache-control", b"no-store"))
                    present.add(b"cache-control")
                extra = [(n, v) for n, v in headers if n not in present]
                message = {**message, "headers": [*own, *extra]}
            await send(message)

        if scope["method"] in UNSAFE and scope["path"] not in site.signed:
            try:
                site.check(scope)
                _check_body(scope)
            except Refused as refused:
                await refuse_http(send_with_policy, refused)
                return
        await self.app(scope, receive, send_with_policy)


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            found: bytes = value
            return found
    return None


def _check_body(scope: Scope) -> None:
    """A body, when there is one, must be JSON: a page on another site can post a form or
    ``text/plain`` without the browser asking the site first, but not JSON."""
    content_type = _header(scope, b"content-type")
    if content_type is None:
        length = _header(scope, b"content-length")
        if (length is None or length.strip() == b"0") and _header(
            scope, b"transfer-encoding"
        ) is None:
            return
    else:
        media = content_type.decode("latin-1").split(";", 1)[0].strip().lower()
        if media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json")):
            return
    raise Refused(415, "Send the request's body as JSON (Content-Type: application/json)")


async def _answer(send: Send, prefix: str, refused: Refused, *extra: tuple[bytes, bytes]) -> None:
    """The refusal as a JSON answer, through ``{prefix}.response.start`` and ``.body``."""
    body = orjson.dumps({"detail": refused.message})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {
            "type": f"{prefix}.response.start",
            "status": refused.status,
            "headers": headers + list(extra),
        }
    )
    await send({"type": f"{prefix}.response.body", "body": body})


async def refuse_http(
    send: Send, refused: Refused, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    await _answer(send, "http", refused, (b"cache-control", b"no-store"), *headers)


async def refuse_socket(scope: Scope, receive: Receive, send: Send, refused: Refused) -> None:
    """Refuse a WebSocket upgrade before accepting it: 403 with the reason where the server
    can send an HTTP answer to an upgrade (uvicorn can), a plain 403 otherwise."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await _answer(send, "websocket.http", refused)
        return
    await send({"type": "websocket.close", "code": 1008, "reason": refused.message[:120]})


def content_security_policy(site: str | None) -> str:
    """The page policy: the site's own scripts, styles, images and catalogs, connections to
    the site and to its WebSocket only, never framed, no plugins, no <base>, forms only to the
    site. ``site``: its origin (None: ``'self'`` alone)."""
    connect = "'self'"
    if site is not None:
        socket = site.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        # 'self' covers the site's own ws(s):// in CSP 3; the address is named for browsers
        # that predate it.
        connect = f"'self' {socket}"
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            f"connect-src {connect}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


def policy_headers(site: str | None) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP response carries (HSTS aside), for a site at ``site``."""
    return [
        (b"content-security-policy", content_security_policy(site).encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    ]
