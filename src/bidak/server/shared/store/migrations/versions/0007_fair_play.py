"""Fair play: moderators, reports, moderators' actions (the audit trail), rating refunds, and the
figures of every reviewed rated match (PR, decisions, think times).

- ``players.moderator``, ``players.talk_muted`` and ``players.rated_ban`` (all false);
- ``reports``: one open report per reporter and match, held by the unique ``open_key``
  (``reporter:match`` while open, NULL once closed: NULLs never collide);
- ``actions``: what a moderator (or the operator, ``bidak mod``) did to whom, when and why;
- ``refunds``: a rating loss given back, at most once per match (the primary key);
- ``figures``: one player's figures in one reviewed rated match.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for column in ("moderator", "talk_muted", "rated_ban"):
        op.add_column(
            "players", sa.Column(column, sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("open_key", sa.String(80), nullable=True, unique=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("by_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("detail", sa.String(200), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_actions_player_id", "actions", ["player_id"])
    op.create_table(
        "refunds",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("amount", sa.Float, nullable=False),
        sa.Column("action_id", sa.Integer, sa.ForeignKey("actions.id"), nullable=False),
    )
    op.create_table(
        "figures",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("squares", sa.Float, nullable=False),
        sa.Column("times", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("seconds_squared", sa.Float, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_figures_player_id", "figures", ["player_id"])


def downgrade() -> None:
    op.drop_table("figures")
    op.drop_table("refunds")
    op.drop_table("actions")
    op.drop_table("reports")
    with op.batch_alter_table("players") as batch:
        for column in ("rated_ban", "talk_muted", "moderator"):
            batch.drop_column(column)
