"""Fair play's use cases: report an opponent, the moderators' queue and cases, their actions,
the operator's grant of the role, and the figures a review of a rated match leaves.

Every change is one transaction of :mod:`.queries`; the time is the injected clock's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Final

from bidak.fairplay import LEAVER_WAIT, WINDOW, MatchFigures, Signal, judge, leaves_often
from bidak.server.fairplay import action_queries as actions
from bidak.server.fairplay import queries
from bidak.server.fairplay.action_queries import Action, Standing
from bidak.server.fairplay.queries import Figures, Report
from bidak.server.shared.clocks import Clock
from bidak.server.shared.refusal import Refusal
from bidak.server.shared.store.db import Database, KeyTaken

log = logging.getLogger("bidak.fairplay")

REASONS: Final = ("engine", "name", "talk", "leaving")
"""What a player may report an opponent for: engine help, an abusive name, abusive talk,
leaving."""
ACTIONS: Final = (
    "warn",
    "dismiss",
    "rename",
    "mute",
    "unmute",
    "ban",
    "unban",
    "ban_play",
    "unban_play",
)
"""What a moderator may do: ``ban`` is from rated play, ``ban_play`` from play
(``bidak.fairplay.doors``); ``unmute``, ``unban`` and ``unban_play`` lift, ``dismiss`` closes
the reports."""
QUEUE_DAYS = 90
"""Players with a reviewed rated match in this many days are judged for the queue."""


class FairPlayError(Refusal):
    """A refused fair-play request (see :class:`Refusal`)."""


@dataclass(frozen=True)
class Case:
    """A player in the moderators' queue: their standing, signal, reports and history."""

    player: Standing
    signal: Signal
    reports: list[Report]
    """About the player, newest first (open and closed)."""
    history: list[Figures]
    actions: list[Action]
    leaver: bool
    """Left 3 of their last 10 reviewed rated matches."""

    @property
    def open_reports(self) -> list[Report]:
        return [r for r in self.reports if r.open]

    @property
    def newest(self) -> datetime | None:
        return max((r.at for r in self.open_reports), default=None)


async def _nobody(key: str, player_id: str, kind: str, room: str | None) -> None:
    """Without a notification centre: nothing."""


