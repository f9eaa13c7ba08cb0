"""Looking up a room by its code or a tournament by its id, with unknown ones limited per client
address.

Room codes and tournament ids are short enough to read out (8 of 30 letters,
``play/room.py``), and a private knockout is reached by its id alone, so guessing them is what
this limit stops: every unknown code or id an address asks for (by HTTP or WebSocket) takes a
token of ``Limits.room_misses``, one allowance for both; once they are spent, that address may
look up no room and no tournament at all, known or not, until the bucket refills, so a guesser
learns nothing from the refusals (the arithmetic is in ``docs/security.md``).
"""

from __future__ import annotations

from fastapi import Request

from bidak.server.shared.deps import SharedServices, too_soon
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


async def admit(request: Request, services: SharedServices, what: str) -> None:
    """Refuse the request with 429 when its address has spent its allowance of unknown codes
    (``what`` names them in the answer)."""
    now = services.clock.now()
    too_soon(await may_look_up(services.limits, _address(request), now), what)


async def count_miss(request: Request, services: SharedServices) -> None:
    """The request asked for a code or id that names nothing: it counts against its address."""
    await missed(services.limits, _address(request), services.clock.now())


def _address(request: Request) -> str:
    return request.client.host if request.client else ""
