"""Benchmark: a whole competition analysis, simstats vs CompStats, measured in one run.

Both get the same predictions and the same number of bootstrap samples and produce each
system's bootstrap distribution and the winner's one-sided p-value against every other
system; simstats additionally gives CIs and p-values for all m(m-1)/2 pairs with corrections.
Cases: CompStats' own data (6 systems, 1,580 items, support-weighted F1) and a simulated
EXIST-sized competition (31 systems, 4,368 items, macro-F1 over 2 of 3 classes).

    pip install -e ".[bench]" && python bench/bench_competition.py
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.compare import statistics_from_predictions
from simstats.stats.competition import analyse_competition
from simstats.studies.navamunoz2024.population import parse_population

DATA = Path(__file__).resolve().parents[1] / "resources" / "realdata" / "compstats_competition_data.csv"


def simulated_competition(m: int, n: int) -> pd.DataFrame:
    pop = parse_population("bench", {"metric": "macro_f1", "classes": ["AGAINST", "NONE", "FAVOR"],
                                     "class_probs": [0.3, 0.4, 0.3], "subset": ["FAVOR", "AGAINST"],
                                     "sigma_item": 0.5, "sigma_e": 1.0, "confusion_sharing": 0.5})
    thetas = [pop.solve_theta(s) for s in np.linspace(0.7, 0.5, m)]
    gold, preds = pop.sample(thetas, n, np.random.default_rng(0))
    return pd.DataFrame({"y": gold, **{f"S{k:02d}": p for k, p in enumerate(preds)}})


def ours(table: pd.DataFrame, metric: str, resamples: int, subset=None) -> float:
    t = time.perf_counter()
    names, stats, m = statistics_from_predictions(table, "y", metric_name=metric, subset=subset)
    res = analyse_competition(names, stats, m, n_resamples=resamples, rng=1)
    res.score_intervals(), res.differences_from_best(), res.pairs()
    return time.perf_counter() - t


def compstats(table: pd.DataFrame, score_func, resamples: int) -> float:
    from CompStats.interface import Perf

    systems = [c for c in table.columns if c != "y"]
    t = time.perf_counter()
    perf = Perf(table.y.to_numpy(), *[table[c].to_numpy() for c in systems], name=systems, score_func=score_func,
                num_samples=resamples, n_jobs=1, use_tqdm=False)
    perf.difference().p_value()
    return time.perf_counter() - t


def main() -> None:
    from sklearn.metrics import f1_score

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    cases = [("CompStats data: 6 systems, n = 1,580, weighted F1", pd.read_csv(DATA), "weighted_f1", None,
              lambda y, p: f1_score(y, p, average="weighted")),
             ("simulated: 31 systems, n = 4,368, macro-F1 (FAVOR, AGAINST)", simulated_competition(31, 4368),
              "macro_f1", ["FAVOR", "AGAINST"],
              lambda y, p: f1_score(y, p, labels=["FAVOR", "AGAINST"], average="macro"))]
    ours(cases[0][1], "weighted_f1", 100)          # warm-up
    print(f"bootstrap samples: {args.resamples}")
    print("| case | simstats (s) | CompStats 0.1.15 (s) | ratio |")
    print("|---|---|---|---|")
    for label, table, metric, subset, score in cases:
        a = ours(table, metric, args.resamples, subset)
        b = compstats(table, score, args.resamples)
        print(f"| {label} | {a:.3f} | {b:.2f} | ×{b / a:,.0f} |")


if __name__ == "__main__":
    main()
