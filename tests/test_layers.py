"""The layers hold: rules <- match <- formats <- engine <- server <- bench <- cli.

Two checks, both inside pytest so CI runs them with the suite: the import-linter contracts of
``pyproject.toml`` (each layer imports only the layers below it; no server, bench or cli module
and no web or database library reaches the engine, the core or the pure rule packages, even
indirectly), and the core (``rules``, ``match``, ``formats``, with ``bidak.errors`` and the
package's ``__init__`` they load) importing nothing but the standard library and itself, the
pure rule packages (``ratings``, ``economy``, ``pairing``, ``tournament``, ``fairplay``,
``training``, ``correspondence``, ``challenges``) nothing but the standard library and their
own modules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "bidak"
CORE = ("rules", "match", "formats")
CORE_IMPORTABLE = {"bidak", *(f"bidak.{name}" for name in (*CORE, "errors"))}
# Used by the server, importing nothing of Bidak's:
PURE = (
    "ratings",
    "economy",
    "pairing",
    "tournament",
    "fairplay",
    "training",
    "correspondence",
    "challenges",
)


def test_the_import_contracts_hold() -> None:
    program = (
        "from importlinter.cli import lint_imports\n"
        "raise SystemExit(lint_imports(config_filename='pyproject.toml', no_cache=True,"
        " no_logo=True))"
    )
    found = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert found.returncode == 0, found.stdout + found.stderr
    assert "0 broken" in found.stdout


def core_files() -> Iterator[Path]:
    for name in CORE:
        yield from sorted((PACKAGE / name).rglob("*.py"))
    yield PACKAGE / "errors.py"
    yield PACKAGE / "__init__.py"


def package_of(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return parts if path.name == "__init__.py" else parts[:-1]


def imported(source: str, package: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """(line, module) for every import in ``source``, a module of ``package``; relative imports
    are resolved (``from ..engine import x`` in ``bidak.rules`` is ``bidak.engine``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                yield node.lineno, ".".join(base + ((node.module,) if node.module else ()))
            else:
                assert node.module is not None
                yield node.lineno, node.module


def allowed_in_core(module: str) -> bool:
    top = module.split(".")[0]
    if top == "bidak":
        return ".".join(module.split(".")[:2]) in CORE_IMPORTABLE
    return top in sys.stdlib_module_names


def test_the_pure_rule_packages_import_only_the_standard_library() -> None:
    files = [path for name in PURE for path in sorted((PACKAGE / name).rglob("*.py"))]
    assert {path.relative_to(PACKAGE).parts[0] for path in files} == set(PURE)
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in imported(path.read_text(encoding="utf-8"), package_of(path))
        if module.split(".")[0] not in sys.stdlib_module_names
        and module.split(".")[:2] != ["bidak", path.relative_to(PACKAGE).parts[0]]
    ]
    assert not wrong, "a pure package may import only the standard library:\n" + "\n".join(wrong)


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    files = list(core_files())
    assert len(files) > 20  # the walk found the core
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in imported(path.read_text(encoding="utf-8"), package_of(path))
        if not allowed_in_core(module)
    ]
    assert not wrong, "the core may import only the standard library:\n" + "\n".join(wrong)


def test_the_check_sees_a_third_party_or_upper_import() -> None:
    assert allowed_in_core("bidak.match.state") and allowed_in_core("collections.abc")
    assert allowed_in_core("bidak.errors") and allowed_in_core("__future__")
    assert not allowed_in_core("rich.table") and not allowed_in_core("bidak.engine.sage")
    source = "\n".join(
        [
            "import rich",
            "from ..engine import sage",
            "from . import plays",
            "from bidak.server import x",
        ]
    )
    found = [module for _, module in imported(source, ("bidak", "rules"))]
    assert found == ["rich", "bidak.engine", "bidak.rules", "bidak.server"]
    assert [allowed_in_core(module) for module in found] == [False, False, True, False]


def test_gnubg_is_imported_by_its_worker_process_only() -> None:
    """GNU Backgammon is GPL and its bindings can crash: only the bench's worker, run as a
    process of its own, imports it; no Bidak module imports the worker."""
    importers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        for _, module in imported(path.read_text(encoding="utf-8"), package_of(path))
        if module.split(".")[0] == "gnubg" or module == "bidak.bench.gnubg_worker"
    )
    assert importers == ["bench/gnubg_worker.py"]
