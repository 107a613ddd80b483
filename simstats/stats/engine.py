"""Shared machinery of the resampling tests: inputs, column packing, the replicate loop.

Systems' per-item statistics come as an array (systems, items, k).  A resampling test
takes a resampler (:mod:`simstats.stats.resample`), which gives weight matrices W
(replicates x items) - bootstrap counts or swap indicators - and gets every system's
resampled sums as one matrix product W @ S, with S holding each system's statistic columns
side by side (columns equal for all systems, such as the number of gold items per sentence,
are stored once: :class:`ColumnPack`).  That product is the whole cost of a test, so many
pairs are tested at once at matrix-multiply speed.  :func:`replicates` is the one loop that
runs a test's replicates in blocks.

Results do not depend on the block size: the resamplers draw in an order of their own, and
the sums of integer statistics are exact (float32 below 2**24, float64 below 2**53, whichever
rows a BLAS groups together), so a replicate's sums are the same numbers in any block
(tests/stats/test_resample.py tests this contract).  Statistics that are not integers are summed
in float64 by the BLAS product; their last bits may depend on the BLAS build, and the block
size is a fixed function of the data's shape (:func:`replicate_block`).
"""
from __future__ import annotations

import numpy as np

from simstats.stats.metrics import Metric

__all__ = ["ColumnPack", "replicates", "as_generator", "check_stats", "orient_by_winner", "improvement"]

#: Largest |sum| for which float32 products of integer statistics stay exact.
FLOAT32_EXACT = 2**24
#: The same for float64 products.
FLOAT64_EXACT = 2**53
#: Items up to which int64 sums of statistics of at most 32 bits equal their float64 sums: every partial
#: sum stays below 2**53, where float64 holds integers exactly.
EXACT_INTEGER_ITEMS = FLOAT64_EXACT // 2**32
#: Relative tolerance for "at least as extreme" comparisons (sums are exact, so ties are exact).
TIE_TOL = 1e-12
#: Items are compressed into their distinct rows when rows * factor <= items: where that draws
#: faster than the item-level resampler.  Measured on this project's 2-core machine (B = 1,000,
#: n = 500 to 10,000): one multinomial count per row costs about as much as 7-8 item draws
#: (rows = n/4 was 1.3-1.5x slower than the item draws, n/8 0.8-0.9x), one binomial count about
#: as much as 28 swap indicators (``python -m bench`` measures both).
BOOTSTRAP_COMPRESS_FACTOR = 8
RANDOMIZATION_COMPRESS_FACTOR = 28


