"""Turns at the one writing connection: moves go before arrivals, nobody is lost or doubled."""

from __future__ import annotations

import asyncio

import pytest

from bidak.server.shared.store.turns import Turns

pytestmark = pytest.mark.anyio


async def _take(turns: Turns, name: str, order: list[str], urgent: bool = False) -> None:
    await turns.acquire(urgent)
    try:
        order.append(name)
        await asyncio.sleep(0)  # hold it across a switch, as a commit does
    finally:
        turns.release()


async def test_urgent_writers_go_before_those_waiting_longer_but_after_the_one_writing() -> None:
    turns, order = Turns(), []
    await turns.acquire()  # a write in progress
    waiting = [
        asyncio.create_task(_take(turns, "guest 1", order)),
        asyncio.create_task(_take(turns, "guest 2", order)),
        asyncio.create_task(_take(turns, "moves 1", order, urgent=True)),
        asyncio.create_task(_take(turns, "room", order)),
        asyncio.create_task(_take(turns, "moves 2", order, urgent=True)),
    ]
    await asyncio.sleep(0)
    assert order == [], "nobody writes while the write in progress holds the turn"
    turns.release()
    await asyncio.gather(*waiting)
    assert order == ["moves 1", "moves 2", "guest 1", "guest 2", "room"]
    assert not turns.held


async def test_a_waiter_that_gives_up_never_holds_the_turn_and_the_next_one_gets_it() -> None:
    turns, order = Turns(), []
    await turns.acquire()
    quitter = asyncio.create_task(_take(turns, "quitter", order, urgent=True))
    patient = asyncio.create_task(_take(turns, "patient", order))
    await asyncio.sleep(0)
    quitter.cancel()
    await asyncio.sleep(0)
    turns.release()
    await asyncio.wait_for(patient, 5)
    with pytest.raises(asyncio.CancelledError):
        await quitter
    assert order == ["patient"]
    assert not turns.held


async def test_a_waiter_cancelled_as_its_turn_came_passes_the_turn_on() -> None:
    turns, order = Turns(), []
    await turns.acquire()
    unlucky = asyncio.create_task(_take(turns, "unlucky", order))
    after = asyncio.create_task(_take(turns, "after", order))
    await asyncio.sleep(0)
    turns.release()  # hands the turn to "unlucky" ...
    unlucky.cancel()  # ... which is cancelled before it could run
    with pytest.raises(asyncio.CancelledError):
        await unlucky
    await asyncio.wait_for(after, 5)  # a turn lost with its waiter would hang here
    assert order == ["after"]
    assert not turns.held


async def test_a_free_turn_is_taken_at_once() -> None:
    turns = Turns()
    await turns.acquire(urgent=False)
    assert turns.held
    turns.release()
    assert not turns.held
