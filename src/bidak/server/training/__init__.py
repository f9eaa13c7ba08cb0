"""Training from one's own mistakes: the blunder bank (cards from reviewed matches, banked by
``analysis`` through :func:`bank_review`), the daily drill with spaced repetition (FSRS), and
puzzles from everybody's clear cards, rated by Glicko-2.

``queries`` holds the transactions, ``service`` the use cases on the injected clock,
``schedule`` the ``fsrs`` scheduler, ``routes`` the HTTP API. The rules themselves (which
decisions become cards, phase and theme, grading, the streak) are the pure :mod:`bidak.training`.
"""

from bidak.server.training.service import Training, bank_review

__all__ = ["Training", "bank_review"]
