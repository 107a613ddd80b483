"""Shared machinery of the resampling tests: inputs, column packing, resampled metrics.

Systems' per-item statistics come as an array (systems, items, k).  A resampling test
draws a weight matrix W (replicates x items) - bootstrap counts or swap indicators - and
gets every system's resampled sums as one matrix product W @ S, with S holding each
system's statistic columns side by side (columns equal for all systems, such as the
number of gold items per sentence, are stored once).  That product is the whole cost of
a test, so many pairs are tested at once at matrix-multiply speed.
"""
from __future__ import annotations

import numpy as np

from .metrics import Metric

#: Largest |sum| for which float32 products of integer statistics stay exact.
FLOAT32_EXACT = 2**24
#: Relative tolerance for "at least as extreme" comparisons (sums are exact, so ties are exact).
TIE_TOL = 1e-12


def as_generator(rng) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        raise ValueError("pass a seeded numpy Generator (or an integer seed) as rng; no global random state is used")
    return np.random.default_rng(rng)


def check_stats(stats, metric: Metric, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Validate (systems, items, k) statistics and (pairs, 2) system indices."""
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim == 2:
        stats = stats[:, :, None]
    if stats.ndim != 3:
        raise ValueError(f"statistics must have shape (systems, items, k), got {stats.shape}")
    m, n, k = stats.shape
    if k != len(metric.statistics):
        raise ValueError(f"metric {metric.name!r} needs {len(metric.statistics)} statistics per item, got {k}")
    if m < 2:
        raise ValueError(f"need at least two systems to compare, got {m}")
    if n < 1:
        raise ValueError("no items to test on")
    if not np.all(np.isfinite(stats)):
        raise ValueError("statistics contain NaN or infinite values")
    if pairs is None:
        if m != 2:
            raise ValueError("give pairs=[(a, b), ...] when comparing more than two systems")
        pairs = [(0, 1)]
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if pairs.size == 0 or pairs.min() < 0 or pairs.max() >= m:
        raise ValueError(f"pairs must index systems 0..{m - 1}")
    return stats, pairs


def aggregate_clusters(stats: np.ndarray, clusters) -> np.ndarray:
    """Sum items' statistics within clusters: (systems, items, k) -> (systems, clusters, k)."""
    clusters = np.asarray(clusters)
    if clusters.shape != (stats.shape[1],):
        raise ValueError(f"clusters must give one id per item ({stats.shape[1]}), got shape {clusters.shape}")
    _, inverse = np.unique(clusters, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
    return np.add.reduceat(stats[:, order, :], starts, axis=1)


def improvement(metric: Metric, values_a: np.ndarray, values_b: np.ndarray) -> np.ndarray:
    """A's improvement over B in metric units (positive = A better)."""
    return values_a - values_b if metric.higher_is_better else values_b - values_a


class ColumnPack:
    """The statistic columns of the systems used by some pairs, with shared columns stored once."""

    def __init__(self, stats: np.ndarray, systems: np.ndarray):
        m, n, k = stats.shape
        self.systems = systems
        shared = [bool(np.all(stats[systems, :, s] == stats[systems[0], :, s])) for s in range(k)]
        columns, index = [], np.empty((systems.size, k), dtype=np.int64)
        for s in range(k):
            if shared[s]:
                index[:, s] = len(columns)
                columns.append(stats[systems[0], :, s])
        for j, sys_ in enumerate(systems):
            for s in range(k):
                if not shared[s]:
                    index[j, s] = len(columns)
                    columns.append(stats[sys_, :, s])
        self.matrix = np.stack(columns, axis=1)
        self.index = index
        integral = np.all(self.matrix == np.round(self.matrix))
        bound = n * np.abs(self.matrix).max(initial=0)
        self.dtype = np.float32 if integral and bound < FLOAT32_EXACT else np.float64
        self.matrix = np.ascontiguousarray(self.matrix, dtype=self.dtype)

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """Resampled sums (replicates, systems, k) for weights (replicates, items)."""
        prod = weights.astype(self.dtype, copy=False) @ self.matrix
        return prod.astype(np.float64)[:, self.index]


def bootstrap_counts(rng: np.random.Generator, n_rep: int, n: int) -> np.ndarray:
    """Multinomial(n; 1/n, ..., 1/n) resample counts, (n_rep, n), via one bincount."""
    draws = rng.integers(0, n, size=(n_rep, n), dtype=np.int64)
    draws += (np.arange(n_rep, dtype=np.int64) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=n_rep * n).reshape(n_rep, n).astype(np.float32)


def replicate_block(n_items: int, n_columns: int, budget: int = 2**25) -> int:
    """Replicates per block so that the weight and product matrices stay within ~budget floats."""
    return int(max(16, min(4096, budget // max(1, n_items + n_columns))))
