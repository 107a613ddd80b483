"""Result objects of the tests, in the style of scipy.stats.

Every result has ``statistic``, ``pvalue``, ``alternative`` and ``method``; resampling tests
of many system pairs at once hold arrays over pairs, and ``result[i]`` is pair ``i``'s result
(scalars).  ``confidence_interval`` is a :class:`ConfidenceInterval` named tuple
``(low, high)`` where the test gives one, else ``None``.  ``statistic, pvalue = result``
unpacks as with scipy.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

ALTERNATIVES = ("two-sided", "greater", "less")


def check_alternative(alternative: str) -> str:
    """``alternative`` if it is one of :data:`ALTERNATIVES`, else a ValueError naming it."""
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    return alternative


def check_confidence_level(confidence_level: float) -> float:
    if not 0 < confidence_level < 1:
        raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level}")
    return float(confidence_level)


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)`` (arrays over pairs for many pairs)."""

    low: Any
    high: Any


def _pick(value, item):
    if isinstance(value, np.ndarray) and value.ndim:
        return value[item]
    if isinstance(value, ConfidenceInterval):
        return ConfidenceInterval(_pick(value.low, item), _pick(value.high, item))
    return value


@dataclass(frozen=True)
class TestResult:
    """Common fields of every test result (see the module docstring)."""

    statistic: Any
    pvalue: Any
    alternative: str
    method: str

    __test__ = False  # not a pytest test class

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __len__(self) -> int:
        """Number of pairs (1 for a scalar result)."""
        return int(np.size(self.statistic))

    def __getitem__(self, item):
        """The result of pair ``item`` when many pairs were tested at once."""
        changes = {f.name: _pick(getattr(self, f.name), item) for f in dataclasses.fields(self)
                   if f.name not in ("alternative", "method", "pvalue_method", "pvalue_rule", "n_resamples")}
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class ClassicalTestResult(TestResult):
    """A classical test from scipy/statsmodels.

    ``statistic`` is the test's own statistic (t, z, U, W, chi-square, the number of wins of
    the sign test); ``df`` its degrees of freedom where it has them; ``counts`` the
    discordant counts or wins/losses a count-based test was computed from.
    """

    df: Any = None
    counts: Any = None


@dataclass(frozen=True)
class BootstrapResult(TestResult):
    """Paired bootstrap over items (or clusters) for one or many (A, B) pairs.

    ``statistic``: observed improvement of A over B in metric units (for a lower-is-better
    metric, B's value minus A's); ``confidence_interval``: percentile interval of that
    improvement; ``scores``: (pairs, 2) observed metric values of A and B.
    """

    confidence_interval: ConfidenceInterval | None = None
    pairs: Any = None
    scores: Any = None
    n_resamples: int = 0
    pvalue_method: str = "shift"
    pvalue_rule: str = "add-one"


@dataclass(frozen=True)
class RandomizationResult(TestResult):
    """Randomization (stratified shuffling) test for one or many (A, B) pairs.

    ``n_resamples``: shuffles drawn (``None`` for the exact tests); ``n_extreme``: shuffles at
    least as extreme as observed (approximate and enumerated tests); ``n_permutations``: the
    number of equally likely shuffles (enumeration); ``n_kinds``: kinds of discordant items
    (stratified convolution).
    """

    confidence_interval: ConfidenceInterval | None = None
    pairs: Any = None
    n_resamples: int | None = None
    n_extreme: Any = None
    n_permutations: Any = None
    n_kinds: Any = None


@dataclass(frozen=True)
class ScoreIntervals:
    """Each system's score with a confidence interval (:func:`simstats.bootstrap_scores`).

    Attributes
    ----------
    scores : numpy.ndarray
        Observed score per system.
    confidence_interval : ConfidenceInterval
        ``(low, high)`` arrays, one value per system.
    confidence_level : float
        Level of the two-sided intervals.
    n_resamples : int
        Bootstrap replicates the intervals come from.
    method : str
        How the intervals were computed.

    Examples
    --------
    >>> import numpy as np
    >>> res = ScoreIntervals(np.array([0.8]), ConfidenceInterval(np.array([0.7]), np.array([0.9])), 0.95, 1000,
    ...                      "percentile bootstrap intervals (resampling items)")
    >>> scores, low, high = res
    >>> float(high[0] - low[0])
    0.20000000000000007
    """

    scores: Any
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_resamples: int
    method: str

    def __iter__(self):
        """``scores, low, high`` (the tuple this function returned before it had a result object)."""
        return iter((self.scores, self.confidence_interval.low, self.confidence_interval.high))
