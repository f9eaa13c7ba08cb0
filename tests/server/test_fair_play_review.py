"""The background review of rated matches: each person's figures stored once per match, never
while a player's hint or review is waiting; think times and leaving read from the event log."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bidak.match import AutoplayChanged, DiceRolled, Doubled, Played, Player, Taken
from bidak.server.fairplay import queries
from bidak.server.fairplay.reviewer import timings
from bidak.server.shared.clocks import ManualClock
from tests.server.harness import Client, running_server, server_settings
from tests.server.test_rated import linked_ids, play_out

pytestmark = pytest.mark.anyio


async def test_a_rated_match_is_reviewed_in_the_background_once(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path), ManualClock()) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        reviewer = running.services.reviewer
        reviewer.ply = "1ply"  # the engine's quickest depth: this test is about the plumbing
        players = await linked_ids(running, alice, bob)
        assert await reviewer.review_pending() is None  # nothing rated yet
        done = await play_out(alice, bob, rated=True)

        # A player's own review is running: the background waits.
        release = threading.Event()
        held = asyncio.ensure_future(running.services.reviews.run(release.wait))
        await asyncio.sleep(0)
        assert not running.services.reviews.idle
        assert await reviewer.review_pending() is None
        release.set()
        await held
        assert running.services.reviews.idle

        assert await reviewer.review_pending() == done["match_id"]
        assert await reviewer.review_pending() is None  # stored: not again
        fairplay = running.services.fairplay
        for player_id in players:
            history = await running.services.db.read(lambda c, p=player_id: queries.history(c, p))
            assert [h.match_id for h in history] == [done["match_id"]]
            figures = history[0].figures
            assert figures.decisions > 0 and figures.loss >= 0
            assert not history[0].left
        case = await fairplay.case(players[0])
        assert case.signal.matches == 1 and not case.signal.enough


def test_think_times_come_from_batches_and_auto_play_marks_a_leaver() -> None:
    zero, one = Player.ZERO, Player.ONE
    play = Played(zero, (3, 1), (), "")
    events = [
        (DiceRolled(zero, (3, 1)), 100.0),  # the batch before zero's first decision
        (play, 107.0),  # zero thought 7 s
        (DiceRolled(one, (6, 5)), 107.0),  # automatic, same batch: not a decision
        (Played(one, (6, 5), (), ""), 110.0),  # one thought 3 s
        (Doubled(zero, 2), 125.0),  # zero thought 15 s
        (Taken(one, 2), 126.0),  # one thought 1 s
        (AutoplayChanged(one, True), 200.0),
        (Played(one, (2, 1), (), ""), 230.0),  # auto-play: not timed
        (Played(one, (4, 4), (), ""), 260.0),
        (Played(one, (5, 4), (), ""), 290.0),
    ]
    found = timings(events)
    assert found[zero].seconds == [7.0, 15.0] and not found[zero].left
    assert found[one].seconds == [3.0, 1.0] and found[one].autoplayed == 3
    assert found[one].left  # auto-play made 3 of their 5 decisions
