"""Names stored before the name rule that break it are cleaned, or replaced by a guest name.

Revision ID: 0005
Revises: 0004

A name the rule (:func:`bidak.server.accounts.names.clean_name`) accepts as it is, or after NFKC and
trimming, is kept in its cleaned form. One with invisible, direction-changing or other forbidden
characters loses them if what is left passes; a name that still fails (too short, or one that
pretends to be the site, staff or a bot) becomes a fresh guest name. Rows are read and written in
batches by primary key, so a large table never sits in memory.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bidak.server.accounts.guests import guest_name
from bidak.server.accounts.names import NameRefused, clean_name, repaired_name

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BATCH = 1000
_players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String))


def honest(name: str) -> str:
    """The name a stored ``name`` becomes under the rule."""
    try:
        return clean_name(name)
    except NameRefused:
        return repaired_name(name) or guest_name()


def upgrade() -> None:
    connection = op.get_bind()
    after = ""
    while True:
        rows = connection.execute(
            sa.select(_players.c.id, _players.c.name)
            .where(_players.c.id > after)
            .order_by(_players.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        for player_id, name in rows:
            fixed = honest(name)
            if fixed != name:
                connection.execute(
                    sa.update(_players).where(_players.c.id == player_id).values(name=fixed)
                )
        after = rows[-1][0]


def downgrade() -> None:
    pass  # the names before were not kept; the cleaned ones are valid under the old rule too
