"""Matches of rated rooms that moved no rating, and why (a guest played, or the same two had
played their rated matches of the day, or one is banned from rated play), with who won: the
match-over dialog tells the players, and a tournament learns its match's winner from it.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "unrated_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("winner_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("loser_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("unrated_matches")
