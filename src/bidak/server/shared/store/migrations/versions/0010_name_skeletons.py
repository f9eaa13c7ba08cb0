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
    after: tuple[object, str] | None = None
    while True:
        query = sa.select(_players.c.id, _players.c.name, _players.c.created_at).where(live)
        if after is not None:
            at, last = after
            query = query.where(
                sa.or_(
                    _players.c.created_at > at,
                    sa.and_(_players.c.created_at == at, _players.c.id > last),
                )
            )
        rows = connection.execute(
            query.order_by(_players.c.created_at, _players.c.id).limit(BATCH)
        ).all()
        if not rows:
            return
        for player_id, name, _ in rows:
            key = skeleton(name)
            taken = connection.execute(
                sa.select(_players.c.id).where(_players.c.skeleton == key)
            ).first()
            if taken is None:
                connection.execute(
                    sa.update(_players).where(_players.c.id == player_id).values(skeleton=key)
                )
        after = (rows[-1][2], rows[-1][0])


def downgrade() -> None:
    op.drop_index(INDEX, "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skeleton")
