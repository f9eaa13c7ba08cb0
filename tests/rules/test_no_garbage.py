"""The plays search leaves nothing for the cyclic garbage collector.

A server computes plays for every roll of every table; objects caught in reference cycles wait
for the collector, and its passes stall every table at once (a closure that called itself made
each doubles roll leave its whole search behind).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bidak.bench.games import sample_positions
from bidak.rules import legal_plays, step_alternatives


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    """What the collector finds unreachable while the test runs (kept, not freed)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_plays_and_their_alternatives_make_no_reference_cycles(
    saved_garbage: list[object],
) -> None:
    samples = sample_positions(400, seed=7)
    assert sum(dice[0] == dice[1] for _, dice in samples) > 30  # doubles were the culprit
    for position, dice in samples:
        legal_plays(position, dice)
        step_alternatives(position, dice)
    gc.collect()
    assert saved_garbage == []
