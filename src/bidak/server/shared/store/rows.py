"""Helpers every package's queries share: new ids, what may be a key, the hash a secret is kept
as, inserting ORM rows."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from typing import cast

from sqlalchemy import Table, insert, inspect
from sqlalchemy.engine import Connection

from bidak.server.shared.store.models import Base


def new_id() -> str:
    """A fresh random id for a new row (128 bits, 32 hex digits)."""
    return secrets.token_hex(16)


_KEY = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_key(text: str) -> bool:
    """Whether ``text`` could be a room code or match id at all; anything else (a NUL, which
    PostgreSQL cannot even compare, or a lone surrogate) is simply not found."""
    return _KEY.fullmatch(text) is not None


def token_hash(token: str) -> str:
    """What a secret token (a session cookie, an e-mail link) is stored as: its SHA-256 in hex,
    so a copy of the database opens no session and no link."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def insert_rows(connection: Connection, rows: Sequence[Base]) -> None:
    """Insert new ORM rows with Core, in order (the ORM objects stay usable as plain values;
    columns left unset take their defaults). Neighbouring rows of one table with the same
    columns set go in one statement (one round trip to PostgreSQL, not one a row)."""
    batch: list[dict[str, object]] = []
    batch_of: tuple[Table, frozenset[str]] | None = None
    for row in rows:
        table = cast(Table, row.__table__)
        values = {key: value for key, value in inspect(row).dict.items() if key in table.c}
        kind = (table, frozenset(values))
        if kind != batch_of and batch:
            _insert(connection, batch_of, batch)
            batch = []
        batch_of = kind
        batch.append(values)
    if batch:
        _insert(connection, batch_of, batch)


def _insert(
    connection: Connection,
    kind: tuple[Table, frozenset[str]] | None,
    batch: list[dict[str, object]],
) -> None:
    assert kind is not None
    connection.execute(insert(kind[0]), batch[0] if len(batch) == 1 else batch)
