"""Who came to a tournament table, and arena absences: a tournament match starts when both
players opened its table (``rooms.came0``, ``rooms.came1``), or is forfeited by the one absent
for the whole grace; an arena player absent twice in a row is paused
(``tournament_players.absences``, the absences in a row).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        for column in ("came0", "came1"):
            batch.add_column(
                sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false())
            )
    with op.batch_alter_table("tournament_players") as batch:
        batch.add_column(sa.Column("absences", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("absences")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("came1")
        batch.drop_column("came0")
