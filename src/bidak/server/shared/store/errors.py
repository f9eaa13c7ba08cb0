"""What the database's callers are told when it fails: :class:`StorageError`, and
:class:`KeyTaken` when a write lost a race on a unique key; and the context every call of
:class:`bidak.server.shared.store.db.Database` runs in, which turns the drivers' failures into
them."""

from __future__ import annotations

import asyncio
from types import TracebackType

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout


class KeyTaken(Exception):
    """A write lost a race on a unique key (a twin request stored the same idempotency key
    first) and was rolled back whole
    (:meth:`bidak.server.shared.store.db.Database.write_keyed`)."""


class StorageError(Exception):
    """The database did not answer or failed mid-transaction (it went away, a connection was
    killed, a SQLite file stayed locked): the transaction was rolled back, or, when the
    failure came during its commit, may have been committed. The caller may try again; a
    write whose outcome matters reads the store to find out."""


class _StorageErrors:
    """Raise the database's failures as :class:`StorageError` (a unique key taken stays an
    ``IntegrityError``: it is an answer, not a failure). A driver raises some without
    SQLAlchemy's wrapping: a refused connection, a timeout, the pool's wait.

    A call cancelled inside SQLAlchemy (on PostgreSQL, awaiting the driver) goes on cancelled
    without the frames it was cancelled in: SQLAlchemy keeps the ``CancelledError`` in a local
    of one of them, so its traceback made a reference cycle that held every frame of the call,
    the caller's too with what it held (a match's state), until a full collection: 164 objects a
    cancelled call (docs/performance.md, "Python's cyclic collector"). A class, not
    ``contextlib.contextmanager``, whose exit puts the original traceback back."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: object, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if isinstance(value, asyncio.CancelledError):
            value.__traceback__ = None
        elif isinstance(value, DBAPIError | OSError | TimeoutError | PoolTimeout) and not (
            isinstance(value, IntegrityError)
        ):
            raise StorageError(f"{type(value).__name__}: {value}") from value


storage_errors = _StorageErrors()
"""The context every call of :class:`~bidak.server.shared.store.db.Database` runs in (it keeps
no state: one for all)."""
