"""What hints and reviews use of the running server: playing's services and the two pools."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.analysis.analyst import Analyst
from bidak.server.play import PlayServices
from bidak.server.training import Training


class AnalysisServices(PlayServices, Protocol):
    @property
    def hints(self) -> Analyst: ...
    @property
    def reviews(self) -> Analyst: ...
    @property
    def training(self) -> Training: ...


async def services_of(request: Request) -> AnalysisServices:
    services: AnalysisServices = request.app.state.services
    return services


AnalysisDep = Annotated[AnalysisServices, Depends(services_of)]
