"""Seed replicates in the UKP BiLSTM runs (Reimers & Gurevych 2017) beside the simulation.

The UKP table holds one row per training run with its hyperparameters, dev and test F1.
Runs whose every hyperparameter column agrees are replicates of one configuration that
differ only in the random seed - the situation of the paper's Evaluations 1 and 2.
Per task we report, with a bootstrap over configurations:

* Spearman rho(dev, test) within configurations (scores centred on their configuration's
  mean; across configurations the hyperparameters, not the seed, drive both scores);
* 2 zeta of the prediction interval of test given dev on the same centred scores;
* Delta95 and Delta_max of |Delta test F1| over all pairs of replicate runs;
* skewness and excess kurtosis of the centred test scores (the shape a lower tail of bad runs
  would show).

Beside each UKP value, ``model`` is the same statistic of the calibrated task's simulated runs
(approach A) cut into groups of the same sizes as the UKP configurations, so that centring within
small groups affects both alike.

Score-only data cannot give Table 1's tau or % significant: those need each run's
per-sentence output for the paired bootstrap.  Configurations have only 2-6 replicates,
so the spread is estimated from many small groups, and a bad configuration's seed spread
is not a good one's: the "top quarter" rows keep configurations whose mean test F1 is in
the task's top quarter.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.studies.reimers2018.tables import ZETA_TAIL, prediction_interval_width
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import ItemCounts

stats = lazy_module("scipy.stats")

#: UKP dataset -> the simulated task it matches.
UKP_TASKS = {"conll2003_ner": "conll2003_ner_en", "conll2000_chunking": "conll2000_chunking",
             "ace": "ace2005_entities", "tempeval3": "tempeval3_events"}
SCORE_COLUMNS = ("ID", "Dev_F1", "Test_F1", "Max_Test_F1", "OptimalEpoch", "Epochs")


def read_ukp(path) -> pd.DataFrame:
    table = pd.read_csv(path, sep="\t", dtype=str)
    for col in ("Dev_F1", "Test_F1"):
        if col not in table.columns:
            raise ValueError(f"{path}: UKP table lacks the column {col!r}")
        table[col] = pd.to_numeric(table[col], errors="coerce")
    if "Dataset" not in table.columns:
        raise ValueError(f"{path}: UKP table lacks the column 'Dataset'")
    return table


def replicate_groups(table: pd.DataFrame) -> pd.DataFrame:
    """Runs of configurations with >= 2 replicates: task, config id, dev and test F1 (points)."""
    hyper = [c for c in table.columns if c not in SCORE_COLUMNS]
    t = table.dropna(subset=["Dev_F1", "Test_F1"]).copy()
    t["task"] = t.Dataset.str.removesuffix(".pkl")
    t = t[t.task.isin(UKP_TASKS)]
    t["config"] = t.groupby(hyper, dropna=False, sort=True).ngroup()
    size = t.groupby("config").config.transform("size")
    t = t[size >= 2]
    return pd.DataFrame({"task": t.task, "config": t.config, "dev": 100 * t.Dev_F1, "test": 100 * t.Test_F1})


def _per_config(runs: pd.DataFrame) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(centred dev, centred test, |test differences| of all run pairs) of each configuration."""
    out = []
    for _, g in runs.groupby("config", sort=True):
        dev, test = g.dev.to_numpy(), g.test.to_numpy()
        i, j = np.triu_indices(test.size, 1)
        out.append((dev - dev.mean(), test - test.mean(), np.abs(test[i] - test[j])))
    return out


def _statistics(parts) -> dict[str, float]:
    dev = np.concatenate([p[0] for p in parts])
    test = np.concatenate([p[1] for p in parts])
    diffs = np.concatenate([p[2] for p in parts])
    same = bool(np.allclose(dev, test))   # a source that reports the test score as dev score
    return {"spearman_rho": math.nan if same else float(stats.spearmanr(dev, test).statistic),
            "two_zeta": math.nan if same else float(prediction_interval_width(dev, test).mean()),
            "delta95_test": float(np.quantile(diffs, 0.95)), "deltamax_test": float(diffs.max()),
            "skewness": float(stats.skew(test)), "excess_kurtosis": float(stats.kurtosis(test)),
            "pairs": diffs.size, "configurations": len(parts), "runs": dev.size, "dev_equals_test": same}


QUANTITIES = ("spearman_rho", "two_zeta", "delta95_test", "deltamax_test", "skewness", "excess_kurtosis")
#: The statistics with bootstrap intervals (Delta_max has none).
RESAMPLED = ("spearman_rho", "two_zeta", "delta95_test", "skewness", "excess_kurtosis")


def _average_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per row of ``weights`` (replicates x runs): the average rank (1-based, ties shared) every run would
    have if each run were repeated ``weight`` times, as scipy's rankdata gives on the repeated data."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    group = np.empty(values.size, dtype=np.intp)
    group[order] = np.cumsum(np.r_[True, sorted_values[1:] != sorted_values[:-1]]) - 1
    per_group = np.add.reduceat(weights[:, order], starts, axis=1)
    before = np.cumsum(per_group, axis=1) - per_group
    return (before + (per_group + 1) / 2)[:, group]


