"""Bans from play, and accounts held for a moderator (issue 37).

- ``players.play_ban``: a moderator banned the player from play (no quick match, tournament,
  challenge or seat at somebody else's room; ``bidak.fairplay.doors``). The older ``rated_ban``
  keeps its meaning: banned from rated play.
- ``players.held``: the account took in a restricted guest at a sign-in and carries the guest's
  restrictions until a moderator decides (it stands in the moderators' queue).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for column in ("play_ban", "held"):
        op.add_column(
            "players",
            sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        for column in ("held", "play_ban"):
            batch.drop_column(column)
