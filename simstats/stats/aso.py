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

``method="dror2019"`` computes ASO as Dror et al. (2019) did, following the computation of
their released script (facts of it, not its code): the grid t = 0, dt, 2 dt, ... < 1 (the
first point included in both integrals; eps = 0 when the two quantile functions coincide);
each of ``n_resamples`` bootstrap replicates draws N = M = ``dror_draws`` (1,000) scores from
each empirical distribution, whatever the sample sizes; sigma is the plain sd of the
replicates' eps*, and

    eps_min = eps + Phi^-1(1 - alpha) * sigma / sqrt(N M / (N + M)),

a margin of about 0.1 sigma at alpha = 0.01 (against Phi^-1(1 - alpha) sd(eps*) at the data's
own n and m in the deepsig convention).  The paper's rule declares A better when
eps_min <= 0.5.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
import pandas as pd

from simstats.stats.engine import as_generator
from simstats.stats.results import check_confidence_level
from simstats.stats.lazy import lazy_module

special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

MIN_SCORES = 3
WARN_SCORES = 10
#: Scores drawn from each empirical distribution per bootstrap replicate (method="dror2019").
DROR_DRAWS = 1000
METHODS = ("exact", "grid", "deepsig", "dror2019")


class SmallSampleWarning(UserWarning):
    """ASO on fewer than WARN_SCORES scores per algorithm."""


