"""SQL lives in the storage layer only (``docs/architecture.md``, "Storage"): outside the store
package, the capabilities' queries modules (``queries.py``, ``*_queries.py``) and their own
table definitions (``tables.py``), no server module imports SQLAlchemy's statements, its ORM or
its connections. Its errors and its URL parser may be used anywhere. And each capability's
tables are written by that capability's queries only: another one may read them where the
import contracts allow, and changes them through the owner's steps or public functions."""

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


_WRITES = {"insert", "update", "delete"}


def _written_tables(path: Path) -> dict[str, str]:
    """The tables ``path`` writes, by the capability whose ``tables.py`` defines them:
    ``{row class: owner}``."""
    tree = ast.parse(path.read_text(), str(path))
    owner_of: dict[str, str] = {}  # row class -> capability, from the imports
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith(".tables"):
            owner = (node.module or "").split(".")[-2]
            owner_of.update({a.asname or a.name: owner for a in node.names})
    alias_of: dict[str, str] = {}  # _NAME -> row class, from cast(Table, XRow.__table__)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for arg in node.value.args:
                if (
                    isinstance(arg, ast.Attribute)
                    and arg.attr == "__table__"
                    and isinstance(arg.value, ast.Name)
                ):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            alias_of[target.id] = arg.value.id
    written: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, table = node.func, None
        if isinstance(func, ast.Name) and func.id in _WRITES and node.args:
            table = node.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in _WRITES:
            table = func.value
        if isinstance(table, ast.Name) and table.id in alias_of:
            row = alias_of[table.id]
            if row in owner_of:
                written[row] = owner_of[row]
    return written


def test_a_capabilitys_tables_are_written_by_that_capability_only() -> None:
    wrong = {}
    for path in sorted(SERVER.rglob("*queries.py")):
        capability = path.relative_to(SERVER).parts[0]
        others = {row: owner for row, owner in _written_tables(path).items() if owner != capability}
        if others:
            wrong[path.relative_to(SERVER).as_posix()] = others
    assert wrong == {}, "write another capability's rows through its steps or public functions"


def test_the_check_sees_a_write() -> None:
    written = _written_tables(SERVER / "play" / "queries.py")
    assert written.get("RoomRow") == "play" and written.get("EventRow") == "play"
    assert _written_tables(SERVER / "community" / "queries.py") == {"ReviewedRow": "community"}
