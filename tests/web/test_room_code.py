"""A friend room's code can be read out: eight letters on the invitation, typed by the friend
in the lobby in any case, with a space, and they are at the table."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE


def test_a_friend_types_the_code_they_were_told(server: Any, pages: Any) -> None:
    running = server()
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    alice.goto("/")
    alice.click("#create-friend")
    code = alice.inner_text(".room-code")
    assert len(code) == 8 and code == code.upper() and code.isalnum(), code
    bob.goto("/")
    bob.fill("#join-code", f"{code[:4].lower()} {code[4:].lower()}")
    bob.click("#join-go")
    bob.wait_for_selector("#main svg.board")
    alice.wait_for_selector("#main svg.board")
    assert bob.url.endswith(f"#/room/{code}")
