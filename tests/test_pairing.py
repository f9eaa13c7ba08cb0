"""Quick match pairing: same options only, nearest rating first, a gap that widens with waiting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.pairing import (
    OFFER_AFTER,
    Options,
    Seeker,
    allowed_gap,
    pair,
    practice_offer,
)

FIVE = Options(5, 45, True)
NOW = 1_000_000.0


def seeker(
    player: str,
    rating: float,
    options: Options = FIVE,
    waited: float = 0.0,
    muted: frozenset[str] = frozenset(),
) -> Seeker:
    return Seeker(player, rating, options, NOW - waited, muted)


def names(pairs: list[tuple[Seeker, Seeker]]) -> set[frozenset[str]]:
    return {frozenset((a.player, b.player)) for a, b in pairs}


def test_two_players_with_the_same_options_are_paired() -> None:
    assert names(pair([seeker("a", 1500), seeker("b", 1550)], NOW)) == {frozenset("ab")}


def test_different_options_are_never_paired() -> None:
    others = [Options(3, 45, True), Options(5, 30, True), Options(5, 45, False)]
    crowd = [seeker("a", 1500), *(seeker(f"x{i}", 1500, o) for i, o in enumerate(others))]
    assert pair(crowd, NOW) == []


def test_the_nearest_rating_is_taken_first() -> None:
    crowd = [seeker("a", 1500, waited=5), seeker("far", 1580), seeker("near", 1510)]
    assert names(pair(crowd, NOW)) == {frozenset(("a", "near"))}


def test_the_gap_widens_the_longer_they_wait() -> None:
    crowd = [seeker("a", 1500, waited=0), seeker("b", 1800, waited=0)]
    assert pair(crowd, NOW) == []
    later = NOW + (300 - allowed_gap(0)) / 10  # when the gap reaches 300
    assert names(pair(crowd, later)) == {frozenset("ab")}


def test_nobody_meets_themselves_or_someone_muted() -> None:
    assert pair([seeker("a", 1500), seeker("a", 1500)], NOW) == []
    muted = [seeker("a", 1500, muted=frozenset({"b"})), seeker("b", 1500)]
    assert pair(muted, NOW) == []
    assert pair(list(reversed(muted)), NOW) == []


def test_a_long_wait_brings_a_practice_offer_nearest_the_rating() -> None:
    assert practice_offer(seeker("a", 1500, waited=OFFER_AFTER - 1), NOW) is None
    assert practice_offer(seeker("a", 1300, waited=OFFER_AFTER), NOW) == "beginner"
    assert practice_offer(seeker("a", 1700, waited=60), NOW) == "normal"
    assert practice_offer(seeker("a", 2200, waited=60), NOW) == "expert"


def test_options_outside_the_menu_are_refused() -> None:
    with pytest.raises(ValueError, match="1, 3, 5 or 7"):
        Options(2, 45, True)
    with pytest.raises(ValueError, match="30, 45 or 90"):
        Options(3, 10, True)


options = st.builds(Options, st.sampled_from([1, 3]), st.sampled_from([30, 90]), st.booleans())
crowds = st.lists(
    st.builds(
        Seeker,
        st.sampled_from([f"p{i}" for i in range(12)]),
        st.floats(1000, 2000),
        options,
        st.floats(NOW - 120, NOW),
        st.frozensets(st.sampled_from([f"p{i}" for i in range(12)]), max_size=3),
    ),
    max_size=14,
)


@given(crowds)
def test_every_pair_is_allowed_and_nobody_plays_twice(crowd: list[Seeker]) -> None:
    pairs = pair(crowd, NOW)
    players = [s.player for p in pairs for s in p]
    assert len(players) == len(set(players))
    for a, b in pairs:
        assert a.player != b.player and a.options == b.options
        assert a.player not in b.muted and b.player not in a.muted
        assert abs(a.rating - b.rating) <= allowed_gap(NOW - min(a.since, b.since))


@given(crowds)
def test_nobody_left_waiting_could_have_been_paired(crowd: list[Seeker]) -> None:
    from bidak.pairing import may_meet

    pairs = pair(crowd, NOW)
    paired = {s.player for p in pairs for s in p}
    left = [s for s in crowd if s.player not in paired]
    for a in left:
        assert not any(may_meet(a, b, NOW) for b in left if b is not a)


def test_nobody_meets_a_leaver_before_their_extra_wait_is_over() -> None:
    leaver = seeker("leaver", 1500, waited=-60)  # since lies a minute ahead
    other = seeker("other", 1500, waited=300)
    assert pair([leaver, other], NOW) == []
    assert names(pair([leaver, other], NOW + 60)) == {frozenset({"leaver", "other"})}
