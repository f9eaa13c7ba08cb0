"""The fair-play signal: play far stronger than people play, held over many decisions. Pure:
standard library only.

Bidak judges every decision of a rated match (:mod:`bidak.engine.judging`); a player's recent
rated matches give a PR, and the PR of the bots that would help a cheat (0.2 to 1 at our review
depths) lies far below what people play. The human reference is 580 player PRs from 290
seven-point tournament matches of 2026, reviewed by two engines: mean 4.36, SD 2.08, 95% of them
between 1.52 and 9.36 (:data:`HUMAN`). The signal is a reason for a moderator to look, never a
verdict: nothing is done to a flagged player until a person decides.

How a window is judged (:func:`judge`), over the player's last :data:`WINDOW` rated matches with
at least :data:`MIN_DECISIONS` counted decisions among them:

- the window's PR is the equity lost over all its decisions, x 500, over their number (each
  decision weighs the same, as in one long match);
- its standard error comes from the decisions themselves (the sum of the squared losses), so a
  window of few decisions needs a lower PR to be flagged than one of many;
- the bound is PR + :data:`Z_BOUND` standard errors: the window is flagged when even this bound
  lies below the threshold, :data:`THRESHOLD` PR, i.e. when the player is, with about 97.7%
  confidence, playing better than PR 1.65 over ten matches, which about 1 in 30 people of the
  reference manage in a single match and, by the same reference, hardly anybody holds for ten;
- steady move times (engine help tends to a fixed delay: read the position, ask, play) raise
  the threshold by up to :data:`STEADY_BONUS`: a coefficient of variation of the think times of
  :data:`STEADY_CV` or less counts fully, :data:`HUMAN_CV` or more not at all. Steadiness alone
  never flags anybody.

``docs/fair-play.md`` shows the figures behind these numbers (the bots' windows, a simulated
population and the false-positive estimate for a person of PR 2.0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 10
"""How many of a player's most recent reviewed rated matches the signal looks at."""
MIN_DECISIONS = 300
"""Fewer counted decisions than this in the window: no judgement (too little evidence)."""
THRESHOLD = 1.65
"""The PR a window's bound must lie below to be flagged, with move times like people's."""
STEADY_BONUS = 0.1
"""How much fully steady move times raise the threshold."""
STEADY_CV = 0.2
"""Think times whose coefficient of variation is at most this are fully steady."""
HUMAN_CV = 0.5
"""From this coefficient of variation up the think times are like people's (no bonus)."""
Z_BOUND = 2.0
"""How many standard errors above the window's PR its bound lies (one-sided, about 97.7%)."""
MIN_TIMES = 30
"""Fewer timed decisions than this: the move times say nothing (no steadiness)."""
PR_SCALE = 500.0
"""PR is equity lost per decision x 500 (docs/analysis.md)."""


@dataclass(frozen=True)
class Baseline:
    """People's PR per match as a log-normal distribution fitted to a reference's 95% range."""

    mean: float
    sd: float
    low: float
    high: float

    @property
    def mu(self) -> float:
        """The mean of ln PR."""
        return (math.log(self.low) + math.log(self.high)) / 2

    @property
    def sigma(self) -> float:
        """The standard deviation of ln PR."""
        return (math.log(self.high) - math.log(self.low)) / (2 * 1.959964)

    def percentile(self, pr: float) -> float:
        """The share of people's match PRs below ``pr`` (0 to 1), by the fitted distribution."""
        if pr <= 0:
            return 0.0
        z = (math.log(pr) - self.mu) / self.sigma
        return 0.5 * math.erfc(-z / math.sqrt(2))


HUMAN = Baseline(mean=4.36, sd=2.08, low=1.52, high=9.36)
"""580 player PRs of 290 seven-point matches of 2026 tournaments, reviewed by two engines."""


