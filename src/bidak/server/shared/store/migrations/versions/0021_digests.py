"""E-mail notifications (issue 38): the letters the site decided to send, each once.

- ``letters_sent``: one row per daily digest (``digest:<player>:<day>``) and per "time almost
  up" letter (``letter:<notification key>``), stored in the transaction that decides to send
  it, so two processes, a retry or a restart send it once.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "letters_sent",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_letters_sent_player_id", "letters_sent", ["player_id"])
    op.create_index("ix_letters_sent_at", "letters_sent", ["at"])


def downgrade() -> None:
    op.drop_index("ix_letters_sent_at", table_name="letters_sent")
    op.drop_index("ix_letters_sent_player_id", table_name="letters_sent")
    op.drop_table("letters_sent")
