"""The page policy on every page and asset, and the client served as one version at a time."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from bidak.server.app import WEB
from bidak.server.shared.assets import WebFiles
from tests.server.harness import running_server, server_settings

pytestmark = pytest.mark.anyio

ADDRESS = re.compile(r'(?:src|href)="([^"]+)"')
IMPORT = re.compile(
    r"""(?:^|\s)(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)"""
)


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in filter(None, (p.strip() for p in policy.split(";"))):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = values
    return parsed


def assert_policy(answer: httpx.Response, site: str) -> None:
    where = answer.request.url.path
    policy = directives(answer.headers["content-security-policy"])
    assert policy["default-src"] == ["'self'"], where
    for kind in ("default-src", "script-src", "style-src"):
        for value in policy.get(kind, []):
            assert value not in ("'unsafe-inline'", "'unsafe-eval'", "*", "data:", "blob:"), (
                kind,
                value,
            )
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    socket = site.replace("http", "ws", 1)
    assert set(policy["connect-src"]) <= {"'self'", site, socket}, policy["connect-src"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert answer.headers["x-content-type-options"] == "nosniff", where
    assert answer.headers["referrer-policy"] == "same-origin", where
    assert answer.headers["x-frame-options"] == "DENY", where


async def test_every_page_and_asset_carries_the_policy(tmp_path: Path) -> None:
    files = sorted(p.relative_to(WEB).as_posix() for p in WEB.rglob("*") if p.is_file())
    assert "index.html" in files and "js/main.js" in files
    async with running_server(server_settings(tmp_path)) as running:
        async with httpx.AsyncClient(base_url=running.base) as http:
            index = await http.get("/")
            assert index.status_code == 200 and "<html" in index.text
            version = WebFiles(WEB).version
            addresses = ["/", "/index.html", "/api/me", "/api/health", "/no-such-page"]
            addresses += [f"/v/{version}/{name}" for name in files] + [f"/{n}" for n in files]
            for address in addresses:
                answer = await http.get(address)
                assert answer.status_code in (200, 404), address
                assert_policy(answer, running.base)
                assert "strict-transport-security" not in answer.headers, "not over plain HTTP"
            refused = await http.post(
                "/api/rooms", json={}, headers={"Origin": "https://x.example"}
            )
            assert refused.status_code == 403
            assert_policy(refused, running.base)

        # Over HTTPS (a proxy on this host that uvicorn trusts says so): HSTS, and the
        # WebSocket in the policy is wss://.
        https = {"X-Forwarded-Proto": "https"}
        async with httpx.AsyncClient(base_url=running.base, headers=https) as http:
            answer = await http.get("/")
            assert answer.headers["strict-transport-security"].startswith("max-age=")
            assert int(answer.headers["strict-transport-security"].split("=")[1]) >= 180 * 86400
            assert_policy(answer, running.base.replace("http://", "https://"))


async def test_a_public_https_address_names_its_websocket_and_asks_for_https(
    tmp_path: Path,
) -> None:
    settings = server_settings(tmp_path, public_url="https://bidak.example")
    async with running_server(settings) as running:
        async with httpx.AsyncClient(base_url=running.base) as http:
            answer = await http.get("/")
            assert_policy(answer, "https://bidak.example")
            assert "wss://bidak.example" in answer.headers["content-security-policy"]
            assert "strict-transport-security" in answer.headers


async def test_one_page_load_fetches_one_version_of_the_client(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with httpx.AsyncClient(base_url=running.base) as http:
            index = await http.get("/")
            assert index.headers["cache-control"] == "no-cache" and index.headers["etag"]
            again = await http.get("/", headers={"If-None-Match": index.headers["etag"]})
            assert again.status_code == 304 and not again.content

            addresses = ADDRESS.findall(index.text)
            assert addresses, "the page loads its modules and styles"
            prefixes = {a.rsplit("/", 1)[0].split("/")[2] for a in addresses if a.startswith("/")}
            assert len(prefixes) == 1, addresses
            (version,) = prefixes
            assert all(a.startswith(f"/v/{version}/") for a in addresses), addresses
            for address in addresses:
                asset = await http.get(address)
                assert asset.status_code == 200, address
                assert "immutable" in asset.headers["cache-control"]
                assert int(re.search(r"max-age=(\d+)", asset.headers["cache-control"])[1]) >= (  # type: ignore[index]
                    30 * 86400
                )
            main = await http.get(f"/v/{version}/js/main.js")
            assert main.headers["content-type"].startswith("text/javascript")

            # A page from another version (before a deploy) is not given today's files
            # under its old name, which a cache would keep for a year.
            other = await http.get("/v/0123456789abcdef/js/main.js")
            assert other.status_code == 404 and other.headers["cache-control"] == "no-store"
            plain = await http.get("/js/main.js")
            assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
            assert plain.content == main.content and plain.headers["etag"] == main.headers["etag"]


def test_every_module_import_and_catalog_stays_under_the_pages_version() -> None:
    """Relative imports resolve under the prefix the page was given; an absolute one
    ("/js/x.js") would leave it and could load another deploy's module."""
    imports = 0
    for module in sorted((WEB / "js").glob("*.js")):
        text = module.read_text()
        for found in IMPORT.finditer(text):
            imports += 1
            specifier = found.group(1)
            assert specifier.startswith(("./", "../")), (module.name, specifier)
        for fetched in re.findall(r"fetch\(\s*`(/[^`]*)`", text):
            assert not fetched.startswith(("/i18n", "/js", "/styles")), (module.name, fetched)
    assert imports > 20, "the modules' imports were found"


async def test_the_version_is_the_content_read_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "web"
    (folder / "js").mkdir(parents=True)
    (folder / "index.html").write_text('<script type="module" src="/js/main.js"></script>')
    (folder / "js" / "main.js").write_text('import "./a.js";')
    (folder / "js" / "a.js").write_text("export const a = 1;")
    first = WebFiles(folder)
    (folder / "js" / "a.js").write_text("export const a = 2;")  # a deploy over a running one
    second = WebFiles(folder)
    assert first.version != second.version
    assert f'src="/v/{first.version}/js/main.js"' in first.index.body.decode()  # type: ignore[union-attr]

    async def get(app: WebFiles, path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get(path)

    # The running process keeps serving what it hashed; the new one refuses the old version.
    old = await get(first, f"/v/{first.version}/js/a.js")
    assert old.text == "export const a = 1;"
    assert (await get(second, f"/v/{first.version}/js/a.js")).status_code == 404
    assert (await get(second, f"/v/{second.version}/js/a.js")).text == "export const a = 2;"
    assert (await get(second, "/js/../../etc/passwd")).status_code == 404


def test_each_catalog_is_also_a_javascript_module_of_the_same_text() -> None:
    import json

    files = WebFiles(WEB)
    for code in ("id", "en", "fi"):
        module = files.files[f"i18n/{code}.js"]
        assert module.media_type.startswith("text/javascript")
        text = module.body.decode("utf-8")
        assert text.startswith("export default ") and text.endswith(";\n")
        source = json.loads((WEB / "i18n" / f"{code}.json").read_text("utf-8"))
        assert json.loads(text.removeprefix("export default ").removesuffix(";\n")) == source
