"""What connections are sent, drawn once per match version and seat and shared in the process.

Every connection at a room is sent the same table after each change, drawn for its seat: the two
players and any number of spectators (who see seat 0's side). Drawing a table means the legal
plays and every order of their steps, the costliest work of an action, and encoding it is the
next costliest; both are done here once per (match, version, seat) and kept as JSON text, and the
``events`` message around it is kept too, for every connection that had seen the same version.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import orjson

from bidak.match import MatchState, Player, state_from_json
from bidak.server.play.protocol import PlayTexts, table_json
from bidak.server.play.wire.messages import EventItem, events_head
from bidak.server.play.wire.notes import EventsNote

KEPT = 4096
"""Entries each cache keeps (the oldest go first); a few per active match are used at a time."""


def dumps(message: Any) -> str:
    """Compact JSON, as every message is sent (UTF-8 text, not ASCII escapes)."""
    return orjson.dumps(message).decode()


class _Kept:
    """A dict that forgets its oldest entries beyond ``size``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: dict[Hashable, Any] = {}

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        found = self.items.get(key)
        if found is None:
            found = self.items[key] = make()
            if len(self.items) > self.size:
                for old in list(self.items)[: self.size // 4]:
                    del self.items[old]
        return found


class Views:
    """Tables and ``events`` messages as JSON text, each built once.

    ``known`` gives the state a match is at in this process when it has one (the service's live
    match), which spares decoding a published state and keeps the plays it already computed.
    """

    def __init__(self, known: Callable[[str], MatchState | None], size: int = KEPT) -> None:
        self._known = known
        self._states = _Kept(size)
        self._tables = _Kept(size)
        self._messages = _Kept(size)
        self._plays = PlayTexts()

    def state(self, match_id: str, version: int, data: dict[str, Any]) -> MatchState:
        """The state ``data`` (a published state's JSON) holds, decoded at most once."""
        known = self._known(match_id)
        if known is not None and known.version == version:
            return known
        state: MatchState = self._states.get((match_id, version), lambda: state_from_json(data))
        return state

    def table(self, match_id: str, state: MatchState, seat: Player | None) -> str:
        """The table ``seat`` is shown (:func:`~bidak.server.play.protocol.match_view`), as JSON
        (:func:`~bidak.server.play.protocol.table_json`)."""
        key = (match_id, state.version, seat)
        text: str = self._tables.get(key, lambda: table_json(state, seat, self._plays))
        return text

    def events(self, message: EventsNote, seat: Player | None, seen: int, now: float) -> str:
        """The ``events`` message for a connection at ``seat`` that has seen up to ``seen``.

        ``message`` is what the rooms service published (an :class:`EventsNote`): events from
        version ``from`` on and the state after them. Events the connection has already seen
        are left out.
        """
        first = message["from"]
        last = first + len(message["events"]) - 1
        key = (message["match"], last, max(seen, first - 1), seat)
        text: str = self._messages.get(key, lambda: self.compose(message, seat, [], seen, now))
        return text

    def compose(
        self,
        message: EventsNote,
        seat: Player | None,
        earlier: list[EventItem],
        seen: int,
        now: float,
    ) -> str:
        """The ``events`` message for ``seat``: ``earlier`` items (``{version, event}``, from
        the store when a published message was missed), then the published events after
        ``seen``, and the table after them."""
        first = message["from"]
        last = first + len(message["events"]) - 1
        state = self.state(message["match"], last, message["state"])
        body = events_head(
            room=message["room"],
            match=message["match"],
            version=last,
            events=earlier
            + [
                {"version": first + i, "event": event}
                for i, event in enumerate(message["events"])
                if first + i > seen
            ],
            deadline=message["deadline"],
            seed=message["seed"],
            now=now,
        )
        return with_table(dumps(body), self.table(message["match"], state, seat))


def with_table(text: str, table: str) -> str:
    """``text`` (a JSON object) with a ``table`` member whose JSON is ``table``."""
    return f'{text[:-1]},"table":{table}}}'
