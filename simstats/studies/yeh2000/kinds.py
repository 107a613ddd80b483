"""Yeh (2000) study, vectorised: every test's p-value for all test sets of a design cell at once.

A test set of the study is given by its 8 kind counts (gold 11/10/01/00, spurious 11/10/01/00,
see :mod:`simstats.studies.yeh2000.simulate`); a design cell by a (test sets, 8) count matrix.
Everything here works on that matrix:

* classical tests in closed form from the counts, their p-values from scipy's distributions and
  tests (``ttest_ind_from_stats``, ``binom``, ``norm``, ``t``, ``chi2``), equal to those of the
  per-test-set wrappers in :mod:`simstats.stats.classical` (cross-checked in
  tests/studies/yeh2000/test_yeh_vectorised.py); test sets the closed forms do not cover (Wilcoxon on at most
  50 gold items, where scipy may pick an exact or permutation method; fewer than 2 gold items,
  where the wrappers raise) go through the wrappers one by one;
* exact stratified randomization: the discordant units form two strata (gold 10/01 and
  spurious 10/01); under the null system 1 keeps the "better" output of Binomial(D, 1/2) units
  of each, independently.  The shuffled difference is monotone in each of the two counts, so the
  shuffles at least as extreme are, for each count of the spurious stratum, two tails of the gold
  stratum's binomial: the p-value is a sum over the spurious count of binomial tail
  probabilities.  The tails' bounds come from a closed-form first guess, checked with the exact
  comparison (bisection where the guess is off), for all rows of all test sets at once, and the
  binomial probabilities from scipy once per distinct (count, size) - shared tables;
* approximate randomization: its shuffles are independent draws from that same exact
  distribution, so given the test set its count of shuffles at least as extreme is
  Binomial(n_resamples, p_exact): that count is drawn, from the test set's own generator;
* paired bootstrap: Multinomial(n, counts / n) resamples over the kinds (kinds with the same
  effect on the metric difference pooled: fewer categories to draw), one numpy call per test
  set on its own generator, scored for all test sets at once.

Only the bootstrap and approximate-randomization p-values are random; each test set's draws come
from the generator passed for it, so they do not depend on which other test sets share a call.
"""
from __future__ import annotations

import numpy as np

from simstats.stats.bootstrap import extreme_counts, pvalues_from_counts
from simstats.stats.engine import TIE_TOL
from simstats.stats.metrics import Metric
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import RowCounts

stats = lazy_module("scipy.stats")

#: Per-kind statistics (recalled, gold, spurious) of systems 1 and 2: gold 11, 10, 01, 00, spurious 11, 10, 01, 00.
KIND_STATS = np.array([
    [[1, 1, 0], [1, 1, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1], [0, 0, 0], [0, 0, 0]],
    [[1, 1, 0], [0, 1, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [0, 0, 1], [0, 0, 0]],
], dtype=np.float64)
#: Metrics whose shuffled difference is monotone in the units system 1 keeps of each stratum.
MONOTONE_METRICS = ("recall", "precision", "f1")
#: Kinds the paired bootstrap pools (fewer categories, cheaper multinomial draws): kinds with the
#: same effect on the metric difference, each group scored with the statistics of its last kind.
#: recall = R / G: the difference is (g10 - g01) / G, so gold 11 and 00 (G only) pool, and so do
#: the spurious kinds (no effect); precision = R / (R + S) does not use G: gold 00 and spurious 00
#: (no effect) pool; F1 = 2 R / (G + R + S): gold 00 and spurious 11 both add 1 to G + S of both
#: systems and nothing else.
BOOTSTRAP_GROUPS = {
    "recall": ((1,), (2,), (0, 3), (4, 5, 6, 7)),
    "precision": ((0,), (1,), (2,), (4,), (5,), (6,), (3, 7)),
    "f1": ((0,), (1,), (2,), (3, 4), (5,), (6,), (7,)),
}
#: Wilcoxon on at most this many gold items goes through scipy.stats.wilcoxon itself (its
#: method="auto" may choose the exact or a permutation distribution there; above, always normal).
WILCOXON_CLOSED_FORM_MIN = 51
#: Probability left out of each tail of the spurious stratum when the exact p-value only sets an
#: approximate randomization count (p lower by < 2e-14: the count's distribution moves by less
#: than n_resamples * 2e-14 in total variation).
RANDOMIZATION_TOLERANCE = 1e-14


def as_counts(counts) -> np.ndarray:
    """(test sets, 8) float64 kind counts: non-negative integers, at least one unit per test set."""
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim == 1:
        counts = counts[None]
    if counts.ndim != 2 or counts.shape[1] != 8:
        raise ValueError(f"kind counts must have shape (test sets, 8), got {counts.shape}")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0) or np.any(counts != np.rint(counts)):
        raise ValueError("kind counts must be non-negative integers")
    if np.any(counts.sum(axis=1) < 1):
        raise ValueError("every test set needs at least one unit")
    return counts


