"""What each capability does with a player's own rows at the three moments that concern all
of them: a guest signing in to an account (its history joins the account), an account deleted
(what identifies the person goes), and the account's export (everything stored about it).

Accounts runs these moments, in one transaction each, but owns none of the other capabilities'
tables: each capability hands its steps in through the app's wiring
(:func:`bidak.server.app.player_steps`), and accounts calls them on the transaction's
connection. So every table is written only by the capability that owns it (docs/architecture.md,
"Storage"), and no import arrow points from accounts up to the capabilities that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection


@dataclass(frozen=True, slots=True)
class GuestMerge:
    """A guest signing in to an account: its ``players`` row (locked by the caller), the
    account it joins, and when."""

    guest: Any
    into_id: str
    at: datetime

    @property
    def guest_id(self) -> str:
        return str(self.guest.id)


MergeStep = Callable[[Connection, GuestMerge], int]
"""Move the guest's rows of one capability to the account; how many finished matches moved
(0 for a capability that moves none)."""
ForgetStep = Callable[[Connection, str, datetime], None]
"""Remove what identifies the player in one capability's tables (the account is deleted)."""
ExportStep = Callable[[Connection, str], dict[str, Any]]
"""One capability's part of the account's export: top-level keys and their rows."""
NamesStep = Callable[[Connection, str], Iterable[str]]
"""Names the player may not take again (a moderator replaced them)."""


@dataclass
class PlayerSteps:
    """The steps the capabilities handed in, run in the order they were added."""

    merges: list[MergeStep] = field(default_factory=list)
    forgets: list[ForgetStep] = field(default_factory=list)
    exports: list[ExportStep] = field(default_factory=list)
    names: list[NamesStep] = field(default_factory=list)

    def add(
        self,
        *,
        merge: MergeStep | None = None,
        forget: ForgetStep | None = None,
        export: ExportStep | None = None,
        replaced_names: NamesStep | None = None,
    ) -> None:
        if merge is not None:
            self.merges.append(merge)
        if forget is not None:
            self.forgets.append(forget)
        if export is not None:
            self.exports.append(export)
        if replaced_names is not None:
            self.names.append(replaced_names)

    def merge(self, connection: Connection, merge: GuestMerge) -> int:
        return sum(step(connection, merge) for step in self.merges)

    def forget(self, connection: Connection, player_id: str, at: datetime) -> None:
        for step in self.forgets:
            step(connection, player_id, at)

    def export(self, connection: Connection, player_id: str) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for step in self.exports:
            part = step(connection, player_id)
            if set(part) & set(found):
                raise ValueError(f"two exports name {sorted(set(part) & set(found))}")
            found.update(part)
        return found

    def replaced_names(self, connection: Connection, player_id: str) -> set[str]:
        return {name for step in self.names for name in step(connection, player_id) if name}
