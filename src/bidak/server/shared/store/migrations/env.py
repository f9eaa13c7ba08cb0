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
with context.begin_transaction():
    context.run_migrations()
