"""Two columns nothing read, and which only repeated what is stored elsewhere, are dropped.

- ``owned.at``: when a cosmetic was bought is the ``at`` of the ledger entry that paid for it
  (``owned.entry_id``), written in the same transaction with the same time.
- ``email_links.created_at``: a link is made ``LINK_SECONDS`` (30 minutes) before its
  ``expires_at``.

Nothing stored is lost: the downgrade puts both back from where they are repeated.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

LINK_SECONDS = 30 * 60
"""``bidak.server.accounts.service.LINK_SECONDS`` when the links were made (it never changed)."""


def upgrade() -> None:
    with op.batch_alter_table("owned") as batch:
        batch.drop_column("at")
    with op.batch_alter_table("email_links") as batch:
        batch.drop_column("created_at")


def downgrade() -> None:
    with op.batch_alter_table("owned") as batch:
        batch.add_column(sa.Column("at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("email_links") as batch:
        batch.add_column(sa.Column("created_at", sa.Float, nullable=True))
    owned = sa.table(
        "owned", sa.column("entry_id", sa.Integer), sa.column("at", sa.DateTime(timezone=True))
    )
    ledger = sa.table(
        "ledger", sa.column("id", sa.Integer), sa.column("at", sa.DateTime(timezone=True))
    )
    links = sa.table(
        "email_links", sa.column("expires_at", sa.Float), sa.column("created_at", sa.Float)
    )
    paid = sa.select(ledger.c.at).where(ledger.c.id == owned.c.entry_id).scalar_subquery()
    op.execute(sa.update(owned).values(at=paid))
    op.execute(sa.update(links).values(created_at=links.c.expires_at - LINK_SECONDS))
    with op.batch_alter_table("owned") as batch:
        batch.alter_column("at", existing_type=sa.DateTime(timezone=True), nullable=False)
    with op.batch_alter_table("email_links") as batch:
        batch.alter_column("created_at", existing_type=sa.Float, nullable=False)
