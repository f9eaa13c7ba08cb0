"""Web Push (issue 38): the browsers' subscriptions, the pushes due, the site's VAPID keys.

- ``push_subscriptions``: one row per browser subscription (unique by its endpoint's hash),
  of the player and session that registered it.
- ``push_due``: one row per notification and subscription still to push, with when.
- ``push_keys``: the VAPID key pair the first process made (one row, ``vapid``).

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("endpoint_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_due",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(96), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("due", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.UniqueConstraint("key", "subscription_id"),
    )
    op.create_index("ix_push_due_due", "push_due", ["due"])
    op.create_index("ix_push_due_player_id", "push_due", ["player_id"])
    op.create_index("ix_push_due_subscription_id", "push_due", ["subscription_id"])
    op.create_table(
        "push_keys",
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("private_key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_keys")
    op.drop_index("ix_push_due_subscription_id", table_name="push_due")
    op.drop_index("ix_push_due_player_id", table_name="push_due")
    op.drop_index("ix_push_due_due", table_name="push_due")
    op.drop_table("push_due")
    op.drop_index("ix_push_subscriptions_player_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
