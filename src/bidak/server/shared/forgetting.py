"""What else goes when an account is deleted: the steps capabilities above accounts register.

The accounts delete a player (:func:`bidak.server.accounts.queries.delete_account`), but rows
of capabilities that stand on accounts (the notifications' settings, Web Push subscriptions)
must go in the same transaction, and accounts may not import those capabilities (they import
accounts: every import points down). So accounts run the steps of a :class:`Forgetting` they
are handed, and the app, which composes both, registers each capability's step into it when it
wires them (``bidak.server.app``).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection

Step = Callable[[Connection, str], None]
"""Delete what one capability keeps about a player, inside the caller's transaction."""


class Forgetting:
    """The steps run, in order, in the transaction that deletes an account."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, step: Step) -> None:
        if step not in self.steps:
            self.steps.append(step)

    def run(self, connection: Connection, player_id: str) -> None:
        for step in self.steps:
            step(connection, player_id)
