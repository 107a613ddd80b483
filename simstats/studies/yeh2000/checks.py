"""Computed checks behind the explanations of Yeh (2000)'s misses (explanations.yaml)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

def yeh_counts(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Yeh's trial counts against the exact expectation, our own 2^20 shuffles, and his two-sided bound."""
    example = pd.read_csv(results / "yeh/example.csv") if (results / "yeh/example.csv").exists() else None
    two = ledger[(ledger.paper == "yeh2000") & (ledger.column == "p_two_sided")]
    if example is None or two.empty:
        return None
    shuffles = 2 ** 20
    z_ours = (example.our_trials - example.expected_trials) / np.sqrt(shuffles * example.exact_p
                                                                         * (1 - example.exact_p))
    parts = [f"{m}: Yeh z = {zy:+.1f}, our shuffles z = {zo:+.1f}"
             for m, zy, zo in zip(example.metric, example.z_yeh_vs_exact, z_ours)]
    p2 = float(two.ours.iloc[0])
    doubled = 2 * 25_770 / shuffles
    return {"z_ours_max": f"{float(np.abs(z_ours).max()):.1f}", "p_two_sided": f"{p2:.4f}",
            "doubled": f"{doubled:.4f}",
            "shown": "; ".join(parts) + f"; exact two-sided precision p = {p2:.4f} (< 0.04, Yeh section 2.2), "
                                        f"2 x 25,770 / 2^20 = {doubled:.4f}"}


CHECKS = {f.__name__: f for f in (yeh_counts,)}
