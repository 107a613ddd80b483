"""Resamplers: the random weight matrices the engine multiplies with the statistics.

Each function draws, from the generator passed in, a (replicates, units) matrix W; the
engine (:mod:`simstats.stats.engine`) turns it into every system's resampled sums W @ S.

* :func:`item_counts` - the bootstrap over n items: Multinomial(n; 1/n, ..., 1/n) counts.
* :func:`row_counts` - the same bootstrap when the statistics are given as distinct rows
  with multiplicities (``weights``): Multinomial(n; w_1/n, ..., w_r/n) over the rows, which
  has exactly the distribution of the item bootstrap's counts summed within rows, at a cost
  of O(rows) instead of O(n) per replicate.
* :func:`swap_indicators` - randomization: each item's outputs swapped with probability 1/2.
* :func:`row_swaps` - the same over distinct rows: Binomial(w_r, 1/2) swapped items per row.

Clusters are handled by summing items within clusters first
(:func:`simstats.stats.engine.aggregate_clusters`); the resamplers then act on clusters.
"""
from __future__ import annotations

import numpy as np


#: Items x replicates counted at once by :func:`item_counts`: their int64 counts (128,000 bytes) stay in
#: the L2 cache and under glibc's default mmap threshold (128 KiB), so each block's arrays are reused heap
#: memory instead of fresh pages from the kernel (2**15 values took 6-9 instead of 3.3 ns per value at
#: n = 60-700 items, from page faults).
COUNT_BLOCK = 16_000


def item_counts(rng: np.random.Generator, n_resamples: int, n: int, columns: np.ndarray | None = None) -> np.ndarray:
    """Multinomial(n; 1/n, ..., 1/n) resample counts, (n_resamples, n) float32; with ``columns``
    (item indices), only those items' counts, (n_resamples, len(columns)), from the same draws.

    Drawn and counted in blocks of rows (one bincount per block of about COUNT_BLOCK values, which
    stays in the cache): the generator gives the same draws in blocks as in one call of the whole
    shape, so the counts are those of one draw and one bincount of the whole matrix, bit for bit
    (tests/test_resample.py), at about half the cost."""
    dtype = np.int32 if n_resamples * n < 2**31 else np.int64     # fixes the stream: keep the rule
    rows = max(1, COUNT_BLOCK // max(n, 1))
    offsets = (np.arange(min(rows, n_resamples), dtype=dtype) * n)[:, None]
    out = np.empty((n_resamples, n if columns is None else len(columns)), np.float32)
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        draws = rng.integers(0, n, size=(stop - start, n), dtype=dtype)
        draws += offsets[:stop - start]
        counts = np.bincount(draws.ravel(), minlength=(stop - start) * n).reshape(stop - start, n)
        out[start:stop] = counts if columns is None else counts[:, columns]
    return out


def row_counts(rng: np.random.Generator, n_resamples: int, weights: np.ndarray) -> np.ndarray:
    """Bootstrap counts over distinct rows with multiplicities ``weights``: (n_resamples, rows)."""
    weights = np.asarray(weights, dtype=np.float64)
    n = int(round(weights.sum()))
    return rng.multinomial(n, weights / n, size=n_resamples).astype(np.float32)


def swap_indicators(rng: np.random.Generator, n_resamples: int, n: int, columns: np.ndarray | None = None) -> np.ndarray:
    """Randomization swaps: 1 where an item's two outputs are exchanged, (n_resamples, n) float32; with
    ``columns`` (item indices), only those items' indicators from the same draws."""
    swaps = rng.integers(0, 2, size=(n_resamples, n), dtype=np.uint8)
    return (swaps if columns is None else swaps[:, columns]).astype(np.float32)


def row_swaps(rng: np.random.Generator, n_resamples: int, weights: np.ndarray) -> np.ndarray:
    """Randomization over distinct rows: Binomial(w_r, 1/2) swapped items per row (n_resamples, rows)."""
    weights = np.asarray(weights).astype(np.int64)
    return rng.binomial(weights, 0.5, size=(n_resamples, weights.size)).astype(np.float32)


def check_weights(weights, n_rows: int) -> np.ndarray:
    """Validate item multiplicities of distinct rows: non-negative integers, one per row, not all 0."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n_rows,):
        raise ValueError(f"weights must give one multiplicity per row ({n_rows}), got shape {weights.shape}")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0) or np.any(weights != np.rint(weights)):
        raise ValueError("weights must be non-negative integers (how many items each row stands for)")
    if weights.sum() < 1:
        raise ValueError("weights sum to 0: no items to test on")
    return weights
