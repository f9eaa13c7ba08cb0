"""The player's accessibility settings (``players.access``, issue 40): reduced motion, high
contrast, larger checkers and numbers, checkers that differ by more than hue.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("access", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("access")
