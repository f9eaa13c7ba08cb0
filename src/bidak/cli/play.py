"""``bidak play``: a whole match in the terminal against a bot.

The human sits at ``Player.ZERO`` and sees the board from their side (X, home at the bottom
right). Everything goes through the match state machine, exactly as the server will: automatic
steps (the opening roll, a roll when doubling is not possible, a forced play) are applied and
shown, the bot answers through the ``Bot`` protocol, and the human's words become actions.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bidak.cli.builder import PlayBuilder
from bidak.cli.errors import readable_errors
from bidak.cli.table import BOT_STYLE, HUMAN_STYLE, board_text, status_text
from bidak.engine.bots import Bot, make_bot
from bidak.engine.context import context_for
from bidak.engine.levels import Level
from bidak.errors import BidakError, InvalidNotation
from bidak.match import (
    AcceptResign,
    Action,
    DiceSource,
    Double,
    Drop,
    Event,
    ForfeitMatch,
    MatchState,
    Move,
    Phase,
    Player,
    RejectResign,
    ResignGame,
    Roll,
    RuleSet,
    SeededDice,
    Take,
    apply,
    automatic_steps,
    can_double,
    current_plays,
    decider,
    describe,
    start_match,
)
from bidak.rules import Play, parse_hops

HELP = """Commands:
  r, roll            roll the dice            d, double     offer a double
  t, take / drop     answer a double          h, hint       the engine's advice
  3                  choose play number 3     8/5 6/5       type a whole play
  13/7               one step at a time       u, undo       take the last step back
  ok (or Enter)      confirm your play        l, list       list the legal plays
  resign [1|2|3]     offer to lose this game for 1, 2 or 3 times the cube
  b, board           show the board again     q, quit       forfeit the match and leave"""

Reader = Callable[[str], str | None]


class Quit(Exception):
    """The player left (quit, or the input ended)."""


@dataclass
class TerminalGame:
    console: Console
    read: Reader
    bot: Bot
    rules: RuleSet
    dice: DiceSource
    level: Level
    human: Player = Player.ZERO
    names: tuple[str, str] = ("X (you)", "O (bot)")
    hint_level: str = "2ply"
    state: MatchState = field(init=False)

    def __post_init__(self) -> None:
        self.state, events = start_match(self.rules)
        self._show(events)

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> MatchState:
        try:
            while self.state.phase is not Phase.MATCH_OVER:
                self._step()
        except Quit:
            self.console.print("Bye.")
        return self.state

    def _step(self) -> None:
        """The steps nobody chooses, each shown as it is taken, then one decision."""
        for auto, (state, events) in automatic_steps(self.state, self.dice):
            if auto.player is self.human and isinstance(auto, Move):
                self._draw()  # the board the human's forced play starts from
            self.state = state
            self._show(events)
        state = self.state
        if state.phase is Phase.MATCH_OVER:
            return
        who = decider(state)
        if who is None:  # pragma: no cover - the machine always has a decider or an automatic step
            raise RuntimeError(f"nobody can act in phase {state.phase}")
        if who is self.human:
            self._human_turn()
        else:
            with self.console.status("The bot is thinking..."):
                action = self.bot.decide(state, who)
            self._apply(action)

    def _apply(self, action: Action) -> None:
        self.state, events = apply(self.state, action, self.dice)
        self._show(events)

    def _show(self, events: tuple[Event, ...]) -> None:
        names = self._seat_names()
        for event in events:
            style = HUMAN_STYLE if getattr(event, "player", None) is self.human else None
            self.console.print(f"  {describe(event, names)}", style=style, highlight=False)

    def _seat_names(self) -> tuple[str, str]:
        you, bot = self.names
        return (you, bot) if self.human is Player.ZERO else (bot, you)

    def _draw(self) -> None:
        self.console.print(board_text(self.state, self.human))
        self.console.print(status_text(self.state, self.human, self.names))

    def _ask(self, prompt: str) -> str:
        line = self.read(prompt)
        if line is None:
            raise Quit
        return line.strip()

    # -- the human's decisions ------------------------------------------------------------------

    def _human_turn(self) -> None:
        phase = self.state.phase
        if phase is Phase.MOVE:
            self._human_play()
            return
        self._draw()
        if phase is Phase.ROLL:
            prompt = "Your turn: [r]oll or [d]ouble? "
        elif phase is Phase.DOUBLED:
            prompt = f"The bot doubles to {self.state.pending_cube}: [t]ake or drop? "
        else:
            prompt = "The bot offers to resign: accept or reject? "
        while True:
            words = self._ask(prompt).lower().split()
            if not words:
                continue
            handled = self._common(words)
            action = self._decision(words) if handled is False else handled
            if not isinstance(action, bool) and action is not None and self._try(action):
                return

    def _decision(self, words: list[str]) -> Action | None:
        me, word = self.human, words[0]
        table: dict[str, Action] = {
            "r": Roll(me),
            "roll": Roll(me),
            "d": Double(me),
            "double": Double(me),
            "t": Take(me),
            "take": Take(me),
            "drop": Drop(me),
            "pass": Drop(me),
            "accept": AcceptResign(me),
            "reject": RejectResign(me),
        }
        if word in table:
            return table[word]
        self.console.print("Type 'help' to see the commands.")
        return None

    def _common(self, words: list[str]) -> Action | bool:
        """Commands that work at every prompt: an action to apply, True when handled without
        one, False when the words are not such a command."""
        word = words[0]
        if word in ("help", "?"):
            self.console.print(HELP, highlight=False)
        elif word in ("b", "board"):
            self._draw()
        elif word in ("h", "hint"):
            self._hint()
        elif word in ("q", "quit"):
            self._try(ForfeitMatch(self.human))
            raise Quit
        elif word == "resign":
            stakes = int(words[1]) if len(words) > 1 and words[1] in ("1", "2", "3") else 1
            return ResignGame(self.human, stakes)
        else:
            return False
        return True

    def _try(self, action: Action) -> bool:
        try:
            self._apply(action)
        except BidakError as error:
            self.console.print(f"[red]{error}[/]")
            return False
        return True

    def _human_play(self) -> None:
        state = self.state
        plays = current_plays(state)
        assert state.dice is not None
        builder = PlayBuilder(state.position, state.dice, plays)
        self._draw()
        self._list(plays)
        while True:
            done = builder.complete
            sofar = " ".join(f"{s.start}/{s.end}" for s in builder.steps)
            if done is not None:
                prompt = f"Play {done}? [ok] or undo: "
            elif builder.steps:
                prompt = f"So far {sofar}; next step (or undo): "
            else:
                prompt = "Your play (number, notation or one step): "
            text = self._ask(prompt)
            words = text.lower().split()
            if not words:
                if done is not None:
                    self._apply(Move.of(self.human, done))
                    return
                continue
            word = words[0]
            if word == "ok" and done is not None:
                self._apply(Move.of(self.human, done))
                return
            if word in ("u", "undo"):
                if builder.undo() is None:
                    self.console.print("Nothing to undo.")
                continue
            if word in ("l", "list"):
                self._list(plays)
                continue
            handled = self._common(words)
            if handled is not False:
                if not isinstance(handled, bool) and self._try(handled):
                    return
                continue
            chosen = self._read_play(text, plays, builder)
            if chosen is not None:
                self._apply(Move.of(self.human, chosen))
                return

    def _read_play(self, text: str, plays: list[Play], builder: PlayBuilder) -> Play | None:
        """A number or a whole play ends the turn; a single step goes into the builder."""
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(plays):
                return plays[number - 1]
            self.console.print(f"Choose a number from 1 to {len(plays)}.")
            return None
        try:
            hops = parse_hops(text)
        except InvalidNotation as error:
            self.console.print(f"[red]{error}[/] Type 'help' for the commands.")
            return None
        if len(hops) == 1 and len(hops[0].stops) == 2 and not builder.steps:
            # One hop: a step of a play being built, unless it is a whole play by itself.
            whole = [p for p in plays if str(p) == text.strip().lower()]
            if whole and builder.complete is None and len(whole[0].steps) > 1:
                return whole[0]
        if len(hops) == 1 and len(hops[0].stops) == 2:
            try:
                builder.add(hops[0].stops[0], hops[0].stops[1])
            except BidakError as error:
                self.console.print(f"[red]{error}[/]")
            return None
        try:
            assert self.state.dice is not None
            return Play.parse(text, self.state.position, self.state.dice)
        except BidakError as error:
            self.console.print(f"[red]{error}[/]")
            return None

    def _list(self, plays: list[Play]) -> None:
        if len(plays) == 1:
            return
        shown = plays[:40]
        table = Table(show_header=False, box=None, padding=(0, 2))
        columns = 3
        for row in range(0, len(shown), columns):
            cells = [f"{i + 1:>3}. {plays[i]}" for i in range(row, min(row + columns, len(shown)))]
            table.add_row(*cells)
        self.console.print(table)
        if len(plays) > len(shown):
            self.console.print(f"  ... and {len(plays) - len(shown)} more; type a play directly.")

    def _hint(self) -> None:
        from bidak.engine.hints import shared_evaluator

        state = self.state
        evaluator = shared_evaluator(self.hint_level)
        context = context_for(state, self.human)
        with self.console.status("Thinking..."):
            if state.phase is Phase.MOVE and state.dice is not None:
                ranked = evaluator.rank(state.position, state.dice, context)
                plays = {play.result: play for play in current_plays(state)}
                table = Table("play", "equity", "loss", "win %", title="The engine suggests")
                for candidate in ranked[:5]:
                    table.add_row(
                        str(plays[candidate.result]) or "(no move)",
                        f"{candidate.equity:+.3f}",
                        f"{candidate.loss:.3f}",
                        f"{100 * candidate.probabilities.win:.1f}",
                    )
                self.console.print(table)
                return
            if state.phase is Phase.ROLL and can_double(state, self.human):
                verdict = evaluator.cube(state.position_for(self.human), context)
            elif state.phase is Phase.DOUBLED:
                doubler = self.human.opponent
                verdict = evaluator.cube(state.position_for(doubler), context_for(state, doubler))
            else:
                self.console.print("Nothing to advise here.")
                return
        self.console.print(
            f"No double {verdict.no_double:+.3f}, double/take {verdict.double_take:+.3f},"
            f" double/pass {verdict.double_pass:+.3f} -> {verdict.action}",
            highlight=False,
        )


def play(
    level: Annotated[str, typer.Option(help="bot level: beginner, normal or expert")] = "normal",
    length: Annotated[int, typer.Option(help="match length in points (1 to 25)")] = 5,
    no_cube: Annotated[bool, typer.Option("--no-cube", help="play without the doubling cube")] = (
        False
    ),
    seed: Annotated[int | None, typer.Option(help="seed the dice (for a replayable match)")] = None,
) -> None:
    """Play a match against a bot in the terminal."""
    console = Console(highlight=False)
    with readable_errors():
        chosen = Level.parse(level)
        rules = RuleSet(length=length, cube=not no_cube)
        dice: DiceSource = SeededDice(seed if seed is not None else secrets.randbits(64))
        bot = make_bot(chosen, seed if seed is not None else secrets.randbits(64))
    console.print(
        f"[bold]Bidak[/]: a {length}-point match against the {chosen.value} bot"
        f"{' without the cube' if no_cube else ''}. Type 'help' for the commands.\n"
    )

    def read(prompt: str) -> str | None:
        try:
            return console.input(prompt)
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None

    game = TerminalGame(console, read, bot, rules, dice, chosen)
    final = game.run()
    if final.phase is Phase.MATCH_OVER and final.winner is not None:
        winner = "You win" if final.winner is game.human else "The bot wins"
        style = HUMAN_STYLE if final.winner is game.human else BOT_STYLE
        console.print(f"[{style}]{winner} the match {final.score[0]}-{final.score[1]}.[/]")
