"""The tables of ``docs/protocol.md``, rendered from the models the server speaks with.

    python -m bidak.server.app.protocol_doc            # rewrite docs/protocol.md
    python -m bidak.server.app.protocol_doc --check    # exit 1 (with a diff) if it is out of date

Each table sits between ``<!-- wire:NAME -->`` and ``<!-- /wire:NAME -->`` in the document; the
text around the tables is written by hand. ``tests/server/test_protocol_doc.py`` fails when the
document differs from what this renders.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from fastapi import FastAPI
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bidak.server.play import protocol
from bidak.server.play.wire import messages
from bidak.server.play.wire.table import Deadline, Table

DOC = Path(__file__).resolve().parents[4] / "docs" / "protocol.md"
"""The document in a source checkout."""


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _fields(kind: Any) -> Iterator[tuple[str, Any, str]]:
    """Each field of a model or TypedDict but ``type``: name, annotation, description."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        for name, info in kind.model_fields.items():
            if name != "type":
                yield name, info.annotation, _clean(info.description)
        return
    hints = get_type_hints(kind, include_extras=True)
    for name, hint in hints.items():
        if name == "type":
            continue
        described = ""
        inner = hint
        while get_origin(inner) is typing.Annotated or get_origin(inner) in (
            typing.NotRequired,
            typing.Required,
        ):
            args = get_args(inner)
            for meta in args[1:]:
                if isinstance(meta, FieldInfo) and meta.description:
                    described = _clean(meta.description)
            inner = args[0]
        yield name, inner, described


def _literals(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    return ()


def _describe(name: str, annotation: Any, described: str) -> str:
    """A field for a list of fields: its name, then what it holds (or its values)."""
    values = _literals(annotation)
    if described:
        return f"`{name}` ({described})"
    if len(values) > 1:
        return f"`{name}`: " + ", ".join(f"`{v}`" for v in values)
    return f"`{name}`"


def _meaning(annotation: Any, described: str) -> str:
    """A field for a table of fields: what it holds, else its values."""
    return described or ", ".join(f"`{v}`" for v in _literals(annotation))


def _field_list(kind: Any) -> str:
    return ", ".join(_describe(n, a, d) for n, a, d in _fields(kind))


def _members(kind: Any) -> tuple[Any, ...]:
    """The members of a union of messages (``Annotated[A | B, ...]``), or the one message."""
    if get_origin(kind) is typing.Annotated:
        kind = get_args(kind)[0]
    if get_origin(kind) in (Union, types.UnionType):
        return get_args(kind)
    return (kind,)


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(head: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    lines = [_row(*head), _row(*("---" for _ in head))]
    lines.extend(_row(*row) for row in rows)
    return "\n".join(lines)


def client_messages() -> str:
    return _table(
        ("type", "fields", "meaning"),
        (
            (f"`{_type_of(kind)}`", _field_list(kind), _clean(kind.__doc__))
            for kind in protocol.CLIENT_MESSAGES
        ),
    )


def actions() -> str:
    return _table(
        ("action", "fields", "when"),
        (
            (f"`{_type_of(kind)}`", _field_list(kind), _clean(kind.__doc__))
            for kind in protocol.ACTION_BODIES
        ),
    )


def _type_of(kind: Any) -> str:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        annotation = kind.model_fields["type"].annotation
    else:
        annotation = get_type_hints(kind)["type"]
    (name,) = get_args(annotation)
    return str(name)


def server_messages() -> str:
    rows = []
    for name, kind, union_when in messages.SERVER_MESSAGES:
        members = _members(kind)
        if len(members) == 1:
            when = _clean(members[0].__doc__)
            fields = _field_list(members[0])
        else:  # one message by ``state``
            when = _clean(union_when)
            states = []
            for member in members:
                (state,) = get_args(get_type_hints(member)["state"])
                rest = [(n, a, d) for n, a, d in _fields(member) if n != "state"]
                listed = ", ".join(_describe(n, a, d) for n, a, d in rest)
                states.append(f"`{state}`" + (f" ({listed})" if listed else ""))
            fields = "`state`: " + ", ".join(states)
        rows.append((f"`{name}`", when, fields))
    return _table(("type", "when", "fields"), rows)


def table_fields() -> str:
    return _table(("field", "meaning"), ((f"`{n}`", _meaning(a, d)) for n, a, d in _fields(Table)))


def deadline_fields() -> str:
    return _table(
        ("field", "meaning"), ((f"`{n}`", _meaning(a, d)) for n, a, d in _fields(Deadline))
    )


def error_codes() -> str:
    return _table(("code", "meaning"), ((f"`{c}`", m) for c, m in messages.ERROR_CODES.items()))


def _schema_name(schema: dict[str, Any]) -> str:
    """The model an answer's JSON schema names; an untyped answer is an error."""
    if "$ref" in schema:
        return f"`{schema['$ref'].rsplit('/', 1)[-1]}`"
    if schema.get("type") == "array":
        return f"[{_schema_name(schema['items'])}]"
    if schema.get("type") == "null":
        return "none"
    if "anyOf" in schema:
        return " or ".join(_schema_name(part) for part in schema["anyOf"])
    raise ValueError(f"an HTTP answer without a model: {schema}")


def _answer(operation: dict[str, Any]) -> tuple[str, str]:
    status, response = next(
        (code, answer) for code, answer in operation["responses"].items() if code[0] == "2"
    )
    content = response.get("content") or {}
    if "application/json" in content:
        return status, _schema_name(content["application/json"]["schema"])
    return status, ", ".join(f"({media})" for media in content) or "(no body)"


def http_routes(app: FastAPI | None = None) -> str:
    """Every HTTP route with its answer's model, as ``/openapi.json`` describes them."""
    if app is None:
        from bidak.server.app import create_app
        from bidak.server.shared.settings import Settings

        app = create_app(Settings(database_url="sqlite://", environment="test"))
    rows = []
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            status, answer = _answer(operation)
            rows.append((f"`{method.upper()} {path}`", status, answer))
    return _table(("method and path", "status", "answer"), rows)


SECTIONS: dict[str, Callable[[], str]] = {
    "http": http_routes,
    "client": client_messages,
    "actions": actions,
    "server": server_messages,
    "table": table_fields,
    "deadline": deadline_fields,
    "errors": error_codes,
}


def render(document: str) -> str:
    """``document`` with every ``wire:NAME`` section rendered afresh."""
    for name, make in SECTIONS.items():
        pattern = re.compile(
            rf"(<!-- wire:{name} -->\n).*?(\n<!-- /wire:{name} -->)", flags=re.DOTALL
        )
        found = pattern.search(document)
        if found is None:
            raise ValueError(f"docs/protocol.md has no section wire:{name}")
        document = document[: found.end(1)] + make() + document[found.start(2) :]
    return document


def diff(path: Path = DOC) -> str:
    """What rendering would change in ``path`` (empty when it is up to date)."""
    text = path.read_text()
    return "".join(
        difflib.unified_diff(
            text.splitlines(keepends=True),
            render(text).splitlines(keepends=True),
            str(path),
            "rendered from the models",
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    parser.add_argument("path", nargs="?", type=Path, default=DOC)
    args = parser.parse_args(argv)
    if args.check:
        changes = diff(args.path)
        sys.stdout.write(changes)
        return 1 if changes else 0
    args.path.write_text(render(args.path.read_text()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
