"""Friends, challenges and blocks (issue 38, part 3).

- ``follows``: who follows whom (a player's friends list).
- ``blocks``: who blocked whom (no challenge, follow, table talk or quick match pairing).
- ``challenges``: a challenge to a match, its options and state; the room an accept made.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("followee_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followee_id", "follows", ["followee_id"])
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("room", sa.String(32), nullable=True, unique=True),
        sa.Column("decided", sa.Float(), nullable=True),
    )
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])


def downgrade() -> None:
    op.drop_index("ix_challenges_to_id", table_name="challenges")
    op.drop_index("ix_challenges_from_id", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followee_id", table_name="follows")
    op.drop_table("follows")
