"""What the wallet's routes use of the running server: the shared machinery and the wallets."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.shared.deps import SharedServices
from bidak.server.wallet.service import Wallets


class WalletServices(SharedServices, Protocol):
    @property
    def wallets(self) -> Wallets: ...


async def services_of(request: Request) -> WalletServices:
    services: WalletServices = request.app.state.services
    return services


WalletDep = Annotated[WalletServices, Depends(services_of)]
