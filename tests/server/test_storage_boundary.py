"""SQL lives in the storage layer only (``docs/architecture.md``, "Storage"): outside the store
package, the capabilities' queries modules (``queries.py``, ``*_queries.py``) and a capability's
own table definitions (``tables.py``, which its queries alone use), no server module imports
SQLAlchemy's statements, its ORM or its connections. Its errors and its URL
parser may be used anywhere."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).parents[2] / "src" / "bidak" / "server"

ALLOWED = {"sqlalchemy.exc": None, "sqlalchemy.engine": {"make_url"}}
"""What a module outside the storage layer may import from SQLAlchemy (None: anything)."""

NOT_YET: dict[str, str] = {}
"""Modules that still break the rule, and why they are waiting (a module gone is fine)."""


def _storage(path: Path) -> bool:
    relative = path.relative_to(SERVER)
    return (
        relative.parts[:2] == ("shared", "store")
        or path.name.endswith("queries.py")
        or path.name == "tables.py"
    )


def _sql_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "sqlalchemy"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            module = node.module or ""
            allowed = ALLOWED.get(module, set())
            names = {a.name for a in node.names}
            if allowed is not None and not names <= allowed:
                found.append(f"from {module} import {', '.join(sorted(names - allowed))}")
    return found


def test_no_sql_outside_the_storage_layer() -> None:
    breaking = {}
    for path in sorted(SERVER.rglob("*.py")):
        relative = path.relative_to(SERVER).as_posix()
        if _storage(path) or relative in NOT_YET:
            continue
        imports = _sql_imports(path)
        if imports:
            breaking[relative] = imports
    assert breaking == {}, "SQL belongs in bidak.server.shared.store or a capability's queries.py"


def test_the_check_sees_sql() -> None:
    assert _sql_imports(SERVER / "accounts" / "player_queries.py"), "it builds statements"
    assert not _sql_imports(SERVER / "accounts" / "service.py")
    assert _storage(SERVER / "shared" / "store" / "db.py")
    assert not _storage(SERVER / "shared" / "deps.py")
    assert _storage(SERVER / "notifications" / "tables.py")
