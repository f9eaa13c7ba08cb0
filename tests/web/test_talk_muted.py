"""A player a moderator muted sees it before pressing anything: at the table the phrase buttons
are disabled and a line says why (``/api/me`` carries ``talk_muted``); a mute that comes during
the match disables them at the first refused phrase, with the same line."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import screenshot


async def set_muted(running: Any, player_id: str, muted: bool) -> None:
    from sqlalchemy import update
    from sqlalchemy.engine import Connection

    from bidak.server.shared.store.models import PlayerRow

    change = update(PlayerRow).where(PlayerRow.id == player_id).values(talk_muted=muted)
    await running.services.db.write(lambda c: Connection.execute(c, change))


def friend_table(running: Any, pages: Any) -> tuple[Any, Any, str]:
    alice = pages.new(running.base, {"width": 390, "height": 844})
    bob = pages.new(running.base, {"width": 390, "height": 844})
    alice.goto("/")
    alice.wait_for_selector("#player-name")
    bob.goto("/")
    bob.wait_for_selector("#player-name")
    alice.click("#create-friend")
    return alice, bob, alice.input_value("#invite-link")


def test_a_muted_player_sees_the_phrases_disabled_and_why(server: Any, pages: Any) -> None:
    running = server()
    alice, bob, link = friend_table(running, pages)
    bob_id = bob.request.get("/api/me").json()["id"]
    running.call(lambda: set_muted(running, bob_id, True))
    bob.goto(link)
    bob.wait_for_selector("#talk-bar")
    assert bob.request.get("/api/me").json()["talk_muted"] is True
    line = bob.wait_for_selector("#talk-silenced")
    assert "moderator muted your table talk" in line.inner_text()
    phrases = bob.query_selector_all(".talk-phrase")
    assert phrases and all(p.is_disabled() for p in phrases)
    assert bob.is_enabled("#mute-switch")  # muting the opponent is still theirs to do
    bob.locator("#talk-bar").scroll_into_view_if_needed()
    screenshot(bob, "talk-muted-phone")
    # Alice, not muted, talks as before.
    alice.wait_for_selector("#talk-bar")
    assert alice.query_selector("#talk-silenced") is None
    assert alice.is_enabled('.talk-phrase[data-phrase="hello"]')


def test_a_mute_during_the_match_disables_the_phrases_at_once(server: Any, pages: Any) -> None:
    running = server()
    alice, bob, link = friend_table(running, pages)
    bob.goto(link)
    bob.wait_for_selector("#talk-bar")
    assert bob.query_selector("#talk-silenced") is None
    bob_id = bob.request.get("/api/me").json()["id"]
    running.call(lambda: set_muted(running, bob_id, True))
    bob.click('.talk-phrase[data-phrase="hello"]')
    bob.wait_for_selector("#talk-silenced")
    assert all(p.is_disabled() for p in bob.query_selector_all(".talk-phrase"))
    assert bob.query_selector(".toast-error") is None  # said by the bar, not by a toast
    assert alice.query_selector(".talk-bubble") is None
