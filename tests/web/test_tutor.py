"""Tutor mode at a practice table, at phone size: off by default; switched on, a blunder about to
be sent brings a warning (reconsider, or send anyway) and the engine's best play goes at once."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.web.conftest import screenshot
from tests.web.helpers import (
    board_data,
    play_turn,
    start_practice,
    tap,
    wait_for_my_move_or_end,
)

COMMITTED = Path(__file__).resolve().parent / "screenshots"
BLUNDER = 0.08


def make(page: Any, steps: list[list[int]]) -> None:
    for start, end, *_ in steps:
        tap(page, start)
        tap(page, end)
    page.wait_for_selector("#btn-ok:not([disabled])")


def test_the_tutor_warns_before_a_blunder_at_phone_size(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base)
    page.goto("/")
    start_practice(page, level="beginner", length=1)
    assert page.inner_text("#btn-tutor") == "Tutor: off"
    page.click("#btn-tutor")
    assert page.inner_text("#btn-tutor") == "Tutor: on"
    code = page.evaluate("location.hash").split("/")[-1]
    for _ in range(20):
        state = wait_for_my_move_or_end(page)
        assert state == "move", f"the match went on without a blunder to offer: {state}"
        hint = page.request.get(f"/api/rooms/{code}/hint?level=1ply").json()
        candidates = hint["hint"]["candidates"]
        best, worst = candidates[0], candidates[-1]
        if worst["loss"] > BLUNDER:
            break
        version = board_data(page, "version")
        make(page, best["steps"])
        page.click("#btn-ok")
        page.wait_for_function(
            f"() => document.querySelector('#main svg.board').dataset.version !== '{version}'"
        )
    else:
        raise AssertionError("no roll with a blunder in 20 turns")

    version = board_data(page, "version")
    make(page, worst["steps"])
    page.click("#btn-ok")
    page.wait_for_selector("#tutor-dialog")
    assert f"{worst['loss']:.3f}" in page.inner_text("#tutor-loss")
    screenshot(page, "tutor-warning-phone")
    shutil.copy(screenshot(page, "tutor-warning-phone"), COMMITTED / "tutor-warning-phone.png")
    page.click("#tutor-reconsider")
    page.wait_for_selector("#tutor-dialog", state="detached")
    assert board_data(page, "version") == version  # nothing was sent

    # Undo the blunder, make the best play: it goes without a word.
    while not page.is_disabled("#btn-undo"):
        page.click("#btn-undo")
    make(page, best["steps"])
    page.click("#btn-ok")
    page.wait_for_function(
        f"() => document.querySelector('#main svg.board').dataset.version !== '{version}'"
    )
    assert page.query_selector("#tutor-dialog") is None


def test_with_the_tutor_on_a_roll_that_could_be_a_double_asks_it_first(
    server: Any, pages: Any
) -> None:
    """Rolling when doubling was allowed is the decision not to double: the tutor is asked about
    it (``no_double``) and, the right decision, the dice go at once."""
    running = server()
    page = pages.new(running.base)
    page.goto("/")
    start_practice(page, level="beginner", length=3, cube=True)
    page.click("#btn-tutor")
    for _ in range(20):
        state = wait_for_my_move_or_end(page)
        if state == "roll" and page.query_selector("#btn-double"):
            break
        assert state in ("move", "roll"), state
        if state == "move":
            play_turn(page)
        else:
            page.click("#btn-roll")
    else:
        raise AssertionError("no turn with both a roll and a double offered")
    version = board_data(page, "version")
    with page.expect_request(lambda r: r.url.endswith("/tutor")) as asked:
        page.click("#btn-roll")
    assert asked.value.post_data_json == {"cube": "no_double"}
    page.wait_for_function(
        f"() => document.querySelector('#main svg.board').dataset.version !== '{version}'"
    )
    assert page.query_selector("#tutor-dialog") is None
