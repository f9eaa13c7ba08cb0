"""The table a client receives: drawn for its seat, with every way to play each legal play."""

from __future__ import annotations

from dataclasses import replace

from bidak.match import MatchState, Phase, Player, RuleSet, new_match
from bidak.server.play.protocol import match_view


def _moving(dice: tuple[int, int]) -> MatchState:
    return replace(new_match(RuleSet(length=3)), phase=Phase.MOVE, turn=Player.ZERO, dice=dice)


def test_the_mover_gets_every_way_to_reach_each_play() -> None:
    table = match_view(_moving((6, 5)), Player.ZERO)
    by_notation = {play["notation"]: play for play in table["legal_plays"]}
    run = by_notation["13/2"]
    ways = {tuple(tuple(step[:2]) for step in way) for way in run["alternatives"]}
    assert ways == {((13, 8), (8, 2)), ((13, 7), (7, 2))}
    assert "alternatives" not in by_notation["24/13"], "19 is blocked: one way only"
    assert table["allowed"] == sorted(table["allowed"]) and "play" in table["allowed"]


def test_the_opponent_and_spectators_get_no_plays() -> None:
    state = _moving((6, 5))
    assert match_view(state, Player.ONE)["legal_plays"] == []
    watcher = match_view(state, None)
    assert watcher["legal_plays"] == [] and watcher["allowed"] == []
