"""``bidak serve`` for the fault runs (:mod:`tests.server.faults`), with shorter move clocks.

``python -m tests.server.fault_server PORT`` serves the app the environment describes
(``BIDAK_*``, as ``bidak serve`` reads it) on 127.0.0.1:PORT. Rooms offer 30 seconds a move at
the least; ``BIDAK_FAULTS_CLOCK_SCALE`` (say ``0.1``) shortens every deadline by that factor, so
a run can watch a stalled player's clock fire within seconds.
"""

from __future__ import annotations

import os
import sys

import uvicorn

from bidak.match import MatchState
from bidak.server.app import create_app
from bidak.server.play import service, timeouts
from bidak.server.play.room import Room
from bidak.server.shared.settings import Settings


def main() -> None:
    scale = float(os.environ.get("BIDAK_FAULTS_CLOCK_SCALE", "1"))
    deadline = timeouts.deadline

    def shorter(room: Room, state: MatchState, now: float) -> tuple[float | None, int | None]:
        at, version = deadline(room, state, now)
        return (None if at is None else now + (at - now) * scale), version

    service.deadline = shorter  # type: ignore[attr-defined]  # as the rooms service calls it
    app = create_app(Settings())
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")


if __name__ == "__main__":
    main()
