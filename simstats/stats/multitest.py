"""Multiple-comparison corrections (statsmodels' ``multipletests`` underneath).

Labels used across simstats (tables, CLI, config): ``none`` (raw p), ``bonferroni``,
``holm`` and ``bh`` (Benjamini-Hochberg; ``fdr_bh`` is accepted as its statsmodels name).
"""
from __future__ import annotations

import contextlib
import gc

import numpy as np
from simstats.stats.lazy import lazy_module

_multitest = lazy_module("statsmodels.stats.multitest")

#: The corrections of the competition tables: label -> statsmodels method (None: raw p).
CORRECTIONS = {"none": None, "bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}
_ALIASES = {"fdr_bh": "bh"}

_FROZEN = [0]


@contextlib.contextmanager
def quick_gc():
    """Make many corrections cheap: statsmodels' Holm correction calls gc.collect() on every
    call; with the objects alive now frozen (gc.freeze), each of those collections scans only
    what was created since.  Re-entrant: only the outermost use freezes and unfreezes.  statsmodels is
    imported first (it is imported on first use), so that its many objects are frozen too."""
    outer = _FROZEN[0] == 0
    if outer:
        _multitest.multipletests  # noqa: B018 (the attribute access imports statsmodels)
        gc.freeze()
    _FROZEN[0] += 1
    try:
        yield
    finally:
        _FROZEN[0] -= 1
        if outer:
            gc.unfreeze()


def correction_method(method: str) -> str | None:
    """The statsmodels method behind a correction label (None for ``none``); ValueError if unknown."""
    label = _ALIASES.get(method, method)
    if label not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r} (choose from {', '.join(CORRECTIONS)})")
    return CORRECTIONS[label]


def adjust_pvalues(pvalues, method: str = "holm") -> np.ndarray:
    """Adjusted p-values of one family of tests.

    ``method``: none, bonferroni, holm or bh (module docstring).  Equals statsmodels'
    ``multipletests(pvalues, method=...)[1]``; NaN or values outside [0, 1] are an error.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"p-values must be one-dimensional, got shape {p.shape}")
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p-values must lie in [0, 1] (no NaN)")
    sm = correction_method(method)
    if sm is None or p.size == 0:
        return p.copy()
    return _multitest.multipletests(p, method=sm)[1]
