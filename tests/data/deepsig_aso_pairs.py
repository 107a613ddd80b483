"""The 20 score-sample pairs of tests/stats/test_aso.py's deepsig cross-check, and deepsig's ASO on them.

    python tests/data/deepsig_aso_pairs.py   # rewrites tests/data/deepsig_aso_pairs.csv (about 4 min)

deepsig 1.2.8, ``deepsig.aso(a, b, seed=k, dt=0.005, num_bootstrap_iterations=1000, num_jobs=1)``.
The test recomputes two of the pairs with the installed deepsig (it must give the stored value) and
compares simstats with all 20 stored values.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

N_PAIRS = 20
DEEPSIG_KWARGS = {"dt": 0.005, "num_bootstrap_iterations": 1000, "show_progress": False, "num_jobs": 1}


def pairs():
    """(k, a, b) for the 20 pairs: normal score samples, every fourth with a failure tail in b."""
    rng = np.random.default_rng(2019)
    for k in range(N_PAIRS):
        n, m = rng.integers(150, 400, size=2)
        a = rng.normal(0.90, rng.uniform(0.005, 0.02), n)
        b = rng.normal(0.90 + rng.uniform(-0.01, 0.01), rng.uniform(0.005, 0.02), m)
        if k % 4 == 0:  # failure tails
            b[: m // 10] -= rng.uniform(0.05, 0.2, m // 10)
        yield k, a, b


def deepsig_aso(k, a, b) -> float:
    import deepsig

    return float(deepsig.aso(a, b, seed=k, **DEEPSIG_KWARGS))


if __name__ == "__main__":
    import importlib.metadata

    rows = [f"{k},{len(a)},{len(b)},{deepsig_aso(k, a, b)!r}" for k, a, b in pairs()]
    out = Path(__file__).with_suffix(".csv")
    out.write_text(f"# deepsig {importlib.metadata.version('deepsig')}: "
                   f"aso(a, b, seed=k, {', '.join(f'{key}={v}' for key, v in DEEPSIG_KWARGS.items())})\n"
                   "k,n,m,eps_min\n" + "\n".join(rows) + "\n")
    print(out.read_text())
