"""The one door check (``bidak.fairplay.doors``, pure): what a ban, a rated ban, a mute and a
guest's standing shut, and what they leave open."""

from __future__ import annotations

import pytest

from bidak.fairplay.doors import (
    BANNED,
    GUEST,
    MUTED,
    NOT_MODERATOR,
    RATED_BAN,
    Door,
    Standing,
    carried,
    may_act_on,
    refusal,
)
from bidak.pairing import Options, Seeker, pair

CLEAN = Standing(guest=False)
PLAY_DOORS = (Door.QUICK, Door.TOURNAMENT, Door.CREATE_TOURNAMENT, Door.SEAT, Door.CHALLENGE)


@pytest.mark.parametrize("door", PLAY_DOORS)
def test_a_ban_from_play_shuts_every_door_into_play(door: Door) -> None:
    assert refusal(Standing(guest=False, banned=True), door) is BANNED
    assert refusal(Standing(guest=True, banned=True), door) is BANNED
    assert refusal(CLEAN, door) is None


def test_a_ban_from_play_leaves_talk_and_a_mute_leaves_play() -> None:
    assert refusal(Standing(banned=True), Door.TALK) is None
    muted = Standing(guest=False, muted=True)
    assert refusal(muted, Door.TALK) is MUTED
    assert [refusal(muted, door) for door in PLAY_DOORS] == [None] * len(PLAY_DOORS)


def test_a_rated_ban_shuts_tournaments_only() -> None:
    rated = Standing(guest=False, rated_ban=True)
    assert refusal(rated, Door.TOURNAMENT) is RATED_BAN
    assert refusal(rated, Door.CREATE_TOURNAMENT) is RATED_BAN
    for door in (Door.QUICK, Door.SEAT, Door.CHALLENGE, Door.TALK):
        assert refusal(rated, door) is None
    assert not rated.expects_rated and CLEAN.expects_rated and not Standing().expects_rated


def test_guests_make_no_tournament_and_only_moderators_moderate() -> None:
    assert refusal(Standing(), Door.CREATE_TOURNAMENT) is GUEST
    assert refusal(Standing(), Door.TOURNAMENT) is None
    assert refusal(CLEAN, Door.MODERATE) is NOT_MODERATOR
    assert refusal(Standing(guest=False, moderator=True), Door.MODERATE) is None
    assert may_act_on(Standing(guest=False, moderator=True)) is not None
    assert may_act_on(CLEAN) is None


def test_a_guests_restrictions_follow_it_into_the_account_but_never_the_role() -> None:
    guest = Standing(banned=True, muted=True, moderator=True)
    account = Standing(guest=False, rated_ban=True)
    after = carried(guest, account)
    assert after == Standing(guest=False, banned=True, rated_ban=True, muted=True)
    assert carried(Standing(), account) == account


def test_quick_match_never_pairs_a_rated_ban_with_a_player_expecting_a_rated_game() -> None:
    options = Options(3, 45, True)
    rated_banned = Seeker("r", 1500.0, options, 0.0, unrated_only=True)
    clean = Seeker("c", 1500.0, options, 0.0, expects_rated=True)
    guest = Seeker("g", 1500.0, options, 1.0)
    assert pair([rated_banned, clean], 100.0) == []
    assert [(a.player, b.player) for a, b in pair([rated_banned, guest], 100.0)] == [("r", "g")]
    assert [(a.player, b.player) for a, b in pair([clean, guest], 100.0)] == [("c", "g")]
