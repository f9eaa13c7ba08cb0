"""Looking up a room by its code, with unknown codes limited per client address.

Room codes are short enough to read out (8 of 30 letters, rooms/room.py), so guessing them is
what this limit stops: every unknown code an address asks for (by HTTP or WebSocket) takes a
token of ``Limits.room_misses``; once they are spent, that address may look up no room at all,
known or not, until the bucket refills, so a guesser learns nothing from the refusals.
"""

from __future__ import annotations

from bidak.server.shared.limiter import Limits


async def may_look_up(limits: Limits, address: str, now: float) -> float:
    """0.0 when ``address`` may look a room up now (its bucket holds a whole token, for the miss
    this lookup may be), else the seconds until it may. Only a miss spends the token
    (:func:`missed`): the check takes nothing, so any number of lookups from one address at
    once (a site's players behind one proxy reconnecting after an outage) pass it while its
    allowance lasts. Taking a token to look and giving it back refused the eleventh of them."""
    return await limits.peek(limits.room_misses, address, now)


async def missed(limits: Limits, address: str, now: float) -> None:
    """``address`` asked for a code that names no room: it counts against its allowance."""
    await limits.wait(limits.room_misses, address, now)
