"""The ``bidak`` command line (Typer + Rich)."""

from __future__ import annotations

from bidak.cli.app import app, main

__all__ = ["app", "main"]
