"""Server tests run a real server on a loopback port (anyio's pytest plugin drives them)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
