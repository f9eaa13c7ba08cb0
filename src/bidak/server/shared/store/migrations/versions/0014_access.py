"""The player's accessibility settings (``players.access``, issue 40): reduced motion, high
contrast, larger checkers and numbers, checkers that differ by more than hue.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("access", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("access")
