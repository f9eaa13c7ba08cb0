"""The server's folders as ``docs/architecture.md`` lists them, rendered from the folders.

    python -m bidak.server.app.layout_doc            # rewrite the table in docs/architecture.md
    python -m bidak.server.app.layout_doc --check    # exit 1 if the page is out of date

Each folder of ``bidak.server`` is a row: its package docstring's first paragraph says what it
holds, and its modules follow, each with the first sentence of its own docstring. A test
(``tests/server/test_layout_doc.py``) keeps the page in step with the code, so a module that
moves, or a capability that arrives, changes the page in the same commit.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import sys
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1]
DOC = Path(__file__).resolve().parents[4] / "docs" / "architecture.md"
BEGIN = "<!-- server layout: rendered by python -m bidak.server.app.layout_doc -->"
END = "<!-- end of server layout -->"
ORDER = ("app", "shared")
"""The composition first, the shared machinery last; the capabilities between, by name."""


def _docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def _first_paragraph(text: str) -> str:
    return " ".join(text.split("\n\n")[0].split())


def _first_sentence(text: str) -> str:
    head, found, _ = _first_paragraph(text).partition(". ")
    return head + "." if found else head


def folders() -> list[Path]:
    found = sorted(p for p in SERVER.iterdir() if (p / "__init__.py").exists())
    first, last = ORDER
    return sorted(found, key=lambda p: (p.name != first, p.name == last, p.name))


def _modules(folder: Path) -> list[tuple[str, str]]:
    rows = []
    for path in sorted(folder.iterdir()):
        if path.name == "__init__.py" or path.name.startswith((".", "_")):
            continue
        if path.suffix == ".py":
            rows.append((path.name, _first_sentence(_docstring(path))))
        elif (path / "__init__.py").exists():
            rows.append((path.name + "/", _first_sentence(_docstring(path / "__init__.py"))))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    """The markdown between the two markers."""
    lines = ["| folder | what it holds | modules |", "| --- | --- | --- |"]
    for folder in folders():
        what = _cell(_first_paragraph(_docstring(folder / "__init__.py")))
        modules = "<br>".join(f"`{name}` {_cell(sentence)}" for name, sentence in _modules(folder))
        lines.append(f"| `server/{folder.name}/` | {what} | {modules} |")
    return "\n".join(lines)


def rendered(page: str) -> str:
    """``page`` with the table between the markers replaced by the current one."""
    head, found, rest = page.partition(BEGIN)
    if not found or END not in rest:
        raise SystemExit(f"{DOC} has no {BEGIN!r} ... {END!r} block")
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def diff() -> str:
    """What rendering would change in docs/architecture.md (empty: it is up to date)."""
    page = DOC.read_text(encoding="utf-8")
    new = rendered(page)
    return "".join(
        difflib.unified_diff(page.splitlines(True), new.splitlines(True), "docs", "rendered")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    if args.check:
        changes = diff()
        sys.stdout.write(changes)
        return 1 if changes else 0
    DOC.write_text(rendered(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
