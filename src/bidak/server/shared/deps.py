"""What every capability's routes may ask of the running server: the shared machinery.

The app's lifespan (``bidak.server.app``) opens the resources and keeps them on
``app.state.services``; a capability never imports the app. It names what it uses as a
:class:`typing.Protocol` (this one, or its own that extends it with its services) and reaches
it through a FastAPI dependency, so every import points down: app -> capabilities -> shared.
"""

from __future__ import annotations

import math
from typing import Annotated, Protocol

from fastapi import Depends, HTTPException, Request

from bidak.server.shared.bus import Bus
from bidak.server.shared.clocks import Clock
from bidak.server.shared.limiter import Limits
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import Database


class SharedServices(Protocol):
    """The shared machinery the app opened (read-only here)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def db(self) -> Database: ...
    @property
    def bus(self) -> Bus: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def limits(self) -> Limits: ...


async def shared_services(request: Request) -> SharedServices:
    services: SharedServices = request.app.state.services
    return services


SharedDep = Annotated[SharedServices, Depends(shared_services)]


def site_address(request: Request, services: SharedServices) -> str:
    """The address the links the site writes begin with: ``BIDAK_PUBLIC_URL``, or (without it,
    in development) the request's own origin, which the site guard let through only for a
    loopback or listening address, never a host the client made up."""
    public = services.settings.public_url.rstrip("/")
    if public:
        return public
    origin: str | None = request.app.site.expected(request.scope)
    if origin is None:  # the guard refuses such a request before any route runs
        raise HTTPException(400, "Unknown host")
    return origin


def too_soon(wait: float, what: str) -> None:
    """Refuse with 429 and a Retry-After when a limit says ``wait`` seconds (0: go ahead)."""
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise HTTPException(
            429,
            f"Too many {what} at once; try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
        )
