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

__all__ = ["TestResult", "ClassicalTestResult", "BootstrapResult", "RandomizationResult", "ConfidenceInterval",
           "ScoreIntervals", "ALTERNATIVES"]

#: The alternatives a test takes (``alternative=``); "greater": A (or the first sample) is better.
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
    """A confidence interval ``(low, high)`` (arrays over pairs for many pairs).

    Attributes
    ----------
    low : float or numpy.ndarray
        Lower limit (one per pair when many pairs were tested at once).
    high : float or numpy.ndarray
        Upper limit.

    Examples
    --------
    >>> ci = ConfidenceInterval(0.012, 0.048)
    >>> low, high = ci
    >>> ci.low, round(high - low, 3)
    (0.012, 0.036)
    """

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
    """Common fields of every test result (see the module docstring).

    A result of many pairs holds arrays over pairs: ``len(result)`` is the number of pairs and
    ``result[i]`` pair i's result (scalars); ``statistic, pvalue = result`` unpacks as with scipy.

    Attributes
    ----------
    statistic : float or numpy.ndarray
        The test's statistic (for the resampling tests, the observed improvement of A over B).
    pvalue : float or numpy.ndarray or None
        The p-value (None where the method gives none, as ASO).
    alternative : str
        "two-sided", "greater" or "less" (:data:`ALTERNATIVES`).
    method : str
        The computation, in words.

    Examples
    --------
    >>> import numpy as np
    >>> res = TestResult(np.array([0.02, -0.01]), np.array([0.03, 0.6]), "two-sided", "an example")
    >>> len(res)
    2
    >>> statistic, pvalue = res[0]
    >>> float(statistic), float(pvalue)
    (0.02, 0.03)
    """

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

    Attributes
    ----------
    statistic : float
        The test's own statistic (t, z, U, W, chi-square, the number of wins of the sign test).
    pvalue : float
        The p-value.
    alternative : str
        "two-sided", "greater" or "less".
    method : str
        The test's name.
    df : float or None
        Its degrees of freedom where it has them.
    counts : dict or None
        The discordant counts or wins/losses a count-based test was computed from.

    Examples
    --------
    >>> import scipy.stats
    >>> from simstats import welch_t_test
    >>> a, b = [0.80, 0.82, 0.81, 0.79, 0.83], [0.78, 0.80, 0.79, 0.77, 0.84]
    >>> res = welch_t_test(a, b)
    >>> round(res.statistic, 4), round(res.df, 2), round(res.pvalue, 4)
    (1.0, 6.45, 0.3533)
    >>> ref = scipy.stats.ttest_ind(a, b, equal_var=False)
    >>> round(float(ref.statistic), 4), round(float(ref.df), 2), round(float(ref.pvalue), 4)
    (1.0, 6.45, 0.3533)
    """

    df: Any = None
    counts: Any = None


@dataclass(frozen=True)
class BootstrapResult(TestResult):
    """Paired bootstrap over items (or clusters) for one or many (A, B) pairs.

    The result of :func:`simstats.paired_bootstrap`.

    Attributes
    ----------
    statistic : numpy.ndarray
        Observed improvement of A over B in metric units (for a lower-is-better metric, B's
        value minus A's), one per pair.
    pvalue : numpy.ndarray
        One p-value per pair.
    alternative : str
        "two-sided", "greater" (A is better) or "less".
    method : str
        The computation, in words.
    confidence_interval : ConfidenceInterval or None
        Percentile interval of the improvement (None when no level was asked for).
    pairs : numpy.ndarray
        (pairs, 2) system indices of A and B.
    scores : numpy.ndarray
        (pairs, 2) observed metric values of A and B.
    n_resamples : int
        Bootstrap replicates B.
    pvalue_method : str
        Which replicates counted as extreme ("shift", "percentile" or "sacrebleu").
    pvalue_rule : str
        How the count became a p-value ("add-one" or "fraction").

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, paired_bootstrap
    >>> correct = np.array([[1, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 0, 1, 0, 1]])
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = paired_bootstrap(stats, accuracy, n_resamples=999, rng=0)
    >>> res.scores.tolist(), res.statistic.tolist(), res.pairs.tolist()
    ([[0.75, 0.5]], [0.25], [[0, 1]])
    >>> res.pvalue_method, res.pvalue_rule, res.n_resamples
    ('shift', 'add-one', 999)
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

    The result of :func:`simstats.randomization_test`.

    Attributes
    ----------
    statistic : numpy.ndarray
        Observed improvement of A over B, one per pair.
    pvalue : numpy.ndarray
        One p-value per pair.
    alternative : str
        "two-sided", "greater" (A is better) or "less".
    method : str
        The computation, in words.
    confidence_interval : ConfidenceInterval or None
        None from the test itself (``simstats compare`` adds the bootstrap's).
    pairs : numpy.ndarray
        (pairs, 2) system indices of A and B.
    n_resamples : int or None
        Shuffles drawn (``None`` for the exact tests).
    n_extreme : numpy.ndarray or None
        Shuffles at least as extreme as observed (approximate and enumerated tests).
    n_permutations : numpy.ndarray or None
        The number of equally likely shuffles (enumeration).
    n_kinds : numpy.ndarray or None
        Kinds of discordant items (stratified convolution).

    Examples
    --------
    A is right on 3 items where B is wrong, B on 1 where A is wrong; the exact test enumerates
    the 2^4 shuffles of these 4 items:

    >>> import numpy as np
    >>> from simstats import accuracy, randomization_test
    >>> correct = np.array([[1, 1, 1, 0, 1, 1], [0, 0, 1, 1, 1, 0]])
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = randomization_test(stats, accuracy, method="exact")
    >>> res.n_extreme.tolist(), res.n_permutations.tolist(), res.pvalue.tolist()
    ([10], [16], [0.625])

    which is the two-sided sign test of 3 wins in 4:

    >>> from scipy.stats import binomtest
    >>> float(binomtest(3, 4).pvalue)
    0.625
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
