"""Result objects of the significance tests (in the spirit of scipy.stats)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

ALTERNATIVES = ("greater", "less", "two-sided")


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    return alternative


@dataclass(frozen=True)
class ConfidenceInterval:
    low: Any
    high: Any


@dataclass
class TestResult:
    """Outcome of a test; array-valued when many pairs are tested at once.

    statistic: the observed improvement of system A over system B (metric units; for a
    lower-is-better metric, B's value minus A's), or the classical test statistic.
    """

    statistic: Any
    pvalue: Any
    method: str
    alternative: str
    confidence_interval: ConfidenceInterval | None = None
    details: dict = field(default_factory=dict)

    def __iter__(self):  # allows `stat, p = result`, as scipy does
        return iter((self.statistic, self.pvalue))

    def __getitem__(self, item):
        """The result of pair ``item`` when many pairs were tested at once."""
        def pick(x):
            return x[item] if isinstance(x, np.ndarray) and x.ndim else x
        ci = None
        if self.confidence_interval is not None:
            ci = ConfidenceInterval(pick(self.confidence_interval.low), pick(self.confidence_interval.high))
        details = {k: pick(v) for k, v in self.details.items()}
        return TestResult(pick(self.statistic), pick(self.pvalue), self.method, self.alternative, ci, details)
