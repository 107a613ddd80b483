"""Planning a comparison of approaches: how many seeds and test items does it need?

From pilot runs (per-item statistics of a few seeds per approach on one test set) the planner
estimates the variance components of the approach-level difference and predicts, for k seeds
per approach and n test items, the standard error, the power against a true difference and
the minimum detectable difference of :func:`simstats.compare_approaches` with seeds and
items resampled.

Model of a run r of approach j on item i (per-item values y, whose mean over items is the
run's score; for ratio metrics such as F1, y is the run's linearised per-item contribution,
``f(m_r) + grad f(m_r) . (x_ri - m_r)`` with m_r the run's mean statistics):

    y_ri = mu_j + u_r + a_i + c_ji + e_ri,

seed effects u ~ (0, sigma_seed^2), item effects a (shared by both approaches: they cancel),
approach x item effects with Var(c_Ai - c_Bi) = sigma_interaction^2, residual run x item
noise e ~ (0, sigma_residual^2).  Estimates: two-way (runs x items) ANOVA within each
approach, pooled (residual mean square; seed part (MS_runs - MS_residual) / n, floored at 0);
the interaction from the variance over items of the difference of the approaches' item means
minus its residual share.  For a new study with k seeds per approach and n items,

    V(k, n)  = 2 sigma_seed^2 / k + sigma_interaction^2 / n + 2 sigma_residual^2 / (k n)

is the variance of the estimated difference, and the bootstrap's own variance estimate is
on average

    V*(k, n) = 2 (sigma_seed^2 + sigma_residual^2 / n) (k - 1) / k^2 + sigma_interaction^2 / n
               + 2 sigma_residual^2 / (k n) (2 - 1 / k):

a seed bootstrap of k runs sees (k - 1) / k of their spread, which already contains each
run's item noise sigma_residual^2 / n; resampling items adds that noise again, and a run drawn
c times adds c^2 of it (E c^2 = 2 - 1/k).  So V* > V whenever the residual run x item noise
matters: the seeds x items bootstrap is then conservative (size below alpha, less power),
and the planner predicts the power of that test as it is.
The test rejects when |delta| > z_{1 - alpha/2} sqrt(V*), so with delta ~ N(d, V)

    power(d) = Phi((d - z sqrt(V*)) / sqrt(V)) + Phi((-d - z sqrt(V*)) / sqrt(V)),

and the minimum detectable difference solves power(d) = target.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.stats.crossed import linearised_item_values
from simstats.stats.metrics import Metric
from simstats.stats.lazy import lazy_module

optimize = lazy_module("scipy.optimize")
special = lazy_module("scipy.special")


@dataclass(frozen=True)
class VarianceComponents:
    """Variance components of an approach comparison, in metric units squared (module docstring)."""

    seed: float
    interaction: float
    residual: float
    difference: float          # the pilot's observed difference of mean scores (A - B)
    runs: tuple                # pilot runs per approach
    items: int                 # pilot test items

    def variance(self, seeds, items) -> np.ndarray:
        """V(k, n): variance of the estimated difference over new seeds and new items."""
        k, n = np.asarray(seeds, float), np.asarray(items, float)
        return 2 * self.seed / k + self.interaction / n + 2 * self.residual / (k * n)

    def bootstrap_variance(self, seeds, items) -> np.ndarray:
        """V*(k, n): what the seeds x items bootstrap estimates on average."""
        k, n = np.asarray(seeds, float), np.asarray(items, float)
        return (2 * (self.seed + self.residual / n) * (k - 1) / k**2 + self.interaction / n
                + 2 * self.residual / (k * n) * (2 - 1 / k))


def variance_components(stats, metric: Metric, approach, *, approaches=None) -> VarianceComponents:
    """Estimate the components of the module docstring from pilot runs (>= 2 runs per approach)."""
    approach = np.asarray(approach)
    names = list(dict.fromkeys(approach.tolist())) if approaches is None else list(approaches)
    if len(names) != 2:
        raise ValueError(f"need exactly two approaches, got {names}")
    y = linearised_item_values(stats, metric)
    groups = [y[approach == name] for name in names]
    if min(g.shape[0] for g in groups) < 2:
        raise ValueError("the planner needs at least 2 pilot runs per approach")
    n = y.shape[1]
    if n < 2:
        raise ValueError("the planner needs at least 2 test items")
    ss_res = df_res = ss_rows = df_rows = 0.0
    for g in groups:
        k = g.shape[0]
        resid = g - g.mean(axis=1, keepdims=True) - g.mean(axis=0, keepdims=True) + g.mean()
        ss_res += float((resid**2).sum())
        df_res += (k - 1) * (n - 1)
        ss_rows += n * float(((g.mean(axis=1) - g.mean()) ** 2).sum())
        df_rows += k - 1
    residual = ss_res / df_res
    seed = max(0.0, (ss_rows / df_rows - residual) / n)
    ka, kb = groups[0].shape[0], groups[1].shape[0]
    d = groups[0].mean(axis=0) - groups[1].mean(axis=0)
    interaction = max(0.0, float(d.var(ddof=1)) - residual * (1 / ka + 1 / kb))
    sign = 1.0 if metric.higher_is_better else -1.0
    return VarianceComponents(seed, interaction, residual, sign * float(groups[0].mean() - groups[1].mean()),
                              (ka, kb), n)


def power(components: VarianceComponents, seeds, items, difference, *, alpha: float = 0.05) -> np.ndarray:
    """Predicted power of the two-sided seeds x items test at a true difference (module docstring)."""
    v = components.variance(seeds, items)
    vb = components.bootstrap_variance(seeds, items)
    z = special.ndtri(1 - alpha / 2)
    d = np.abs(np.asarray(difference, float))
    return special.ndtr((d - z * np.sqrt(vb)) / np.sqrt(v)) + special.ndtr((-d - z * np.sqrt(vb)) / np.sqrt(v))


def minimum_detectable_difference(components: VarianceComponents, seeds: int, items: int, *, alpha: float = 0.05,
                                  target: float = 0.8) -> float:
    """Smallest true difference detected with probability ``target``."""
    if not alpha < target < 1:
        raise ValueError(f"target power must lie in (alpha, 1), got {target}")
    top = 10 * float(np.sqrt(components.variance(seeds, items))) + 1e-12
    return float(optimize.brentq(lambda d: float(power(components, seeds, items, d, alpha=alpha)) - target,
                                 0.0, top))


def plan(components: VarianceComponents, *, seeds=(3, 5, 10, 20), items=None, difference=None,
         alpha: float = 0.05, target: float = 0.8) -> pd.DataFrame:
    """One row per (seeds, items): standard error, minimum detectable difference at the target
    power and, if ``difference`` is given, the power against it.  ``items`` defaults to the
    pilot's test-set size and 2 and 4 times it."""
    items = (components.items, 2 * components.items, 4 * components.items) if items is None else items
    rows = []
    for k in seeds:
        if k < 2:
            raise ValueError(f"seeds per approach must be >= 2, got {k}")
        for n in items:
            row = {"seeds": int(k), "items": int(n), "se": float(np.sqrt(components.variance(k, n))),
                   "mdd": minimum_detectable_difference(components, k, n, alpha=alpha, target=target)}
            if difference is not None:
                row["power"] = float(power(components, k, n, difference, alpha=alpha))
            rows.append(row)
    return pd.DataFrame(rows)
