"""Players' names become unique as a person reads them: a ``skeleton`` column with a unique
index, filled for the players stored before it.

Revision ID: 0010
Revises: 0009

Each player's skeleton is :func:`bidak.server.accounts.names.skeleton` of their name, given
oldest account first: where two or more players already wear names that look alike, the oldest
keeps the skeleton and the later ones keep their names with a NULL skeleton (so nobody new can
take that name either) until they rename. Deleted and retired (merged) accounts get none. No
name is changed. Rows are read in batches, so a large table never sits in memory.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bidak.server.accounts.names import skeleton

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

BATCH = 1000
INDEX = "ix_players_skeleton"
_players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("deleted_at", sa.DateTime(timezone=True)),
    sa.column("merged_into", sa.String),
    sa.column("skeleton", sa.String),
)


def upgrade() -> None:
    op.add_column("players", sa.Column("skeleton", sa.String(96), nullable=True))
    op.create_index(INDEX, "players", ["skeleton"], unique=True)
    connection = op.get_bind()
    live = sa.and_(_players.c.deleted_at.is_(None), _players.c.merged_into.is_(None))
    after = ""
    # Rows in id order (a key that compares the same everywhere; stored times need not: SQLite
    # keeps them as text). A name's older holder takes the skeleton from a younger one met first.
    while True:
        rows = connection.execute(
            sa.select(_players.c.id, _players.c.name, _players.c.created_at)
            .where(live, _players.c.id > after)
            .order_by(_players.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        for player_id, name, created_at in rows:
            key = skeleton(name)
            holder = connection.execute(
                sa.select(_players.c.id, _players.c.created_at).where(_players.c.skeleton == key)
            ).first()
            if holder is not None:
                if (holder.created_at, holder.id) <= (created_at, player_id):
                    continue  # the holder is older: this player keeps the name, not the skeleton
                connection.execute(
                    sa.update(_players).where(_players.c.id == holder.id).values(skeleton=None)
                )
            connection.execute(
                sa.update(_players).where(_players.c.id == player_id).values(skeleton=key)
            )
        after = rows[-1][0]


def downgrade() -> None:
    op.drop_index(INDEX, "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skeleton")