def kind_sums(counts: np.ndarray) -> np.ndarray:
    """(test sets, systems, 3) summed statistics (recalled, gold, spurious)."""
    return np.einsum("rk,skj->rsj", counts, KIND_STATS)


# --------------------------------------------------------------------------- classical tests
def classical_pvalues(test: str, counts: np.ndarray, reference=None) -> np.ndarray:
    """Two-sided p-value of a classical test for every test set (rows of ``counts``).

    ``reference(test, counts_row)``: the per-test-set computation, used for the test sets the
    closed forms do not cover (see the module docstring)."""
    counts = as_counts(counts)
    g11, g10, g01, g00, s11, s10, s01, _ = counts.T
    n = g11 + g10 + g01 + g00                        # gold items: the samples of the recall tests
    irregular = np.zeros(len(counts), bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        if test == "two_proportion_z":
            # statsmodels.stats.proportion.proportions_ztest([x1, x2], [n, n]), step by step
            x1, x2 = g11 + g10, g11 + g01
            diff = x1 * 1.0 / n - x2 * 1.0 / n
            pooled = (x1 + x2) * 1.0 / (n + n)
            std = np.sqrt(pooled * (1 - pooled) * (1.0 / n + 1.0 / n))
            p = stats.norm.sf(np.abs(diff / std)) * 2
            irregular = n < 1
        elif test == "chi2_2x2":
            # scipy.stats.chi2_contingency([[R1, S1], [R2, S2]], correction=False); a zero margin: 1
            obs = np.stack([g11 + g10, s11 + s10, g11 + g01, s11 + s01], axis=1)
            rows = np.stack([obs[:, 0] + obs[:, 1], obs[:, 2] + obs[:, 3]], axis=1)
            cols = np.stack([obs[:, 0] + obs[:, 2], obs[:, 1] + obs[:, 3]], axis=1)
            total = obs.sum(axis=1)
            expected = (rows[:, :, None] * cols[:, None, :]).reshape(-1, 4) / total[:, None]
            terms = (obs - expected) ** 2 / expected
            stat = ((terms[:, 0] + terms[:, 1]) + terms[:, 2]) + terms[:, 3]
            zero_margin = (np.minimum(rows.min(axis=1), cols.min(axis=1)) == 0)
            p = np.where(zero_margin, 1.0, stats.chi2.sf(stat, 1))
        elif test == "two_sample_t":
            # scipy.stats.ttest_ind on the two systems' 0/1 recall indicators; both constant: 1 or 0
            k1, k2 = g11 + g10, g11 + g01
            var1, var2 = k1 * (n - k1) / (n * (n - 1)), k2 * (n - k2) / (n * (n - 1))
            p = stats.ttest_ind_from_stats(k1 / n, np.sqrt(var1), n, k2 / n, np.sqrt(var2), n,
                                           equal_var=True).pvalue
            p = np.where((var1 == 0) & (var2 == 0), np.where(k1 == k2, 1.0, 0.0), p)
            irregular = n < 2
        elif test == "paired_t":
            # scipy.stats.ttest_rel: one-sample t on the differences (+1: g10, -1: g01, else 0);
            # constant differences: 1
            mean = (g10 - g01) / n
            var = (g10 + g01 - (g10 - g01) ** 2 / n) / (n - 1)
            t = mean / np.sqrt(var / n)
            p = np.where(var > 0, 2 * stats.t.sf(np.abs(t), n - 1), 1.0)
            irregular = n < 2
        elif test == "sign_mcnemar":
            # scipy.stats.binomtest(g10, g10 + g01, 1/2): for p = 1/2 its two tails are
            # cdf(min(k, d - k)) + sf(d - min(k, d - k) - 1); k = d / 2: 1; no discordant items: 1
            d = g10 + g01
            low = np.minimum(g10, g01)
            p = np.minimum(1.0, stats.binom.cdf(low, d, 0.5) + stats.binom.sf(d - low - 1, d, 0.5))
            p = np.where((d == 0) | (2 * g10 == d), 1.0, p)
            irregular = n < 1
        elif test == "wilcoxon":
            # scipy.stats.wilcoxon (zero_method="wilcox", no continuity correction, normal
            # approximation): zeros dropped, the d = g10 + g01 nonzero |differences| all tied
            d = g10 + g01
            r_plus = g10 * ((d + 1) / 2)
            mn = d * (d + 1.0) * 0.25
            se = np.sqrt((d * (d + 1.0) * (2.0 * d + 1.0) - (d ** 3 - d) / 2) / 24)
            p = np.where(d > 0, 2 * stats.norm.sf(np.abs((r_plus - mn) / se)), 1.0)
            irregular = n < WILCOXON_CLOSED_FORM_MIN
        else:
            raise ValueError(f"unknown test {test!r}")
    p = np.asarray(p, dtype=np.float64).copy()
    if irregular.any():
        if reference is None:
            raise ValueError(f"{test}: some test sets need the per-test-set computation (reference)")
        for i in np.flatnonzero(irregular):
            p[i] = reference(test, counts[i])
    return p


# --------------------------------------------------------------------------- exact stratified randomization
def _first_true(pred, size: np.ndarray, guess: np.ndarray) -> np.ndarray:
    """Per row, the smallest y in [0, size) with pred(y, rows) true (pred monotone in y: false ...
    true), or size if none.  ``guess`` (float, NaN if none) is checked with two evaluations;
    rows where it is not the answer are bisected."""
    top = np.maximum(size - 1, 0)
    k = np.clip(np.nan_to_num(guess, nan=-1.0), -1, size).astype(np.int64)
    ok = (k >= 0) & np.isfinite(guess)
    k = np.clip(k, 0, size)
    every = slice(None)
    ok &= (k == size) | pred(np.minimum(k, top), every)
    ok &= (k == 0) | ~pred(np.clip(k - 1, 0, top), every)
    rows = np.flatnonzero(~ok)
    lo, hi = np.zeros(rows.size, np.int64), size[rows].copy()
    active = lo < hi
    while active.any():
        mid = (lo + hi) // 2
        hit = pred(np.minimum(mid, top[rows]), rows)
        hi = np.where(active & hit, mid, hi)
        lo = np.where(active & ~hit, mid + 1, lo)
        active = lo < hi
    k[rows] = lo
    return k


def _crossing(metric_name: str, level, g11, gold, d_g, s_a, s_b):
    """The real y at which the shuffled difference f(y) equals ``level`` (a first guess for the
    bisection; NaN where the closed form fails).  With u = g11 + y recalled by system 1 and
    v = 2 g11 + Dg - u by system 2: recall (u - v) / G; precision u / (u + Sa) - v / (v + Sb);
    F1 2 u / (G + u + Sa) - 2 v / (G + v + Sb), the precision form with Sa, Sb -> G + Sa, G + Sb
    and level -> level / 2.  Solved as a quadratic in u, the root on f's increasing branch."""
    total = 2 * g11 + d_g
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric_name == "recall":
            return (level * gold + total) / 2 - g11
        if metric_name == "f1":
            s_a, s_b, level = gold + s_a, gold + s_b, level / 2
        a = level
        b = (s_a + s_b) - level * (total + s_b - s_a)
        c = -s_a * (total + level * (total + s_b))
        q = -(b + np.copysign(np.sqrt(b * b - 4 * a * c), b)) / 2
        u = np.where(b >= 0, c / q, q / a)
    return u - g11


def exact_stratified_pvalues(counts: np.ndarray, metric: Metric, tolerance=0.0) -> np.ndarray:
    """Two-sided exact stratified randomization p-value of every test set (rows of ``counts``).

    The value of :func:`simstats.stats.randomization.randomization_test` (``method="exact-stratified"``) on the test
    set's units (up to the order of summation): system 1 keeps y of the Dg discordant gold units
    (recalls them) and Ds - x of the Ds discordant spurious units (produces them), y ~ Dg - y ~
    Binomial(Dg, 1/2) and x ~ Binomial(Ds, 1/2) independently.  For each x the shuffled
    difference increases with y, so the shuffles at least as extreme (|delta*| >= |delta| up to
    the engine's tie tolerance) are y < a(x) or y > b(x): p = sum_x P(x) [F(a - 1) + S(b)].

    ``tolerance`` (per test set or one for all; 0 = exact): leave out the values of x in each
    tail of Binomial(Ds, 1/2) of probability below it, which lowers p by less than
    2 tolerance (enough for the count of an approximate randomization test, far less for p)."""
    if metric.name not in MONOTONE_METRICS:
        raise ValueError(f"exact stratified p-values from kind counts need one of {MONOTONE_METRICS}, "
                         f"got {metric.name!r}")
    counts = as_counts(counts)
    sums = kind_sums(counts)
    values = metric(sums)
    delta = values[:, 0] - values[:, 1]
    threshold = np.abs(delta) - TIE_TOL * np.maximum(1.0, np.abs(delta))
    dg = (counts[:, 1] + counts[:, 2]).astype(np.int64)
    ds = (counts[:, 5] + counts[:, 6]).astype(np.int64)
    tolerance = np.broadcast_to(np.asarray(tolerance, dtype=np.float64), dg.shape)
    skip = np.where(tolerance > 0, stats.binom.ppf(np.maximum(tolerance, 1e-300), ds, 0.5), 0).astype(np.int64)
    skip = np.clip(skip, 0, ds // 2)
    # one row per test set and count x (skip <= x <= Ds - skip) of spurious units system 1 leaves out
    per = ds - 2 * skip + 1
    rep = np.repeat(np.arange(len(counts)), per)
    x = np.arange(rep.size) - np.repeat(np.cumsum(per) - per, per) + skip[rep]
    g11, gold, s11 = counts[rep, 0], sums[rep, 0, 1], counts[rep, 4]
    d_g, d_s, t = dg[rep], ds[rep], threshold[rep]
    s_a, s_b = s11 + (d_s - x), s11 + x

    def shuffled(y, rows):
        a = metric(np.stack([g11[rows] + y, gold[rows], s_a[rows]], axis=-1))
        b = metric(np.stack([g11[rows] + (d_g[rows] - y), gold[rows], s_b[rows]], axis=-1))
        return a - b

    size = d_g + 1
    # y < n_low: delta* <= -t; the n_high largest y: delta* >= t
    n_low = _first_true(lambda y, rows: shuffled(y, rows) > -t[rows], size,
                        np.floor(_crossing(metric.name, -t, g11, gold, d_g, s_a, s_b)) + 1)
    n_high = size - _first_true(lambda y, rows: shuffled(y, rows) >= t[rows], size,
                                np.ceil(_crossing(metric.name, t, g11, gold, d_g, s_a, s_b)))
    # P(y < n_low) + P(y > Dg - n_high), y ~ Binomial(Dg, 1/2) symmetric: both lower tails
    tails = _half_binomial(stats.binom.cdf, n_low - 1, d_g) + _half_binomial(stats.binom.cdf, n_high - 1, d_g)
    tails = np.where(n_low + n_high >= size, 1.0, tails)
    p = np.bincount(rep, weights=_half_binomial(stats.binom.pmf, x, d_s) * tails, minlength=len(counts))
    return np.minimum(1.0, p)


def _half_binomial(function, k: np.ndarray, d: np.ndarray) -> np.ndarray:
    """function(k, d, 1/2) (scipy's binom.pmf or binom.cdf), evaluated once per distinct (k, d):
    the tables the rows of all test sets share."""
    width = int(d.max(initial=0)) + 2
    key = d * width + (k + 1)
    distinct, index = np.unique(key, return_inverse=True)
    return function(distinct % width - 1, distinct // width, 0.5)[index.ravel()]


# --------------------------------------------------------------------------- resampling tests
def randomization_pvalues(p_exact: np.ndarray, rngs, n_resamples: int) -> np.ndarray:
    """Approximate randomization p = (c + 1) / (n_resamples + 1), c ~ Binomial(n_resamples, p_exact):
    the distribution, given the test set, of the count of shuffles at least as extreme."""
    c = np.array([rng.binomial(n_resamples, min(1.0, max(0.0, float(q)))) for rng, q in zip(rngs, p_exact)])
    return (c + 1) / (n_resamples + 1)


def bootstrap_pvalues(counts: np.ndarray, metric: Metric, rngs, n_resamples: int) -> np.ndarray:
    """Two-sided paired bootstrap p-value (shift convention) of every test set, each resampled
    from its own generator: Multinomial(n, counts / n) over the kinds (pooled as in
    BOOTSTRAP_GROUPS), as :func:`simstats.stats.bootstrap.paired_bootstrap` with the counts as
    weights."""
    counts = as_counts(counts)
    groups = BOOTSTRAP_GROUPS[metric.name]
    pooled = np.stack([counts[:, list(g)].sum(axis=1) for g in groups], axis=1)
    stats_a = KIND_STATS[0, [g[-1] for g in groups]]
    stats_b = KIND_STATS[1, [g[-1] for g in groups]]
    delta = metric(pooled @ stats_a) - metric(pooled @ stats_b)
    n = pooled.sum(axis=1)
    draws = np.empty((len(counts), n_resamples, len(groups)), np.float64)
    for i, rng in enumerate(rngs):
        draws[i] = RowCounts(rng, n_resamples, pooled[i]).draw(n_resamples)
    delta_star = metric(draws @ stats_a) - metric(draws @ stats_b)
    hits = extreme_counts(delta_star.T, delta, "two-sided", "shift")
    return pvalues_from_counts(hits, n_resamples, "two-sided", "shift", "fraction")