def as_generator(rng) -> np.random.Generator:
    """``rng`` as a numpy Generator: a Generator is used as is, an integer seeds a new one.

    Every resampling test of simstats takes its randomness this way, so that results are
    reproducible: there is no fallback to numpy's global random state.

    Parameters
    ----------
    rng : numpy.random.Generator, int or numpy.random.SeedSequence
        A Generator, or a seed for ``numpy.random.default_rng``.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ValueError
        For None, a bool or anything else that is not a Generator or a seed.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.engine import as_generator
    >>> rng = np.random.default_rng(5)
    >>> as_generator(rng) is rng
    True
    >>> float(as_generator(5).random()) == float(np.random.default_rng(5).random())
    True
    >>> as_generator(None)
    Traceback (most recent call last):
    ...
    ValueError: rng must be a seeded numpy Generator or an integer seed (no global random state is used), got None
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, bool) or not isinstance(rng, (int, np.integer, np.random.SeedSequence)):
        raise ValueError("rng must be a seeded numpy Generator or an integer seed (no global random state is used), "
                         f"got {rng!r}")
    return np.random.default_rng(rng)


def check_stats(stats, metric: Metric, pairs=None) -> tuple[np.ndarray, np.ndarray]:
    """Validate (systems, items, k) statistics and (pairs, 2) system indices.

    The input check of the resampling tests, for a custom test built on :func:`replicates`.

    Parameters
    ----------
    stats : array_like, shape (systems, items, k) or (systems, items)
        Per-item statistics of every system (a 2-D array is one statistic per item).  Booleans
        are viewed as uint8, other non-numeric types converted to float64.
    metric : Metric
        The metric; k must equal its number of statistics.
    pairs : array_like of int, shape (pairs, 2), optional
        The (A, B) system indices to compare; may be omitted for exactly two systems.

    Returns
    -------
    stats : numpy.ndarray, shape (systems, items, k)
    pairs : numpy.ndarray of int64, shape (pairs, 2)

    Raises
    ------
    ValueError
        If the shape does not fit the metric, there are fewer than 2 systems or no items, the
        statistics are not finite, pairs are missing for more than two systems, or a pair
        index is out of range.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.engine import check_stats
    >>> from simstats.stats.metrics import accuracy
    >>> correct = np.array([[1, 0, 1], [1, 1, 1]])
    >>> stats, pairs = check_stats(np.stack([correct, np.ones_like(correct)], axis=-1), accuracy)
    >>> stats.shape, pairs.tolist()
    ((2, 3, 2), [[0, 1]])
    >>> check_stats(np.zeros((3, 4, 2)), accuracy)
    Traceback (most recent call last):
    ...
    ValueError: give pairs=[(a, b), ...] when comparing more than two systems
    """
    stats = np.asarray(stats)
    if stats.dtype.kind == "b":
        stats = stats.view(np.uint8)
    elif stats.dtype.kind not in "iuf":
        stats = stats.astype(np.float64)
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
    if stats.dtype.kind == "f" and not np.isfinite(stats).all():
        raise ValueError("statistics contain NaN or infinite values")
    if pairs is None:
        if m != 2:
            raise ValueError("give pairs=[(a, b), ...] when comparing more than two systems")
        pairs = [(0, 1)]
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if pairs.size == 0 or pairs.min() < 0 or pairs.max() >= m:
        raise ValueError(f"pairs must index systems 0..{m - 1}")
    return stats, pairs


def item_groups(stats: np.ndarray, systems, factor: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Items grouped by their joint statistics over ``systems``: (representative item, size) per group.

    Items whose statistics agree for every system in ``systems`` are interchangeable in any
    resampled sum, so a resampler may draw one count per group instead of one per item:
    the item bootstrap's counts summed within groups are Multinomial(n; sizes / n), the
    swapped items of a group Binomial(size, 1/2).  Groups are the distinct rows, in
    lexicographic order, of the systems' statistics side by side in the order given, so two
    callers that see the same statistics in the same order draw the same counts.  None when
    there are more than n / factor groups (drawing per item is then cheaper)."""
    systems = np.asarray(systems, dtype=np.int64)
    n = stats.shape[1]
    limit = n // factor
    if limit < 1:
        return None
    # rank the rows column by column: key = rank of the row among the distinct prefixes so far
    # (0 .. prefixes - 1), so keys order the rows lexicographically; stop as soon as the prefixes are
    # too many.  The ranks of the extended prefixes come from a table of which (prefix, value) codes
    # occur (the dense ranks np.unique would give, without sorting) while that table is small.
    key = np.zeros(n, dtype=np.int64)
    prefixes = 1
    for system in systems:
        for column in stats[system].T:
            values, rank = np.unique(column, return_inverse=True)
            if values.size == 1:
                continue
            code = key * values.size + rank.ravel()
            if prefixes * values.size <= 8 * n:
                seen = np.zeros(prefixes * values.size, dtype=np.int64)
                seen[code] = 1
                dense = np.cumsum(seen)
                key = dense[code] - 1
                prefixes = int(dense[-1])
            else:
                distinct, key = np.unique(code, return_inverse=True)
                key, prefixes = key.ravel(), distinct.size
            if prefixes > limit:
                return None
    _, first, sizes = np.unique(key, return_index=True, return_counts=True)
    return first, sizes


