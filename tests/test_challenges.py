"""The pure rules of friends and challenges (``bidak.challenges``) and the block in quick
match's pairing (``bidak.pairing``): no I/O, time passed in."""

from __future__ import annotations

from bidak.challenges import (
    EXPIRES_AFTER,
    OPEN_MAX,
    Answer,
    Challenge,
    State,
    expires,
    may_answer,
    may_challenge,
    may_follow,
    online,
    status,
)
from bidak.pairing import Options, Seeker, pair

NOW = 1_800_000_000.0
OPEN = Challenge("c1", "alice", "bob", NOW, State.OPEN)


def test_an_open_challenge_expires_after_three_days_and_an_answered_one_never() -> None:
    assert expires(NOW) == NOW + EXPIRES_AFTER == NOW + 3 * 24 * 3600
    assert status(OPEN, NOW + EXPIRES_AFTER - 1) is State.OPEN
    assert status(OPEN, NOW + EXPIRES_AFTER) is State.EXPIRED
    accepted = Challenge("c1", "alice", "bob", NOW, State.ACCEPTED)
    assert status(accepted, NOW + 10 * EXPIRES_AFTER) is State.ACCEPTED


def test_who_may_answer_and_answering_again_is_no_refusal() -> None:
    assert may_answer(OPEN, "bob", Answer.ACCEPT, NOW) is None
    for player, answer in (("alice", Answer.ACCEPT), ("bob", Answer.CANCEL)):
        refused = may_answer(OPEN, player, answer, NOW)
        assert refused is not None and refused.code == "not_found"
    assert may_answer(OPEN, "alice", Answer.CANCEL, NOW) is None
    late = may_answer(OPEN, "bob", Answer.ACCEPT, NOW + EXPIRES_AFTER)
    assert late is not None and late.code == "expired"
    declined = Challenge("c1", "alice", "bob", NOW, State.DECLINED)
    assert may_answer(declined, "bob", Answer.DECLINE, NOW) is None
    answered = may_answer(declined, "bob", Answer.ACCEPT, NOW)
    assert answered is not None and answered.code == "answered"


def test_what_may_be_challenged() -> None:
    def why(**changes: object) -> str | None:
        facts: dict[str, object] = {
            "exists": True,
            "blocked_by_them": False,
            "blocked_by_me": False,
            "already": False,
            "open_count": 0,
        }
        facts.update(changes)
        them = str(facts.pop("them", "bob"))
        refused = may_challenge("alice", them, **facts)
        return None if refused is None else refused.code

    assert why() is None
    assert why(them="alice") == "self"
    assert why(exists=False) == "not_found"
    assert why(blocked_by_them=True) == why(blocked_by_me=True) == "blocked"
    assert why(already=True) == "already_challenged"
    assert why(open_count=OPEN_MAX - 1) is None
    assert why(open_count=OPEN_MAX) == "too_many_open"
    assert may_follow("a", "b", exists=True, blocked_by_them=True) is not None
    assert may_follow("a", "b", exists=True, blocked_by_them=False) is None


def test_online_is_seen_in_the_last_ten_minutes() -> None:
    assert online(NOW - 600, NOW) and not online(NOW - 601, NOW) and not online(None, NOW)


def test_quick_match_never_pairs_a_blocked_pair_either_way() -> None:
    options = Options(3, 45, True)
    alice = Seeker("alice", 1500, options, NOW - 10, blocked=frozenset({"bob"}))
    bob = Seeker("bob", 1500, options, NOW - 9, blocked=frozenset({"alice"}))
    assert pair([alice, bob], NOW) == []
    one_sided = Seeker("bob", 1500, options, NOW - 9)
    assert pair([alice, one_sided], NOW) == []
    carol = Seeker("carol", 1900, options, NOW - 8)
    assert pair([alice, bob, carol], NOW + 60) == [(alice, carol)]
