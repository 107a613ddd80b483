"""Paired bootstrap test of metric differences, for many system pairs at once.

Every pair of a call shares the same resamples of the test items (or of whole clusters
when ``clusters`` is given), drawn from the generator passed in.  p-value conventions,
for the improvement delta of A over B and its bootstrap replicates delta*:

``shift`` (Berg-Kirkpatrick et al. 2012; Koehn 2004; CompStats' default)
    greater: P*(delta* >= 2 delta); less: P*(delta* <= 2 delta);
    two-sided: P*(|delta* - delta| >= |delta|).  The bootstrap distribution shifted to
    mean 0 stands in for the null distribution.
``percentile``
    greater: P*(delta* <= 0); less: P*(delta* >= 0); two-sided: twice the smaller, at most 1.

Both use ">=" / "<=": identical systems (delta* = delta = 0) get p = 1, never 0.
"""
from __future__ import annotations

import numpy as np

from .engine import (TIE_TOL, ColumnPack, aggregate_clusters, as_generator, bootstrap_counts, check_stats,
                     improvement, replicate_block)
from .metrics import Metric
from .result import ConfidenceInterval, TestResult, check_alternative

CONVENTIONS = ("shift", "percentile")


def _extreme_counts(delta_star: np.ndarray, delta: np.ndarray, alternative: str, convention: str) -> np.ndarray:
    tol = TIE_TOL * np.maximum(1.0, np.abs(delta))
    if convention == "shift":
        if alternative == "greater":
            hit = delta_star >= 2 * delta - 2 * tol
        elif alternative == "less":
            hit = delta_star <= 2 * delta + 2 * tol
        else:
            hit = np.abs(delta_star - delta) >= np.abs(delta) - tol
        return np.count_nonzero(hit, axis=0)
    low = np.count_nonzero(delta_star <= tol, axis=0)
    high = np.count_nonzero(delta_star >= -tol, axis=0)
    return np.stack([low, high])


def _shared_ratio(stats: np.ndarray, metric: Metric, systems: np.ndarray):
    """(num, den) if metric is a plain ratio whose denominator column all systems share."""
    if metric.ratio_of is None:
        return None
    num, den = metric.ratio_of
    first = stats[systems[0], :, den]
    if all(np.array_equal(stats[s, :, den], first) for s in systems[1:]):
        return num, den
    return None


def paired_bootstrap(stats, metric: Metric, pairs=None, *, n_resamples: int = 10_000, rng=None,
                     alternative: str = "greater", convention: str = "shift", confidence_level: float | None = 0.95,
                     clusters=None) -> TestResult:
    """Paired bootstrap test that system A is better than system B, for each (A, B) pair.

    stats: per-item statistics (systems, items, k) for ``metric``; pairs: (A, B) system
    indices (default (0, 1) for two systems); rng: a seeded numpy Generator (or int seed).
    Returns arrays over pairs: statistic (observed improvement), pvalue, and the
    percentile confidence interval of the improvement (None if confidence_level is None).
    """
    check_alternative(alternative)
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    stats, pairs = check_stats(stats, metric, pairs)
    rng = as_generator(rng)
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    systems, local = np.unique(pairs, return_inverse=True)
    local = local.reshape(pairs.shape)
    observed = metric(stats[systems].sum(axis=1, dtype=np.float64))
    n = stats.shape[1]
    ratio = _shared_ratio(stats, metric, systems)
    if ratio is not None:
        # sum(num)/sum(den) with one shared denominator: a pair needs only num_a - num_b
        num, den = ratio
        diffs = stats[pairs[:, 0], :, num].astype(np.float64) - stats[pairs[:, 1], :, num]
        if not metric.higher_is_better:
            diffs = -diffs
        columns = np.concatenate([stats[systems[0], :, den][None].astype(np.float64), diffs])[:, :, None]
        pack = ColumnPack(columns, np.arange(columns.shape[0]))
        total_den = float(columns[0, :, 0].sum())
        delta = diffs.sum(axis=1) / total_den if total_den else np.zeros(pairs.shape[0])

        def replicate(weights):
            sums = pack.sums(weights)[:, :, 0]
            with np.errstate(divide="ignore", invalid="ignore"):
                d = sums[:, 1:] / sums[:, :1]
            return np.where(sums[:, :1] != 0, d, 0.0)
    else:
        delta = improvement(metric, observed[local[:, 0]], observed[local[:, 1]])
        pack = ColumnPack(stats, systems)

        def replicate(weights):
            values = metric(pack.sums(weights))
            return improvement(metric, values[:, local[:, 0]], values[:, local[:, 1]])
    block = replicate_block(n, pack.matrix.shape[1])
    counts = np.zeros((2, pairs.shape[0]) if convention == "percentile" else pairs.shape[0], dtype=np.int64)
    keep = np.empty((n_resamples, pairs.shape[0]), np.float64) if confidence_level is not None else None
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        delta_star = replicate(bootstrap_counts(rng, b, n))
        counts += _extreme_counts(delta_star, delta, alternative, convention)
        if keep is not None:
            keep[done:done + b] = delta_star
        done += b
    if convention == "shift":
        pvalue = counts / n_resamples
    else:
        low, high = counts / n_resamples
        pvalue = {"greater": low, "less": high, "two-sided": np.minimum(1.0, 2 * np.minimum(low, high))}[alternative]
    ci = None
    if keep is not None:
        if not 0 < confidence_level < 1:
            raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level}")
        a = (1 - confidence_level) / 2
        lo, hi = np.quantile(keep, [a, 1 - a], axis=0)
        ci = ConfidenceInterval(lo, hi)
    unit = "clusters" if clusters is not None else "items"
    return TestResult(delta, pvalue, f"paired bootstrap ({convention} convention, resampling {unit})", alternative,
                      ci, {"n_resamples": n_resamples, "pairs": pairs, "observed": observed[local]})


def bootstrap_score_matrix(stats, metric: Metric, *, n_resamples: int = 10_000, rng=None, clusters=None):
    """Every system's score on the same bootstrap resamples: (observed (m,), replicates (B, m)).

    All systems see the same resampled items in each replicate, so any column difference
    is a paired-bootstrap replicate of that pair's difference.
    """
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 3 or stats.shape[1] < 1:
        raise ValueError(f"statistics must have shape (systems, items, k), got {stats.shape}")
    if stats.shape[2] != len(metric.statistics):
        raise ValueError(f"metric {metric.name!r} needs {len(metric.statistics)} statistics per item, "
                         f"got {stats.shape[2]}")
    if not np.all(np.isfinite(stats)):
        raise ValueError("statistics contain NaN or infinite values")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    rng = as_generator(rng)
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    pack = ColumnPack(stats, np.arange(stats.shape[0]))
    n = stats.shape[1]
    block = replicate_block(n, pack.matrix.shape[1])
    values = np.empty((n_resamples, stats.shape[0]))
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        values[done:done + b] = metric(pack.sums(bootstrap_counts(rng, b, n)))
        done += b
    return metric(stats.sum(axis=1, dtype=np.float64)), values


def bootstrap_scores(stats, metric: Metric, *, n_resamples: int = 10_000, rng=None, confidence_level: float = 0.95,
                     clusters=None):
    """Each system's score and percentile bootstrap confidence interval: (scores, low, high)."""
    if not 0 < confidence_level < 1:
        raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level}")
    observed, values = bootstrap_score_matrix(stats, metric, n_resamples=n_resamples, rng=rng, clusters=clusters)
    a = (1 - confidence_level) / 2
    low, high = np.quantile(values, [a, 1 - a], axis=0)
    return observed, low, high
