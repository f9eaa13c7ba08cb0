"""Playing strangers: ratings and experience, rated and private rooms, rated match ends, the
quick match queue, mutes, rematch offers, and each player's PR in reviewed matches.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("rating", sa.Float, nullable=False, server_default="1500.0"))
    op.add_column(
        "players", sa.Column("experience", sa.Integer, nullable=False, server_default="0")
    )
    op.add_column(
        "rooms", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "rooms", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("rooms", sa.Column("rematch_by", sa.String(32), nullable=True))
    op.add_column("rooms", sa.Column("rematch_at", sa.Float, nullable=True))
    op.add_column("rooms", sa.Column("rematch_room", sa.String(32), nullable=True))
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("winner_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("loser_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("winner_before", sa.Float, nullable=False),
        sa.Column("loser_before", sa.Float, nullable=False),
        sa.Column("winner_change", sa.Float, nullable=False),
        sa.Column("loser_change", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rated_matches_winner_id", "rated_matches", ["winner_id"])
    op.create_index("ix_rated_matches_loser_id", "rated_matches", ["loser_id"])
    op.create_index("ix_rated_matches_at", "rated_matches", ["at"])
    op.create_table(
        "quick_queue",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("cube", sa.Boolean, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("offered", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "reviewed",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("pr", sa.Float, nullable=False),
    )
    op.create_index("ix_reviewed_player_id", "reviewed", ["player_id"])
    op.create_table(
        "mutes",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("muted_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mutes")
    op.drop_table("reviewed")
    op.drop_table("quick_queue")
    op.drop_table("rated_matches")
    with op.batch_alter_table("rooms") as batch:
        for column in ("rematch_room", "rematch_at", "rematch_by"):
            batch.drop_column(column)
        batch.drop_column("private")
        batch.drop_column("rated")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("experience")
        batch.drop_column("rating")
