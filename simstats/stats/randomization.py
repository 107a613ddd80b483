"""Randomization tests (stratified shuffling) of metric differences.

Under the null hypothesis the two systems' outputs on an item are exchangeable, so each
item's pair of outputs is swapped with probability 1/2 (only items on which the systems
differ can change anything).  For the improvement delta of A over B and shuffled delta*:
greater counts delta* >= delta, less delta* <= delta, two-sided |delta*| >= |delta|.

One function, :func:`randomization_test`, with three ways to get the null distribution
(``method=``):

* ``"approximate"`` (default) - n_resamples random shuffles shared by all pairs,
  p = (nc + 1) / (nt + 1) (Noreen 1989), as a matrix product like the bootstrap.
* ``"exact"`` - all 2^d shuffles of the d discordant items (d <= 20).
* ``"exact-stratified"`` - the exact distribution without shuffles:
  discordant items with the same pair of outputs are exchangeable, so the number of them
  that A keeps is Binomial(count, 1/2), independently per kind of item; the p-value is a
  sum over the product of these binomials (for Yeh's recall/precision/F1: O(n^2)).
With ``clusters``, whole clusters are swapped (cluster-level randomization).
"""
from __future__ import annotations

import numpy as np

from simstats.stats.engine import (RANDOMIZATION_COMPRESS_FACTOR, TIE_TOL, ColumnPack, as_generator, check_stats,
                                   improvement, item_groups, replicate_block, replicates)
from simstats.stats.metrics import Metric
from simstats.stats.resample import RowSwaps, Swaps, aggregate_clusters, check_weights
from simstats.stats.results import RandomizationResult, check_alternative
import warnings
from simstats.stats.lazy import lazy_module

sps = lazy_module("scipy.stats")

__all__ = ["randomization_test", "RANDOMIZATION_METHODS"]

MAX_EXACT_DISCORDANT = 20
MAX_STRATIFIED_CELLS = 20_000_000


def at_least_as_extreme(delta_star, delta, alternative):
    """Shuffled improvements at least as extreme as the observed one (relative tolerance TIE_TOL)."""
    tol = TIE_TOL * np.maximum(1.0, np.abs(delta))
    if alternative == "greater":
        return delta_star >= delta - tol
    if alternative == "less":
        return delta_star <= delta + tol
    return np.abs(delta_star) >= np.abs(delta) - tol


def _prepare(stats, metric, pairs, clusters):
    stats, pairs = check_stats(stats, metric, pairs)
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    return stats.astype(np.float64, copy=False), pairs


#: The ways :func:`randomization_test` gets the null distribution.
RANDOMIZATION_METHODS = ("approximate", "exact", "exact-stratified")


