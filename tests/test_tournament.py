"""Tournaments' pure rules: arena pairing and scoring, knockout seeding, byes and forfeits."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bidak.tournament import (
    ArenaEntrant,
    advance,
    arena_pairs,
    bracket_size,
    forfeit_absent,
    length_of_round,
    new_bracket,
    places,
    points_for_win,
    record_result,
    seed_order,
    standings,
)
from bidak.tournament.knockout import from_json, to_json


def names(pairs: list[tuple[ArenaEntrant, ArenaEntrant]]) -> set[frozenset[str]]:
    return {frozenset((a.player, b.player)) for a, b in pairs}


# -- arena: scoring --------------------------------------------------------------------------


def test_a_win_scores_two_and_doubles_after_two_wins_in_a_row() -> None:
    assert [points_for_win(streak) for streak in range(5)] == [2, 2, 4, 4, 4]
    a, b = ArenaEntrant("a", 1500), ArenaEntrant("b", 1500)
    scores = []
    for _ in range(4):
        a, b = record_result(a, b)
        scores.append(a.score)
    assert scores == [2, 4, 8, 12]
    assert (a.streak, a.wins, a.played, b.score, b.played) == (4, 4, 4, 0, 4)


def test_a_loss_scores_nothing_and_ends_the_streak() -> None:
    a, b = ArenaEntrant("a", 1500, score=8, streak=3), ArenaEntrant("b", 1500)
    b, a = record_result(b, a)
    assert (a.score, a.streak) == (8, 0)
    a, b = record_result(a, b)
    assert a.score == 10  # 2 again: the streak starts over


# -- arena: pairing ----------------------------------------------------------------------------


def test_the_free_are_paired_by_nearest_score_then_rating() -> None:
    players = [
        ArenaEntrant("top", 1500, score=10),
        ArenaEntrant("near", 1400, score=8),
        ArenaEntrant("low-rated", 1200, score=0),
        ArenaEntrant("high-rated", 1900, score=0),
        ArenaEntrant("mid", 1850, score=0),
        ArenaEntrant("bottom", 1000, score=0),
    ]
    assert names(arena_pairs(players)) == {
        frozenset({"top", "near"}),
        frozenset({"high-rated", "mid"}),
        frozenset({"low-rated", "bottom"}),
    }


def test_never_the_same_opponent_twice_in_a_row() -> None:
    a = ArenaEntrant("a", 1500, last_opponent="b")
    b = ArenaEntrant("b", 1500, last_opponent="a")
    assert arena_pairs([a, b]) == []  # they wait for somebody else
    c = ArenaEntrant("c", 1000)
    assert names(arena_pairs([a, b, c])) == {frozenset("ac")}


def test_the_paused_and_the_playing_are_not_paired() -> None:
    players = [
        ArenaEntrant("a", 1500, paused=True),
        ArenaEntrant("b", 1500, playing=True),
        ArenaEntrant("c", 1500),
        ArenaEntrant("d", 1500),
    ]
    assert names(arena_pairs(players)) == {frozenset("cd")}
    back = [replace(players[0], paused=False), *players[1:]]
    assert names(arena_pairs(back)) == {frozenset("ac")}  # a came back; d waits (ties: by id)


def test_standings_rank_by_score_then_wins() -> None:
    table = standings(
        [
            ArenaEntrant("a", 1500, score=4, wins=2),
            ArenaEntrant("b", 1700, score=6, wins=2),
            ArenaEntrant("c", 1400, score=4, wins=2),
            ArenaEntrant("d", 1400, score=4, wins=1),
        ]
    )
    assert [(s.rank, s.player) for s in table] == [(1, "b"), (2, "a"), (2, "c"), (4, "d")]


entrants = st.lists(
    st.builds(
        ArenaEntrant,
        player=st.sampled_from([f"p{i}" for i in range(30)]),
        rating=st.floats(1000, 2200),
        score=st.integers(0, 40),
        streak=st.integers(0, 5),
        last_opponent=st.none() | st.sampled_from([f"p{i}" for i in range(30)]),
        playing=st.booleans(),
        paused=st.booleans(),
    ),
    unique_by=lambda e: e.player,
    max_size=30,
)


@given(entrants)
def test_nobody_is_paired_twice_at_once_nor_out_of_the_rules(players: list[ArenaEntrant]) -> None:
    pairs = arena_pairs(players)
    seen = [p.player for pair in pairs for p in pair]
    assert len(seen) == len(set(seen))
    for a, b in pairs:
        assert a.free and b.free and a.player != b.player
        assert a.last_opponent != b.player and b.last_opponent != a.player
    # Maximal: no two left over could have met.
    left = [p for p in players if p.free and p.player not in seen]
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            assert a.last_opponent == b.player or b.last_opponent == a.player


@settings(deadline=None)  # a shared machine: no per-example time limit
@given(st.integers(2, 40), st.randoms(use_true_random=False))
def test_an_arena_played_out_accounts_for_every_match(count: int, rng: random.Random) -> None:
    """Pair, finish some matches at random, pair again: the points in the table are exactly the
    points of the wins recorded, and nobody is ever in two matches at once."""
    players = {f"p{i}": ArenaEntrant(f"p{i}", rng.uniform(1200, 2000)) for i in range(count)}
    playing: list[tuple[str, str]] = []
    finished = 0
    for _ in range(30):
        for a, b in arena_pairs(players.values()):
            assert not (players[a.player].playing or players[b.player].playing)
            players[a.player] = replace(a, playing=True)
            players[b.player] = replace(b, playing=True)
            playing.append((a.player, b.player))
        busy = [p for pair in playing for p in pair]
        assert len(busy) == len(set(busy))
        rng.shuffle(playing)
        for one, two in playing[: rng.randint(0, len(playing))]:
            winner, loser = (one, two) if rng.random() < 0.5 else (two, one)
            players[winner], players[loser] = record_result(players[winner], players[loser])
            playing.remove((one, two))
            finished += 1
    assert sum(p.played for p in players.values()) == 2 * finished
    assert sum(p.wins for p in players.values()) == finished
    assert all(p.score >= 2 * p.wins for p in players.values())
    assert sum(p.playing for p in players.values()) == 2 * len(playing)


# -- knockout ------------------------------------------------------------------------------------


def test_seeds_are_placed_so_the_best_meet_last() -> None:
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(seed_order(64)) == list(range(1, 65))


def test_bracket_sizes() -> None:
    assert [bracket_size(n) for n in (4, 5, 8, 9, 33, 64)] == [4, 8, 8, 16, 64, 64]
    for wrong in (3, 65):
        with pytest.raises(ValueError):
            bracket_size(wrong)


def test_seeding_is_by_rating_and_byes_go_to_the_best_seeds() -> None:
    ratings = {"a": 1900, "b": 1800, "c": 1700, "d": 1600, "e": 1500, "f": 1400}
    bracket = new_bracket(ratings)
    assert bracket.seeds == ("a", "b", "c", "d", "e", "f")
    first = bracket.rounds[0]
    assert [(s.a, s.b, s.how) for s in first] == [
        ("a", None, "bye"),
        ("d", "e", None),
        ("b", None, "bye"),
        ("c", "f", None),
    ]
    # The seeds with byes already wait in round 2.
    assert [(s.a, s.b) for s in bracket.rounds[1]] == [("a", None), ("b", None)]
    assert [(r, i) for r, i, _ in bracket.playable()] == [(0, 1), (0, 3)]


def test_a_bracket_is_played_to_its_champion() -> None:
    bracket = new_bracket({f"p{i}": 2000 - i for i in range(8)})
    while (number := bracket.current_round) is not None:
        for _, index, slot in bracket.playable():
            assert slot.a is not None and slot.b is not None
            worse = max(slot.a, slot.b, key=bracket.seed_of)  # the worse seed always wins
            bracket = advance(bracket, number, index, worse)
    assert bracket.champion == "p7"
    assert [len(r) for r in bracket.rounds] == [4, 2, 1]
    assert all(s.how == "played" for r in bracket.rounds for s in r)
    assert from_json(to_json(bracket)) == bracket
    assert places(bracket) == {"p7": 1, "p6": 2, "p4": 3, "p5": 3} | {f"p{i}": 5 for i in range(4)}


def test_a_winner_must_be_in_the_match_of_the_current_round() -> None:
    bracket = new_bracket({"a": 4, "b": 3, "c": 2, "d": 1})
    with pytest.raises(ValueError):
        advance(bracket, 0, 0, "b")
    with pytest.raises(ValueError):
        advance(bracket, 1, 0, "a")


def test_at_the_deadline_the_absent_forfeit() -> None:
    bracket = new_bracket({f"p{i}": 2000 - i for i in range(8)})
    # Matches: p0-p7, p3-p4, p1-p6, p2-p5. p7 never came; p3 and p4 play; p1 and p6 neither
    # came; p5 came.
    bracket = forfeit_absent(bracket, present={"p0", "p3", "p4", "p5"}, started={1})
    first = bracket.rounds[0]
    assert (first[0].winner, first[0].how) == ("p0", "forfeit")
    assert first[1].winner is None  # in play: its clocks decide
    assert (first[2].winner, first[2].how) == ("p1", "forfeit")  # neither: the better seed
    assert (first[3].winner, first[3].how) == ("p5", "forfeit")
    assert bracket.current_round == 0
    bracket = advance(bracket, 0, 1, "p4")
    assert bracket.current_round == 1
    assert [(s.a, s.b) for s in bracket.rounds[1]] == [("p0", "p4"), ("p1", "p5")]


def test_a_banned_player_never_wins_a_match_by_forfeit() -> None:
    bracket = new_bracket({f"p{i}": 2000 - i for i in range(8)})
    # p1 (the better seed) is banned after the draw: neither p1 nor p6 came, p6 goes on; p2 was
    # banned though they came, and p5 goes on all the same.
    bracket = forfeit_absent(
        bracket, present={"p0", "p7", "p2", "p3", "p4"}, started=(), barred={"p1", "p2"}
    )
    first = bracket.rounds[0]
    assert (first[2].winner, first[2].how) == ("p6", "forfeit")
    assert (first[3].winner, first[3].how) == ("p5", "forfeit")
    assert first[0].winner == "p0" and first[1].winner == "p3"  # both came: the better seed


def test_length_per_round() -> None:
    assert [length_of_round((5,), r) for r in range(3)] == [5, 5, 5]
    assert [length_of_round((3, 5, 7), r) for r in range(5)] == [3, 5, 7, 7, 7]


@settings(deadline=None)
@given(
    st.dictionaries(
        st.text("abcdefghij", min_size=1, max_size=4),
        st.floats(1000, 2200),
        min_size=4,
        max_size=64,
    ),
    st.randoms(use_true_random=False),
)
def test_every_bracket_match_is_accounted_for(
    ratings: dict[str, float], rng: random.Random
) -> None:
    """Played out with random results and forfeits: each player is in at most one match at a
    time, every player but the champion loses exactly once (or never played, by a bye to the
    end is impossible), and the bracket has exactly players - 1 decided matches with two
    players."""
    bracket = new_bracket(ratings)
    while (number := bracket.current_round) is not None:
        playable = bracket.playable()
        busy = [p for _, _, s in playable for p in (s.a, s.b)]
        assert len(busy) == len(set(busy))
        if rng.random() < 0.2:
            present = {p for p in ratings if rng.random() < 0.5}
            bracket = forfeit_absent(bracket, present, started=set())
            continue
        for _, index, slot in playable:
            assert slot.a is not None and slot.b is not None
            bracket = advance(bracket, number, index, rng.choice((slot.a, slot.b)))
    decided = [s for r in bracket.rounds for s in r if s.how in ("played", "forfeit")]
    assert len(decided) == len(ratings) - 1
    losers = [s.loser for s in decided]
    assert len(losers) == len(set(losers))
    assert set(losers) | {bracket.champion} == set(ratings)
    # Everyone has a place; one champion, one runner-up, and a place shared by n losers is
    # n + 1 (they are the n losers of a round of n matches).
    placed = places(bracket)
    assert set(placed) == set(ratings)
    counts = {place: list(placed.values()).count(place) for place in set(placed.values())}
    assert counts[1] == 1
    if len(ratings) >= 2:
        assert counts[2] == 1
    for place, count in counts.items():
        if place > 2:
            assert count <= place - 1
