"""An index on the guest an account took in (``players.merged_into``): a profile reads the
tournament places of the guests merged into its account, as it reads the account's own.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_players_merged_into", "players", ["merged_into"])


def downgrade() -> None:
    op.drop_index("ix_players_merged_into", table_name="players")
