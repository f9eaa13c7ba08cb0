"""Drawing a match for the terminal: the board from one player's side, with score, cube and pips."""

from __future__ import annotations

from rich.text import Text

from bidak.match import MatchState, Phase, Player

HUMAN_STYLE = "bold cyan"
BOT_STYLE = "bold red"


def board_text(state: MatchState, viewer: Player) -> Text:
    """The ASCII board seen by ``viewer`` (X, at the bottom) with X and O coloured."""
    position = state.position_for(viewer)
    text = Text()
    for line in str(position).splitlines()[:-1]:
        for char in line:
            if char == "X":
                text.append(char, HUMAN_STYLE)
            elif char == "O":
                text.append(char, BOT_STYLE)
            else:
                text.append(char)
        text.append("\n")
    return text


def status_text(state: MatchState, viewer: Player, names: tuple[str, str]) -> Text:
    """Score, match length, Crawford, cube and pip counts in two short lines."""
    me, them = names
    other = viewer.opponent
    text = Text("   ")
    text.append(f"{me} {state.score[viewer]}", HUMAN_STYLE)
    text.append(" - ")
    text.append(f"{state.score[other]} {them}", BOT_STYLE)
    text.append(f"   {state.rules.length}-point match")
    if state.crawford:
        text.append("   Crawford game", "bold yellow")
    text.append("\n   ")
    text.append(f"pips: X {state.pips_for(viewer)}, O {state.pips_for(other)}")
    if state.rules.cube_in_use:
        owner = (
            "centred"
            if state.cube_owner is None
            else "yours"
            if state.cube_owner is viewer
            else "the bot's"
        )
        text.append(f"   cube: {state.cube} ({owner})")
    else:
        text.append("   no cube")
    if state.phase is Phase.MOVE and state.dice is not None:
        who = "X" if state.turn is viewer else "O"
        text.append(f"   dice: {state.dice[0]}-{state.dice[1]} ({who})", "bold")
    return text
