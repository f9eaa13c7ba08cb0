"""Bots always act legally, in every kind of match state, and seeded bots repeat themselves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bidak.engine.bots import SageBot, instant_action, make_bot, quick_bot, shared_engines
from bidak.engine.context import context_for
from bidak.engine.duel import play
from bidak.engine.levels import STYLES, Level
from bidak.engine.sage import from_board
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    MatchState,
    Move,
    Phase,
    Player,
    RejectResign,
    Roll,
    RuleSet,
    SeededDice,
    Take,
    apply,
    apply_event,
    can_double,
    check_action,
    current_plays,
    decider,
    random_match,
)
from bidak.match.simulate import Habits
from bidak.rules import Position, Variant

RULE_SETS = (
    RuleSet(length=1),
    RuleSet(length=3),
    RuleSet(length=5),
    RuleSet(length=7),
    RuleSet(length=5, cube=False),
    RuleSet(length=3, variant=Variant.NACKGAMMON),
)
HABITS = Habits(double=0.2, drop=0.3, resign=0.02, timeout=0.0, autoplay=0.0, forfeit=0.0)
ANSWERS: dict[Phase, tuple[type, ...]] = {
    Phase.ROLL: (Roll, Double),
    Phase.MOVE: (Move,),
    Phase.DOUBLED: (Take, Drop),
    Phase.RESIGN_OFFERED: (AcceptResign, RejectResign),
}


def states_of_random_matches(seed: str) -> Iterator[MatchState]:
    """Every state of random matches in which someone must decide, match after match."""
    for i in range(10_000):
        rules = RULE_SETS[i % len(RULE_SETS)]
        _, events = random_match(f"{seed}:{i}", rules, HABITS)
        state: MatchState | None = None
        for event in events:
            state = apply_event(state, event)
            if state.phase in ANSWERS and decider(state) is not None:
                yield state


def sample_states(count: int, seed: str = "bots", stride: int = 3) -> list[MatchState]:
    states = states_of_random_matches(seed)
    return [
        state for i, state in zip(range(count * stride), states, strict=False) if i % stride == 0
    ]


@pytest.fixture(scope="module")
def states() -> list[MatchState]:
    return sample_states(1200)


def kinds(state: MatchState) -> set[str]:
    """The situations a state covers, to check the sample holds all of them."""
    player = decider(state)
    assert player is not None
    found = {state.phase.value}
    if state.rules.length == 1:
        found.add("1-point")
    if not state.rules.cube:
        found.add("cube off")
    if state.crawford:
        found.add("crawford")
    if state.post_crawford:
        found.add("post-crawford")
    if state.cube_owner is player:
        found.add("owns cube")
    elif state.cube_owner is not None:
        found.add("opponent owns cube")
    return found


def assert_legal(state: MatchState, player: Player, action: Action) -> None:
    assert action.player is player
    assert isinstance(action, ANSWERS[state.phase]), (state.phase, action)
    check_action(state, action)  # raises IllegalAction / IllegalPlay
    if isinstance(action, Double):
        assert can_double(state, player)
    apply(state, action, SeededDice(1))


def test_the_sample_covers_every_situation(states: list[MatchState]) -> None:
    seen = Counter(kind for state in states for kind in kinds(state))
    for kind in (
        "roll",
        "move",
        "doubled",
        "resign_offered",
        "1-point",
        "cube off",
        "crawford",
        "post-crawford",
        "owns cube",
        "opponent owns cube",
    ):
        assert seen[kind] >= 5, (kind, seen)
    assert len(states) >= 1000


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.NORMAL])
def test_a_bot_always_acts_legally(level: Level, states: list[MatchState]) -> None:
    bot = make_bot(level, 11)
    actions = Counter()
    for state in states:
        player = decider(state)
        assert player is not None
        action = bot.decide(state, player)
        assert_legal(state, player, action)
        actions[type(action).__name__] += 1
    assert {"Move", "Roll", "Double", "Take", "Drop"} <= set(actions), actions


def test_the_expert_acts_legally(states: list[MatchState]) -> None:
    bot = make_bot(Level.EXPERT, 5)
    for state in states[::12]:
        player = decider(state)
        assert player is not None
        assert_legal(state, player, bot.decide(state, player))


def test_the_fallbacks_act_legally(states: list[MatchState]) -> None:
    quick = quick_bot()
    for state in states[::4]:
        player = decider(state)
        assert player is not None
        assert_legal(state, player, quick.decide(state, player))
        assert_legal(state, player, instant_action(state, player))


def test_a_beginner_never_plays_beyond_its_cap(states: list[MatchState]) -> None:
    style = STYLES[Level.BEGINNER]
    evaluator = shared_engines().evaluator(style.ply)
    bot = make_bot(Level.BEGINNER, 3)
    checked = 0
    worst = 0.0
    for state in states:
        if state.phase is not Phase.MOVE or len(current_plays(state)) < 2:
            continue
        assert state.dice is not None
        player = decider(state)
        assert player is not None
        ranked = evaluator.rank(state.position, state.dice, context_for(state, player))
        loss = {play.result: play.loss for play in ranked}
        for _ in range(3):
            chosen = bot.choose(state, player, random.Random(checked))
            worst = max(worst, loss[chosen.result])
            checked += 1
    assert checked > 300
    assert 0.0 < worst <= style.cap


def test_a_seeded_bot_decides_the_same(states: list[MatchState]) -> None:
    for level in Level:
        first, second = make_bot(level, "same"), make_bot(level, "same")
        for state in states[:: 40 if level is Level.EXPERT else 4]:
            player = decider(state)
            assert player is not None
            assert first.decide(state, player) == second.decide(state, player)


def test_seeded_bots_play_the_same_match() -> None:
    def match() -> tuple[MatchState, object]:
        bots = (make_bot("beginner", 1), make_bot("normal", 2))
        played = play(bots, RuleSet(length=3), SeededDice(9))
        return played.state, played.games

    assert match() == match()


def test_a_bot_refuses_to_act_out_of_turn(states: list[MatchState]) -> None:
    state = states[0]
    player = decider(state)
    assert player is not None
    with pytest.raises(Exception, match="nothing to decide"):
        make_bot("normal", 1).decide(state, player.opponent)


# -- the cube and resignations in positions whose answer is known -----------------------------

# The player on roll is far ahead. At 3-away 5-away the 1-ply engine calls it a double and a
# pass, the 2-ply one a double and a take, the 3-ply one (the Expert's cube depth) a narrow no
# double (0.754 against 0.747) and a take.
STRONG = from_board(
    [2, -2, 0, 0, 2, 2, 3, 2, 2, 2, 0, 0, -3, 0, 0, 0, 0, -2, 0, -3, -2, 0, 0, 0, 2, 0]
)
ZERO, ONE = Player.ZERO, Player.ONE


def strong(phase: Phase, **changes: object) -> MatchState:
    base = MatchState(RuleSet(length=7), STRONG, score=(4, 2), game=3, phase=phase, turn=ZERO)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_strong_position_is_doubled_and_answered_as_the_engine_says() -> None:
    expert, quick = make_bot(Level.EXPERT, 1), quick_bot()
    assert expert.decide(strong(Phase.ROLL), ZERO) == Roll(ZERO)
    assert expert.decide(strong(Phase.DOUBLED), ONE) == Take(ONE)
    assert quick.decide(strong(Phase.ROLL), ZERO) == Double(ZERO)
    assert quick.decide(strong(Phase.DOUBLED), ONE) == Drop(ONE)


def test_a_beginner_doubles_late_and_takes_too_much() -> None:
    """Over many seeds, a Beginner doubles the strong position less often than not, and takes
    the 1-ply pass more often than not (its engine is 1-ply: the pass is narrow)."""
    doubles = takes = 0
    for seed in range(200):
        bot = make_bot(Level.BEGINNER, seed)
        doubles += bot.decide(strong(Phase.ROLL), ZERO) == Double(ZERO)
        takes += bot.decide(strong(Phase.DOUBLED), ONE) == Take(ONE)
    assert doubles < 100 < takes


@pytest.mark.parametrize(
    "changes",
    [
        {"crawford": True, "score": (4, 6)},
        {"cube": 2, "cube_owner": ONE},
        {"rules": RuleSet(length=7, cube=False)},
        {"rules": RuleSet(length=1), "score": (0, 0), "game": 1},
    ],
    ids=["crawford", "opponent owns the cube", "cube off", "1-point match"],
)
@pytest.mark.parametrize("level", list(Level))
def test_no_bot_doubles_when_it_may_not(level: Level, changes: dict[str, object]) -> None:
    state = strong(Phase.ROLL, **changes)
    assert make_bot(level, 1).decide(state, ZERO) == Roll(ZERO)


def test_a_bot_owning_the_cube_redoubles_a_strong_position() -> None:
    state = strong(Phase.ROLL, cube=2, cube_owner=ZERO, score=(2, 2))
    assert can_double(state, ZERO)
    assert make_bot(Level.EXPERT, 1).decide(state, ZERO) == Double(ZERO)


@pytest.mark.parametrize("level", list(Level))
def test_resignations_are_judged_by_what_playing_on_is_worth(level: Level) -> None:
    bot = make_bot(level, 1)

    # ONE, far behind in STRONG with gammon chances against them, offers to resign.
    def offer(resign_stakes: int, *, dice: tuple[int, int] | None = None) -> MatchState:
        phase = Phase.RESIGN_OFFERED
        return strong(phase, resigner=ONE, resign_stakes=resign_stakes, dice=dice, score=(0, 0))

    # A backgammon is the most a game can give: always accepted.
    assert bot.decide(offer(3), ZERO) == AcceptResign(ZERO)
    assert bot.decide(offer(3, dice=(6, 6)), ZERO) == AcceptResign(ZERO)
    # The strong side, about to win, accepts a single game only if gammons are rare.
    single = bot.decide(offer(1), ZERO)
    assert isinstance(single, AcceptResign | RejectResign)
    # The side that is far behind accepts any resignation it is offered.
    behind = strong(Phase.RESIGN_OFFERED, resigner=ZERO, resign_stakes=1, score=(0, 0))
    assert bot.decide(behind, ONE) == AcceptResign(ONE)


def test_a_gammonish_single_resignation_is_rejected() -> None:
    # ZERO is bearing off; ONE has all 15 checkers in its outer board: a near-certain gammon,
    # and no backgammon (none of ONE's checkers can stay in ZERO's home board).
    position = Position.from_counts({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {13: 5, 14: 5, 15: 5})
    state = MatchState(
        RuleSet(length=7),
        position,
        phase=Phase.RESIGN_OFFERED,
        turn=ZERO,
        resigner=ONE,
        resign_stakes=1,
        game=1,
    )
    bot = make_bot(Level.EXPERT, 1)
    assert bot.decide(state, ZERO) == RejectResign(ZERO)
    assert bot.decide(replace(state, resign_stakes=2), ZERO) == AcceptResign(ZERO)


def test_a_bot_is_shared_between_threads_safely(states: list[MatchState]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    bot = SageBot(Level.NORMAL, random.Random(4))
    work = [(state, decider(state)) for state in states[:200]]
    with ThreadPoolExecutor(4) as pool:
        actions = list(pool.map(lambda item: bot.decide(*item), work))  # type: ignore[arg-type]
    for (state, player), action in zip(work, actions, strict=True):
        assert player is not None
        assert_legal(state, player, action)
