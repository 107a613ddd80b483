"""The standard normal density and upper quantile, as scipy.stats.norm computes them, without its
per-call argument handling.

The closed forms call these thousands of times on small arrays, where scipy.stats.norm's checks and
broadcasting cost more than the arithmetic, and a job that needs nothing else from scipy.stats is spared
importing it (about 0.45 s).  For float64 arrays the values are scipy's bit for bit
(``tests/stats/test_normal.py``): the same expressions (scipy's ``_norm_pdf`` and ``-ndtri``) in the same order.
"""
from __future__ import annotations

import numpy as np

from simstats.stats.lazy import lazy_module

special = lazy_module("scipy.special")

_SQRT_2PI = np.sqrt(2 * np.pi)


def norm_pdf(z):
    """scipy.stats.norm.pdf(z) of a float64 array.  Python or numpy float scalars may differ in the last
    bits (numpy's scalar power), and there is no dtype promotion: pass float64 arrays.  With a location
    and scale, ``norm_pdf((x - loc) / scale) / scale`` is scipy's ``norm.pdf(x, loc, scale)``."""
    return np.exp(-z**2 / 2.0) / _SQRT_2PI


def norm_isf(q):
    """scipy.stats.norm.isf(q) for q in [0, 1], bit for bit but for the sign of a zero (q = 0.5) or of a
    NaN."""
    return -special.ndtri(q)
