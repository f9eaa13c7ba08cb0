"""The event log is the match: replay rebuilds it, and a log that does not fit is refused."""

from __future__ import annotations

import pytest

from bidak.errors import BidakError
from bidak.match import (
    DiceRolled,
    Event,
    GameEnd,
    GameStarted,
    GameWon,
    InvalidMatchData,
    MatchStarted,
    OpeningRolled,
    Played,
    Player,
    RuleSet,
    apply_event,
    random_match,
    replay,
    start_match,
)

ZERO, ONE = Player.ZERO, Player.ONE
RULES = RuleSet(length=3)
START: tuple[Event, ...] = (MatchStarted(RULES), GameStarted(1, (0, 0), crawford=False))
OPENED = (*START, OpeningRolled((3, 1), ZERO))


def test_every_prefix_of_a_log_replays() -> None:
    _, events = random_match(21, RULES)
    for cut in range(1, len(events), 17):
        assert replay(events[:cut]).version == cut
    assert replay(START) == start_match(RULES).state


@pytest.mark.parametrize(
    "log",
    [
        (),
        (GameStarted(1, (0, 0), crawford=False),),
        (*START, MatchStarted(RULES)),
        (*START, DiceRolled(ZERO, (3, 1))),
        (*START, GameStarted(2, (0, 0), crawford=False)),
        (*START, OpeningRolled((3, 1), ONE)),  # the higher die starts
        (*START, OpeningRolled((3, 3), ZERO)),  # a tie is thrown again
        (*OPENED, Played(ONE, (3, 1), ((8, 5, False), (6, 5, False)), "8/5 6/5")),
        (*OPENED, Played(ZERO, (6, 5), ((8, 2, False), (6, 1, False)), "8/2 6/1")),
        (*OPENED, Played(ZERO, (3, 1), ((8, 2, False),), "8/2")),
        (*OPENED, GameWon(ZERO, 1, GameEnd.SINGLE, (1, 0))),
    ],
)
def test_a_log_that_does_not_fit_is_refused(log: tuple[Event, ...]) -> None:
    with pytest.raises(BidakError):
        replay(log)


def test_a_wrong_crawford_flag_is_refused() -> None:
    _, events = random_match(4, RuleSet(length=3))
    for index, event in enumerate(events):
        if isinstance(event, GameStarted) and event.game > 1:
            wrong = GameStarted(event.game, event.score, crawford=not event.crawford)
            with pytest.raises(InvalidMatchData, match="Crawford"):
                replay((*events[:index], wrong))


def test_a_log_continues_only_from_match_started() -> None:
    with pytest.raises(InvalidMatchData, match="starts with match_started"):
        apply_event(None, DiceRolled(ZERO, (1, 2)))
