"""Alembic environment: Bidak runs its migrations itself, on the connection it hands over."""

from __future__ import annotations

from alembic import context

from bidak.server.shared.store.models import Base

connection = context.config.attributes.get("connection")
if (
    connection is None
):  # pragma: no cover - migrations always run through bidak.server.shared.store.db
    raise RuntimeError("run migrations with `bidak serve` (bidak.server.shared.store.db.migrate)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
sqlite = connection.dialect.name == "sqlite"
if sqlite:
    # SQLite changes a table by building a copy and dropping the original; with foreign keys
    # on, dropping a table other rows point at fails. The driver runs DDL outside a transaction,
    # so the check is switched off for the migration (deferred as well, should one be open) and
    # every reference is checked once the copies stand under their original names.
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    connection.exec_driver_sql("PRAGMA defer_foreign_keys=ON")
try:
    with context.begin_transaction():
        context.run_migrations()
    if sqlite:
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"the migration left rows pointing nowhere: {broken[:5]}")
finally:
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