class FairPlay:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.notify: Callable[[str, str, str, str | None], Coroutine[Any, Any, None]] = _nobody
        """Tells the player of a moderator's decision (the app sets the notification centre's:
        stored once per action, a failure only logged)."""

    def _at(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def standing(self, player_id: str) -> Standing:
        try:
            return await self.db.read(partial(actions.standing, player_id=player_id))
        except actions.NoSuchPlayer:
            raise FairPlayError("not_found", "There is no such player") from None

    async def report(
        self, reporter_id: str, match_id: str, reason: str, note: str | None
    ) -> Report:
        """Report the opponent of ``match_id``; one open report per reporter and match."""
        if reason not in REASONS:
            raise FairPlayError("bad_reason", f"A report is about one of {', '.join(REASONS)}")
        work = partial(
            queries.report,
            reporter_id=reporter_id,
            match_id=match_id,
            reason=reason,
            note=note or None,
            at=self._at(),
        )
        try:
            return await self.db.write_keyed(work)
        except queries.NotYourMatch:
            raise FairPlayError(
                "not_your_match", "You can report only your opponent in a match you played"
            ) from None
        except KeyTaken:
            raise FairPlayError(
                "already_reported", "You have reported this match already; a moderator will look"
            ) from None

    async def set_moderator(self, player_id: str, moderator: bool, note: str) -> Action:
        """The operator's grant (or revoke) of the moderator role, logged and audited."""
        work = partial(
            actions.set_moderator,
            player_id=player_id,
            moderator=moderator,
            note=note,
            at=self._at(),
        )
        try:
            action = await self.db.write(work)
        except actions.NoSuchPlayer:
            raise FairPlayError("not_found", "There is no such player") from None
        except actions.NothingToChange as same:
            raise FairPlayError("unchanged", f"Nothing to change: {same}") from None
        log.warning("moderator role %s: player %s (%s)", action.kind, player_id, note)
        return action

    async def act(
        self,
        moderator_id: str | None,
        player_id: str,
        kind: str,
        note: str,
        name: str | None = None,
    ) -> Action:
        """A moderator's action (one of :data:`ACTIONS`), in one transaction with its audit
        entry (a ban with its refunds); ``moderator_id`` None is the operator's (``bidak mod
        act``), the only one that may act on a moderator. Pressed twice at once, it is done
        once: the second finds it done and is refused (``unchanged``)."""
        if kind not in ACTIONS:
            raise FairPlayError("bad_action", f"An action is one of {', '.join(ACTIONS)}")
        if not note.strip():
            raise FairPlayError("no_reason", "Say why: every action is kept with its reason")
        if moderator_id == player_id:
            raise FairPlayError("yourself", "A moderator does not act on their own account")
        work = partial(
            actions.act,
            player_id=player_id,
            by_id=moderator_id,
            kind=kind,
            note=note.strip(),
            at=self._at(),
            new_name=name,
        )
        try:
            action = await self.db.write_keyed(work)
        except actions.NoSuchPlayer:
            raise FairPlayError("not_found", "There is no such player") from None
        except actions.OnModerator:
            raise FairPlayError(
                "moderator", "Moderators do not act on moderators; the operator does (bidak mod)"
            ) from None
        except actions.NameInUse:
            raise FairPlayError("name_taken", "Another player has that name") from None
        except (actions.NothingToChange, KeyTaken) as same:
            # KeyTaken: a twin ban refunded the same matches first and this one rolled back.
            raise FairPlayError("unchanged", f"Nothing to change: {same}") from None
        who = "the operator" if moderator_id is None else f"moderator {moderator_id}"
        log.warning("%s: %s on %s (%s)", who, kind, player_id, note)
        await self.notify(f"moderator:{action.id}", player_id, "moderator", None)
        return action

    async def actions_on(self, player_id: str) -> list[Action]:
        return await self.db.read(partial(actions.actions_on, player_id=player_id))

    async def names(self, ids: list[str]) -> dict[str, str]:
        return await self.db.read(partial(queries.names_of, ids=ids))

    async def store_figures(
        self, match_id: str, player_id: str, depth: int, figures: MatchFigures, left: bool
    ) -> bool:
        work = partial(
            queries.store_figures,
            match_id=match_id,
            player_id=player_id,
            depth=depth,
            figures=figures,
            left=left,
            at=self._at(),
        )
        return await self.db.write(work)

    async def extra_wait(self, player_id: str) -> float:
        """How much longer the player waits in quick match: :data:`LEAVER_WAIT` for one who
        left 3 of their last 10 reviewed rated matches, else 0."""
        history = await self.db.read(partial(queries.history, player_id=player_id, limit=WINDOW))
        return LEAVER_WAIT if leaves_often([h.left for h in history]) else 0.0

    async def case(self, player_id: str) -> Case:
        """Everything a moderator sees of one player."""
        player = await self.standing(player_id)
        history = await self.db.read(partial(queries.history, player_id=player_id))
        reports = await self.db.read(partial(queries.reports_about, player_id=player_id))
        actions = await self.actions_on(player_id)
        return Case(
            player,
            # A match its auto-play mostly played shows the bot's PR, not the player's.
            judge([h.figures for h in history if not h.left]),
            reports,
            history,
            actions,
            leaves_often([h.left for h in history[:WINDOW]]),
        )

    async def queue(self) -> list[Case]:
        """The cases to look at: every player with an open report, a flagged signal, a habit
        of leaving or a merged guest's restrictions held for a decision; the strongest flags
        first, then the newest reports."""
        since = self._at() - timedelta(days=QUEUE_DAYS)
        reported = {r.reported_id for r in await self.db.read(queries.open_reports)}
        judged = await self.db.read(partial(queries.players_with_figures, since=since))
        held = set(await self.db.read(actions.held_players))
        cases = []
        for player_id in sorted(reported | set(judged) | held):
            case = await self.case(player_id)
            if case.open_reports or case.signal.flagged or case.leaver or case.player.held:
                cases.append(case)
        epoch = datetime.fromtimestamp(0, UTC)
        cases.sort(
            key=lambda c: (
                c.signal.flagged,
                c.signal.strength if c.signal.flagged else 0.0,
                c.newest or epoch,
            ),
            reverse=True,
        )
        return cases
