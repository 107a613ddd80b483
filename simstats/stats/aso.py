"""Almost Stochastic Order (ASO; del Barrio et al. 2018, Dror et al. 2019).

Scores of algorithm A (distribution F, n runs) and B (G, m runs).  The violation ratio

    eps_W2(F, G) = int_{F^-1(t) < G^-1(t)} (F^-1 - G^-1)^2 dt / int_0^1 (F^-1 - G^-1)^2 dt

is 0 when A is stochastically larger than B and 1 in the reverse case, and
eps_W2(F, G) = 1 - eps_W2(G, F).  The test reports

    eps_min = eps_W2(F_n, G_m) + Phi^-1(1 - alpha) * sigma_hat * sqrt((n + m) / (n m)),

clipped to [0, 1], with sigma_hat the sd of sqrt(nm / (n + m)) (eps* - eps) over bootstrap
resamples of both samples; A is declared better when eps_min < 0.5 (smaller = closer to
stochastic dominance).  Conventions as deepsig >= 1.2.4 (alpha = 1 - confidence level;
Bonferroni by dividing alpha by the number of comparisons; eps = 0.5 when the two quantile
functions coincide), with two differences, both documented in the README:

* integration: ``method="exact"`` integrates the two empirical quantile functions (step
  functions, F^-1(t) = x_(ceil(n t))) exactly over their merged breakpoints;
  ``method="grid"`` uses deepsig's grid t = dt, 2 dt, ... < 1, but counts the first grid
  point in the violation integral too (deepsig drops it from the numerator only, which
  matters when the lowest scores differ a lot); ``method="deepsig"`` reproduces that;
* a minimum-sample-size guard: fewer than MIN_SCORES scores per algorithm is an error,
  fewer than WARN_SCORES a warning (the bootstrap sd behind eps_min is unreliable there).

Building blocks, public for other conventions built on them (a paper's own computation, for
instance): :func:`quantile_layout` (where the two quantile functions are
read and with which weights), :func:`sorted_resample_indices` (bootstrap resamples of any size, each
sorted), :func:`resampled_violation_ratios` (one violation ratio per resample) and
:func:`checked_scores` / :func:`alpha_level` (the input checks and the Bonferroni level of :func:`aso`).

Every sum over a layout's points is a fixed pairwise tree per replicate (:func:`simstats.stats.engine.column_sums`), so a
replicate's violation ratio does not depend on how many replicates are computed together, on the BLAS
library or on the CPU.
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations

import numpy as np
import pandas as pd

from simstats.stats.engine import as_generator, column_sums
from simstats.stats.results import TestResult, check_confidence_level
from simstats.stats import conventions
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import ItemIndices

special = lazy_module("scipy.special")

__all__ = ["aso", "multi_aso", "violation_ratio", "cos_verdict", "ASOResult", "SmallSampleWarning", "NOT_A_TEST",
           "METHODS", "aso_methods", "quantile_layout", "QuantileLayout", "sorted_resample_indices", "resampled_violation_ratios",
           "checked_scores", "alpha_level"]

MIN_SCORES = 3
WARN_SCORES = 10
METHODS = ("exact", "grid", "deepsig")


def aso_methods() -> tuple[str, ...]:
    """The ASO computations :func:`aso` accepts: :data:`METHODS` and the registered ones.

    Returns
    -------
    tuple of str
        The generic methods, then the names registered as ASO methods in :mod:`simstats.stats.conventions`
        (by entry point or at run time), sorted.

    Examples
    --------
    >>> aso_methods()[:3]
    ('exact', 'grid', 'deepsig')
    """
    return METHODS + tuple(n for n in conventions.names("aso_methods") if n not in METHODS)


class SmallSampleWarning(UserWarning):
    """ASO on fewer than WARN_SCORES scores per algorithm.

    eps_min's bootstrap sd is unreliable with so few scores; the warning names the sample.

    Attributes
    ----------
    args : tuple of str
        The message, as for every warning.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     res = aso([0.80, 0.82, 0.81, 0.79, 0.83], [0.78, 0.80, 0.79, 0.77, 0.81], rng=0)
    >>> [w.category.__name__ for w in caught]
    ['SmallSampleWarning', 'SmallSampleWarning']
    >>> str(caught[0].message)
    "ASO with 5 scores in scores_a: fewer than 10, eps_min's bootstrap sd is unreliable"
    """


# --------------------------------------------------------------------------- layouts
@dataclass(frozen=True, eq=False)
class QuantileLayout:
    """Where the integrals of ASO read the two quantile functions, and with which weights.

    The integrand at point j is (G^-1 - F^-1)^2 with F^-1 = a_sorted[ia[j]] and
    G^-1 = b_sorted[ib[j]]; ``w_total[j]`` > 0 and ``w_violation[j]`` (between 0 and w_total[j])
    weight it in the whole integral and in the violation integral (where G^-1 > F^-1).  Made by
    :func:`quantile_layout`.

    Attributes
    ----------
    ia : numpy.ndarray of int
        Index of F^-1 (into the sorted scores of A) at each point.
    ib : numpy.ndarray of int
        Index of G^-1 (into the sorted scores of B) at each point.
    w_total : numpy.ndarray
        Weight of each point in the whole integral (> 0).
    w_violation : numpy.ndarray
        Weight of each point in the violation integral (0 <= w_violation <= w_total).

    Raises
    ------
    ValueError
        If the arrays differ in length, are empty, or the weights break these bounds.

    Examples
    --------
    Two points of weight 1/2 (the exact layout of two samples of two scores):

    >>> import numpy as np
    >>> layout = QuantileLayout(np.array([0, 1]), np.array([0, 1]), np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    >>> violation_ratio([1.0, 2.0], [0.0, 4.0], layout=layout)                # (4 - 2)^2 / (1 + 4)
    0.8
    """

    ia: np.ndarray
    ib: np.ndarray
    w_total: np.ndarray
    w_violation: np.ndarray
    #: sqrt(w_total) as a column, None when the weights are all equal (they cancel in the ratio)
    _scale: np.ndarray | None = field(init=False, repr=False)
    #: points whose violation weight is below the total weight, and sqrt of the weights' ratio there
    _partial: np.ndarray = field(init=False, repr=False)
    _partial_scale: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        w_total, w_violation = np.asarray(self.w_total, float), np.asarray(self.w_violation, float)
        if not (w_total.ndim == 1 and w_total.shape == w_violation.shape == np.shape(self.ia) == np.shape(self.ib)
                and w_total.size and np.all(w_total > 0) and np.all((0 <= w_violation) & (w_violation <= w_total))):
            raise ValueError("a layout needs ia, ib, w_total > 0 and 0 <= w_violation <= w_total of one length")
        partial = np.flatnonzero(w_violation != w_total)
        object.__setattr__(self, "_scale", None if np.all(w_total == w_total[0]) else np.sqrt(w_total)[:, None])
        object.__setattr__(self, "_partial", partial)
        object.__setattr__(self, "_partial_scale", np.sqrt(w_violation[partial] / w_total[partial])[:, None])


def _collapse(ia: np.ndarray, ib: np.ndarray, w_total: np.ndarray, w_violation: np.ndarray) -> QuantileLayout:
    """Merge repeated (ia, ib) index pairs, adding their weights (same integral, fewer terms)."""
    pairs, inverse = np.unique(np.stack([ia, ib], axis=1), axis=0, return_inverse=True)
    inverse = inverse.ravel()
    return QuantileLayout(pairs[:, 0], pairs[:, 1], np.bincount(inverse, w_total, len(pairs)),
                          np.bincount(inverse, w_violation, len(pairs)))


def _exact_layout(n: int, m: int) -> QuantileLayout:
    """Quantile indices of A and B and widths of the merged step intervals (exact rationals)."""
    lcm = n * m // math.gcd(n, m)
    ends = np.union1d(np.arange(1, n + 1) * (lcm // n), np.arange(1, m + 1) * (lcm // m))
    widths = np.diff(np.r_[0, ends]) / lcm
    ia = -(-ends // (lcm // n)) - 1      # ceil(n t) - 1 at the interval's right end
    ib = -(-ends // (lcm // m)) - 1
    return QuantileLayout(ia, ib, widths, widths)


def _grid_layout(n: int, m: int, dt: float, skip_first: bool = False, start: float | None = None) -> QuantileLayout:
    t = np.arange(dt if start is None else start, 1, dt)
    ia = np.clip(np.ceil(n * t).astype(np.int64) - 1, 0, n - 1)
    ib = np.clip(np.ceil(m * t).astype(np.int64) - 1, 0, m - 1)
    w_total = np.full(t.size, dt)
    w_violation = w_total.copy()
    if skip_first:
        w_violation[0] = 0.0
    return _collapse(ia, ib, w_total, w_violation)


def quantile_layout(n: int, m: int, method: str = "exact", dt: float = 0.005, *,
                    start: float | None = None) -> QuantileLayout:
    """The layout of ``method`` for samples of n and m scores, its arrays read-only and cached.

    Parameters
    ----------
    n, m : int
        Scores of A and of B.
    method : {"exact", "grid", "deepsig"}
        The integration (module docstring): the merged breakpoints of the two step functions,
        deepsig's grid t = dt, 2 dt, ... < 1, or that grid without its first point in the
        violation integral (deepsig's own).
    dt : float
        Grid step of the grid methods, in (0, 1).
    start : float, optional
        First point of the grid methods (default ``dt``; 0 adds t = 0, a left Riemann sum);
        ignored by "exact".

    Returns
    -------
    QuantileLayout
        Points and weights; repeated (ia, ib) points of a grid are merged, their weights added.

    Raises
    ------
    ValueError
        If ``method`` is unknown, or ``dt`` or ``start`` is outside its range.

    Examples
    --------
    Two scores of A and three of B: F^-1 steps at t = 1/2 and G^-1 at t = 1/3 and 2/3, so the
    exact layout has four intervals, of widths 2/6, 1/6, 1/6 and 2/6:

    >>> layout = quantile_layout(2, 3)
    >>> layout.ia.tolist(), layout.ib.tolist(), (layout.w_total * 6).round(6).tolist()
    ([0, 0, 1, 1], [0, 1, 1, 2], [2.0, 1.0, 1.0, 2.0])

    The grid t = 0.25, 0.5, 0.75; deepsig leaves its first point out of the violation integral:

    >>> grid = quantile_layout(2, 3, "grid", dt=0.25)
    >>> grid.ia.tolist(), grid.ib.tolist(), grid.w_violation.tolist()
    ([0, 0, 1], [0, 1, 2], [0.25, 0.25, 0.25])
    >>> quantile_layout(2, 3, "deepsig", dt=0.25).w_violation.tolist()
    [0.0, 0.25, 0.25]
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method != "exact" and not 0 < dt < 1:
        raise ValueError(f"dt must be in (0, 1), got {dt}")
    if method != "exact" and start is not None and not 0 <= start < 1:
        raise ValueError(f"start must be in [0, 1), got {start}")
    return _cached_layout(int(n), int(m), method, float(dt), None if method == "exact" or start is None
                          else float(start))


@lru_cache(maxsize=64)
def _cached_layout(n: int, m: int, method: str, dt: float, start: float | None) -> QuantileLayout:
    """The layout of (n, m, method, dt, start), its arrays read-only (computed once per process)."""
    if method == "exact":
        layout = _exact_layout(n, m)
    else:
        layout = _grid_layout(n, m, dt, skip_first=method == "deepsig", start=start)
    for x in (layout.ia, layout.ib, layout.w_total, layout.w_violation):
        x.setflags(write=False)
    return layout


# --------------------------------------------------------------------------- violation ratios
#: Values per block of :func:`resampled_violation_ratios` (points x replicates; 512 KB of float64).
_BLOCK_VALUES = 65536


def _ratios_of_differences(diff: np.ndarray, layout: QuantileLayout, coincide: float) -> np.ndarray:
    """Violation ratio of each column of ``diff`` = G^-1 - F^-1 at the layout's points, shape
    (points, columns); ``diff`` is overwritten.  ``coincide`` where a column is all zeros."""
    if layout._scale is not None:               # squares: w (G^-1 - F^-1)^2 (equal weights cancel in the ratio)
        diff *= layout._scale
    sq = diff * diff
    total = column_sums(sq)
    np.maximum(diff, 0.0, out=diff)             # G^-1 > F^-1: a violation
    if layout._partial.size:
        diff[layout._partial] *= layout._partial_scale
    np.multiply(diff, diff, out=diff)
    violation = column_sums(diff)
    return np.divide(violation, total, out=np.full(total.shape, float(coincide)), where=total > 0)


def _sorted_values(x: np.ndarray, idx: np.ndarray, points: np.ndarray) -> np.ndarray:
    """x[idx[:, points]].T, a (points, replicates) array, for a block of resample indices."""
    if points.size < idx.shape[1]:                  # few points (a grid): pick them first
        return x.take(idx[:, points].T)
    return x.take(idx.T).take(points, axis=0)


def resampled_violation_ratios(a_sorted: np.ndarray, idx_a: np.ndarray, b_sorted: np.ndarray, idx_b: np.ndarray,
                               layout: QuantileLayout, *, coincide: float = 0.5,
                               block_values: int = _BLOCK_VALUES) -> np.ndarray:
    """One violation ratio per pair of bootstrap resamples of the two samples.

    The ratio of the sorted resamples ``a_sorted[idx_a[r]]`` and ``b_sorted[idx_b[r]]`` (rows of
    :func:`sorted_resample_indices`), read at ``layout``'s points.

    Parameters
    ----------
    a_sorted, b_sorted : numpy.ndarray
        The scores of A and of B, sorted.
    idx_a, idx_b : numpy.ndarray of int
        Sorted resample indices into them, one row per resample (the same number of rows).
    layout : QuantileLayout
        A layout of the resamples' sizes (:func:`quantile_layout`).
    coincide : float
        The value where the two quantile functions coincide (0.5 as deepsig).
    block_values : int
        Computed in blocks of about ``block_values`` values that stay in the cache; each
        replicate's value is the same whatever the block size
        (:func:`simstats.stats.engine.column_sums`).

    Returns
    -------
    numpy.ndarray
        One violation ratio per resample.

    Raises
    ------
    ValueError
        If ``idx_a`` and ``idx_b`` have different numbers of resamples.

    Examples
    --------
    Each ratio is :func:`violation_ratio` of the resampled scores:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a, b = np.sort(rng.normal(0.80, 0.01, 12)), np.sort(rng.normal(0.79, 0.01, 15))
    >>> idx_a, idx_b = sorted_resample_indices(12, 4, rng), sorted_resample_indices(15, 4, rng)
    >>> ratios = resampled_violation_ratios(a, idx_a, b, idx_b, quantile_layout(12, 15))
    >>> direct = [violation_ratio(a[i], b[j]) for i, j in zip(idx_a, idx_b)]
    >>> bool(np.allclose(ratios, direct)), ratios.shape
    (True, (4,))
    """
    n_rep = idx_a.shape[0]
    if idx_b.shape[0] != n_rep:
        raise ValueError(f"idx_a and idx_b need the same number of resamples, got {n_rep} and {idx_b.shape[0]}")
    size = max(1, block_values // max(layout.ia.size, 1))
    out = np.empty(n_rep)
    for start in range(0, n_rep, size):
        stop = min(start + size, n_rep)
        diff = _sorted_values(b_sorted, idx_b[start:stop], layout.ib)
        diff -= _sorted_values(a_sorted, idx_a[start:stop], layout.ia)      # G^-1 - F^-1 at the points
        out[start:stop] = _ratios_of_differences(diff, layout, coincide)
    return out


def violation_ratio(scores_a, scores_b, *, method: str = "exact", dt: float = 0.005,
                    layout: QuantileLayout | None = None, coincide: float = 0.5) -> float:
    """The violation ratio eps_W2(F_A, G_B) of two samples of scores.

    0 = A stochastically larger, 1 = B stochastically larger (module docstring).

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A and of B (any order).
    method : {"exact", "grid", "deepsig"}
        The integration (:func:`quantile_layout`).
    dt : float
        Grid step of the grid methods.
    layout : QuantileLayout, optional
        A layout of the two sample sizes; replaces ``method`` and ``dt``.
    coincide : float
        The value when the two quantile functions coincide (0.5 as deepsig).

    Returns
    -------
    float
        eps_W2(F_A, G_B), in [0, 1].

    Examples
    --------
    With three scores each, F^-1 - G^-1 is 1 - 0, 2 - 4 and 3 - 5 on the thirds of (0, 1); A is
    below B on the last two, so eps = (4 + 4) / (1 + 4 + 4):

    >>> violation_ratio([1, 2, 3], [0, 4, 5])
    0.8888888888888888
    >>> 1 - violation_ratio([0, 4, 5], [1, 2, 3])                # eps(F, G) = 1 - eps(G, F)
    0.8888888888888888
    """
    a = np.sort(np.asarray(scores_a, dtype=np.float64))
    b = np.sort(np.asarray(scores_b, dtype=np.float64))
    if layout is None:
        layout = quantile_layout(a.size, b.size, method, dt)
    return _ratio_of_sorted(a, b, layout, coincide)


def _ratio_of_sorted(a: np.ndarray, b: np.ndarray, layout: QuantileLayout, coincide: float) -> float:
    return float(_ratios_of_differences((b[layout.ib] - a[layout.ia])[:, None], layout, coincide)[0])


# --------------------------------------------------------------------------- resamples
@cache
def _int16_sort_kind() -> str | None:
    """The faster of numpy's two sorts of 16-bit integers on this machine, timed once per process:
    the default (SIMD quicksort on CPUs that have one for 16-bit integers) or the stable radix sort
    (linear time).  Both give the same sorted values; only the speed differs."""
    sample = np.random.default_rng(0).integers(0, 1000, size=(64, 1000), dtype=np.int16)
    best = {}
    for kind in (None, "stable") * 3:
        work = sample.copy()
        start = time.perf_counter()
        work.sort(axis=1, kind=kind)
        best[kind] = min(best.get(kind, math.inf), time.perf_counter() - start)
    return None if best[None] <= best["stable"] else "stable"


def sorted_resample_indices(n: int, n_resamples: int, rng: np.random.Generator, size: int | None = None) -> np.ndarray:
    """Indices of bootstrap resamples of n scores, each row sorted.

    For a sorted sample x, ``x[indices]`` are the sorted resamples.

    Parameters
    ----------
    n : int
        Scores in the sample.
    n_resamples : int
        Resamples.
    rng : numpy.random.Generator
        The generator the indices are drawn from.
    size : int, optional
        Size of each resample (default n).

    Returns
    -------
    numpy.ndarray
        Shape (n_resamples, size): int16 for n up to 32767, else int64.

    Examples
    --------
    The draws are the generator's integers, sorted within each row:

    >>> import numpy as np
    >>> sorted_resample_indices(5, 3, np.random.default_rng(0))
    array([[2, 3, 4, 4, 4],
           [1, 1, 2, 3, 4],
           [0, 0, 0, 1, 4]], dtype=int16)
    >>> np.sort(np.random.default_rng(0).integers(0, 5, size=(3, 5), dtype=np.int16), axis=1).tolist()
    [[2, 3, 4, 4, 4], [1, 1, 2, 3, 4], [0, 0, 0, 1, 4]]
    """
    small = n <= np.iinfo(np.int16).max
    idx = ItemIndices(rng, n_resamples, n, size, dtype=np.int16 if small else np.int64).draw(n_resamples)
    idx.sort(axis=1, kind=_int16_sort_kind() if small else None)
    return idx


# --------------------------------------------------------------------------- the test
def checked_scores(scores, name: str) -> np.ndarray:
    """The input check of :func:`aso`: ``scores`` as a sorted float64 array.

    Parameters
    ----------
    scores : array_like
        One algorithm's scores.
    name : str
        Its name in messages.

    Returns
    -------
    numpy.ndarray
        The scores, sorted.

    Raises
    ------
    ValueError
        If the scores are not one-dimensional, not finite, or fewer than MIN_SCORES.

    Warns
    -----
    SmallSampleWarning
        With fewer than WARN_SCORES scores.

    Examples
    --------
    >>> checked_scores([0.3, 0.1, 0.2, 0.5, 0.4, 0.9, 0.8, 0.7, 0.6, 1.0], "scores_a")
    array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1. ])
    >>> checked_scores([0.3, 0.1], "scores_b")
    Traceback (most recent call last):
    ...
    ValueError: ASO needs at least 3 scores per algorithm, scores_b has 2
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if x.size < MIN_SCORES:
        raise ValueError(f"ASO needs at least {MIN_SCORES} scores per algorithm, {name} has {x.size}")
    if x.size < WARN_SCORES:
        warnings.warn(f"ASO with {x.size} scores in {name}: fewer than {WARN_SCORES}, eps_min's bootstrap sd is "
                      "unreliable", SmallSampleWarning, stacklevel=3)
    return np.sort(x)


def alpha_level(confidence_level: float, num_comparisons: int = 1) -> float:
    """The level alpha of :func:`aso`'s bound, Bonferroni-divided over the comparisons.

    alpha = 1 - ``confidence_level`` (to 12 decimals, so that 1 - alpha gives the level back
    exactly) divided by ``num_comparisons`` (Bonferroni, as deepsig).

    Parameters
    ----------
    confidence_level : float
        In (0, 1).
    num_comparisons : int
        Comparisons (>= 1).

    Returns
    -------
    float
        alpha.

    Raises
    ------
    ValueError
        If ``confidence_level`` is outside (0, 1) or ``num_comparisons`` < 1.

    Examples
    --------
    >>> alpha_level(0.95), 1 - alpha_level(0.95)
    (0.05, 0.95)
    >>> round(alpha_level(0.95, 3), 6)
    0.016667
    """
    check_confidence_level(confidence_level)
    if num_comparisons < 1:
        raise ValueError(f"num_comparisons must be >= 1, got {num_comparisons}")
    return round(1 - confidence_level, 12) / num_comparisons


#: What ASO is and is not, for every output that prints eps_min: it has no p-value and no level.
NOT_A_TEST = ("ASO is not a test at level alpha: eps_min has no p-value, and on identical approaches (simulated, "
              "5-50 runs each, alpha = 0.01) eps_min < 0.5 in 15-26 % and < 0.2 in 2-9 % of comparisons "
              "(docs/which-test.md)")


@dataclass(frozen=True)
class ASOResult(TestResult):
    """Result of :func:`aso`: eps_min, an upper confidence bound of the violation ratio.

    ASO has no p-value (``pvalue`` is None) and is not a test at level alpha (:data:`NOT_A_TEST`);
    a decision needs a threshold chosen by the user (:meth:`almost_stochastically_larger`).

    Attributes
    ----------
    statistic : float
        eps_min of "A is almost stochastically larger than B" (0 = stochastic dominance of A,
        0.5 = no order, 1 = B dominates).
    pvalue : None
        ASO gives no p-value.
    alternative : str
        "greater" (the claim is about A over B).
    method : str
        The computation's name.
    statistic_reverse : float
        eps_min of the reverse claim from the same bootstrap (eps_W2(G, F) = 1 - eps_W2(F, G),
        same sigma).
    violation_ratio : float
        eps_W2(F_n, G_m) of the samples.
    sigma : float
        The bootstrap sd of sqrt(nm/(n+m)) (eps* - eps).
    confidence_level : float
        Level of the bound, after the Bonferroni division over the comparisons.
    n, m : int
        Scores of A and of B.

    Examples
    --------
    >>> import numpy as np
    >>> res = aso(np.arange(10.0) + 2, np.arange(10.0), rng=0)
    >>> round(res.statistic, 3), res.almost_stochastically_larger(0.2)
    (0.293, False)
    """

    statistic_reverse: float = float("nan")
    violation_ratio: float = float("nan")
    sigma: float = float("nan")
    confidence_level: float = float("nan")
    n: int = 0
    m: int = 0

    def almost_stochastically_larger(self, threshold: float) -> bool:
        """Is A declared almost stochastically larger than B at ``threshold`` (eps_min < threshold)?

        Parameters
        ----------
        threshold : float
            In (0, 0.5]: 0.5 is the weakest claim; Dror et al. (2019) recommend 0.2 for a strict one.

        Returns
        -------
        bool
            ``statistic < threshold``.

        Examples
        --------
        >>> import numpy as np
        >>> aso(np.arange(30.0) + 100, np.arange(30.0), rng=0).almost_stochastically_larger(0.2)
        True
        """
        if not 0 < threshold <= 0.5:
            raise ValueError(f"threshold must be in (0, 0.5], got {threshold}")
        return bool(self.statistic < threshold)

    @property
    def a_better(self) -> bool:
        """Deprecated: ``almost_stochastically_larger(0.5)``."""
        warnings.warn("ASOResult.a_better is replaced by almost_stochastically_larger(threshold); the old name "
                      "will be removed in the next release", FutureWarning, stacklevel=2)
        return self.almost_stochastically_larger(0.5)


def aso(scores_a, scores_b, *, confidence_level: float = 0.95, num_comparisons: int = 1, n_resamples: int = 1000,
        method: str = "exact", dt: float = 0.005, rng) -> ASOResult:
    """ASO test that A (``scores_a``) is almost stochastically larger than B (module docstring).

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A and of B (e.g. one per training seed), at least MIN_SCORES each.
    confidence_level : float
        1 - alpha of the eps_min bound, alpha divided by ``num_comparisons`` (Bonferroni) as
        deepsig does.
    num_comparisons : int
        Comparisons the level is shared by.
    n_resamples : int
        Bootstrap replicates of both samples (>= 2).
    method : {"exact", "grid", "deepsig"} or a registered name
        Integration (module docstring), or a computation registered as an ASO method
        (:mod:`simstats.stats.conventions`), called with these arguments.
    dt : float
        Grid step of the grid methods.
    rng : numpy.random.Generator or int
        Seeded Generator or int (required).

    Returns
    -------
    ASOResult
        eps_min (``statistic``), the reverse claim's eps_min, the violation ratio and the
        bootstrap sd; no p-value.

    Raises
    ------
    ValueError
        With fewer than MIN_SCORES or non-finite scores, ``n_resamples`` < 2, or an invalid
        level, method or grid step.

    Warns
    -----
    SmallSampleWarning
        With fewer than WARN_SCORES scores in a sample.

    See Also
    --------
    multi_aso : every ordered pair of several algorithms.
    violation_ratio : the ratio of the samples, without the bound.

    Notes
    -----
    eps_min is an upper confidence bound, not a test at level alpha (:data:`NOT_A_TEST`).

    Examples
    --------
    >>> import math
    >>> import numpy as np
    >>> from scipy.stats import norm
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.normal(0.80, 0.01, 20), rng.normal(0.79, 0.01, 20)
    >>> res = aso(a, b, rng=1)
    >>> round(res.statistic, 4), round(res.violation_ratio, 4), res.statistic_reverse
    (0.0973, 0.0077, 1.0)

    eps_min is the violation ratio plus Phi^-1(0.95) sigma sqrt((n + m) / (n m)):

    >>> round(res.violation_ratio + float(norm.ppf(0.95)) * res.sigma * math.sqrt(40 / 400), 4)
    0.0973
    """
    if method not in METHODS:
        registered = conventions.get("aso_methods", method)
        return registered(scores_a, scores_b, confidence_level=confidence_level, num_comparisons=num_comparisons,
                          n_resamples=n_resamples, dt=dt, rng=rng)
    a = checked_scores(scores_a, "scores_a")
    b = checked_scores(scores_b, "scores_b")
    level = alpha_level(confidence_level, num_comparisons)
    if n_resamples < 2:
        raise ValueError(f"n_resamples must be >= 2, got {n_resamples}")
    rng = as_generator(rng)
    n, m = a.size, b.size
    layout = quantile_layout(n, m, method, dt)
    eps = _ratio_of_sorted(a, b, layout, 0.5)
    idx_a = sorted_resample_indices(n, n_resamples, rng)
    idx_b = sorted_resample_indices(m, n_resamples, rng)
    eps_star = resampled_violation_ratios(a, idx_a, b, idx_b, layout)
    const = math.sqrt(n * m / (n + m))
    sigma = float(np.std(const * (eps_star - eps)))
    margin = special.ndtri(1 - level) * sigma / const
    eps_min = float(np.clip(eps + margin, 0.0, 1.0))
    reverse = float(np.clip(1 - eps + margin, 0.0, 1.0))
    return ASOResult(eps_min, None, "greater", method, statistic_reverse=reverse, violation_ratio=eps,
                     sigma=sigma, confidence_level=1 - level, n=n, m=m)


def multi_aso(scores: dict, *, confidence_level: float = 0.95, bonferroni: bool = True, n_resamples: int = 1000,
              method: str = "exact", dt: float = 0.005, rng) -> pd.DataFrame:
    """eps_min of every ordered pair of several algorithms; Bonferroni over k(k-1)/2 pairs.

    Parameters
    ----------
    scores : dict
        Algorithm name -> its scores (at least two algorithms).
    confidence_level : float
        1 - alpha of each bound before the Bonferroni division.
    bonferroni : bool
        Divide alpha by the k(k-1)/2 unordered pairs (default) or not.  Both directions of a pair
        are reported, but they come from one bootstrap and at most one of them can be below 0.5,
        so the pair, not the direction, is the unit of the correction (as deepsig's ``multi_aso``).
    n_resamples, method, dt
        As in :func:`aso`.
    rng : numpy.random.Generator or int
        Seeded generator, used by the pairs in turn.

    Returns
    -------
    pandas.DataFrame
        Cell (row, column): eps_min of "row is almost stochastically larger than column"
        (NaN on the diagonal).

    Raises
    ------
    ValueError
        With fewer than two algorithms, or for the reasons :func:`aso` gives.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> scores = {"x": rng.normal(0.80, 0.01, 20), "y": rng.normal(0.79, 0.01, 20), "z": rng.normal(0.78, 0.01, 20)}
    >>> out = multi_aso(scores, n_resamples=500, rng=0)
    >>> print(out.round(3).to_string())
         x      y      z
    x  NaN  0.124  0.007
    y  1.0    NaN  0.070
    z  1.0  1.000    NaN

    The first pair uses the fresh generator, so it is :func:`aso` at the Bonferroni level:

    >>> bool(aso(scores["x"], scores["y"], num_comparisons=3, n_resamples=500, rng=0).statistic == out.loc["x", "y"])
    True
    """
    names = list(scores)
    if len(names) < 2:
        raise ValueError(f"need at least two algorithms, got {len(names)}")
    rng = as_generator(rng)
    k = len(names)
    comparisons = k * (k - 1) // 2 if bonferroni else 1
    out = pd.DataFrame(np.full((k, k), np.nan), index=names, columns=names)
    for i, j in combinations(range(k), 2):
        for r, c in ((i, j), (j, i)):
            out.iloc[r, c] = aso(scores[names[r]], scores[names[c]], confidence_level=confidence_level,
                                 num_comparisons=comparisons, n_resamples=n_resamples, rng=rng, method=method,
                                 dt=dt).statistic
    return out


def cos_verdict(scores_a, scores_b) -> int:
    """Collection of statistics: +1 if A has the larger mean and the smaller sd, -1 if B does, else 0.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A and of B (at least two each; sd with ddof = 1).

    Returns
    -------
    int
        +1, -1 or 0.

    Examples
    --------
    >>> cos_verdict([0.80, 0.81, 0.82], [0.70, 0.75, 0.80])        # A: higher mean, smaller sd
    1
    >>> cos_verdict([0.70, 0.75, 0.80], [0.80, 0.81, 0.82])
    -1
    >>> cos_verdict([0.80, 0.85, 0.90], [0.70, 0.71, 0.72])        # higher mean but larger sd
    0
    """
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    if min(a.size, b.size) < 2:
        raise ValueError(f"the collection of statistics needs at least 2 scores per algorithm (an sd), got "
                         f"{a.size} and {b.size}")
    ma, mb, sa, sb = a.mean(), b.mean(), a.std(ddof=1), b.std(ddof=1)
    if ma > mb and sa < sb:
        return 1
    if mb > ma and sb < sa:
        return -1
    return 0
