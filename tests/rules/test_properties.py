"""Invariants of the rules over random positions and random games (hypothesis)."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from bidak.rules import BAR, CHECKERS, Position, legal_plays
from tests.rules.strategies import dice, positions, random_game_positions


def _naive_step(position: Position, start: int, die: int) -> Position | None:
    """The position after moving one checker from ``start`` by ``die``, or None if illegal.

    A deliberately plain reading of rules.md 3-5, sharing no code with bidak.rules.plays.
    """
    points = list(position.points)
    bar_me, bar_them = position.bar
    if bar_me and start != BAR:
        return None
    if start == BAR:
        if not bar_me:
            return None
        bar_me -= 1
    else:
        if points[start - 1] <= 0:
            return None
        points[start - 1] -= 1
    end = start - die
    if end >= 1:
        if points[end - 1] < -1:
            return None
        if points[end - 1] == -1:
            points[end - 1] = 0
            bar_them += 1
        points[end - 1] += 1
    else:
        if bar_me or any(n > 0 for n in position.points[6:]) or position.bar.mover:
            return None
        if end < 0 and any(n > 0 for n in position.points[start:6]):
            return None
    return Position(tuple(points), (bar_me, bar_them))


def _naive_results(position: Position, roll: tuple[int, int]) -> set[Position]:
    """Every result of the longest sequences, with the larger-die rule, by brute force."""
    orders = [roll * 2] if roll[0] == roll[1] else list(permutations(roll))
    finals: dict[Position, tuple[int, ...]] = {}

    def walk(current: Position, remaining: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if remaining:
            for start in [BAR, *range(24, 0, -1)]:
                after = _naive_step(current, start, remaining[0])
                if after is not None:
                    moved = True
                    walk(after, remaining[1:], (*used, remaining[0]))
        if not moved:
            previous = finals.get(current)
            if previous is None or len(used) > len(previous):
                finals[current] = used

    for order in orders:
        walk(position, tuple(order), ())
    most = max(len(used) for used in finals.values())
    best = {pos: used for pos, used in finals.items() if len(used) == most}
    if most == 1 and roll[0] != roll[1]:
        larger = {pos for pos, used in best.items() if used[0] == max(roll)}
        if larger:
            return larger
    return set(best)


@settings(max_examples=400, deadline=None)
@given(positions(), dice)
def test_legal_plays_match_a_brute_force_reading_of_the_rules(
    position: Position, roll: tuple[int, int]
) -> None:
    plays = legal_plays(position, roll)
    results = [play.result for play in plays]
    assert len(results) == len(set(results)), "plays are distinct by result"
    assert set(results) == _naive_results(position, roll)


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_play_uses_the_maximum_number_of_dice(
    position: Position, roll: tuple[int, int]
) -> None:
    plays = legal_plays(position, roll)
    assert len({len(play.steps) for play in plays}) == 1
    assert all(len(play.steps) <= (4 if roll[0] == roll[1] else 2) for play in plays)


@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_pips_fall_by_the_distance_travelled(
    position: Position, roll: tuple[int, int]
) -> None:
    before = position.pips
    for play in legal_plays(position, roll):
        after = play.result
        # The validating constructor refuses more than 15 checkers a side or a shared point.
        assert Position(after.points, after.bar) == after
        borne_off = sum(1 for step in play.steps if step.end == 0)
        assert after.off.mover - position.off.mover == borne_off
        assert after.off.opponent == position.off.opponent
        travelled = sum(step.start - step.end for step in play.steps)
        assert before.mover - after.pips.mover == travelled
        sent_back = sum(step.end for step in play.steps if step.hit)
        assert after.pips.opponent - before.opponent == sent_back
        assert all(step.end != BAR for step in play.steps)


@given(positions())
def test_flipping_twice_is_identity_and_swaps_the_sides(position: Position) -> None:
    flipped = position.flipped()
    assert flipped.flipped() == position
    assert flipped.pips == position.pips.swapped()
    assert flipped.off == position.off.swapped()


@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    assert Position.from_position_id(position.position_id) == position


@given(positions())
def test_diagram_round_trip(position: Position) -> None:
    from bidak.rules import parse_diagram

    assert parse_diagram(str(position)) == position


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_stay_valid_and_end_with_fifteen_off(seed: int) -> None:
    turns = random_game_positions(seed)
    for position, _ in turns:
        # The validating constructor refuses more than 15 checkers a side or a shared point.
        assert Position(position.points, position.bar) == position
        assert min(position.off) >= 0
    last, roll = turns[-1]
    finals = [play.result for play in legal_plays(last, roll)]
    assert any(result.off.mover == CHECKERS for result in finals)


@settings(max_examples=200, deadline=None)
@given(positions(), dice)
def test_step_alternatives_are_every_way_to_each_legal_result(
    position: Position, roll: tuple[int, int]
) -> None:
    from bidak.rules import find_play, step_alternatives

    plays = legal_plays(position, roll)
    alternatives = step_alternatives(position, roll)
    assert set(alternatives) == {play.result for play in plays}
    for play in plays:
        ways = alternatives[play.result]
        canonical = tuple(sorted(play.steps, key=lambda s: (-s.start, -s.end)))
        assert canonical in ways
        for way in ways:
            assert find_play(position, roll, [(s.start, s.end) for s in way]).result == play.result
