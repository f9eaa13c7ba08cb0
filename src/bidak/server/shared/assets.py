"""The browser client's files, read once at start and served under one content hash.

A page load fetches index.html and then a graph of ES modules, a style sheet and catalogs. If a
deploy replaced the files in between (or a cache kept some old ones), one page could run new
``table.js`` against old ``board.js``. So the whole folder is read into memory when the app is
made and hashed as one version: index.html is served ``no-cache`` (revalidated on every load,
cheap with its ETag) and its module, style and icon addresses are rewritten to
``/v/<version>/...``, served ``immutable`` for a year. Every relative import and catalog fetch of
that page then resolves under the same prefix, so a page load sees one version whole. A request
for another version (a page from before a deploy asking the new process) is answered 404,
never with today's files under yesterday's name, which a cache would keep for a year; serving
from memory also means a file changed on disk under a running process cannot appear under the
hash of what it started with. The files keep their plain addresses too (``no-cache``, ETag).
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

PREFIX = "/v/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
}
"""Fixed here rather than taken from the platform (some map .js to text/plain, which a
browser refuses to run as a module under ``nosniff``)."""
PAGES = ("/", "/index.html", "/auth/email")
"""Addresses that are the client's page (``/auth/email``: the page an e-mail link opens)."""
_ADDRESS = re.compile(r'(\s(?:src|href)=")/([^"?#]+)"')


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def _asset(name: str, body: bytes) -> Asset:
    media = TYPES.get(Path(name).suffix.lower()) or (
        mimetypes.guess_type(name)[0] or "application/octet-stream"
    )
    return Asset(body, media, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


class WebFiles:
    """An ASGI app serving ``folder`` (read now) as described above."""

    def __init__(self, folder: Path) -> None:
        files: dict[str, bytes] = {}
        for path in sorted(folder.rglob("*")):
            name = path.relative_to(folder).as_posix()
            if path.is_file() and not any(part.startswith(".") for part in name.split("/")):
                files[name] = path.read_bytes()
        for name, body in list(files.items()):
            if name.startswith("i18n/") and name.endswith(".json"):
                # Each catalog also as a JavaScript module, so the client imports it statically
                # (drawn on the first paint) in every browser with ES modules, including those
                # without JSON import attributes (Safari before 17.2, Samsung Internet before
                # 25, Firefox before 138).
                files[name.removesuffix(".json") + ".js"] = b"export default %s;\n" % body.strip()
        digest = hashlib.sha256()
        for name, body in files.items():
            digest.update(b"%s\0%d\0" % (name.encode(), len(body)))
            digest.update(body)
        self.version = digest.hexdigest()[:16]
        self.prefix = f"{PREFIX}{self.version}/"
        self.files = {name: _asset(name, body) for name, body in files.items()}
        index = files.get("index.html")
        self.index = None if index is None else _asset("index.html", self.versioned(index))

    def versioned(self, html: bytes) -> bytes:
        """``html`` with every ``src="/x"`` and ``href="/x"`` naming one of the files pointed
        at ``/v/<version>/x``."""

        def point(match: re.Match[str]) -> str:
            name = match.group(2)
            if name not in self.files:
                return match.group(0)
            return f'{match.group(1)}{self.prefix}{name}"'

        return _ADDRESS.sub(point, html.decode("utf-8")).encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        if scope["method"] not in ("GET", "HEAD"):
            response = Response("Method Not Allowed", 405, headers={"Allow": "GET, HEAD"})
            await response(scope, receive, send)
            return
        path = _route_path(scope)
        asset: Asset | None
        if path in PAGES:
            asset, caching = self.index, REVALIDATE
        elif path.startswith(PREFIX):
            version, _, name = path[len(PREFIX) :].partition("/")
            found = self.files.get(name) if version == self.version else None
            asset = self.index if name == "index.html" and found else found
            caching = IMMUTABLE
        else:
            asset, caching = self.files.get(path.lstrip("/")), REVALIDATE
        if asset is None:
            await Response("Not Found", 404, headers={"Cache-Control": "no-store"})(
                scope, receive, send
            )
            return
        headers = {"Cache-Control": caching, "ETag": asset.etag}
        if asset.etag in _etags(Headers(scope=scope).get("if-none-match", "")):
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return
        body = b"" if scope["method"] == "HEAD" else asset.body
        response = Response(body, media_type=asset.media_type, headers=headers)
        if scope["method"] == "HEAD":
            response.headers["content-length"] = str(len(asset.body))
        await response(scope, receive, send)


def _route_path(scope: Scope) -> str:
    """The path below the mount (Starlette keeps the whole path and says the mount's part in
    ``root_path``)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] in ("", "/"):
        return path[len(root) :] or "/"
    return path


def _etags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
