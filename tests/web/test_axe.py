"""The accessibility audit (issue 40): axe-core over every view, at phone and desktop size, in
each language, fails on any serious or critical violation.

The views: the lobby, the account, the shop, the leaderboard, the live list, a profile, the
daily drill and puzzles (empty for a new player), the friends page, the moderators' page (as a
visitor who is not one), a tournament, the moderators' queue (a case held for a decision) and a
case as a moderator sees them, the table with a checker to move, with a checker picked, with the
roll or the double to choose, a typed play refused, the list of keys, the resign and forfeit
dialogs, the match-over dialog, and the review of that match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import link_addresses
from tests.web.a11y import audit, lines, prepare, settled
from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import movable, play_turn, set_language, start_practice, tap
from tests.web.helpers import wait_for_my_move_or_end as wait_turn

REPORTS = Path(__file__).resolve().parents[2] / "artifacts" / "axe"
PAGES = ["/account", "/shop", "/leaderboard", "/live", "/drill", "/puzzles", "/mod", "/friends"]


async def hold(running: Any, player_id: str) -> None:
    """The account as it is after a banned guest signed in to it: banned, held for a decision."""
    from sqlalchemy import update
    from sqlalchemy.engine import Connection

    from bidak.server.shared.store.models import PlayerRow

    held = update(PlayerRow).where(PlayerRow.id == player_id).values(play_ban=True, held=True)
    await running.services.db.write(lambda c: Connection.execute(c, held))


def visit(page: Any, hash_: str) -> None:
    page.evaluate("h => { location.hash = h; }", "#" + hash_)
    settled(page)


# Measured before the fixes of issue 40: 96 violations (16 per size and language; 152 elements):
# colour contrast of muted text, dialogs without a name, the move list not reachable by keys.
@pytest.mark.parametrize("lang", ["id", "en", "fi"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_view_has_a_serious_or_critical_accessibility_violation(
    server: Any, pages: Any, size: dict[str, int], lang: str
) -> None:
    running = server(review_workers=1, analysis_waiting=0)
    page = pages.new(running.base, size)
    prepare(page)
    page.goto("/")
    page.wait_for_selector("#training-card")
    set_language(page, lang)
    found = audit(page, "lobby")
    for hash_ in PAGES:
        visit(page, hash_)
        found += audit(page, hash_)
    me = page.request.get("/api/me").json()["id"]
    visit(page, f"/player/{me}")
    found += audit(page, "/player")
    visit(page, "/")
    running.call(lambda: link_addresses(running, me))  # a knockout is made by an account
    page.click("#tour-create")
    page.wait_for_selector("#tour-copy")
    found += audit(page, "tournament")
    # The moderators' queue (with a case held for a decision: this account after a signed-in
    # guest's ban) and a case, as a moderator sees them.
    running.call(lambda: running.services.fairplay.set_moderator(me, True, "audit"))
    running.call(lambda: hold(running, me))
    page.reload()
    visit(page, "/mod")
    page.wait_for_selector("#mod-queue [data-badge='held']")
    found += audit(page, "/mod")
    visit(page, f"/mod/{me}")
    page.wait_for_selector("#mod-form")
    found += audit(page, "/mod/case")

    visit(page, "/")
    start_practice(page, "beginner", length=3, cube=True)
    rolled = wait_turn(page) == "roll"
    if rolled:
        found += audit(page, "table: to roll or double")
        page.click("#btn-roll")
    assert wait_turn(page) == "move"
    found += audit(page, "table: to move")
    page.keyboard.press("t")
    page.keyboard.type("13/7")
    page.keyboard.press("Enter")
    page.wait_for_selector("#typed-error:not(:empty)")
    found += audit(page, "table: a typed play refused")
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog")
    found += audit(page, "table: the keys")
    page.keyboard.press("Escape")
    tap(page, movable(page)[0])
    found += audit(page, "table: a checker picked")
    play_turn(page)
    if not rolled:
        assert wait_turn(page) == "roll"
        found += audit(page, "table: to roll or double")
    page.click("#btn-resign")
    page.wait_for_selector("#resign-dialog")
    found += audit(page, "table: resign dialog")
    page.click("#btn-forfeit")
    page.wait_for_selector("#forfeit-dialog")
    found += audit(page, "table: forfeit dialog")
    page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    found += audit(page, "table: match over")
    page.click("#btn-lobby")
    page.click("#history .history-item [data-review]")
    page.wait_for_selector("#move-list .move", timeout=60000)
    found += audit(page, "review")
    REPORTS.mkdir(parents=True, exist_ok=True)
    name = f"{'phone' if size is PHONE else 'desktop'}-{lang}.json"
    (REPORTS / name).write_text(json.dumps(found, indent=1), encoding="utf-8")
    assert not found, "\n".join([f"{len(found)} serious or critical:", *lines(found)])


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_accessibility_settings_add_no_violation(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    """With every setting on (high contrast, large, distinguishable checkers, reduced motion)."""
    running = server()
    page = pages.new(running.base, size)
    prepare(page)
    page.goto("/")
    page.wait_for_selector("#training-card")
    every = {"motion": True, "contrast": True, "large": True, "shapes": True}
    assert page.request.put("/api/me/access", data=every, headers={"Origin": running.base}).ok
    page.reload()
    page.wait_for_function("() => document.documentElement.classList.contains('a11y-contrast')")
    page.wait_for_selector("#training-card")
    found = audit(page, "lobby")
    visit(page, "/account")
    page.wait_for_selector("#access-contrast:checked")
    found += audit(page, "/account")
    visit(page, "/")
    start_practice(page, "beginner", length=3, cube=True)
    if wait_turn(page) == "roll":
        found += audit(page, "table: to roll or double")
        page.click("#btn-roll")
    assert wait_turn(page) == "move"
    found += audit(page, "table: to move")
    assert not found, "\n".join([f"{len(found)} serious or critical:", *lines(found)])
