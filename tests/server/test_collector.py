"""The server's collector policy: automatic collection off, survivors frozen, and a full
collection once the heap has grown enough and no match is being played (or once it has grown
far past that), so cycles never pile up for good."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from bidak.server.shared.collector import Collector


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


@pytest.fixture
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def _garbage_cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


@pytest.mark.usefixtures("collector_off")
def test_a_cycle_waits_frozen_until_the_heap_has_grown_then_is_collected() -> None:
    collector = Collector(every=1.0, growth=1.5, floor=0)
    collector.full()
    cycle = _garbage_cycle()
    collector.step()
    assert cycle() is not None, "a step freezes, it does not collect"
    assert collector.full_collections == 1

    grown = [[] for _ in range(collector.limit - sys.getallocatedblocks() + 1000)]
    collector.step()
    assert cycle() is None
    assert collector.full_collections == 2
    assert collector.limit >= sys.getallocatedblocks() + 0.5 * len(grown)


@pytest.mark.usefixtures("collector_off")
def test_a_heap_that_stays_the_same_size_is_never_fully_collected() -> None:
    tables = [[n] for n in range(100_000)]
    collector = Collector(every=1.0, growth=1.5, floor=0)
    collector.full()
    for _ in range(20):  # every step, a new table replaces each old one, as actions do
        tables = [[n] for n in range(100_000)]
        collector.step()
    assert collector.full_collections == 1
    assert len(tables) == 100_000


@pytest.mark.usefixtures("collector_off")
def test_a_full_collection_waits_for_a_moment_without_play_unless_memory_runs_away() -> None:
    playing = True
    collector = Collector(every=1.0, growth=1.5, floor=0, busy=lambda: playing)
    collector.full()
    cycle = _garbage_cycle()
    grown = [[] for _ in range(collector.limit - sys.getallocatedblocks() + 1000)]
    collector.step()
    assert cycle() is not None and collector.full_collections == 1, "not during play"
    playing = False
    collector.step()
    assert cycle() is None and collector.full_collections == 2

    playing = True
    cycle = _garbage_cycle()
    more = [[] for _ in range(collector.hard_limit - sys.getallocatedblocks() + 1000)]
    collector.step()
    assert cycle() is None and collector.full_collections == 3, "past the hard limit, even so"
    assert len(grown) + len(more) > 0


def test_start_turns_automatic_collection_off_and_stop_restores_it() -> None:
    assert gc.isenabled()

    async def run() -> tuple[bool, int]:
        collector = Collector(every=3600.0)
        collector.start()
        during = gc.isenabled(), gc.get_freeze_count()
        await collector.stop()
        return during

    enabled, frozen = asyncio.run(run())
    assert not enabled and frozen > 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
