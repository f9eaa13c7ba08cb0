"""Notification settings (issue 38): per kind and channel, what a player chose.

- ``notify_choices``: one row per (player, kind, channel) the player changed from the
  channel's default (push on, e-mail off); in the page every notification always shows.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_choices",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("channel", sa.String(8), primary_key=True),
        sa.Column("wanted", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notify_choices")
