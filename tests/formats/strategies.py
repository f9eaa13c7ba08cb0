"""Hypothesis strategies and seeded random matches for the formats tests."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bidak.formats import (
    CubeOffer,
    GameState,
    MatAction,
    MatchInfo,
    MatDouble,
    MatDrop,
    MatGame,
    MatMove,
    MatRecord,
    MatTake,
    MatWin,
    Xgid,
)
from bidak.formats.mat_records import is_crawford_score
from bidak.formats.matchid import MAX_CUBE_LOG, MAX_FIELD
from bidak.rules import Position, Sides, Variant, legal_plays, outcome

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any valid position: 0-15 checkers a side on the board or the bar (the rest borne off)."""
    board = [0] * 24
    bars = [0, 0]
    for side, sign in ((0, 1), (1, -1)):
        for _ in range(draw(st.integers(0, 15))):
            if draw(st.integers(0, 12)) == 0:
                bars[side] += 1
                continue
            index = draw(st.integers(0, 23))
            if board[index] * sign >= 0:
                board[index] += sign
    if not any(board) and not any(bars):
        board[0] = 1  # both sides cannot have borne everything off
    return Position(tuple(board), Sides(bars[0], bars[1]))


@st.composite
def match_infos(draw: st.DrawFn, *, playing_only: bool = False) -> MatchInfo:
    """Any Match ID state gnubg could write (see MatchInfo's checks)."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, MAX_FIELD)))
    state = GameState.PLAYING if playing_only else draw(st.sampled_from(GameState))
    finished = state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
    if length:
        below = st.integers(0, length - 1)
        score = [draw(below), draw(below)]
        if finished and draw(st.booleans()):
            score[draw(st.integers(0, 1))] = draw(st.integers(length, MAX_FIELD))
    else:
        score = [draw(st.integers(0, MAX_FIELD)), draw(st.integers(0, MAX_FIELD))]
    crawford = bool(length) and draw(st.booleans())
    on_roll = draw(st.integers(0, 1))
    cube_log = 0 if crawford else draw(st.integers(0, MAX_CUBE_LOG))
    owner = None if crawford or cube_log == 0 else draw(st.sampled_from([None, 0, 1]))
    rolled = draw(st.one_of(st.none(), dice))
    turn, doubled, resign = on_roll, False, 0
    if state is GameState.PLAYING:
        pending = draw(st.sampled_from(["none", "double", "resign", "both"]))
        if pending in ("double", "both") and not crawford:
            doubled, rolled, turn = True, None, 1 - on_roll
            if owner == 1 - on_roll:
                owner = on_roll
        if pending in ("resign", "both"):
            # The player to act resigns; with a double pending that is the doubled player.
            resign, turn = draw(st.integers(1, 3)), 1 - turn
    else:
        turn = draw(st.integers(0, 1))
        doubled = not crawford and draw(st.booleans())
        resign = draw(st.integers(0, 3))
    return MatchInfo(
        cube_value=1 << cube_log,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=state,
        turn=turn,
        double_offered=doubled,
        resign_stakes=resign,
        dice=rolled,
        length=length,
        score=(score[0], score[1]),
        jacoby=draw(st.booleans()),
    )


@st.composite
def xgids(draw: st.DrawFn) -> Xgid:
    """Any XGID of a game being played."""
    length = draw(st.one_of(st.just(0), st.integers(1, 25)))
    turn = draw(st.sampled_from([1, -1]))
    crawford = bool(length) and draw(st.booleans())
    beaver = not length and draw(st.booleans())
    cube_log = 0 if crawford else draw(st.integers(0, 12))
    owner = 0 if crawford or cube_log == 0 else draw(st.sampled_from([-1, 0, 1]))
    actions = [CubeOffer.NONE]
    if not crawford and owner != -turn:
        actions.append(CubeOffer.DOUBLED)
    if beaver and owner != -turn:
        actions += [CubeOffer.BEAVERED, CubeOffer.RACCOONED]
    action = draw(st.sampled_from(actions))
    scores = st.integers(0, length - 1) if length else st.integers(0, 500)
    return Xgid(
        position=draw(positions()),
        cube_value=1 << cube_log,
        cube_owner=owner,
        turn=turn,
        dice=draw(st.one_of(st.none(), dice)) if action is CubeOffer.NONE else None,
        cube_offer=action,
        bottom_score=draw(scores),
        top_score=draw(scores),
        crawford=crawford,
        jacoby=not length and draw(st.booleans()),
        beaver=beaver,
        length=length,
        max_cube_log=draw(st.integers(0, 15)),
    )


# -- random matches -------------------------------------------------------------------------------


def random_record(
    seed: int, length: int, variant: Variant = Variant.STANDARD, money_games: int = 2
) -> MatRecord:
    """A whole match (or money session) of random legal plays and occasional cube actions.

    Uses ``random.Random(seed)`` for the dice and every choice. Money sessions have
    ``money_games`` games and random Jacoby and beaver settings; the last game is sometimes left
    unfinished.
    """
    rng = random.Random(seed)
    metadata = {"Site": f"seed {seed}", "EventDate": "2024.01.15"}
    jacoby: bool | None = None
    beavers = True
    if length == 0:
        jacoby = rng.choice([True, False, None])
        if jacoby is not None:
            metadata["Jacoby"] = "On" if jacoby else "Off"
        beavers = rng.random() < 0.7
        metadata["Beaver"] = "On" if beavers else "Off"
    score = [0, 0]
    games: list[MatGame] = []
    crawford_seen = False
    number = 0
    while (length and max(score) < length) or (not length and number < money_games):
        number += 1
        crawford = not crawford_seen and is_crawford_score(length, (score[0], score[1]))
        crawford_seen = crawford_seen or crawford
        unfinished = rng.random() < 0.2
        actions = _random_game(rng, length, variant, crawford, jacoby, beavers, unfinished)
        game = MatGame(number, (score[0], score[1]), tuple(actions))
        games.append(game)
        if game.winner is None:
            break
        score[game.winner] += game.points
    return MatRecord(length, ("Alice Smith", "Bob"), metadata, variant, tuple(games))


def _random_game(
    rng: random.Random,
    length: int,
    variant: Variant,
    crawford: bool,
    jacoby: bool | None,
    beavers: bool,
    unfinished: bool,
) -> list[MatAction]:
    actions: list[MatAction] = []
    position = Position.initial(variant)
    first, second = rng.sample(range(1, 7), 2)
    on_roll = rng.randint(0, 1)
    roll: tuple[int, int] = (first, second)
    cube, owner = 1, None
    while True:
        if unfinished and rng.random() < 0.02:
            return actions
        may_double = actions and length != 1 and not crawford and owner in (None, on_roll)
        if may_double and cube < 64 and rng.random() < 0.03:
            cube, owner, dropped = _random_cube(rng, actions, on_roll, cube, length, beavers)
            if dropped is not None:
                actions.append(MatWin(dropped, cube))
                return actions
        if rng.random() < 0.004:
            actions.append(MatWin(rng.randint(0, 1), cube * rng.randint(1, 3)))
            return actions
        if actions:
            roll = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(legal_plays(position, roll))
        actions.append(MatMove(on_roll, roll, play.steps))
        finished = outcome(play.result)
        if finished is not None:
            points = cube * int(finished.kind)
            if length == 0 and jacoby and cube == 1:
                points = 1
            actions.append(MatWin(on_roll, points))
            return actions
        position = play.result.flipped()
        on_roll = 1 - on_roll


def _random_cube(
    rng: random.Random,
    actions: list[MatAction],
    doubler: int,
    cube: int,
    length: int,
    beavers: bool,
) -> tuple[int, int | None, int | None]:
    """Append a double and its answer; returns (cube, owner, winner if dropped)."""
    taker = 1 - doubler
    actions.append(MatDouble(doubler, cube * 2))
    if length == 0 and beavers and rng.random() < 0.3:
        actions.append(MatDouble(taker, cube * 4))
        if rng.random() < 0.3:
            actions.append(MatDouble(doubler, cube * 8))
            actions.append(MatTake(taker))
            return cube * 8, doubler, None
        answer = rng.random()
        if answer < 0.2:
            actions.append(MatDrop(doubler))
            return cube * 2, None, taker
        if answer < 0.6:
            actions.append(MatTake(doubler))
        return cube * 4, taker, None  # otherwise the roll takes it implicitly (gnubg)
    if rng.random() < 0.3:
        actions.append(MatDrop(taker))
        return cube, None, doubler
    actions.append(MatTake(taker))
    return cube * 2, taker, None
