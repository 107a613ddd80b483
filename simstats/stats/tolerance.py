"""When a spread is zero and when two scores are equal: one relative tolerance for every test.

A float carries about 16 significant digits, so the same number computed two ways (806/855 as the mean
of 855 item scores, or of 20 equal run scores, or as a ratio of counts) can differ in the last digit, and
the standard deviation of identical numbers can come out as 1e-17 instead of 0.  Tests that divide by a
standard error or rank scores would turn that residue into evidence: a p-value of 2e-308, or a rank that
depends on the shape of the input.  Every test of simstats therefore reads

* a spread (a standard deviation or standard error) of at most :data:`RELATIVE_TOLERANCE` times the
  largest absolute value of the data it comes from as zero (:func:`negligible`), and
* two scores of one task that differ by at most :data:`RELATIVE_TOLERANCE` times the largest absolute
  score of that task as tied (:func:`tied_scores`).

The tolerance, 1e-9, is seven orders of magnitude above the residue of double precision and far below any
difference a benchmark can resolve (a test set of a billion items moves accuracy by 1e-9).  What a test does
when its spread is zero is the test's own rule, stated where the test is documented.
"""
from __future__ import annotations

import numpy as np

__all__ = ["RELATIVE_TOLERANCE", "data_scale", "negligible", "tied_scores"]

#: Spreads and differences at most this fraction of the data's largest absolute value are zero.
RELATIVE_TOLERANCE = 1e-9


def data_scale(*arrays) -> float:
    """The largest absolute finite value of ``arrays`` (0 for no finite value)."""
    values = [np.abs(np.asarray(a, dtype=float)).ravel() for a in arrays]
    values = np.concatenate(values) if values else np.zeros(0)
    values = values[np.isfinite(values)]
    return float(values.max()) if values.size else 0.0


def negligible(spread, scale) -> np.ndarray:
    """Whether ``spread`` (a standard deviation, standard error or difference) is zero up to rounding: at
    most :data:`RELATIVE_TOLERANCE` times ``scale``, the largest absolute value of the data it comes from.

    Examples
    --------
    >>> x = np.full(7, 0.7)                                     # seven identical runs
    >>> float(x.std(ddof=1)) > 0, bool(negligible(x.std(ddof=1), data_scale(x)))
    (True, True)
    >>> bool(negligible(1e-6, 1.0))
    False
    """
    spread = np.abs(np.asarray(spread, dtype=float))
    return spread <= RELATIVE_TOLERANCE * np.asarray(scale, dtype=float)


def tied_scores(scores, axis: int = 0) -> np.ndarray:
    """``scores`` with the scores of each column (``axis=0``: the models of a task) that are equal up to rounding
    set to one value, so that ranks, ties and rank tests do not depend on how a score was computed.

    Within a column, sorted scores whose gaps are at most :data:`RELATIVE_TOLERANCE` times the column's
    largest absolute score form a group; each score takes the smallest of its group.

    Examples
    --------
    >>> a = np.mean(np.r_[np.ones(806), np.zeros(49)])          # 806/855 from 855 item scores
    >>> b = np.mean(np.full(20, 806 / 855))                     # from 20 equal run scores
    >>> bool(a == b), bool(np.ptp(tied_scores(np.array([[a], [b]]))) == 0)
    (False, True)
    """
    x = np.moveaxis(np.array(scores, dtype=float), axis, 0)
    shape = x.shape
    flat = x.reshape(shape[0], -1)
    if flat.shape[0] < 2 or flat.size == 0:
        return np.moveaxis(flat.reshape(shape), 0, axis)
    order = np.argsort(flat, axis=0, kind="stable")
    ordered = np.take_along_axis(flat, order, axis=0)
    finite = np.isfinite(ordered)
    with np.errstate(invalid="ignore"):
        tolerance = RELATIVE_TOLERANCE * np.max(np.where(finite, np.abs(ordered), 0.0), axis=0)
        starts = np.ones(flat.shape, dtype=bool)
        starts[1:] = ~((np.diff(ordered, axis=0) <= tolerance) & finite[1:] & finite[:-1])
    first = np.maximum.accumulate(np.where(starts, np.arange(flat.shape[0])[:, None], 0), axis=0)
    out = np.empty_like(flat)
    np.put_along_axis(out, order, np.take_along_axis(ordered, first, axis=0), axis=0)
    return np.moveaxis(out.reshape(shape), 0, axis)
