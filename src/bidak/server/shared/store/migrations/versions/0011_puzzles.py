"""Puzzles: banked cards with one clear answer, offered to every solver, rated by Glicko-2.

- ``players.puzzles_shared`` (true): the player's banked positions may become puzzles; switched
  off, their puzzles leave the pool and later cards are not offered;
- ``players.puzzle_rating``, ``puzzle_deviation``, ``puzzle_volatility``: the solver's Glicko-2
  rating (1500, 350, 0.06 for everybody at first);
- ``puzzles``: one per card (unique), with its own Glicko-2 rating and its theme; ``withdrawn``
  when its player opted out (the answers to it stay, as the solvers' history);
- ``puzzle_answers``: one per solver and puzzle (unique: a retry of an answer finds the first),
  with both ratings before and after.

Revision ID: 0011
Revises: 0010 (added in parallel with 0010, names; chained after it when both were merged)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_RATING = (
    ("puzzle_rating", "1500.0"),
    ("puzzle_deviation", "350.0"),
    ("puzzle_volatility", "0.06"),
)


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("puzzles_shared", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    for column, start in _RATING:
        op.add_column("players", sa.Column(column, sa.Float, nullable=False, server_default=start))
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("card_id", sa.Integer, sa.ForeignKey("cards.id"), nullable=False, unique=True),
        sa.Column("source_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("gap", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_puzzles_theme_rating", "puzzles", ["theme", "rating"])
    op.create_index("ix_puzzles_source", "puzzles", ["source_id"])
    op.create_table(
        "puzzle_answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("answer", sa.String(40), nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("right", sa.Boolean, nullable=False),
        sa.Column("solver_before", sa.Float, nullable=False),
        sa.Column("solver_after", sa.Float, nullable=False),
        sa.Column("puzzle_before", sa.Float, nullable=False),
        sa.Column("puzzle_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("player_id", "puzzle_id", name="uq_puzzle_answers_once"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_answers")
    op.drop_index("ix_puzzles_source", "puzzles")
    op.drop_index("ix_puzzles_theme_rating", "puzzles")
    op.drop_table("puzzles")
    with op.batch_alter_table("players") as batch:
        for column, _ in reversed(_RATING):
            batch.drop_column(column)
        batch.drop_column("puzzles_shared")