def randomization_test(stats, metric: Metric, pairs=None, *, method: str = "approximate",
                       alternative: str = "two-sided", n_resamples: int = 10_000, clusters=None, weights=None,
                       compress_items: bool = True, rng=None, max_discordant: int = MAX_EXACT_DISCORDANT,
                       max_cells: int = MAX_STRATIFIED_CELLS) -> RandomizationResult:
    """Randomization (stratified shuffling) test of the improvement of A over B, for each (A, B) pair.

    Parameters
    ----------
    stats : array (systems, items, k)
        Per-item statistics of ``metric``.
    metric : Metric
        Metric of summed statistics.
    pairs : array (pairs, 2), optional
        (A, B) system indices; default (0, 1).
    method : {"approximate", "exact", "exact-stratified"}
        Random shuffles (default), enumeration of all 2^d shuffles of the d discordant items
        (d <= ``max_discordant``), or the exact distribution by binomial convolution over kinds of
        discordant items (at most ``max_cells`` cells) - module docstring.
    alternative : {"two-sided", "greater", "less"}
        "greater": A is better than B.
    n_resamples : int
        Shuffles of ``method="approximate"``.
    clusters : array (items,), optional
        Cluster id per item: whole clusters are swapped.
    weights : array (items,), optional
        ``method="approximate"``: item multiplicities (each row of ``stats`` stands for that many
        identical items; Binomial(weight, 1/2) of them are swapped).
    compress_items : bool
        ``method="approximate"``: draw swaps per group of items with equal statistics when there
        are few such groups (same distribution, other random numbers); False keeps per-item draws.
    rng : numpy.random.Generator or int
        Seeded generator (required for ``method="approximate"``).
    max_discordant, max_cells : int
        Limits of the exact methods (a ValueError beyond them).

    Returns
    -------
    RandomizationResult
        Arrays over pairs: ``statistic`` (observed improvement), ``pvalue`` - never 0:
        (nc + 1)/(n_resamples + 1) for random shuffles, at least 2^-d for the exact methods.

    Raises
    ------
    ValueError
        If ``method`` or ``alternative`` is unknown, ``rng`` is missing for
        ``method="approximate"``, ``weights`` are given to an exact method or together with
        ``clusters``, ``stats`` does not fit ``metric``, or an exact method exceeds its limit
        (``max_discordant`` discordant items, ``max_cells`` cells).

    See Also
    --------
    paired_bootstrap : the paired bootstrap test of the same improvement.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy
    >>> a = np.r_[np.ones(30), np.zeros(10)]                  # A right on 30 of 40 items
    >>> b = np.r_[np.ones(22), np.zeros(18)]                  # B right on 22; A better on 8 items only
    >>> stats = np.stack([np.stack([x, np.ones(40)], 1) for x in (a, b)])
    >>> exact = randomization_test(stats, accuracy, method="exact")
    >>> round(float(exact.pvalue[0]), 5)                     # the sign test's two-sided p: 2 / 2**8
    0.00781
    >>> from scipy.stats import binomtest
    >>> round(float(binomtest(8, 8).pvalue), 5)
    0.00781
    >>> approx = randomization_test(stats, accuracy, n_resamples=9999, rng=1)
    >>> bool(abs(approx.pvalue[0] - exact.pvalue[0]) < 0.005)
    True
    """
    if method not in RANDOMIZATION_METHODS:
        raise ValueError(f"method must be one of {RANDOMIZATION_METHODS}, got {method!r}")
    if method == "approximate":
        if rng is None:
            raise ValueError("method='approximate' needs a seeded generator: pass rng (an int or a numpy Generator)")
        return _approximate(stats, metric, pairs, alternative=alternative, n_resamples=n_resamples,
                            clusters=clusters, weights=weights, compress_items=compress_items, rng=rng)
    if weights is not None:
        raise ValueError(f"weights apply to method='approximate', not {method!r}")
    if method == "exact":
        return _enumerated(stats, metric, pairs, alternative=alternative, clusters=clusters,
                           max_discordant=max_discordant)
    return _stratified(stats, metric, pairs, alternative=alternative, clusters=clusters, max_cells=max_cells)


def _renamed(old: str, method: str) -> None:
    warnings.warn(f"{old} is replaced by randomization_test(..., method={method!r}); the old name will be "
                  "removed in the next release", FutureWarning, stacklevel=3)


def approximate_randomization(stats, metric: Metric, pairs=None, **options) -> RandomizationResult:
    """Deprecated: :func:`randomization_test` with ``method="approximate"``."""
    _renamed("approximate_randomization", "approximate")
    return randomization_test(stats, metric, pairs, method="approximate", **options)


def exact_randomization(stats, metric: Metric, pairs=None, **options) -> RandomizationResult:
    """Deprecated: :func:`randomization_test` with ``method="exact"``."""
    _renamed("exact_randomization", "exact")
    return randomization_test(stats, metric, pairs, method="exact", **options)


def exact_stratified_randomization(stats, metric: Metric, pairs=None, **options) -> RandomizationResult:
    """Deprecated: :func:`randomization_test` with ``method="exact-stratified"``."""
    _renamed("exact_stratified_randomization", "exact-stratified")
    return randomization_test(stats, metric, pairs, method="exact-stratified", **options)


