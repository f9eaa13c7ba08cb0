"""Coins: the append-only ledger, owned cosmetics, and each player's streak and looks.

players.coins, unused until now (0 everywhere), becomes the cached balance. Columns are only
added to players (SQLite adds them in place; dropping one would rebuild the table).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "players", sa.Column("checkin_streak", sa.Integer, nullable=False, server_default="0")
    )
    op.add_column("players", sa.Column("checkin_day", sa.String(10), nullable=True))
    op.add_column("players", sa.Column("board", sa.String(32), nullable=True))
    op.add_column("players", sa.Column("checkers", sa.String(32), nullable=True))
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("item", sa.String(32), nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("balance_after", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("key", name="uq_ledger_key"),
    )
    op.create_index("ix_ledger_player_id", "ledger", ["player_id"])
    op.create_table(
        "owned",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("item", sa.String(32), primary_key=True),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("ledger.id"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("entry_id", name="uq_owned_entry_id"),
    )


def downgrade() -> None:
    op.drop_table("owned")
    op.drop_index("ix_ledger_player_id", "ledger")
    op.drop_table("ledger")
    with op.batch_alter_table("players") as batch:
        for column in ("checkers", "board", "checkin_day", "checkin_streak"):
            batch.drop_column(column)
