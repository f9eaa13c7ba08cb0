"""Players, sessions, rooms, matches and their events.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("email", sa.String(254), nullable=True, unique=True),
        sa.Column("coins", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat0_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("seat1_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("move_seconds", sa.Integer, nullable=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_rooms_match_id", "rooms", ["match_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("room_code", sa.String(32), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("seed_hash", sa.String(64), nullable=False),
        sa.Column("dice_drawn", sa.Integer, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_version", sa.Integer, nullable=True),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_matches_room_code", "matches", ["room_code"])
    op.create_index("ix_matches_finished", "matches", ["finished"])
    op.create_table(
        "events",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("matches")
    op.drop_table("rooms")
    op.drop_table("sessions")
    op.drop_table("players")
