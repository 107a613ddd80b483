"""Yeh (2000)'s worked example: two methods on 103 relations of interest.

Gold relations: 19 recalled by both methods, 28 only by method I, 6 only by II (50 by
neither).  Spurious responses: 5 by both, 43 only by I, 9 only by II.  Each relation and
each spurious response is one item with statistics (recalled, gold, spurious).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.stats.classical import precision_chi2_test
from simstats.stats.metrics import get_metric
from simstats.stats.randomization import randomization_test

SHUFFLES = 2**20
#: Yeh's reported trial counts (of 2^20 approximate-randomization shuffles) and their direction.
PUBLISHED = {"recall": (96, "greater"), "f1": (14_794, "greater"), "precision": (25_770, "less")}


def yeh_example_statistics() -> np.ndarray:
    """Per-item statistics of methods I and II: shape (2, 160, 3)."""
    method_1, method_2 = [], []
    for count, (r1, r2) in ((19, (1, 1)), (28, (1, 0)), (6, (0, 1)), (50, (0, 0))):
        method_1 += [(r1, 1, 0)] * count
        method_2 += [(r2, 1, 0)] * count
    for count, (s1, s2) in ((5, (1, 1)), (43, (1, 0)), (9, (0, 1))):
        method_1 += [(0, 0, s1)] * count
        method_2 += [(0, 0, s2)] * count
    return np.array([method_1, method_2], dtype=np.float64)


def yeh_example_table(rng, shuffles: int = SHUFFLES) -> pd.DataFrame:
    """Scores, exact and approximate randomization p-values, beside Yeh's trial counts."""
    stats = yeh_example_statistics()
    rows = []
    for name, (published, alternative) in PUBLISHED.items():
        metric = get_metric(name)
        scores = metric(stats.sum(axis=1))
        exact = randomization_test(stats, metric, method="exact-stratified", alternative=alternative)
        approx = randomization_test(stats, metric, n_resamples=shuffles, rng=rng, alternative=alternative)
        p = float(exact.pvalue[0])
        expected = p * shuffles
        rows.append({
            "metric": name, "method_I": float(scores[0]), "method_II": float(scores[1]),
            "direction": "I > II" if alternative == "greater" else "II > I",
            "exact_p": p, "expected_trials": expected,
            "our_trials": int(approx.n_extreme[0]), "our_p_noreen": float(approx.pvalue[0]),
            "yeh_trials": published, "yeh_p_noreen": (published + 1) / (shuffles + 1),
            "z_yeh_vs_exact": (published - expected) / np.sqrt(shuffles * p * (1 - p)),
        })
    chi2 = precision_chi2_test(47, 48, 25, 14)
    table = pd.DataFrame(rows)
    table.attrs["precision_chi2"] = chi2.statistic
    return table