def _weighted_pearson(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    n = w.sum(1)
    xm, ym = (w * x).sum(1) / n, (w * y).sum(1) / n
    dx, dy = x - xm[:, None], y - ym[:, None]
    return (w * dx * dy).sum(1) / np.sqrt((w * dx * dx).sum(1) * (w * dy * dy).sum(1))


def _resampled_statistics(parts, counts: np.ndarray) -> dict[str, np.ndarray]:
    """The RESAMPLED statistics of every bootstrap replicate at once: ``counts`` (replicates x
    configurations) says how often each configuration was drawn.  Equal to :func:`_statistics` on the
    concatenated drawn configurations (to rounding): every run and run pair counts with its
    configuration's multiplicity."""
    sizes = np.array([p[0].size for p in parts])
    pair_sizes = np.array([p[2].size for p in parts])
    dev = np.concatenate([p[0] for p in parts])
    test = np.concatenate([p[1] for p in parts])
    diffs = np.concatenate([p[2] for p in parts])
    counts = np.asarray(counts, dtype=float)
    w = np.repeat(counts, sizes, axis=1)                          # replicates x runs
    n = w.sum(1)
    mean = (w * test).sum(1) / n
    centred = test - mean[:, None]
    m2, m3, m4 = ((w * centred**k).sum(1) / n for k in (2, 3, 4))
    out = {"skewness": m3 / m2**1.5, "excess_kurtosis": m4 / m2**2 - 3.0}
    if np.allclose(dev, test):                                    # as _statistics: no rho or 2 zeta
        out["spearman_rho"] = out["two_zeta"] = np.full(counts.shape[0], np.nan)
    else:
        out["spearman_rho"] = _weighted_pearson(_average_ranks(dev, w), _average_ranks(test, w), w)
        dx, dy = dev - ((w * dev).sum(1) / n)[:, None], centred
        sxx = (w * dx * dx).sum(1)
        slope = (w * dx * dy).sum(1) / sxx
        s = np.sqrt((w * (dy - slope[:, None] * dx) ** 2).sum(1) / (n - 2))
        t = stats.t.ppf(1 - ZETA_TAIL, n - 2)
        width = 2 * (t * s)[:, None] * np.sqrt(1 + 1 / n[:, None] + dx**2 / sxx[:, None])
        out["two_zeta"] = (w * width).sum(1) / n
    # Delta95: numpy's linear quantile of the repeated pair differences, from cumulative multiplicities
    order = np.argsort(diffs, kind="stable")
    cum = np.cumsum(np.repeat(counts, pair_sizes, axis=1)[:, order], axis=1)
    h = (cum[:, -1] - 1) * 0.95
    lower = np.floor(h)
    ranked = diffs[order]

    def at(k):                                                    # the k-th (0-based) repeated difference
        return ranked[(cum <= k[:, None]).sum(1)]

    a, b = at(lower), at(np.minimum(lower + 1, cum[:, -1] - 1))
    out["delta95_test"] = a + (h - lower) * (b - a)
    return out


def grouped_like(dev: np.ndarray, test: np.ndarray, sizes) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Simulated runs (F1 points) cut into consecutive groups of the given sizes, as _per_config does
    with real configurations; raises if there are too few runs."""
    sizes = [int(k) for k in sizes]
    if sum(sizes) > dev.size:
        raise ValueError(f"grouping needs {sum(sizes)} simulated runs, the task has {dev.size}")
    out, start = [], 0
    for k in sizes:
        d, t = dev[start:start + k], test[start:start + k]
        i, j = np.triu_indices(k, 1)
        out.append((d - d.mean(), t - t.mean(), np.abs(t[i] - t[j])))
        start += k
    return out


def ukp_replicates(table: pd.DataFrame, rng: np.random.Generator, n_resamples: int = 1000,
                   model_scores: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Per task and subset (all / top quarter): the statistics with bootstrap-over-configuration CIs,
    and (``model_scores``: simulated score rows per scenario) the model's value under the same grouping."""
    runs = replicate_groups(table)
    rows = []
    for task, sub in runs.groupby("task", sort=True):
        means = sub.groupby("config").test.mean()
        top = means[means >= means.quantile(0.75)].index
        for subset, part in (("all configurations", sub), ("top quarter", sub[sub.config.isin(top)])):
            parts = _per_config(part)
            point = _statistics(parts)
            model = {}
            scores = (model_scores or {}).get(UKP_TASKS[task])
            if scores is not None:
                a = scores[scores.approach == scores.approach.min()].sort_values("index")
                sizes = part.groupby("config", sort=True).size().to_numpy()
                if sizes.sum() <= len(a):       # else too few simulated runs (a small run): no model value
                    model = _statistics(grouped_like(100 * a.psi_dev.to_numpy(), 100 * a.psi_test.to_numpy(),
                                                     sizes))
            counts = ItemCounts(rng, n_resamples, len(parts)).draw(n_resamples).astype(np.int64)
            reps = _resampled_statistics(parts, counts)
            for key in QUANTITIES:
                lo = hi = math.nan
                if key in reps and np.isfinite(point[key]):
                    lo, hi = np.quantile(reps[key], [0.025, 0.975])
                note = "dev F1 equals test F1 in the source" if point["dev_equals_test"] and key in (
                    "spearman_rho", "two_zeta") else ""
                rows.append({"task": task, "scenario": UKP_TASKS[task], "subset": subset, "quantity": key,
                             "estimate": point[key], "ci_low": float(lo), "ci_high": float(hi),
                             "model": model.get(key, math.nan),
                             "pairs": point["pairs"], "configurations": point["configurations"],
                             "runs": point["runs"], "note": note})
    return pd.DataFrame(rows)
