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

__all__ = ["CORRECTIONS", "adjust_pvalues", "adjust_tested"]

CORRECTIONS = {"none": None, "bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}
"""The corrections of the competition tables: label -> statsmodels method (None: raw p)."""
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

    Corrects the p-values of several comparisons made together (e.g. every pair of systems in
    a competition) so that rejecting where an adjusted p-value is below alpha controls the
    family-wise error rate (Bonferroni, Holm) or the false discovery rate (Benjamini-Hochberg).

    Parameters
    ----------
    pvalues : array_like of float, shape (m,)
        The raw p-values of the family, each in [0, 1].
    method : {'holm', 'bonferroni', 'bh', 'fdr_bh', 'none'}, optional
        The correction (labels of :data:`CORRECTIONS`; ``fdr_bh`` is statsmodels' name of
        ``bh``).  'none' returns a copy of the raw p-values.  Default 'holm'.

    Returns
    -------
    numpy.ndarray, shape (m,)
        The adjusted p-values, in the order given: equal to statsmodels'
        ``multipletests(pvalues, method=...)[1]``.

    Raises
    ------
    ValueError
        If ``pvalues`` is not one-dimensional, contains NaN or values outside [0, 1], or
        ``method`` is unknown.

    Examples
    --------
    >>> from statsmodels.stats.multitest import multipletests
    >>> from simstats.stats.multitest import adjust_pvalues
    >>> p = [0.01, 0.04, 0.03, 0.20]
    >>> adjust_pvalues(p, "holm").round(4).tolist()
    [0.04, 0.09, 0.09, 0.2]
    >>> adjust_pvalues(p, "bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    >>> multipletests(p, method="fdr_bh")[1].round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
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


def adjust_tested(pvalues, method: str = "holm") -> np.ndarray:
    """:func:`adjust_pvalues` over the comparisons that were tested: a NaN p-value (a comparison that could
    not be tested, e.g. with no variance to test against) stays NaN and is not counted in the family.

    Parameters
    ----------
    pvalues : array_like of float, shape (m,)
        The raw p-values, each in [0, 1] or NaN (not tested).
    method : {'holm', 'bonferroni', 'bh', 'fdr_bh', 'none'}, optional
        The correction, as in :func:`adjust_pvalues`.  Default 'holm'.

    Returns
    -------
    numpy.ndarray, shape (m,)
        The adjusted p-values of the tested comparisons, NaN where not tested.

    Examples
    --------
    >>> adjust_tested([0.01, float("nan"), 0.04], "holm").tolist()
    [0.02, nan, 0.04]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    tested = ~np.isnan(p)
    out[tested] = adjust_pvalues(p[tested], method)
    return out

