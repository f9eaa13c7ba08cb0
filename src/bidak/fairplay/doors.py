"""What a player may do: the one rule every door of the site asks (pure: standard library only).

A *door* is a way into play or talk: waiting in quick match, joining a tournament, taking the
seat of a room somebody else made, talking at a table, acting as a moderator. A player's
*standing* is what moderators (and the operator) set on their account, and whether it is a
guest. :func:`refusal` says, for one standing and one door, why the door stays shut (or None);
the server's routes, its WebSocket messages and its pairings all ask it (``docs/security.md``,
"What a ban, a mute and a rated ban stop").

- **Banned from play** (``banned``): no quick match, no tournament (joining, coming back,
  checking in), no seat at a room somebody else made (a friend's link, a person's rematch),
  and no pairing of any kind. Practice against a bot, their own friend room, reviews, training
  and their own data stay open: a ban keeps a player from others, not from the site.
- **Banned from rated play** (``rated_ban``): only unrated games. No tournament (their
  matches are rated), and quick match never pairs them with somebody who expects a rated game
  (:attr:`Standing.expects_rated`: a linked e-mail and no ban; ``bidak.pairing`` keeps the two
  apart). Guests play unrated anyway.
- **Muted** (``muted``): no table talk.
- **Guests** create no tournament (a tournament needs an account that lasts).
- **Moderators** act on players, never on another moderator: that, and the role itself, is
  the operator's (``bidak mod``).
- An account that took in a restricted guest at a sign-in carries the guest's restrictions
  (``held``) until a moderator decides; the restrictions themselves shut the doors.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Door(StrEnum):
    QUICK = "quick"
    """Wait in quick match (and be paired by it)."""
    TOURNAMENT = "tournament"
    """Join a tournament, come back to an arena, check in for a knockout match."""
    CREATE_TOURNAMENT = "create_tournament"
    """Make a knockout of one's own."""
    SEAT = "seat"
    """Take the seat of a room somebody else made, or play a rematch with a person."""
    CHALLENGE = "challenge"
    """Challenge another player to a match."""
    TALK = "talk"
    """Say a phrase at a table."""
    MODERATE = "moderate"
    """Use the moderators' queue and act on players."""


@dataclass(frozen=True)
class Standing:
    """What a player's account says about what they may do."""

    guest: bool = True
    """No linked e-mail address."""
    banned: bool = False
    """Banned from play by a moderator."""
    rated_ban: bool = False
    """Banned from rated play by a moderator."""
    muted: bool = False
    """Table talk muted by a moderator."""
    moderator: bool = False
    """Granted the role by the operator."""

    @property
    def expects_rated(self) -> bool:
        """A player whose games against a clean account move ratings: linked and not banned."""
        return not (self.guest or self.banned or self.rated_ban)


@dataclass(frozen=True)
class Refused:
    """Why a door stays shut: ``code`` for programs, ``message`` for people."""

    code: str
    message: str


BANNED = Refused("banned", "A moderator banned you from play; see your account page for why")
RATED_BAN = Refused(
    "rated_banned",
    "A moderator banned you from rated play; you may play unrated games (see your account page)",
)
MUTED = Refused("muted", "A moderator muted your table talk")
GUEST = Refused("guest", "Link an e-mail address to your account first")
NOT_MODERATOR = Refused("not_moderator", "Only moderators may use this")
MODERATOR_TARGET = Refused(
    "moderator",
    "Moderators do not act on moderators; the operator does (bidak mod)",
)

_SHUT_WHEN_BANNED = frozenset(
    {Door.QUICK, Door.TOURNAMENT, Door.CREATE_TOURNAMENT, Door.SEAT, Door.CHALLENGE}
)


def refusal(standing: Standing, door: Door) -> Refused | None:
    """Why ``standing`` may not pass ``door``, or None when it may."""
    if door is Door.MODERATE:
        return None if standing.moderator else NOT_MODERATOR
    if door is Door.TALK:
        return MUTED if standing.muted else None
    if standing.banned and door in _SHUT_WHEN_BANNED:
        return BANNED
    if door is Door.CREATE_TOURNAMENT and standing.guest:
        return GUEST
    if standing.rated_ban and door in (Door.TOURNAMENT, Door.CREATE_TOURNAMENT):
        return RATED_BAN
    return None


def may_act_on(target: Standing) -> Refused | None:
    """Why a moderator may not act on ``target`` (another moderator), or None."""
    return MODERATOR_TARGET if target.moderator else None


def carried(guest: Standing, account: Standing) -> Standing:
    """The account's standing after it took in ``guest`` at a sign-in: every restriction of
    either holds (the role of moderator is never carried)."""
    return Standing(
        guest=account.guest,
        banned=account.banned or guest.banned,
        rated_ban=account.rated_ban or guest.rated_ban,
        muted=account.muted or guest.muted,
        moderator=account.moderator,
    )
