"""Turning Bidak errors into a readable message and a non-zero exit, never a traceback."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console

from bidak.errors import BidakError

P = ParamSpec("P")
R = TypeVar("R")

stderr = Console(stderr=True)


@contextmanager
def readable_errors() -> Iterator[None]:
    try:
        yield
    except BidakError as error:
        stderr.print(f"[bold red]error:[/] {error}")
        raise typer.Exit(2) from None


def friendly(command: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command so a BidakError prints as one line and exits with status 2."""

    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with readable_errors():
            return command(*args, **kwargs)

    return run
