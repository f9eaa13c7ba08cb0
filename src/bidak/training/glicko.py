"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its deviation and
its volatility, moved by the results of one rating period. Pure: standard library only.

Written here rather than taken from PyPI: ``glicko2`` 2.1.0 computes step 5's function with the
rating where the deviation belongs (``_f`` squares ``self.__rating``) and its wheel installs a
top-level ``tests`` package that would shadow this repository's; the other packages are first
releases. The test is the paper's worked example (tests/test_training.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""Glicko-2's scale: rating = SCALE * mu + 1500."""
TAU: Final = 0.5
"""The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2)."""
EPSILON: Final = 0.000001
"""The convergence tolerance of step 5's iteration."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: 1500 and a deviation of 350 for a newcomer."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period with ``results``: (opponent, score) pairs, the score
    1 for a win, 0 for a loss, 0.5 for a draw. No results: only the deviation grows (step 6).

    >>> after = rate(Rating(1500, 200), [(Rating(1400, 30), 1), (Rating(1550, 100), 0)])
    >>> round(after.rating) > 1400
    True
    """
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    games = [((o.rating - 1500) / SCALE, o.deviation / SCALE, s) for o, s in results]
    if not games:
        grown = math.sqrt(phi * phi + player.volatility**2)
        return Rating(player.rating, grown * SCALE, player.volatility)
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in games:
        e = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * e * (1 - e)
        improvement += _g(phi_j) * (score - e)
    v = 1 / v_inverse
    delta = v * improvement
    sigma = _volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + 1500, SCALE * phi_new, sigma)
