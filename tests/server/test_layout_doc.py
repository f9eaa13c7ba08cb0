"""docs/architecture.md lists the server's folders as they are (``bidak.server.app.layout_doc``),
and the server has no loose module: every capability in a folder, the app composing them."""

from __future__ import annotations

from bidak.server.app import layout_doc


def test_the_architecture_page_lists_the_folders_as_they_are() -> None:
    changes = layout_doc.diff()
    assert not changes, "run `python -m bidak.server.app.layout_doc`:\n" + changes


def test_the_server_has_no_loose_module() -> None:
    loose = sorted(
        path.name for path in layout_doc.SERVER.glob("*.py") if path.name != "__init__.py"
    )
    assert loose == []


def test_every_folder_says_what_it_holds() -> None:
    table = layout_doc.table()
    for folder in layout_doc.folders():
        assert f"`server/{folder.name}/` | " in table
        row = next(line for line in table.splitlines() if f"`server/{folder.name}/`" in line)
        assert row.split(" | ")[1].strip(), f"server/{folder.name}/__init__.py has no docstring"


def test_the_rendered_table_follows_a_moved_module() -> None:
    page = layout_doc.DOC.read_text(encoding="utf-8")
    stale = page.replace("`protocol_doc.py`", "`wire_doc.py`", 1)
    assert stale != page
    assert layout_doc.rendered(stale) == layout_doc.rendered(page)
