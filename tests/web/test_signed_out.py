"""A browser signed out from another one is told so and offered to sign in again; the list of
signed-in browsers names each in the player's language, and its two kinds of sign-out differ."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

from bidak.server.accounts.player_queries import open_session
from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import set_language, untranslated


def test_a_browser_signed_out_elsewhere_says_so(server: Any, pages: Any) -> None:
    running = server()
    a = pages.new(running.base, DESKTOP)
    a.goto("/")
    a.wait_for_selector("#player-name")
    set_language(a, "id")
    me = a.evaluate("fetch('/api/me').then((r) => r.json())")

    # The same account signed in on a phone (a second session, as an e-mail link would open).
    token = running.call(
        lambda: running.services.store.db.write(
            partial(
                open_session,
                player_id=me["id"],
                at=datetime.now(UTC),
                device="Chrome on Android",
            )
        )
    )
    b = pages.new(running.base, PHONE, locale="id-ID")
    b.context.add_cookies([{"name": "bidak_session", "value": token, "url": running.base}])
    b.goto("/")
    b.wait_for_selector(f"#player-name:text-is('{me['name']}')")
    assert b.query_selector("#signed-out") is None

    # A's list names both browsers in Indonesian; signing the phone out is not "sign out here".
    a.goto("/#/account")
    a.wait_for_function("() => document.querySelectorAll('#sessions .session-item').length === 2")
    devices = a.locator("#sessions .session-device").all_inner_texts()
    assert devices == ["Chrome di Linux", "Chrome di Android"], devices
    end = a.inner_text("#sessions .session-item:not(.current) [data-end]")
    assert end == "Keluarkan" and a.inner_text("#logout") == "Keluar di browser ini"
    assert untranslated(a) == []
    a.click("#sessions .session-item:not(.current) [data-end]")
    a.wait_for_function("() => document.querySelectorAll('#sessions .session-item').length === 1")

    # The phone's next visit: a new guest, and it says so, with the way back.
    b.reload()
    b.wait_for_selector("#signed-out")
    assert "dikeluarkan" in b.inner_text("#signed-out")
    guest = b.evaluate("fetch('/api/me').then((r) => r.json())")
    assert guest["name"] != me["name"] and guest["name"] in b.inner_text("#signed-out")
    assert not guest["signed_out"]  # said once: the new guest's own cookie is valid
    assert untranslated(b) == []
    b.click("#signed-out-sign-in")
    b.wait_for_selector("#account-signin")
    b.reload()
    b.wait_for_selector("#account-signin")
    assert b.query_selector("#signed-out") is None
