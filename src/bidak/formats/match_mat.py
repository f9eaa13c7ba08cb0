"""Between Bidak matches (event logs) and ``.mat`` records.

``Player.ZERO`` is gnubg's player 0, the left column of the file. A ``.mat`` file keeps the plays,
the cube actions and the results; it has no opening roll of its own (the starter's first play
shows both dice), no resignation offers that were refused, no timeouts and no forfeits. Reading
a record back therefore rebuilds a Bidak match that has the same games, plays, cube actions and
scores, with the opening dice inferred from the starter's first roll (the higher die starts).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bidak.errors import BidakError, InvalidMatchFile
from bidak.formats.mat_records import (
    MatAction,
    MatDouble,
    MatDrop,
    MatGame,
    MatMove,
    MatRecord,
    MatTake,
    MatWin,
)
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Doubled,
    Drop,
    Dropped,
    Event,
    GameStarted,
    GameWon,
    MatchStarted,
    MatchState,
    Move,
    OpeningRoll,
    OpeningRule,
    Phase,
    Played,
    Player,
    ResignGame,
    Roll,
    RuleSet,
    ScriptedDice,
    Take,
    Taken,
    apply,
    start_match,
)
from bidak.rules import Step


def match_to_mat(
    events: Iterable[Event],
    players: tuple[str, str] = ("Player 0", "Player 1"),
    metadata: dict[str, str] | None = None,
) -> MatRecord:
    """The ``.mat`` record of a match's event log (a match in progress gives an unfinished game)."""
    rules: RuleSet | None = None
    games: list[MatGame] = []
    actions: list[MatAction] = []
    number, score = 0, (0, 0)

    def close() -> None:
        if number:
            games.append(MatGame(number, score, tuple(actions)))

    for event in events:
        if isinstance(event, MatchStarted):
            rules = event.rules
        elif isinstance(event, GameStarted):
            close()
            number, score, actions = event.game, event.score, []
        elif isinstance(event, Played):
            steps = tuple(Step(start, end, hit) for start, end, hit in event.steps)
            actions.append(MatMove(int(event.player), event.dice, steps))
        elif isinstance(event, Doubled):
            actions.append(MatDouble(int(event.player), event.value))
        elif isinstance(event, Taken):
            actions.append(MatTake(int(event.player)))
        elif isinstance(event, Dropped):
            actions.append(MatDrop(int(event.player)))
        elif isinstance(event, GameWon):
            actions.append(MatWin(int(event.winner), event.points))
    close()
    if rules is None:
        raise InvalidMatchFile("an event log starts with MatchStarted")
    meta = {"Variation": "NackGammon"} if rules.variant.value == "nackgammon" else {}
    meta.update(metadata or {})
    return MatRecord(rules.length, players, meta, rules.variant, tuple(games))


def mat_to_match(record: MatRecord, cube: bool = True) -> tuple[MatchState, list[Event]]:
    """Replay a ``.mat`` record as a Bidak match; the final state and the whole event log.

    Raises :class:`InvalidMatchFile` when the record cannot be a Bidak match (a money session,
    an opening double, beavers) or an action is refused by the match rules.
    """
    if not 1 <= record.length <= 25:
        raise InvalidMatchFile(
            f"Bidak plays matches of 1 to 25 points; this record is {record.length or 'money'}"
        )
    rules = RuleSet(
        length=record.length,
        cube=cube,
        variant=record.variant,
        opening=OpeningRule.HIGHER_STARTS,
    )
    state, first = start_match(rules)
    log: list[Event] = list(first)
    for game in record.games:
        state = _replay_game(state, game, log)
        if state.phase is Phase.MATCH_OVER:
            break
    return state, log


def _replay_game(state: MatchState, game: MatGame, log: list[Event]) -> MatchState:
    def act(action: Action, dice: Sequence[int] = ()) -> MatchState:
        try:
            transition = apply(state, action, ScriptedDice(list(dice)))
        except BidakError as error:
            raise InvalidMatchFile(f"game {game.number}: {error}") from None
        log.extend(transition.events)
        return transition.state

    if state.phase is not Phase.OPENING or state.game != game.number:
        raise InvalidMatchFile(f"game {game.number} does not follow the previous game")
    if state.score != game.score_before:
        raise InvalidMatchFile(
            f"game {game.number}: the score before it is {game.score_before}, not {state.score}"
        )
    if game.actions and not isinstance(game.actions[0], MatMove):
        raise InvalidMatchFile(f"game {game.number} must start with a play")
    for action in game.actions:
        player = Player(action.player)
        if isinstance(action, MatMove):
            if state.phase is Phase.OPENING:
                high, low = max(action.dice), min(action.dice)
                if high == low:
                    raise InvalidMatchFile(f"game {game.number}: an opening roll is never a double")
                opening = (high, low) if player is Player.ZERO else (low, high)
                state = act(OpeningRoll(Player.ZERO), opening)
            else:
                state = act(Roll(player), action.dice)
            state = act(Move.of(player, action))
        elif isinstance(action, MatDouble):
            state = act(Double(player))
        elif isinstance(action, MatTake):
            state = act(Take(player))
        elif isinstance(action, MatDrop):
            state = act(Drop(player))
        elif isinstance(action, MatWin):
            if state.game == game.number and state.phase not in (Phase.OPENING, Phase.MATCH_OVER):
                # A win the play did not produce: the loser resigned (formats.md 4).
                stakes, rest = divmod(action.points, state.cube)
                if rest or not 1 <= stakes <= 3:
                    raise InvalidMatchFile(
                        f"game {game.number}: {action.points} points is not a resignation"
                        f" of a {state.cube}-cube"
                    )
                state = act(ResignGame(player.opponent, stakes))
                state = act(AcceptResign(player))
            won = next((e for e in reversed(log) if isinstance(e, GameWon)), None)
            if won is None or (int(won.winner), won.points) != (action.player, action.points):
                raise InvalidMatchFile(
                    f"game {game.number}: the file says player {action.player} wins"
                    f" {action.points}, the rules say otherwise"
                )
    return state
