"""An arena's absences (pure rules): the one who came wins the match the other missed; two
absences in a row pause a player, and a match played in between starts the count again."""

from __future__ import annotations

import pytest

from bidak.tournament import ArenaEntrant, record_absence, record_result


def test_the_one_who_came_wins_and_two_absences_in_a_row_pause() -> None:
    ann, bob, cat = ArenaEntrant("ann", 1500), ArenaEntrant("bob", 1500), ArenaEntrant("cat", 1500)
    ann, bob = record_absence(ann, bob)
    assert (ann.score, ann.wins, ann.streak, ann.absences) == (2, 1, 1, 0)
    assert (bob.score, bob.absences, bob.paused, bob.last_opponent) == (0, 1, False, "ann")
    cat, bob = record_absence(cat, bob)
    assert (bob.absences, bob.paused) == (2, True)
    assert not bob.free


def test_a_match_played_starts_the_count_again_and_nobody_wins_a_match_neither_came_to() -> None:
    ann, bob = ArenaEntrant("ann", 1500), ArenaEntrant("bob", 1500)
    ann, bob = record_absence(ann, bob)
    bob, ann = record_result(bob, ann)
    assert bob.absences == 0
    ann, bob = record_absence(None, ann, bob)
    assert (ann.score, bob.score) == (2, 2)  # unchanged: nobody won it
    assert (ann.absences, bob.absences) == (1, 1)
    assert not ann.paused and not bob.paused
    with pytest.raises(ValueError):
        record_absence(None, ann)
