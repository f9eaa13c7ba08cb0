"""The terminal game, driven end to end as a player would drive it."""

from __future__ import annotations

import io
import random

from rich.console import Console
from typer.testing import CliRunner

from bidak.cli import app
from bidak.cli.builder import PlayBuilder
from bidak.cli.play import TerminalGame
from bidak.engine.bots import make_bot
from bidak.engine.levels import Level
from bidak.match import Phase, Player, RuleSet, SeededDice
from bidak.rules import Position, legal_plays

runner = CliRunner()


def test_a_whole_one_point_match_through_the_command_line() -> None:
    result = runner.invoke(
        app, ["play", "--level", "beginner", "--length", "1", "--seed", "3"], input="1\n" * 400
    )
    assert result.exit_code == 0, result.output
    assert "wins the match" in result.output
    assert "Traceback" not in result.output


class Player0:
    """A scripted person: answers each prompt by what it asks, choosing among legal options."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if len(self.prompts) > 3000:
            return None
        if prompt.startswith("Your turn"):
            return self.rng.choice(["r", "r", "r", "d"])
        if "doubles to" in prompt:
            return self.rng.choice(["take", "take", "drop"])
        if prompt.startswith("Play "):
            return self.rng.choice(["ok", "", "undo"])
        if prompt.startswith("So far"):
            return "undo"
        return str(self.rng.randint(1, 3))


def _game(length: int, seed: int, cube: bool = True) -> tuple[TerminalGame, Player0, str]:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    person = Player0(seed)
    game = TerminalGame(
        console,
        person,
        make_bot(Level.BEGINNER, seed),
        RuleSet(length=length, cube=cube),
        SeededDice(seed),
        Level.BEGINNER,
    )
    game.run()
    return game, person, out.getvalue()


def test_a_three_point_match_with_the_cube_reaches_its_end() -> None:
    game, person, output = _game(3, seed=5)
    assert game.state.phase is Phase.MATCH_OVER
    assert max(game.state.score) >= 3
    assert "doubles to 2" in output
    assert any(p.startswith("Your turn") for p in person.prompts), "the cube was offered"


def test_no_cube_room_never_asks_to_double() -> None:
    game, person, output = _game(1, seed=9, cube=False)
    assert game.state.phase is Phase.MATCH_OVER
    assert not any(p.startswith("Your turn") for p in person.prompts)
    assert "doubles" not in output


def test_quitting_forfeits_the_match() -> None:
    out = io.StringIO()
    answers = iter(["help", "q"])
    game = TerminalGame(
        Console(file=out, width=100),
        lambda prompt: next(answers, None),
        make_bot(Level.BEGINNER, 1),
        RuleSet(length=3),
        SeededDice(2),
        Level.BEGINNER,
    )
    final = game.run()
    assert final.phase is Phase.MATCH_OVER and final.winner is Player.ONE
    assert "forfeits" in out.getvalue() and "Commands:" in out.getvalue()


def test_building_a_play_step_by_step_with_undo() -> None:
    start = Position.initial()
    builder = PlayBuilder(start, (6, 5), legal_plays(start, (6, 5)))
    builder.add(24, 18)
    assert builder.complete is None
    assert {(s.start, s.end) for s in builder.next_steps()} == {(18, 13), (13, 8), (8, 3)}
    builder.undo()
    builder.add(24, 13)  # one hop that uses both dice plays both steps
    assert builder.complete is not None and str(builder.complete) == "24/13"
    builder.undo()
    builder.undo()
    assert builder.steps == [] and builder.undo() is None


def test_an_impossible_level_is_a_clear_error() -> None:
    result = runner.invoke(app, ["play", "--level", "grandmaster"])
    assert result.exit_code == 2
    assert "unknown bot level" in result.output and "Traceback" not in result.output