def _approximate(stats, metric: Metric, pairs=None, *, alternative: str = "two-sided",
                 n_resamples: int = 10_000, clusters=None, weights=None, compress_items: bool = True,
                 rng) -> RandomizationResult:
    """Approximate randomization (stratified shuffling) test for each (A, B) pair.

    ``n_resamples`` random shuffles, shared by every pair; p = (nc + 1) / (n_resamples + 1).
    ``clusters``: whole clusters are swapped; ``weights``: each row of ``stats`` stands for
    that many identical items, and Binomial(weight, 1/2) of them are swapped
    (:class:`simstats.stats.resample.RowSwaps`).  ``compress_items``: when the items take few
    distinct joint statistic rows over all systems in ``stats`` (at most 1/16 of them), draw
    Binomial(size, 1/2) swaps per row (:func:`simstats.stats.engine.item_groups`) - the same
    distribution as per-item swaps, other random numbers; False keeps the per-item draw.
    ``rng``: seeded Generator or int (required).
    """
    check_alternative(alternative)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if clusters is not None and weights is not None:
        raise ValueError("give either clusters or weights, not both")
    stats, pairs = _prepare(stats, metric, pairs, clusters)
    rng = as_generator(rng)
    a, b = stats[pairs[:, 0]], stats[pairs[:, 1]]
    groups = None
    if weights is None and compress_items:
        groups = item_groups(stats, np.arange(stats.shape[0]), RANDOMIZATION_COMPRESS_FACTOR)
    if groups is not None:
        # items with equal statistics for every system are one row of multiplicity `size`; rows where
        # no pair differs cannot move anything
        sum_a, sum_b = a.sum(axis=1), b.sum(axis=1)
        moving = np.any(a[:, groups[0]] != b[:, groups[0]], axis=(0, 2))
        rows, sizes = groups[0][moving], groups[1][moving]
        total_weight = float(sizes.sum())           # a replicate swaps at most every item of its rows
    elif weights is not None:
        weights = check_weights(weights, stats.shape[1])
        # only rows on which some pair's systems differ can move anything
        rows = np.flatnonzero(np.any(a != b, axis=(0, 2)))
        sum_a, sum_b = np.einsum("i,pik->pk", weights, a), np.einsum("i,pik->pk", weights, b)
        sizes = weights[rows]
        total_weight = float(sizes.sum())
    else:
        sum_a, sum_b = a.sum(axis=1), b.sum(axis=1)
        rows = sizes = total_weight = None          # 0/1 swaps: at most the number of rows
    diff = b - a if rows is None else (b - a)[:, rows]
    delta = improvement(metric, metric(sum_a), metric(sum_b))
    # A's shuffled sums: sum_a + G @ (b - a); B's: sum_b - G @ (b - a).  Pairs become "systems".
    pack = ColumnPack(diff, np.arange(diff.shape[0]), total_weight)
    resampler = Swaps(rng, n_resamples, stats.shape[1], pack.rows) if sizes is None \
        else RowSwaps(rng, n_resamples, sizes)

    def statistic(moved):
        return improvement(metric, metric(sum_a[None] + moved), metric(sum_b[None] - moved))
    _, nc = replicates(resampler, pack, statistic, elementwise=metric.elementwise, keep=False,
                       count=lambda d: at_least_as_extreme(d, delta, alternative).sum(axis=0),
                       block=replicate_block(diff.shape[1], pack.matrix.shape[1]))
    pvalue = (nc + 1) / (n_resamples + 1)
    unit = "clusters" if clusters is not None else "items"
    return RandomizationResult(delta, pvalue, alternative, f"approximate randomization (swapping {unit})",
                               pairs=pairs, n_resamples=n_resamples, n_extreme=nc)


def _discordant(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.any(a != b, axis=1))


