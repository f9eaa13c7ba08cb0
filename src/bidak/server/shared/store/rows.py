"""Helpers every package's queries share: new ids, what may be a key, the hash a secret is kept
as, inserting ORM rows."""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import Sequence
from itertools import groupby
from typing import cast

from sqlalchemy import BindParameter, Table, Update, bindparam, exists, insert, inspect, update
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
    prepared = [
        (table, {key: value for key, value in inspect(row).dict.items() if key in table.c})
        for row in rows
        for table in [cast(Table, row.__table__)]
    ]
    for (table, _), group in groupby(prepared, key=lambda one: (one[0], frozenset(one[1]))):
        batch = [values for _, values in group]
        connection.execute(insert(table), batch[0] if len(batch) == 1 else batch)


@functools.cache
def _move_statement(table: Table, column: str, same: str) -> Update:
    """``move_rows``' statement for one table, built once: an ``alias()`` and ``~exists()``
    built anew on every call leave their objects in reference cycles (about 100 a table
    moved; docs/architecture.md, "Storage"). The values are bound: ``move_from``, ``move_to``."""
    mine = table.alias("mine")
    owner, place = table.c[column], table.c[same]
    to_id: BindParameter[str] = bindparam("move_to")
    return (
        update(table)
        .where(
            owner == bindparam("move_from"),
            ~exists().where(mine.c[column] == to_id, mine.c[same] == place),
        )
        .values({column: to_id})
    )


def move_rows(
    connection: Connection, table: Table, column: str, from_id: str, to_id: str, same: str
) -> None:
    """Give ``from_id``'s rows of ``table`` (by ``column``) to ``to_id``, except those for a
    ``same`` value ``to_id`` already has a row for: they stay where they are, so nothing is
    stored twice and nothing is deleted (a guest's history joining its account)."""
    connection.execute(
        _move_statement(table, column, same), {"move_from": from_id, "move_to": to_id}
    )
