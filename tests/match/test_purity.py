"""bidak.match is a pure core: it imports the standard library, bidak.rules and bidak.errors."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bidak.match

ALLOWED = ("bidak.match", "bidak.rules", "bidak.errors")
IO_MODULES = {"os", "io", "socket", "subprocess", "time", "datetime", "pathlib", "secrets"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_match_core_imports_only_the_standard_library_and_the_rules() -> None:
    package = Path(bidak.match.__file__).parent
    for path in sorted(package.glob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "bidak":
                assert name.startswith(ALLOWED), f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)
                assert top not in IO_MODULES, f"{path.name} imports {name}: no I/O or clocks"
