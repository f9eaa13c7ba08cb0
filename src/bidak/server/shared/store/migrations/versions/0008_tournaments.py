"""Tournaments: arenas and knockouts, their players, and their matches (docs/tournaments.md).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=True),
        sa.Column("lengths", sa.JSON, nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("round_seconds", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("bracket", sa.JSON, nullable=True),
        sa.Column("round_deadline", sa.Float, nullable=True),
        sa.Column("winner_id", sa.String(32), nullable=True),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("schedule_key", sa.String(64), nullable=True, unique=True),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("score", sa.Integer, nullable=False, server_default="0"),
        sa.Column("streak", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("played", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_opponent", sa.String(32), nullable=True),
        sa.Column("room_code", sa.String(32), nullable=True),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("ready_round", sa.Integer, nullable=True),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("room_code", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("slot", sa.Integer, nullable=True),
        sa.Column("seat0_id", sa.String(32), nullable=False),
        sa.Column("seat1_id", sa.String(32), nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("winner_id", sa.String(32), nullable=True),
        sa.Column("how", sa.String(16), nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "slot"),
    )
    op.create_index("ix_tournament_matches_tournament_id", "tournament_matches", ["tournament_id"])


def downgrade() -> None:
    op.drop_table("tournament_matches")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
