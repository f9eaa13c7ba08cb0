"""Correspondence matches (issue 38).

- ``rooms.days_per_move``: a correspondence room's allowance in days (None: a live room).
- ``players.corr_rating`` and ``players.corr_experience``: the FIBS rating of correspondence
  play, kept apart from the live one (a different skill).
- ``players.auto_roll``: a forced roll or a single legal play is applied for the player in
  correspondence matches (off by default).
- ``matches.lease_until``: the process applying a correspondence timeout holds the match
  until then, so one process does it (another takes over once the lease runs out).
- ``vacations``: each player's vacations, which stop their correspondence clocks.
- indexes on ``rooms.seat0_id`` and ``rooms.seat1_id``: 'Your games' and its header badge
  read a player's rooms often.
- ``rated_matches.correspondence``: which rating a rated match's changes are of (a ban's
  refund gives back the right one).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("days_per_move", sa.Integer(), nullable=True))
    op.add_column("matches", sa.Column("lease_until", sa.Float(), nullable=True))
    op.add_column(
        "players",
        sa.Column("corr_rating", sa.Float(), nullable=False, server_default=sa.text("1500.0")),
    )
    op.add_column(
        "players",
        sa.Column("corr_experience", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.add_column(
        "players",
        sa.Column("auto_roll", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "rated_matches",
        sa.Column("correspondence", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("start", sa.Float(), nullable=False),
        sa.Column("end", sa.Float(), nullable=False),
    )
    op.create_index("ix_vacations_player_id", "vacations", ["player_id"])
    op.create_index("ix_rooms_seat0_id", "rooms", ["seat0_id"])
    op.create_index("ix_rooms_seat1_id", "rooms", ["seat1_id"])


def downgrade() -> None:
    op.drop_index("ix_rooms_seat1_id", table_name="rooms")
    op.drop_index("ix_rooms_seat0_id", table_name="rooms")
    op.drop_index("ix_vacations_player_id", table_name="vacations")
    op.drop_table("vacations")
    with op.batch_alter_table("rated_matches") as batch:
        batch.drop_column("correspondence")
    with op.batch_alter_table("players") as batch:
        for column in ("auto_roll", "corr_experience", "corr_rating"):
            batch.drop_column(column)
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("lease_until")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("days_per_move")