def _check_scores(x, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if x.size < MIN_SCORES:
        raise ValueError(f"ASO needs at least {MIN_SCORES} scores per algorithm, {name} has {x.size}")
    if x.size < WARN_SCORES:
        warnings.warn(f"ASO with {x.size} scores in {name}: fewer than {WARN_SCORES}, eps_min's bootstrap sd is "
                      "unreliable", SmallSampleWarning, stacklevel=3)
    return x


def _collapse(ia: np.ndarray, ib: np.ndarray, w_total: np.ndarray, w_violation: np.ndarray):
    """Merge repeated (ia, ib) index pairs, adding their weights (same integral, fewer terms)."""
    pairs, inverse = np.unique(np.stack([ia, ib], axis=1), axis=0, return_inverse=True)
    inverse = inverse.ravel()
    return (pairs[:, 0], pairs[:, 1], np.bincount(inverse, w_total, len(pairs)),
            np.bincount(inverse, w_violation, len(pairs)))


def _exact_layout(n: int, m: int):
    """Quantile indices of A and B and widths of the merged step intervals (exact rationals)."""
    lcm = n * m // math.gcd(n, m)
    ends = np.union1d(np.arange(1, n + 1) * (lcm // n), np.arange(1, m + 1) * (lcm // m))
    widths = np.diff(np.r_[0, ends]) / lcm
    ia = -(-ends // (lcm // n)) - 1      # ceil(n t) - 1 at the interval's right end
    ib = -(-ends // (lcm // m)) - 1
    return ia, ib, widths, widths


def _grid_layout(n: int, m: int, dt: float, skip_first: bool = False, start: float | None = None):
    t = np.arange(dt if start is None else start, 1, dt)
    ia = np.clip(np.ceil(n * t).astype(np.int64) - 1, 0, n - 1)
    ib = np.clip(np.ceil(m * t).astype(np.int64) - 1, 0, m - 1)
    w_total = np.full(t.size, dt)
    w_violation = w_total.copy()
    if skip_first:
        w_violation[0] = 0.0
    return _collapse(ia, ib, w_total, w_violation)


def _ratio(fa: np.ndarray, gb: np.ndarray, layout, coincide: float = 0.5) -> np.ndarray:
    """Violation ratio from the quantile values at the layout's points, shape (..., points);
    ``coincide`` where the quantile functions are equal at every point."""
    _, _, w_total, w_violation = layout
    diff = gb - fa                      # G^-1 - F^-1 > 0 where A is below B: a violation
    sq = diff * diff
    total = sq @ w_total
    violation = np.where(diff > 0, sq, 0.0) @ w_violation
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, violation / total, coincide)


#: Values per block of :func:`_resample_ratios` (replicates x points; 512 KB of float64).
_BLOCK_VALUES = 65536


def _blocks(n_rep: int, points: int) -> list[tuple[int, int]]:
    """Row blocks (start, stop) of ``n_rep`` replicates of ``points`` values each: a multiple of 4
    rows (at least 8) per block but the last, which takes the rest (at least 8 rows unless n_rep < 8),
    so that it ends with the n_rep % 4 rows that end the whole matrix."""
    size = max(8, _BLOCK_VALUES // max(points, 1) // 4 * 4)
    stops = list(range(size, n_rep, size))
    if stops and n_rep - stops[-1] < 8:
        stops.pop()
    return list(zip([0, *stops], [*stops, n_rep]))


def _sorted_values(x: np.ndarray, idx: np.ndarray, points: np.ndarray) -> np.ndarray:
    """x[idx[:, points]].T as a C-ordered (points, replicates) array, for a block of resample indices."""
    if points.size < idx.shape[1]:                  # few points (a grid): pick them first
        return x.take(idx[:, points].T)
    return x.take(idx.T).take(points, axis=0)


def _resample_ratios(a: np.ndarray, idx_a: np.ndarray, b: np.ndarray, idx_b: np.ndarray, layout,
                     coincide: float = 0.5) -> np.ndarray:
    """``_ratio(a[idx_a[:, ia]], b[idx_b[:, ib]], layout, coincide)`` (one violation ratio per row of
    the resample indices), computed in blocks of replicates that stay in the cache.

    Each block holds its replicates in the columns of (points, replicates) arrays: their transposes are
    the Fortran-ordered (replicates, points) arrays of the one-shot expression, on which the
    matrix-vector products run the same BLAS kernel.  In OpenBLAS's kernel a row's sum depends only on
    whether the row is among the last n % 4 rows of its matrix (:func:`_blocks` keeps those), so the
    values are the one-shot expression's bit for bit (tests/test_aso_blocks.py), with far less memory
    traffic."""
    ia, ib, w_total, w_violation = layout
    n_rep = idx_a.shape[0]
    out = np.empty(n_rep)
    for start, stop in _blocks(n_rep, ia.size):
        diff = _sorted_values(b, idx_b[start:stop], ib)
        diff -= _sorted_values(a, idx_a[start:stop], ia)     # G^-1 - F^-1 at the points
        sq = diff * diff
        total = sq.T @ w_total
        np.maximum(diff, 0.0, out=diff)                       # squared: where(diff > 0, sq, 0), bit for bit
        np.multiply(diff, diff, out=diff)
        violation = diff.T @ w_violation
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:stop] = np.where(total > 0, violation / total, coincide)
    return out


def _int16_sort_kind() -> str | None:
    """numpy's sort for the 16-bit resample indices: its default (SIMD quicksort) where the CPU has
    AVX512-ICL, else the stable radix sort (linear time); the sorted values are the same."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:         # pragma: no cover - numpy internals moved
        return "stable"
    return None if __cpu_features__.get("AVX512_ICL") else "stable"


_INT16_SORT = _int16_sort_kind()


def _sorted_resample_indices(n: int, n_rep: int, rng: np.random.Generator, draws: int | None = None) -> np.ndarray:
    """Indices of bootstrap resamples of ``draws`` (default n) scores, each sorted (n_rep, draws):
    for a sorted sample x, x[indices] are the sorted resamples."""
    small = n <= np.iinfo(np.int16).max
    idx = rng.integers(0, n, size=(n_rep, n if draws is None else draws), dtype=np.int16 if small else np.int64)
    idx.sort(axis=1, kind=_INT16_SORT if small else None)
    return idx


def violation_ratio(scores_a, scores_b, *, method: str = "exact", dt: float = 0.005) -> float:
    """eps_W2(F_A, G_B): 0 = A stochastically larger, 1 = B stochastically larger."""
    a = np.sort(np.asarray(scores_a, dtype=np.float64))
    b = np.sort(np.asarray(scores_b, dtype=np.float64))
    layout = _layout(a.size, b.size, method, dt)
    return float(_ratio(a[layout[0]], b[layout[1]], layout, 0.0 if method == "dror2019" else 0.5))


def _layout(n, m, method, dt):
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method != "exact" and not 0 < dt < 1:
        raise ValueError(f"dt must be in (0, 1), got {dt}")
    return _cached_layout(int(n), int(m), method, float(dt))


@lru_cache(maxsize=64)
def _cached_layout(n: int, m: int, method: str, dt: float):
    """The layout of (n, m, method, dt), its arrays read-only (computed once per process)."""
    if method == "exact":
        layout = _exact_layout(n, m)
    else:
        layout = _grid_layout(n, m, dt, skip_first=method == "deepsig", start=0.0 if method == "dror2019" else None)
    for x in layout:
        x.setflags(write=False)
    return layout


@dataclass(frozen=True)
class ASOResult:
    """Result of :func:`aso`.

    ``statistic``: eps_min of "A is almost stochastically larger than B" (0 = stochastic
    dominance of A, 0.5 = no order, 1 = B dominates); ``statistic_reverse``: eps_min of the
    reverse claim from the same bootstrap (eps_W2(G, F) = 1 - eps_W2(F, G), same sigma);
    ``violation_ratio``: eps_W2(F_n, G_m) of the samples; ``sigma``: the bootstrap sd of
    sqrt(nm/(n+m)) (eps* - eps); ``confidence_level``: after the Bonferroni division.  With ``method="dror2019"``,
    ``sigma`` is the plain sd of the replicates' eps* (the released computation's sigma).
    ASO gives no p-value: A is declared better when ``statistic < threshold``
    (:attr:`a_better` uses 0.5; Dror et al. 2019 recommend 0.2 for a strict claim).
    """

    statistic: float
    statistic_reverse: float
    violation_ratio: float
    sigma: float
    confidence_level: float
    n: int
    m: int
    method: str

    @property
    def a_better(self) -> bool:
        """A is almost stochastically larger than B (eps_min < 0.5)."""
        return self.statistic < 0.5


def aso(scores_a, scores_b, *, confidence_level: float = 0.95, num_comparisons: int = 1, n_resamples: int = 1000,
        method: str = "exact", dt: float = 0.005, dror_draws: int = DROR_DRAWS, rng) -> ASOResult:
    """ASO test that A (``scores_a``) is almost stochastically larger than B (module docstring).

    ``confidence_level``: 1 - alpha of the eps_min bound, divided by ``num_comparisons``
    (Bonferroni) as deepsig does; ``n_resamples``: bootstrap replicates of both samples;
    ``method``: "exact", "grid" or "deepsig" integration with deepsig's margin, or
    "dror2019" for the computation of Dror et al. (2019) (module docstring); ``dror_draws``:
    scores drawn per sample and replicate by "dror2019"; ``rng``: seeded Generator or int.
    """
    a = np.sort(_check_scores(scores_a, "scores_a"))
    b = np.sort(_check_scores(scores_b, "scores_b"))
    check_confidence_level(confidence_level)
    if num_comparisons < 1:
        raise ValueError(f"num_comparisons must be >= 1, got {num_comparisons}")
    if n_resamples < 2:
        raise ValueError(f"n_resamples must be >= 2, got {n_resamples}")
    rng = as_generator(rng)
    n, m = a.size, b.size
    layout = _layout(n, m, method, dt)
    ia, ib = layout[0], layout[1]
    # alpha to 12 decimals, so that confidence_level = 1 - alpha gives back alpha exactly
    level = round(1 - confidence_level, 12) / num_comparisons
    if method == "dror2019":
        if dror_draws < 2:
            raise ValueError(f"dror_draws must be >= 2, got {dror_draws}")
        eps = float(_ratio(a[ia], b[ib], layout, 0.0))
        # each replicate's draws sorted, as the released script sorts them, read at the grid's positions
        draws = _layout(dror_draws, dror_draws, method, dt)
        idx_a = _sorted_resample_indices(n, n_resamples, rng, dror_draws)
        idx_b = _sorted_resample_indices(m, n_resamples, rng, dror_draws)
        eps_star = _resample_ratios(a, idx_a, b, idx_b, draws, 0.0)
        sigma = float(np.std(eps_star))
        margin = special.ndtri(1 - level) * sigma / math.sqrt(dror_draws / 2)
    else:
        eps = float(_ratio(a[ia], b[ib], layout))
        idx_a = _sorted_resample_indices(n, n_resamples, rng)
        idx_b = _sorted_resample_indices(m, n_resamples, rng)
        eps_star = _resample_ratios(a, idx_a, b, idx_b, layout)
        const = math.sqrt(n * m / (n + m))
        sigma = float(np.std(const * (eps_star - eps)))
        margin = special.ndtri(1 - level) * sigma / const
    eps_min = float(np.clip(eps + margin, 0.0, 1.0))
    reverse = float(np.clip(1 - eps + margin, 0.0, 1.0))
    return ASOResult(eps_min, reverse, eps, sigma, 1 - level, n, m, method)


def multi_aso(scores: dict, *, confidence_level: float = 0.95, bonferroni: bool = True, n_resamples: int = 1000,
              method: str = "exact", dt: float = 0.005, rng) -> pd.DataFrame:
    """eps_min of every ordered pair (row better than column?); Bonferroni over k(k-1)/2 pairs."""
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
    """Collection of statistics: +1 if A has the larger mean and the smaller sd, -1 if B does, else 0."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    ma, mb, sa, sb = a.mean(), b.mean(), a.std(ddof=1), b.std(ddof=1)
    if ma > mb and sa < sb:
        return 1
    if mb > ma and sb < sa:
        return -1
    return 0


def so_verdict(scores_a, scores_b, *, alpha: float = 0.05) -> tuple[int, float]:
    """Stochastic order by the two-sided Mann-Whitney U test (scipy): (+1 if A is significantly
    larger (p < alpha), -1 if B is, else 0; the p-value).  The one SO rule of the Dror et al.
    analyses."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    u = stats.mannwhitneyu(a, b, alternative="two-sided")
    return (int(np.sign(u.statistic - a.size * b.size / 2)) if u.pvalue < alpha else 0), float(u.pvalue)


def dror2019_u_test(scores_a, scores_b) -> float:
    """The stochastic-order p-value as Dror et al. (2019) computed it: scipy's Mann-Whitney U
    with ``alternative="less"`` for (A, B), and p = 1 when either sample has fewer than 20
    scores (their released script's rule)."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    if a.size < 20 or b.size < 20:
        return 1.0
    return float(stats.mannwhitneyu(a, b, alternative="less").pvalue)
