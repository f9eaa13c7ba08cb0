"""Training: the blunder bank's cards (one per player and decision of a reviewed match, with its
FSRS schedule) and the drill's answers (for the streak).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("xgid", sa.String(80), nullable=False),
        sa.Column("played", sa.String(40), nullable=False),
        sa.Column("best", sa.String(40), nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("analysis", sa.JSON, nullable=False),
        sa.Column("schedule", sa.JSON, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "match_id", "game", "turn", "kind"),
    )
    op.create_index("ix_cards_player_due", "cards", ["player_id", "due"])
    op.create_table(
        "drills",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("card_id", sa.Integer, sa.ForeignKey("cards.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("grade", sa.Integer, nullable=False),
    )
    op.create_index("ix_drills_player_day", "drills", ["player_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_drills_player_day", "drills")
    op.drop_table("drills")
    op.drop_index("ix_cards_player_due", "cards")
    op.drop_table("cards")
