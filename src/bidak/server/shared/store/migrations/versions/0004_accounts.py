"""Accounts: one-time e-mail links, named sessions with a device label, deleted and merged
accounts.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("players", sa.Column("merged_into", sa.String(32), nullable=True))
    op.add_column("sessions", sa.Column("id", sa.String(32), nullable=True))
    op.add_column("sessions", sa.Column("last_seen", sa.Float, nullable=True))
    op.add_column("sessions", sa.Column("device", sa.String(64), nullable=True))
    sessions = sa.table("sessions", sa.column("token_hash", sa.String), sa.column("id", sa.String))
    connection = op.get_bind()
    for (token_hash,) in connection.execute(sa.select(sessions.c.token_hash)).all():
        connection.execute(
            sa.update(sessions)
            .where(sessions.c.token_hash == token_hash)
            .values(id=secrets.token_hex(16))
        )
    op.create_index("ix_sessions_id", "sessions", ["id"], unique=True)
    op.create_table(
        "email_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_email_links_player_id", "email_links", ["player_id"])


def downgrade() -> None:
    op.drop_table("email_links")
    op.drop_index("ix_sessions_id", "sessions")
    with op.batch_alter_table("sessions") as batch:
        for column in ("device", "last_seen", "id"):
            batch.drop_column(column)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("merged_into")
        batch.drop_column("deleted_at")
