"""Friends, challenges and blocks: what may be done, and what a challenge's state is. Pure:
standard library only.

A player *follows* others (their friends list) and may *challenge* any player to a match with
a friend room's options; the challenged player accepts (a room with both seats taken) or
declines, the challenger may withdraw it, and an open challenge *expires*
:data:`EXPIRES_AFTER` seconds after it was made. A *block* keeps two players apart: no
challenge either way, no follow of the blocker, no table talk between them, no quick match
pairing (``bidak.pairing``). A player is *online* when one of their sessions was seen within
:data:`ONLINE_SECONDS`. ``docs/correspondence.md`` ("Friends and challenges") states the rules;
every function takes the time as seconds since the epoch and does no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

DAY = 24 * 3600.0
EXPIRES_AFTER = 3 * DAY
"""An open challenge nobody answered lapses after three days (a correspondence move's
allowance is at most seven; three days is long enough to see the notification)."""
PER_HOUR = 10
"""Challenges a player may make in an hour (the site's limiter, ``Limits.challenges``)."""
OPEN_MAX = 20
"""Challenges of one player that may wait for an answer at once."""
ONLINE_SECONDS = 600.0
"""A player seen (any request of theirs) this recently is shown online: a session's "last seen"
is written at most every 300 s (``bidak.server.accounts.deps.SEEN_EVERY``), and every page of
the site asks the server something every 30 s, so an open page keeps its player within it."""


class State(StrEnum):
    """A challenge's state; the database stores these strings (``expired`` is never stored:
    an ``open`` challenge past its time reads as expired, :func:`status`)."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    """Withdrawn by the challenger, or removed by a block between the two."""
    EXPIRED = "expired"


class Answer(StrEnum):
    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


@dataclass(frozen=True)
class Refused:
    """Why a request is refused: ``code`` for programs, ``message`` for people."""

    code: str
    message: str


SELF = Refused("self", "You cannot challenge yourself")
UNKNOWN = Refused("not_found", "There is no such player")
BLOCKED = Refused("blocked", "You cannot challenge this player")
YOU_BLOCKED = Refused("blocked", "You blocked this player; unblock them first")
ALREADY = Refused("already_challenged", "You already challenged this player; wait for the answer")
TOO_MANY = Refused(
    "too_many_open", f"At most {OPEN_MAX} of your challenges may wait for an answer at once"
)
FOLLOW_SELF = Refused("self", "You cannot follow yourself")
FOLLOW_BLOCKED = Refused("blocked", "You cannot follow this player")
BLOCK_SELF = Refused("self", "You cannot block yourself")
NOT_YOURS = Refused("not_found", "There is no such challenge of yours")
EXPIRED = Refused("expired", "This challenge has expired")
ANSWERED = Refused("answered", "This challenge was already answered")


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored: who challenged whom, when, and its stored state."""

    id: str
    from_id: str
    to_id: str
    created: float
    state: State


def expires(created: float) -> float:
    """When a challenge made at ``created`` lapses."""
    return created + EXPIRES_AFTER


def status(challenge: Challenge, now: float) -> State:
    """The state a player sees: an open challenge past :func:`expires` has expired."""
    if challenge.state is State.OPEN and now >= expires(challenge.created):
        return State.EXPIRED
    return challenge.state


def may_challenge(
    me: str,
    them: str,
    *,
    exists: bool,
    blocked_by_them: bool,
    blocked_by_me: bool,
    already: bool,
    open_count: int,
) -> Refused | None:
    """Why ``me`` may not challenge ``them`` now, or None. ``already``: an open challenge of
    ``me`` to ``them`` waits; ``open_count``: how many of ``me``'s wait (unexpired)."""
    if me == them:
        return SELF
    if not exists:
        return UNKNOWN
    if blocked_by_me:
        return YOU_BLOCKED
    if blocked_by_them:
        return BLOCKED
    if already:
        return ALREADY
    if open_count >= OPEN_MAX:
        return TOO_MANY
    return None


def may_follow(me: str, them: str, *, exists: bool, blocked_by_them: bool) -> Refused | None:
    """Why ``me`` may not follow ``them``, or None."""
    if me == them:
        return FOLLOW_SELF
    if not exists:
        return UNKNOWN
    if blocked_by_them:
        return FOLLOW_BLOCKED
    return None


def may_answer(challenge: Challenge, player: str, answer: Answer, now: float) -> Refused | None:
    """Why ``player`` may not give ``answer`` to ``challenge`` now, or None. Only the
    challenged player accepts or declines, only the challenger cancels; an answer the challenge
    already has is no refusal (the caller answers as before: idempotent)."""
    mine = challenge.from_id if answer is Answer.CANCEL else challenge.to_id
    if player != mine:
        return NOT_YOURS
    state = status(challenge, now)
    if state is _DONE[answer]:
        return None
    if state is State.EXPIRED:
        return EXPIRED
    if state is not State.OPEN:
        return ANSWERED
    return None


_DONE = {
    Answer.ACCEPT: State.ACCEPTED,
    Answer.DECLINE: State.DECLINED,
    Answer.CANCEL: State.CANCELLED,
}
"""The state each answer leaves a challenge in."""


def after(answer: Answer) -> State:
    """The state ``answer`` leaves an open challenge in."""
    return _DONE[answer]


def online(last_seen: float | None, now: float) -> bool:
    """Whether a player last seen at ``last_seen`` shows as online at ``now``."""
    return last_seen is not None and now - last_seen <= ONLINE_SECONDS