def orient_by_winner(stats: np.ndarray, metric: Metric, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pair ordered (observed winner, loser), and whether it was swapped.

    A researcher who sees one system ahead tests "is the better-looking system better?"
    (Reimers & Gurevych 2018's rule): the pair is oriented by its observed improvement and
    tested one-sided (``alternative="greater"``).  Ties keep the given order.

    Parameters
    ----------
    stats : numpy.ndarray, shape (systems, items, k)
        Per-item statistics of every system.
    metric : Metric
        The metric the systems are scored with.
    pairs : numpy.ndarray of int, shape (pairs, 2)
        The (A, B) system indices.

    Returns
    -------
    oriented : numpy.ndarray, shape (pairs, 2)
        Each pair as (observed winner, loser).
    flipped : numpy.ndarray of bool, shape (pairs,)
        Whether the pair was swapped.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.engine import orient_by_winner
    >>> from simstats.stats.metrics import accuracy
    >>> correct = np.array([[1, 0, 0, 1], [1, 1, 0, 1], [1, 0, 1, 1]])      # accuracies 0.5, 0.75, 0.75
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=-1)
    >>> oriented, flipped = orient_by_winner(stats, accuracy, np.array([[0, 1], [1, 2]]))
    >>> oriented.tolist(), flipped.tolist()
    ([[1, 0], [1, 2]], [True, False])
    """
    values = metric(system_totals(stats))
    flipped = improvement(metric, values[pairs[:, 0]], values[pairs[:, 1]]) < 0
    return np.where(flipped[:, None], pairs[:, ::-1], pairs), flipped


def system_totals(stats: np.ndarray) -> np.ndarray:
    """Every system's statistics summed over the items, float64 (systems, k): ``stats.sum(axis=1,
    dtype=np.float64)``.

    Integer statistics of at most 32 bits over at most EXACT_INTEGER_ITEMS items are summed one
    statistic at a time in int64: both sums are exact, so they are the same numbers, and the reduction over
    the middle axis of a (systems, items, k) array takes about 5 times as long (a paper-scale Reimers chunk,
    14,400 models x 3,453 sentences x 3: 0.54 s against 0.10 s)."""
    stats = np.asarray(stats)
    if stats.ndim == 3 and stats.dtype.kind in "biu" and stats.dtype.itemsize <= 4 \
            and stats.shape[1] <= EXACT_INTEGER_ITEMS:
        totals = np.empty(stats.shape[::2], np.float64)
        for j in range(stats.shape[2]):
            totals[:, j] = stats[:, :, j].sum(axis=1, dtype=np.int64)
        return totals
    return stats.sum(axis=1, dtype=np.float64)


def improvement(metric: Metric, values_a: np.ndarray, values_b: np.ndarray) -> np.ndarray:
    """A's improvement over B in metric units (positive = A better).

    Parameters
    ----------
    metric : Metric
        The metric; for a lower-is-better metric the improvement is B - A.
    values_a, values_b : float or numpy.ndarray
        The metric values of A and of B.

    Returns
    -------
    float or numpy.ndarray
        A - B, or B - A for a lower-is-better metric.

    Examples
    --------
    >>> from simstats.stats.engine import improvement
    >>> from simstats.stats.metrics import accuracy, mae
    >>> round(improvement(accuracy, 0.8, 0.7), 4), round(improvement(mae, 0.8, 0.7), 4)
    (0.1, -0.1)
    """
    return values_a - values_b if metric.higher_is_better else values_b - values_a


class ColumnPack:
    """The statistic columns of the systems used by some pairs, with shared columns stored once.

    The matrix S of the module docstring: the systems' statistic columns side by side, so that
    one product W @ S gives every system's resampled sums.  Columns equal for all the systems
    (such as the number of items, or of gold items per sentence) are stored once.  Integer
    statistics are stored as float32 when the sums stay below 2**24 (exact), and wherever the
    sums are exact, items whose statistics are all 0 are left out (they add 0 to every sum).

    Parameters
    ----------
    stats : numpy.ndarray, shape (systems, items, k)
        Per-item statistics of all the systems.
    systems : numpy.ndarray of int
        The systems to pack, in the order of the sums.
    total_weight : float, optional
        The largest sum of one replicate's weights; default the number of items, as for
        item-level bootstrap counts and 0/1 swap indicators (row counts over distinct rows or
        weighted rows sum to the items they stand for).  With it the sums are bounded, which
        decides whether float32 (and leaving out all-zero rows) keeps them exact.

    Attributes
    ----------
    matrix : numpy.ndarray
        The packed (kept items, columns) matrix.
    dtype : type
        numpy.float32 or numpy.float64.
    rows : numpy.ndarray or None
        The items whose rows are kept (None: all).
    shared, own : list of int
        The statistics stored once and those stored per system.
    systems, index, n_items
        The packed systems, the column of each (system, statistic), the number of items.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.engine import ColumnPack
    >>> correct = np.array([[1, 0, 1, 1], [1, 1, 0, 1]])
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=-1)      # (correct, items)
    >>> pack = ColumnPack(stats, np.array([0, 1]))
    >>> pack.matrix.shape, pack.shared, pack.own                  # "items" is stored once
    ((4, 3), [1], [0])
    >>> weights = np.array([[2, 0, 1, 1], [0, 1, 1, 2]], dtype=np.float32)
    >>> pack.sums(weights).tolist()                               # (replicates, systems, k)
    [[[4.0, 4.0], [3.0, 4.0]], [[3.0, 4.0], [3.0, 4.0]]]
    """

    def __init__(self, stats: np.ndarray, systems: np.ndarray, total_weight: float | None = None):
        """``total_weight``: the largest sum of one replicate's weights (default: the number of rows, as for
        item-level bootstrap counts and 0/1 swap indicators; row counts over distinct rows or weighted rows
        sum to the items they stand for).  With it the sums are bounded, which decides whether float32 (and
        leaving out all-zero rows) keeps them exact."""
        sel = stats[systems]
        m, n, k = sel.shape
        self.systems = systems
        shared = [s for s in range(k) if np.array_equal(sel[:, :, s], np.broadcast_to(sel[:1, :, s], (m, n)))]
        own = [s for s in range(k) if s not in shared]
        index = np.empty((m, k), dtype=np.int64)
        for pos, s in enumerate(shared):
            index[:, s] = pos
        for pos, s in enumerate(own):
            index[:, s] = len(shared) + np.arange(m) * len(own) + pos
        blocks = [sel[0][:, shared]] if shared else []
        if own:
            blocks.append(sel[:, :, own].transpose(1, 0, 2).reshape(n, m * len(own)))
        matrix = np.concatenate(blocks, axis=1)
        integral = matrix.dtype.kind in "iu" or bool(np.array_equal(matrix, np.rint(matrix)))
        largest = max(abs(float(matrix.min(initial=0))), abs(float(matrix.max(initial=0))))  # no int abs wrap
        bound = (n if total_weight is None else float(total_weight)) * largest
        self.dtype = np.float32 if integral and bound < FLOAT32_EXACT else np.float64
        #: The items whose rows are kept (None: all n).  An item whose statistics are 0 for every
        #: system adds 0 to every weighted sum; where the sums are exact (integer statistics within
        #: the dtype's exact range), leaving such items out gives the same sums bit for bit.
        self.rows = None
        self.n_items = n
        if integral and bound < (FLOAT32_EXACT if self.dtype == np.float32 else FLOAT64_EXACT):
            used = matrix.any(axis=1)
            if not used.all():
                self.rows = np.flatnonzero(used)
                matrix = matrix[used]
        self.matrix = np.ascontiguousarray(matrix, dtype=self.dtype)
        self.index = index
        self.shared, self.own = shared, own

    def sums(self, weights: np.ndarray, statistic_major: bool = False) -> np.ndarray:
        """Resampled sums (replicates, systems, k) for weights (replicates, items), or for weights of
        the kept items only, (replicates, rows) (a resampler given ``columns=pack.rows``).

        ``statistic_major``: return a view of a (k, replicates, systems) array, so that each statistic's
        sums are contiguous; the same values, for metrics whose arithmetic is elementwise
        (``Metric.elementwise``), which then run faster."""
        if self.rows is not None and weights.shape[1] == self.n_items:
            weights = weights[:, self.rows]
        prod = weights.astype(self.dtype, copy=False) @ self.matrix
        b, m, k = prod.shape[0], self.index.shape[0], self.index.shape[1]
        ks = len(self.shared)
        own = prod[:, ks:].reshape(b, m, len(self.own))
        if statistic_major:
            stored = np.empty((k, b, m), dtype=np.float64)
            for pos, s in enumerate(self.own):
                stored[s] = own[:, :, pos]
            for pos, s in enumerate(self.shared):
                stored[s] = prod[:, pos, None]
            return stored.transpose(1, 2, 0)
        out = np.empty((b, m, k), dtype=np.float64)
        if self.own:
            if len(self.own) == k:
                out[...] = own
            else:
                out[:, :, self.own] = own
        for pos, s in enumerate(self.shared):
            out[:, :, s] = prod[:, pos, None]
        return out


def replicate_block(n_items: int, n_columns: int, budget: int = 2**25) -> int:
    """Replicates per block so that the weight and product matrices stay within ~budget floats."""
    return int(max(16, min(4096, budget // max(1, n_items + n_columns))))


def replicates(resampler, pack: ColumnPack, statistic, *, elementwise: bool = False, keep: bool = True, count=None,
               block: int | None = None):
    """Run a resampling test's replicates: the one loop of every resampling test.

    For each block of b replicates: ``draws = resampler.draw(b)`` (a weight matrix, or a tuple of
    the weight matrix and further draws, see :class:`simstats.stats.resample.Joint`), the resampled
    sums ``S* = pack.sums(W, elementwise)`` (b, systems, k), and the replicate statistics
    ``statistic(S*, *further draws)`` (b, p).  The results do not depend on the block size.

    Parameters
    ----------
    resampler : Resampler or Joint
        The source of the weights (:mod:`simstats.stats.resample`); its ``n_resamples`` is B.
    pack : ColumnPack
        The packed statistics of the systems.
    statistic : callable
        Maps a block's resampled sums (b, systems, k), and any further draws, to its replicate
        statistics (b, p).
    elementwise : bool, optional
        Passed to :meth:`ColumnPack.sums` (statistic-major sums for elementwise metrics).
    keep : bool, optional
        Return every replicate's statistics, (B, p).  Default True.
    count : callable, optional
        A function of a block's statistics giving counts (e.g. of replicates at least as
        extreme as observed), summed over the blocks in int64.
    block : int, optional
        Replicates per block (default :func:`replicate_block` of the pack's matrix).

    Returns
    -------
    kept : numpy.ndarray or None
        The replicate statistics (B, p) if ``keep``, else None.
    counts : numpy.ndarray or None
        The summed counts if ``count`` is given, else None.

    Examples
    --------
    A paired bootstrap of the accuracy difference of two classifiers on 100 items:

    >>> import numpy as np
    >>> from simstats.stats.engine import ColumnPack, replicates
    >>> from simstats.stats.metrics import accuracy, label_statistics
    >>> from simstats.stats.resample import ItemCounts
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 3, 100)
    >>> preds = [np.where(rng.random(100) < p, gold, (gold + 1) % 3) for p in (0.70, 0.78)]
    >>> stats = np.stack([label_statistics(accuracy, gold, p) for p in preds])
    >>> accuracy(stats.sum(axis=1)).tolist()
    [0.61, 0.73]
    >>> def difference(sums):
    ...     values = accuracy(sums)
    ...     return values[:, 1:] - values[:, :1]
    >>> pack = ColumnPack(stats, np.array([0, 1]))
    >>> kept, at_most_0 = replicates(ItemCounts(np.random.default_rng(1), 2000, 100), pack, difference,
    ...                              count=lambda v: (v <= 0).sum(axis=0))
    >>> kept.shape, at_most_0.tolist()
    ((2000, 1), [65])

    The same replicates computed directly from the bootstrap counts:

    >>> counts = ItemCounts(np.random.default_rng(1), 2000, 100).draw(2000)
    >>> direct = (counts @ stats[1, :, 0] - counts @ stats[0, :, 0]) / 100
    >>> bool(np.allclose(kept[:, 0], direct)), int(np.sum(direct <= 0))
    (True, 65)
    """
    n_resamples = resampler.n_resamples
    if block is None:
        block = replicate_block(pack.matrix.shape[0], pack.matrix.shape[1])
    kept = counts = None
    done = 0
    while done < n_resamples:
        b = min(block, n_resamples - done)
        draws = resampler.draw(b)
        extra = ()
        if isinstance(draws, tuple):
            draws, extra = draws[0], draws[1:]
        values = statistic(pack.sums(draws, elementwise), *extra)
        if keep:
            if kept is None:
                kept = np.empty((n_resamples,) + values.shape[1:], dtype=values.dtype)
            kept[done:done + b] = values
        if count is not None:
            c = np.asarray(count(values), dtype=np.int64)
            counts = c if counts is None else counts + c
        done += b
    return kept, counts


def column_sums(x: np.ndarray) -> np.ndarray:
    """Sum over the first axis of a float array (of each column of a 2-D array), overwriting ``x``.

    The rows are added by folding the array in halves until one row is left: with k rows and
    h = ceil(k / 2), row i += row i + h for i < k - h (an odd k carries its middle row over).  This
    fixed pairwise tree depends only on the number of rows, and each step is an element-wise
    addition, so a column's sum depends on that column alone: the same bits whatever the other
    columns, their number or the memory layout, on any BLAS or CPU (IEEE addition is correctly
    rounded element by element).  Its rounding error is about ceil(log2 k) 2^-53 of the sum of
    the magnitudes."""
    k = x.shape[0]
    while k > 1:
        h = (k + 1) // 2
        np.add(x[:k - h], x[h:k], out=x[:k - h])
        k = h
    return x[0].copy()
