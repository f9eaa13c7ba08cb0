"""The ``bidak`` Typer application: every command is registered here."""

from __future__ import annotations

import typer

from bidak.cli import analyze, bench, coins, hint, mod, play, positions, serve

app = typer.Typer(
    name="bidak",
    help="Bidak backgammon: positions, legal plays, benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("show")(positions.show)
app.command("plays")(positions.plays)
app.command("hint")(hint.hint)
app.command("analyze")(analyze.analyze)
app.command("play")(play.play)
app.command("serve")(serve.serve)
app.add_typer(bench.app, name="bench")
app.add_typer(coins.app, name="coins")
app.add_typer(mod.app, name="mod")


def main() -> None:
    app()
