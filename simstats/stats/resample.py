"""Resamplers: seeded sources of the weight matrices the resampling tests multiply with statistics.

A resampler stands for the B replicates of one test.  ``draw(b)`` gives the weights of the next
b replicates, a (b, units) float32 matrix W (:class:`ItemIndices`: the drawn items' indices); the engine (:func:`simstats.stats.engine.replicates`)
turns each block into every system's resampled sums W @ S.  Every resampler draws its random
numbers in a fixed order of its own, so the B replicates are the same whatever blocks they are
asked for in (and, for a given seed, the same in every run).

* :class:`ItemIndices` - the bootstrap over n items as the drawn indices, for statistics that are not
  weighted sums (quantiles, rank statistics, correlations of resampled rows).
* :class:`StratifiedIndices` - the bootstrap within strata (each stratum's items resampled among
  themselves), as the drawn indices.
* :class:`ItemCounts` - the bootstrap over n items: Multinomial(n; 1/n, ..., 1/n) counts per
  replicate, from n uniform item indices per replicate (sacrebleu's ``rng.choice(n, (B, n))``).
* :class:`ClusterCounts` - the bootstrap over clusters of items: ItemCounts over the clusters,
  applied to the items' statistics summed within clusters (:meth:`ClusterCounts.aggregate`).
* :class:`RowCounts` - the item bootstrap when the statistics come as distinct rows standing for
  ``sizes`` identical items each (weighted rows, or the rows the engine compresses equal items
  into): Multinomial(n; sizes / n) over the rows, the distribution of the item counts summed
  within rows, at a cost of O(rows) instead of O(n) per replicate.
* :class:`Swaps` - randomization: each item's two outputs exchanged with probability 1/2
  (indicators 0/1).
* :class:`RowSwaps` - the same over distinct rows: Binomial(size, 1/2) swapped items per row.
* :class:`SeedCounts` - the bootstrap over the runs (seeds) of two approaches, paired or not.
* :class:`Joint` - several resamplers drawn side by side (items and seeds of an approach test).

Every resampling site of the package draws its replicates from one of these classes.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

__all__ = ["Resampler", "ItemIndices", "StratifiedIndices", "ItemCounts", "ClusterCounts", "RowCounts", "Swaps", "RowSwaps", "SeedCounts", "Joint",
           "aggregate_clusters"]

#: Items x replicates counted at once by :class:`ItemCounts`: their int64 counts (128,000 bytes) stay in
#: the L2 cache and under glibc's default mmap threshold (128 KiB), so each chunk's arrays are reused heap
#: memory instead of fresh pages from the kernel (2**15 values took 6-9 instead of 3.3 ns per value at
#: n = 60-700 items, from page faults).
COUNT_BLOCK = 16_000
#: Swap indicators drawn at once by :class:`Swaps` (rounded to whole replicates, 4 at a time).
SWAP_BLOCK = 2**16
#: Replicates drawn at once by :class:`SeedCounts` (A's counts for these replicates, then B's).
SEED_BLOCK = 4096


class Resampler(ABC):
    """Base class of the resamplers: B replicates of weights over ``units`` columns, in blocks of any size.

    A resampling test multiplies each replicate's weights with the units' statistics.  A
    subclass draws ``chunk`` replicates at a time with :meth:`_draw` (its own fixed chunking);
    :meth:`draw` serves the requested rows from those chunks, so the replicates do not depend on
    the block sizes asked for.  At most ``n_resamples`` replicates are drawn in all.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the random numbers; the resampler consumes it.
    n_resamples : int
        B, the number of replicates (at least 1).
    units : int
        Columns of the weight matrices.

    Attributes
    ----------
    rng, n_resamples, units
        As given.
    chunk : int
        Replicates per call of :meth:`_draw`.

    Raises
    ------
    ValueError
        If ``n_resamples`` is below 1.

    Examples
    --------
    The replicates are the same whatever blocks they are asked for in:

    >>> import numpy as np
    >>> from simstats.stats.resample import ItemCounts
    >>> whole = ItemCounts(np.random.default_rng(0), 4, 5).draw(4)
    >>> blocks = ItemCounts(np.random.default_rng(0), 4, 5)
    >>> bool(np.array_equal(np.vstack([blocks.draw(1), blocks.draw(3)]), whole))
    True
    >>> blocks.draw(1)
    Traceback (most recent call last):
    ...
    ValueError: only 4 replicates: cannot draw 1 more
    """

    #: replicates per call of :meth:`_draw`
    chunk = SEED_BLOCK
    #: type of the drawn blocks
    block_dtype = np.float32

    def __init__(self, rng: np.random.Generator, n_resamples: int, units: int):
        if n_resamples < 1:
            raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
        self.rng = rng
        self.n_resamples = int(n_resamples)
        self.units = int(units)
        self._undrawn = self.n_resamples
        self._spare = None

    @abstractmethod
    def _draw(self, rows: int) -> np.ndarray:
        """The next ``rows`` replicates, (rows, units)."""

    def draw(self, b: int) -> np.ndarray:
        """The weights of the next ``b`` replicates, (b, units) of type :attr:`block_dtype` (float32)."""
        spare = self._spare
        if spare is None and b == min(self.chunk, self._undrawn):     # one whole chunk: no copy
            part = self._draw(b)
            self._undrawn -= b
            return part if part.dtype == self.block_dtype else part.astype(self.block_dtype)
        if spare is not None and spare.shape[0] >= b:
            self._spare = spare[b:] if spare.shape[0] > b else None
            return spare[:b].astype(self.block_dtype)
        if b > (0 if spare is None else spare.shape[0]) + self._undrawn:
            raise ValueError(f"only {self.n_resamples} replicates: cannot draw {b} more")
        out = np.empty((b, self.units), self.block_dtype)
        pos = 0
        if spare is not None:
            out[:spare.shape[0]] = spare
            pos = spare.shape[0]
            self._spare = None
        while pos < b:
            rows = min(self.chunk, self._undrawn)
            part = self._draw(rows)
            self._undrawn -= rows
            take = min(rows, b - pos)
            out[pos:pos + take] = part[:take]
            if take < rows:
                self._spare = part[take:]
            pos += take
        return out


class ItemIndices(Resampler):
    """Bootstrap resamples of ``n`` items as indices: row r lists the ``size`` items replicate r draws.

    For statistics that are not weighted sums of the items' statistics (quantiles, ranks,
    correlations).  The draws are those of one ``rng.integers(0, n, size=(B, size), dtype=dtype)``
    call, whatever blocks they are asked for in; 16-bit indices are drawn in one call (numpy buffers
    their bits within a call), 32- and 64-bit ones ``COUNT_BLOCK`` values at a time.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    n : int
        The number of items.
    size : int, optional
        Items drawn per replicate (default n).
    dtype : numpy integer type, optional
        Type of the indices (default int64; int16 halves int32's memory for n up to 32,767).
    chunk : int, optional
        Replicates drawn from ``rng`` at a time; 1 lets several resamplers share one generator
        replicate by replicate (the default draws as many as fit ``COUNT_BLOCK`` values).

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import ItemIndices
    >>> boot = ItemIndices(np.random.default_rng(0), 3, 5)
    >>> np.vstack([boot.draw(1), boot.draw(2)]).tolist()
    [[4, 3, 2, 1, 1], [0, 0, 0, 0, 4], [3, 4, 2, 3, 4]]
    >>> np.random.default_rng(0).integers(0, 5, size=(3, 5)).tolist()
    [[4, 3, 2, 1, 1], [0, 0, 0, 0, 4], [3, 4, 2, 3, 4]]
    """

    def __init__(self, rng, n_resamples: int, n: int, size: int | None = None, dtype=np.int64,
                 chunk: int | None = None):
        self.n = int(n)
        self.block_dtype = np.dtype(dtype).type
        if self.n > np.iinfo(self.block_dtype).max + 1:
            raise ValueError(f"{self.n} items do not fit {np.dtype(dtype).name} indices")
        super().__init__(rng, n_resamples, self.n if size is None else int(size))
        if chunk is not None and np.dtype(dtype).itemsize < 4:
            raise ValueError("16- and 8-bit indices are drawn in one call (chunk must be None)")
        self.chunk = (self.n_resamples if np.dtype(dtype).itemsize < 4 else
                      int(chunk) if chunk is not None else max(1, COUNT_BLOCK // max(self.units, 1)))

    def _draw(self, rows):
        return self.rng.integers(0, self.n, size=(rows, self.units), dtype=self.block_dtype)


class StratifiedIndices(Resampler):
    """Bootstrap resamples within strata as indices: each stratum's items drawn among themselves.

    The items are given stratum by stratum (``sizes[0]`` items of the first, then the second's, ...);
    replicate r keeps each position in its stratum and draws it uniformly from that stratum's items,
    ``start + floor(u * size)`` with u from one ``rng.random(n)`` per replicate (the same numbers
    whatever blocks they are asked for in).

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    sizes : array_like of int
        The strata's sizes, in the order of the items.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import StratifiedIndices
    >>> StratifiedIndices(np.random.default_rng(0), 2, [2, 3]).draw(2).tolist()
    [[1, 0, 2, 2, 4], [1, 1, 4, 3, 4]]
    """

    block_dtype = np.int64

    def __init__(self, rng, n_resamples: int, sizes):
        sizes = np.asarray(sizes, dtype=np.int64)
        if sizes.ndim != 1 or np.any(sizes < 1):
            raise ValueError("every stratum needs at least one item")
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        self._start, self._size = np.repeat(starts, sizes), np.repeat(sizes, sizes)
        super().__init__(rng, n_resamples, int(sizes.sum()))
        self.chunk = max(1, COUNT_BLOCK // max(self.units, 1))

    def _draw(self, rows):
        return self._start + np.floor(self.rng.random((rows, self.units)) * self._size).astype(np.int64)


class ItemCounts(Resampler):
    """Bootstrap counts over ``n`` items: row r counts how often each item is among n uniform draws.

    The item bootstrap: each replicate's counts are Multinomial(n; 1/n, ..., 1/n).  The draws are
    those of one ``rng.integers(0, n, size=(B, n))`` call, the resamples of sacrebleu's
    ``rng.choice(n, size=(B, n))`` for the same seed; they are counted ``COUNT_BLOCK`` values
    at a time, which stays in the cache.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    n : int
        The number of items.
    columns : array_like of int, optional
        Item indices: only those items' counts, from the same draws (the rows a
        :class:`~simstats.stats.engine.ColumnPack` keeps).

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import ItemCounts
    >>> counts = ItemCounts(np.random.default_rng(0), 4, 5).draw(4)
    >>> counts.astype(int).tolist()
    [[0, 2, 1, 1, 1], [4, 0, 0, 0, 1], [0, 0, 1, 2, 2], [0, 0, 2, 2, 1]]

    The counts of the items that ``rng.integers(0, n, size=(B, n))`` draws for the same seed:

    >>> draws = np.random.default_rng(0).integers(0, 5, size=(4, 5))
    >>> [np.bincount(row, minlength=5).tolist() for row in draws]
    [[0, 2, 1, 1, 1], [4, 0, 0, 0, 1], [0, 0, 1, 2, 2], [0, 0, 2, 2, 1]]
    """

    def __init__(self, rng, n_resamples: int, n: int, columns=None):
        self.n = int(n)
        self.columns = None if columns is None else np.asarray(columns, dtype=np.int64)
        super().__init__(rng, n_resamples, self.n if columns is None else len(self.columns))
        # the generator gives the same numbers below 2**32 in either dtype; int32 halves the memory traffic
        self.dtype = np.int32 if max(self.n, COUNT_BLOCK) < 2**30 else np.int64
        self.chunk = max(1, COUNT_BLOCK // max(self.n, 1))
        self._offsets = (np.arange(self.chunk, dtype=self.dtype) * self.n)[:, None]

    def _draw(self, rows):
        n = self.n
        draws = self.rng.integers(0, n, size=(rows, n), dtype=self.dtype)
        draws += self._offsets[:rows]
        counts = np.bincount(draws.ravel(), minlength=rows * n).reshape(rows, n)
        return counts if self.columns is None else counts[:, self.columns]


class ClusterCounts(ItemCounts):
    """Bootstrap counts over whole clusters of items (e.g. documents of sentences).

    :class:`ItemCounts` over the clusters, in the order of their sorted ids.  The tests resample
    the :meth:`aggregate` d statistics; :meth:`item_weights` gives the equivalent weights of the
    items (each item weighted by its cluster's count).

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    clusters : array_like, shape (items,)
        Each item's cluster id.
    columns : array_like of int, optional
        Cluster positions: only those clusters' counts.

    Attributes
    ----------
    clusters : numpy.ndarray
        The sorted distinct cluster ids.
    inverse : numpy.ndarray
        Each item's cluster position.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import ClusterCounts
    >>> boot = ClusterCounts(np.random.default_rng(0), 3, ["d2", "d1", "d1", "d3", "d2"])
    >>> boot.clusters.tolist()
    ['d1', 'd2', 'd3']
    >>> counts = boot.draw(3)
    >>> counts.astype(int).tolist()
    [[0, 2, 1], [3, 0, 0], [3, 0, 0]]
    >>> boot.item_weights(counts).astype(int).tolist()
    [[2, 0, 0, 1, 2], [0, 3, 3, 0, 0], [0, 3, 3, 0, 0]]
    """

    def __init__(self, rng, n_resamples: int, clusters, columns=None):
        self.clusters, self.inverse = cluster_index(clusters)
        super().__init__(rng, n_resamples, len(self.clusters), columns)

    def aggregate(self, stats: np.ndarray) -> np.ndarray:
        """Items' statistics (systems, items, k) summed within clusters: (systems, clusters, k)."""
        return aggregate_clusters(stats, self.inverse)

    def item_weights(self, counts: np.ndarray) -> np.ndarray:
        """(b, clusters) counts as (b, items) weights: every item counts as often as its cluster."""
        return counts[:, self.inverse]


class RowCounts(Resampler):
    """Bootstrap counts over distinct rows standing for ``sizes`` items each.

    The item bootstrap when the statistics come as distinct rows (weighted rows, or equal items
    compressed into one row): Multinomial(n; sizes / n) per replicate, n = sum(sizes), the
    distribution of the item counts summed within rows, at a cost of O(rows) per replicate.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    sizes : array_like of int
        How many items each row stands for.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import RowCounts
    >>> counts = RowCounts(np.random.default_rng(0), 3, [3, 1, 2]).draw(3)
    >>> counts.astype(int).tolist()
    [[3, 0, 3], [1, 0, 5], [4, 2, 0]]
    >>> counts.sum(axis=1).tolist()                 # always the 6 items
    [6.0, 6.0, 6.0]
    """

    def __init__(self, rng, n_resamples: int, sizes):
        self.sizes = np.asarray(sizes, dtype=np.float64)
        self.n = int(round(self.sizes.sum()))
        super().__init__(rng, n_resamples, self.sizes.size)

    def _draw(self, rows):
        return self.rng.multinomial(self.n, self.sizes / self.n, size=rows)


class Swaps(Resampler):
    """Randomization over ``n`` items: 1 where an item's two outputs are exchanged (probability 1/2).

    The swap indicators of approximate randomization.  They are those of one
    ``rng.integers(0, 2, size=(B, n), dtype=np.uint8)`` call: they are drawn a multiple of 4
    replicates at a time (numpy packs four uint8 draws into one 32-bit number and drops the
    unused ones at the end of a call).

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    n : int
        The number of items.
    columns : array_like of int, optional
        Item indices: only those items' indicators.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import Swaps
    >>> swaps = Swaps(np.random.default_rng(0), 4, 6).draw(4)
    >>> swaps.astype(int).tolist()
    [[0, 1, 1, 1, 1, 1], [0, 1, 0, 1, 1, 1], [1, 1, 0, 0, 1, 1], [1, 0, 1, 0, 0, 0]]
    >>> reference = np.random.default_rng(0).integers(0, 2, size=(4, 6), dtype=np.uint8)
    >>> bool(np.array_equal(swaps, reference))
    True
    """

    def __init__(self, rng, n_resamples: int, n: int, columns=None):
        self.n = int(n)
        self.columns = None if columns is None else np.asarray(columns, dtype=np.int64)
        super().__init__(rng, n_resamples, self.n if columns is None else len(self.columns))
        self.chunk = 4 * max(1, SWAP_BLOCK // (4 * max(self.n, 1)))

    def _draw(self, rows):
        swaps = self.rng.integers(0, 2, size=(rows, self.n), dtype=np.uint8)
        return swaps if self.columns is None else swaps[:, self.columns]


class RowSwaps(Resampler):
    """Randomization over distinct rows standing for ``sizes`` items each.

    Binomial(size, 1/2) swapped items per row and replicate: the number of a row's items whose
    outputs :class:`Swaps` would exchange.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    sizes : array_like of int
        How many items each row stands for.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import RowSwaps
    >>> RowSwaps(np.random.default_rng(0), 3, [3, 1, 2]).draw(3).astype(int).tolist()
    [[2, 0, 0], [0, 1, 2], [2, 1, 1]]
    """

    def __init__(self, rng, n_resamples: int, sizes):
        self.sizes = np.asarray(sizes).astype(np.int64)
        super().__init__(rng, n_resamples, self.sizes.size)

    def _draw(self, rows):
        return self.rng.binomial(self.sizes, 0.5, size=(rows, self.sizes.size))


class SeedCounts(Resampler):
    """Bootstrap counts over the runs (seeds) of two approaches.

    Each replicate is a row of ka + kb counts: A's Multinomial(ka; 1/ka) counts, then B's.
    Unpaired, ``SEED_BLOCK`` replicates of A's counts are drawn, then as many of B's.

    Parameters
    ----------
    rng : numpy.random.Generator
        The seeded source of the draws.
    n_resamples : int
        B, the number of replicates.
    ka, kb : int
        Runs of approach A and of approach B.
    paired : bool, optional
        The runs are paired by seed (ka = kb): one count vector serves both.  Default False.

    Raises
    ------
    ValueError
        If ``paired`` and ka != kb.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import SeedCounts
    >>> SeedCounts(np.random.default_rng(0), 3, 3, 2).draw(3).astype(int).tolist()
    [[1, 1, 1, 1, 1], [0, 0, 3, 1, 1], [2, 1, 0, 1, 1]]
    >>> SeedCounts(np.random.default_rng(0), 3, 3, 3, paired=True).draw(3).astype(int).tolist()
    [[1, 1, 1, 1, 1, 1], [0, 0, 3, 0, 0, 3], [2, 1, 0, 2, 1, 0]]
    """

    def __init__(self, rng, n_resamples: int, ka: int, kb: int, paired: bool = False):
        if paired and ka != kb:
            raise ValueError(f"paired seeds need as many runs in both approaches, got {ka} and {kb}")
        self.ka, self.kb, self.paired = int(ka), int(kb), bool(paired)
        super().__init__(rng, n_resamples, ka + kb)

    def _draw(self, rows):
        ka, kb = self.ka, self.kb
        ca = self.rng.multinomial(ka, np.full(ka, 1 / ka), size=rows)
        cb = ca if self.paired else self.rng.multinomial(kb, np.full(kb, 1 / kb), size=rows)
        return np.concatenate([ca, cb], axis=1)


class Joint:
    """Resamplers drawn side by side, each from its own generator.

    For tests that resample two things at once, e.g. the items and the seeds of an approach
    comparison.  ``draw(b)`` is the tuple of the parts' blocks: the first gives the weights of
    the statistics, the others go to the statistic of
    :func:`simstats.stats.engine.replicates`.

    Parameters
    ----------
    *parts : Resampler
        The resamplers, all with the same number of replicates.

    Attributes
    ----------
    parts : tuple of Resampler
        As given.
    n_resamples, units : int
        Those of the first part.

    Raises
    ------
    ValueError
        If the parts' numbers of replicates differ.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import ItemCounts, Joint, SeedCounts
    >>> joint = Joint(ItemCounts(np.random.default_rng(1), 2, 4), SeedCounts(np.random.default_rng(2), 2, 2, 2))
    >>> items, seeds = joint.draw(2)
    >>> items.shape, seeds.shape
    ((2, 4), (2, 4))
    """

    def __init__(self, *parts: Resampler):
        if len({p.n_resamples for p in parts}) != 1:
            raise ValueError("joint resamplers need the same number of replicates")
        self.parts = parts
        self.n_resamples = parts[0].n_resamples
        self.units = parts[0].units

    def draw(self, b: int) -> tuple:
        return tuple(p.draw(b) for p in self.parts)


def cluster_index(clusters) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct cluster ids, each item's cluster position)."""
    clusters = np.asarray(clusters)
    if clusters.ndim != 1:
        raise ValueError(f"clusters must give one id per item, got shape {clusters.shape}")
    ids, inverse = np.unique(clusters, return_inverse=True)
    return ids, inverse.ravel()


def aggregate_clusters(stats: np.ndarray, clusters) -> np.ndarray:
    """Sum items' statistics within clusters.

    Turns item-level statistics into cluster-level ones, the units of a cluster bootstrap.

    Parameters
    ----------
    stats : numpy.ndarray, shape (systems, items, k)
        The items' statistics.
    clusters : array_like, shape (items,)
        Each item's cluster id.

    Returns
    -------
    numpy.ndarray, shape (systems, clusters, k)
        float64 sums, clusters in the order of their sorted ids; each cluster's items are
        summed in item order.

    Raises
    ------
    ValueError
        If ``clusters`` does not give one id per item.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.resample import aggregate_clusters
    >>> stats = np.arange(12.0).reshape(2, 3, 2)          # 2 systems, 3 items, 2 statistics
    >>> aggregate_clusters(stats, [7, 3, 7]).tolist()      # cluster 3 = item 1, cluster 7 = items 0 and 2
    [[[2.0, 3.0], [4.0, 6.0]], [[8.0, 9.0], [16.0, 18.0]]]
    """
    clusters = np.asarray(clusters)
    if clusters.shape != (stats.shape[1],):
        raise ValueError(f"clusters must give one id per item ({stats.shape[1]}), got shape {clusters.shape}")
    _, inverse = cluster_index(clusters)
    order = np.argsort(inverse, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
    return np.add.reduceat(stats[:, order, :].astype(np.float64), starts, axis=1)


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