@dataclass(frozen=True)
class MatchFigures:
    """One player's figures in one reviewed match.

    ``loss`` is the equity lost over the ``decisions`` counted decisions and ``squares`` the sum
    of the squared losses; ``times`` timed decisions took ``seconds`` in all, with
    ``seconds_squared`` the sum of their squares.
    """

    decisions: int
    loss: float
    squares: float
    times: int = 0
    seconds: float = 0.0
    seconds_squared: float = 0.0

    def __post_init__(self) -> None:
        if self.decisions < 0 or self.times < 0:
            raise ValueError("counts are never negative")
        if self.loss < 0 or self.squares < 0 or self.seconds < 0 or self.seconds_squared < 0:
            raise ValueError("losses and times are never negative")

    @property
    def pr(self) -> float:
        return PR_SCALE * self.loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Signal:
    """What a window of matches says (see the module's docstring)."""

    matches: int
    decisions: int
    pr: float
    """The window's PR (0.0 with no decision)."""
    standard_error: float
    bound: float
    """PR + Z_BOUND standard errors: how well the player plays at best, with ~97.7% confidence."""
    cv: float | None
    """The coefficient of variation of the think times (None: too few timed decisions)."""
    steadiness: float
    """0 (times like people's) to 1 (a steady delay)."""
    threshold: float
    enough: bool
    """Whether the window holds at least MIN_DECISIONS counted decisions."""
    flagged: bool
    strength: float
    """How far the bound lies below the threshold, in PR points (negative: not flagged);
    moderators' queue sorts by it."""
    percentile: float
    """The share of people's match PRs below the window's PR (:data:`HUMAN`)."""


def steadiness(cv: float | None) -> float:
    """0 for think times as varied as people's, 1 for a steady delay, linear in between."""
    if cv is None:
        return 0.0
    return min(1.0, max(0.0, (HUMAN_CV - cv) / (HUMAN_CV - STEADY_CV)))


def think_cv(matches: Sequence[MatchFigures]) -> float | None:
    """The coefficient of variation (SD / mean) of all the think times of ``matches``; None
    with fewer than :data:`MIN_TIMES` timed decisions or a mean of 0."""
    n = sum(m.times for m in matches)
    if n < MIN_TIMES:
        return None
    total = sum(m.seconds for m in matches)
    mean = total / n
    if mean <= 0:
        return None
    variance = max(0.0, sum(m.seconds_squared for m in matches) / n - mean * mean)
    return math.sqrt(variance) / mean


def judge(matches: Sequence[MatchFigures]) -> Signal:
    """The signal of a window: pass the player's last :data:`WINDOW` reviewed rated matches
    (more are cut to the most recent, which come first)."""
    window = list(matches[:WINDOW])
    n = sum(m.decisions for m in window)
    loss = sum(m.loss for m in window)
    squares = sum(m.squares for m in window)
    mean = loss / n if n else 0.0
    variance = max(0.0, squares / n - mean * mean) if n else 0.0
    error = PR_SCALE * math.sqrt(variance / n) if n else 0.0
    pr = PR_SCALE * mean
    bound = pr + Z_BOUND * error
    cv = think_cv(window)
    steady = steadiness(cv)
    threshold = THRESHOLD + STEADY_BONUS * steady
    enough = n >= MIN_DECISIONS
    flagged = enough and bound < threshold
    return Signal(
        matches=len(window),
        decisions=n,
        pr=pr,
        standard_error=error,
        bound=bound,
        cv=cv,
        steadiness=steady,
        threshold=threshold,
        enough=enough,
        flagged=flagged,
        strength=threshold - bound if enough else -math.inf,
        percentile=HUMAN.percentile(pr),
    )


def figures_of(losses: Sequence[float], think_seconds: Sequence[float] = ()) -> MatchFigures:
    """One match's figures from its counted decisions' losses and the think times."""
    return MatchFigures(
        decisions=len(losses),
        loss=sum(losses),
        squares=sum(x * x for x in losses),
        times=len(think_seconds),
        seconds=sum(think_seconds),
        seconds_squared=sum(s * s for s in think_seconds),
    )


LEAVER_WINDOW = 10
"""How many of a player's last rated matches count for leaving often."""
LEAVER_LIMIT = 3
"""Leaving this many of the last LEAVER_WINDOW rated matches makes a frequent leaver."""

LEAVER_WAIT = 60.0
"""Seconds a frequent leaver waits in quick match before anybody may be paired with them."""


def leaves_often(left: Sequence[bool]) -> bool:
    """Whether a player who left the rated matches marked True (most recent first) leaves
    often: :data:`LEAVER_LIMIT` of the last :data:`LEAVER_WINDOW`."""
    return sum(left[:LEAVER_WINDOW]) >= LEAVER_LIMIT


__all__ = [
    "HUMAN",
    "LEAVER_LIMIT",
    "LEAVER_WAIT",
    "LEAVER_WINDOW",
    "MIN_DECISIONS",
    "STEADY_BONUS",
    "THRESHOLD",
    "WINDOW",
    "Z_BOUND",
    "Baseline",
    "MatchFigures",
    "Signal",
    "figures_of",
    "judge",
    "leaves_often",
    "steadiness",
    "think_cv",
]
