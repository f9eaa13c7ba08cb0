"""Notifications (issue 38): the notification centre's rows.

- ``notifications``: one row per notification of a player, stored once under its unique
  ``key`` (a retry, or a second process, stores nothing more), with the room it opens.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(96), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_notifications_player_id", "notifications", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_notifications_player_id", table_name="notifications")
    op.drop_table("notifications")
