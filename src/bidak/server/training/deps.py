"""What training's routes use of the running server: the shared machinery and the drill."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.shared.deps import SharedServices
from bidak.server.training.service import Training


class TrainingServices(SharedServices, Protocol):
    @property
    def training(self) -> Training: ...


async def services_of(request: Request) -> TrainingServices:
    services: TrainingServices = request.app.state.services
    return services


TrainingDep = Annotated[TrainingServices, Depends(services_of)]
