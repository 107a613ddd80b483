"""Metrics as functions of summed per-unit sufficient statistics.

accuracy  : correct / items
recall    : R / G          (R recalled gold items, G gold items)
precision : R / (R + S)    (S spurious candidates produced)
f1        : 2R / (G + R + S)
Every function works elementwise on arrays of sums, so the same code gives a model's
score (sums over a split), a population value (expected sums) or a bootstrap replicate.
A ratio with a zero denominator is 0 (no items recalled, nothing produced).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

#: Statistics each metric is computed from, in their canonical order.
STATISTICS: dict[str, tuple[str, ...]] = {
    "accuracy": ("correct", "items"),
    "recall": ("recalled", "gold", "spurious"),
    "precision": ("recalled", "gold", "spurious"),
    "f1": ("recalled", "gold", "spurious"),
}


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out if out.ndim else float(out)


def accuracy(correct, items):
    return _ratio(correct, items)


def recall(recalled, gold, spurious=0):
    return _ratio(recalled, gold)


def precision(recalled, gold, spurious):
    return _ratio(recalled, np.add(recalled, spurious))


def f1(recalled, gold, spurious):
    return _ratio(np.multiply(2.0, recalled), np.add(np.add(gold, recalled), spurious))


_FUNCTIONS = {"accuracy": accuracy, "recall": recall, "precision": precision, "f1": f1}


def metric_from_sums(metric: str, sums: Mapping[str, np.ndarray]):
    """Evaluate ``metric`` on a mapping of summed statistics (see :data:`STATISTICS`)."""
    try:
        function = _FUNCTIONS[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r} (known: {', '.join(_FUNCTIONS)})") from None
    missing = [s for s in STATISTICS[metric] if s not in sums]
    if missing:
        raise ValueError(f"metric {metric!r} needs statistics {missing} that were not given")
    return function(*(sums[s] for s in STATISTICS[metric]))