def _enumerated(stats, metric: Metric, pairs=None, *, alternative: str = "two-sided", clusters=None,
                max_discordant: int = MAX_EXACT_DISCORDANT) -> RandomizationResult:
    """Exact randomization by enumerating all 2^d shuffles of the d discordant items.

    p = (number of shuffles at least as extreme as observed) / 2^d; the identity shuffle
    counts, so p >= 2^-d.
    """
    check_alternative(alternative)
    stats, pairs = _prepare(stats, metric, pairs, clusters)
    deltas, pvalues, counts, totals = [], [], [], []
    for ia, ib in pairs:
        a, b = stats[ia], stats[ib]
        sum_a, sum_b = a.sum(axis=0), b.sum(axis=0)
        delta = float(improvement(metric, metric(sum_a), metric(sum_b)))
        idx = _discordant(a, b)
        d = idx.size
        if d > max_discordant:
            raise ValueError(f"{d} discordant items: exact enumeration is limited to {max_discordant} "
                             "(use method='exact-stratified' or 'approximate')")
        diff = b[idx] - a[idx]
        hits = 0
        for start in range(0, 2**d, 2**16):
            codes = np.arange(start, min(2**d, start + 2**16), dtype=np.int64)
            masks = ((codes[:, None] >> np.arange(d)) & 1).astype(np.float64)
            moved = masks @ diff
            delta_star = improvement(metric, metric(sum_a + moved), metric(sum_b - moved))
            hits += int(at_least_as_extreme(delta_star, delta, alternative).sum())
        deltas.append(delta)
        counts.append(hits)
        totals.append(2**d)
        pvalues.append(hits / 2**d)
    return RandomizationResult(np.array(deltas), np.array(pvalues), alternative, "exact randomization (enumeration)",
                               pairs=pairs, n_extreme=np.array(counts), n_permutations=np.array(totals))


def _stratified(stats, metric: Metric, pairs=None, *, alternative: str = "two-sided",
                clusters=None, max_cells: int = MAX_STRATIFIED_CELLS) -> RandomizationResult:
    """Exact randomization distribution by binomial convolution over kinds of discordant items."""
    check_alternative(alternative)
    stats, pairs = _prepare(stats, metric, pairs, clusters)
    deltas, pvalues, kinds = [], [], []
    for ia, ib in pairs:
        a, b = stats[ia], stats[ib]
        sum_a, sum_b = a.sum(axis=0), b.sum(axis=0)
        delta = float(improvement(metric, metric(sum_a), metric(sum_b)))
        idx = _discordant(a, b)
        if idx.size == 0:
            deltas.append(delta)
            pvalues.append(1.0)
            kinds.append(0)
            continue
        # orient each discordant item canonically: (first, second) with first < second lexicographically
        u, v = a[idx], b[idx]
        swap = np.array([tuple(x) > tuple(y) for x, y in zip(u, v)])
        first = np.where(swap[:, None], v, u)
        second = np.where(swap[:, None], u, v)
        kind_rows, kind_of = np.unique(np.concatenate([first, second], axis=1), axis=0, return_inverse=True)
        kind_of = kind_of.ravel()
        k = a.shape[1]
        n_kind = np.bincount(kind_of, minlength=len(kind_rows))
        held = np.bincount(kind_of, weights=(~swap).astype(float), minlength=len(kind_rows))  # A holds `first`
        cells = int(np.prod(n_kind + 1.0))
        if cells > max_cells:
            raise ValueError(f"exact stratified randomization needs {cells} cells (> {max_cells}); "
                             "use method='approximate'")
        # base: everything except the discordant items' contributions
        base_a = sum_a - u.sum(axis=0)
        base_b = sum_b - v.sum(axis=0)
        grids = np.meshgrid(*[np.arange(c + 1) for c in n_kind], indexing="ij")
        x = np.stack([g.ravel() for g in grids], axis=1).astype(np.float64)          # A holds `first` x_t times
        prob = np.prod([sps.binom.pmf(x[:, t], n_kind[t], 0.5) for t in range(len(n_kind))], axis=0)
        f, s = kind_rows[:, :k], kind_rows[:, k:]
        shuffled_a = base_a + x @ f + (n_kind - x) @ s
        shuffled_b = base_b + x @ s + (n_kind - x) @ f
        delta_star = improvement(metric, metric(shuffled_a), metric(shuffled_b))
        if not np.allclose(base_a + held @ f + (n_kind - held) @ s, sum_a):    # the kinds must rebuild A's sums
            raise RuntimeError("exact stratified randomization: the kinds of discordant items do not add up to "
                               "A's statistics")
        deltas.append(delta)
        pvalues.append(float(min(1.0, prob[at_least_as_extreme(delta_star, delta, alternative)].sum())))
        kinds.append(len(n_kind))
    return RandomizationResult(np.array(deltas), np.array(pvalues), alternative,
                               "exact stratified randomization (binomial convolution)", pairs=pairs,
                               n_kinds=np.array(kinds))
