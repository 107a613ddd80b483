"""Benchmark: simstats' ASO vs deepsig 1.2.8's, measured in one run at equal settings.

    pip install -e ".[bench]" && python bench/bench_aso.py

1,000 bootstrap iterations, dt = 0.005 for the grid methods, n = m = 50 and 1,000 scores;
deepsig with num_jobs=1 (its default).  Prints seconds per comparison, eps_min of both
(different random streams, so they agree only within bootstrap noise) and the ratio.
"""
from __future__ import annotations

import time

import numpy as np

from simstats.stats.aso import aso


def best_of(fn, repeat: int) -> tuple[float, float]:
    best, value = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return best, value


def main() -> None:
    from deepsig import aso as deepsig_aso

    rng = np.random.default_rng(2019)
    aso(rng.normal(size=20), rng.normal(size=20), rng=0)  # warm-up
    for n in (50, 1000):
        a, b = rng.normal(0.90, 0.010, n), rng.normal(0.899, 0.012, n)
        theirs_s, theirs = best_of(lambda: deepsig_aso(a, b, seed=1, num_bootstrap_iterations=1000, dt=0.005,
                                                       show_progress=False), 1)
        for method in ("exact", "deepsig"):
            ours_s, ours = best_of(lambda: aso(a, b, rng=1, n_resamples=1000, method=method).statistic, 5)
            print(f"n = m = {n:5d}  simstats ({method:7s}) {ours_s * 1e3:8.2f} ms  eps_min {ours:.4f} | "
                  f"deepsig {theirs_s:7.2f} s  eps_min {theirs:.4f} | x{theirs_s / ours_s:,.0f}")


if __name__ == "__main__":
    main()
