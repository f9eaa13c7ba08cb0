"""Advancing a match: the steps nobody chooses, until someone must decide; a play as a move."""

from __future__ import annotations

from collections.abc import Iterator

from bidak.match import (
    Event,
    MatchState,
    Move,
    Phase,
    Played,
    Player,
    RuleSet,
    ScriptedDice,
    SeededDice,
    Transition,
    advance,
    apply,
    apply_event,
    automatic_action,
    automatic_steps,
    current_plays,
    decider,
    new_match,
    played_steps,
    random_match,
)

RULE_SETS = (RuleSet(length=3), RuleSet(length=1), RuleSet(length=5, cube=False))


def every_state(matches: int) -> Iterator[MatchState]:
    """Every state of random matches (resignations, timeouts, auto-play and forfeits included)."""
    for i in range(matches):
        _, events = random_match(f"advance:{i}", RULE_SETS[i % len(RULE_SETS)])
        state: MatchState | None = None
        for event in events:
            state = apply_event(state, event)
            yield state


def the_servers_former_loop(state: MatchState, dice: SeededDice) -> Transition:
    """The loop the server ran before :func:`advance` was the one home of it, kept as the
    reference: it also stopped when the automatic action was not the decider's."""
    events: list[Event] = []
    while state.phase is not Phase.MATCH_OVER:
        action = automatic_action(state)
        who = decider(state)
        if action is None or (who is not None and action.player is not who):
            break
        state, more = apply(state, action, dice)
        events.extend(more)
    return Transition(state, tuple(events))


def test_an_automatic_action_is_always_the_deciders_own() -> None:
    """So the former loop's extra stop never fired, and every caller's loop was the same."""
    seen = 0
    for state in every_state(30):
        action = automatic_action(state)
        who = decider(state)
        if action is not None:
            seen += 1
            assert who is None or action.player is who, (state.phase, action, who)
            assert who is not None or state.phase is Phase.OPENING
    assert seen > 500


def test_advance_does_what_the_servers_loop_did_from_every_state() -> None:
    for i, state in enumerate(every_state(12)):
        ours = advance(state, SeededDice(f"dice:{i}"))
        assert ours == the_servers_former_loop(state, SeededDice(f"dice:{i}"))
        assert automatic_action(ours.state) is None


def test_advance_leaves_a_state_that_waits_for_a_decision_as_it_is() -> None:
    state, _ = advance(new_match(RuleSet(length=3)), ScriptedDice([6, 5]))
    assert (state.phase, decider(state)) == (Phase.MOVE, Player.ZERO)
    assert advance(state, ScriptedDice([])) == Transition(state, ())
    assert list(automatic_steps(state, ScriptedDice([]))) == []


def test_automatic_steps_are_taken_only_when_asked_for() -> None:
    # No cube: after the opening roll ZERO plays, then ONE's roll is automatic. Only the dice
    # of the opening roll are given: asking for one step must not draw any more.
    state = new_match(RuleSet(length=3, cube=False))
    steps = automatic_steps(state, ScriptedDice([6, 5]))
    action, (after, events) = next(steps)
    assert action.player is Player.ZERO and [event.type for event in events] == ["opening_rolled"]
    assert (after.phase, after.dice) == (Phase.MOVE, (6, 5))
    assert next(steps, None) is None


def test_each_step_is_told_with_the_state_it_leads_to() -> None:
    dice = ScriptedDice([6, 5])
    steps = list(automatic_steps(new_match(RuleSet(length=3, cube=False)), dice))
    whole = advance(new_match(RuleSet(length=3, cube=False)), ScriptedDice([6, 5]))
    assert steps[-1][1].state == whole.state
    assert tuple(event for _, (_, events) in steps for event in events) == whole.events


def test_a_play_becomes_the_move_that_plays_it_and_the_steps_it_records() -> None:
    for i, state in enumerate(every_state(6)):
        if state.phase is not Phase.MOVE or state.turn is None or decider(state) is None:
            continue
        play = current_plays(state)[i % len(current_plays(state))]
        move = Move.of(state.turn, play)
        assert move.steps == tuple((start, end) for start, end, _ in play.steps)
        _, events = apply(state, move, ScriptedDice([]))
        played = next(event for event in events if isinstance(event, Played))
        assert played.steps == played_steps(play) and played.notation == str(play)
