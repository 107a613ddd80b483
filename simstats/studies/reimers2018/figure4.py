"""Figure 4 at large n: a dedicated simulation of Evaluation 2 with many groups of n runs.

The main simulation draws 50,000 runs per approach, so at n = 100 it has 500 pairs of groups and a
Monte Carlo error of about 2 points.  Here every group of n fresh runs per approach is drawn for itself
(stream "reimers-figure4"): the runs' abilities as in the main simulation, their dev scores from the
noise model's normal law of a run's score on the realised dev set given its ability (mean and variance
exact over the items, Population.given_items, delta method for F1: the law the closed forms use), the
best-by-dev run of each group, and only that run's test outcomes item by item on the realised test set.
The pair of best runs is tested with the study's paired bootstrap over test sentences (shift convention,
one-sided for the observed winner).  The dev score of a run is the one scalar draw that replaces the
item-level simulation, which would cost n times more per pair.

Chunking: groups form blocks of ``block`` groups sharing one set of bootstrap resample counts (key: task,
n, block); each group and approach has its own generator (key: task, n, approach, group); chunks are
whole blocks, so results do not depend on the chunk size or on --cores.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.sim.noise import Population, make_item_set, unit_statistics
from simstats.sim.scenario import SPLITS, ScenarioError
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module
from simstats.stats.metrics import metric_from_sums
from simstats.studies.reimers2018.simulate import bootstrap_pvalues

interpolate = lazy_module("scipy.interpolate")
special = lazy_module("scipy.special")

STREAM = "reimers-figure4"
GROUP_COLUMNS = ["n", "group", "dev_a", "dev_b", "test_a", "test_b", "low_a", "low_b", "delta", "pvalue"]
#: Knots of the spline of a run's expected dev score and its variance over ability.
KNOTS = 81


def group_abilities(scenario, approach: str, rng: np.random.Generator, size: int):
    """(theta, test shift delta, low/failed flag) of ``size`` fresh runs: the law of
    :func:`simstats.sim.noise.draw_abilities` (five normals per run), drawn from one generator."""
    sc = scenario
    sd = sc.seed_distribution
    if sc.seed_sharing > 0:
        raise ScenarioError(f"scenario {sc.name!r}: the Figure 4 simulation draws independent approaches "
                            "(seed_sharing must be 0)")
    mu = Population(sc).mu(approach)
    z, z2, u_fail, z_fail, z_shift = rng.standard_normal((size, 5)).T
    if sd.family == "skew_normal":
        d = sd.shape / math.sqrt(1 + sd.shape**2)
        skew = d * np.abs(z) + math.sqrt(1 - d**2) * z2
        z = (skew - d * math.sqrt(2 / math.pi)) / math.sqrt(1 - 2 * d**2 / math.pi)
    theta = mu + sc.sigma_seed * z
    delta = sc.sigma_shift * z_shift
    low = np.zeros(size, dtype=bool)
    if sd.family == "failure_mixture":
        low = special.ndtr(u_fail) < sd.failure_prob
        theta = np.where(low, mu + sd.failure_shift + sd.failure_sd * z_fail, theta)
    elif sd.family == "test_shift_mixture":
        low = special.ndtr(u_fail) < sd.low_prob
        theta = theta - low * sd.low_theta
        delta = delta - low * sd.low_shift
    return theta, delta, low


class DevLaw:
    """A run's dev score given its ability on the realised dev set: normal with the exact expected score
    and variance over the items (cubic spline over a fixed ability range, so it does not depend on the
    chunk)."""

    def __init__(self, scenario, approach: str, items):
        sc = scenario
        sd = sc.seed_distribution
        mu = Population(sc).mu(approach) + sc.dev_offset
        spread = 9 * max(sc.sigma_seed, 1e-6)
        lo = mu - spread - max(sd.low_theta, 0.0) - (abs(sd.failure_shift) + 9 * sd.failure_sd
                                                     if sd.family == "failure_mixture" else 0.0)
        hi = mu + spread + (2 * spread if sd.family == "skew_normal" else 0.0)
        self.lo, self.hi = lo, hi
        self.grid = np.linspace(lo, hi, KNOTS if sc.sigma_e > 0 else 40 * KNOTS)
        mean, var = Population(sc).given_items(self.grid, items.for_approach(approach))
        self.smooth = sc.sigma_e > 0
        self.mean, self.var = np.asarray(mean, float), np.asarray(var, float)
        self.spline = interpolate.CubicSpline(self.grid, np.stack([self.mean, self.var], axis=1)) if self.smooth \
            else None

    def moments(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        theta = np.clip(theta, self.lo, self.hi)
        if self.smooth:
            values = self.spline(theta)
            return values[..., 0], np.maximum(values[..., 1], 0.0)
        return np.interp(theta, self.grid, self.mean), np.interp(theta, self.grid, self.var)


def _test_statistics(scenario, items, theta: np.ndarray, rngs) -> tuple[np.ndarray, np.ndarray]:
    """Item-level test outcomes of runs of test ability ``theta`` (one generator each): ((runs, units, k)
    per-unit statistics of the metric, test scores)."""
    sc = scenario
    errors = np.stack([rng.standard_normal(items.n_items, dtype=np.float32) for rng in rngs])
    latent = np.float32(sc.sigma_e) * errors + items.sign.astype(np.float32)[None, :] * theta[:, None].astype(np.float32)
    y = latent > items.threshold[None, :]
    gold = items.is_gold
    if sc.metric == "accuracy":
        unit = {"correct": items.per_unit(y & gold[None, :]), "items": items.per_unit(gold)}
        sums = {"correct": unit["correct"].sum(axis=1), "items": int(gold.sum())}
    else:
        unit = {"recalled": items.per_unit(y & gold[None, :]), "spurious": items.per_unit(y & ~gold[None, :]),
                "gold": items.per_unit(gold)}
        sums = {"recalled": unit["recalled"].sum(axis=1), "gold": int(gold.sum()),
                "spurious": unit["spurious"].sum(axis=1)}
    stats = unit_statistics(unit, sc.metric, np.int32)
    return stats, np.asarray(metric_from_sums(sc.metric, sums), dtype=float)


def simulate_groups(scenario, n: int, start: int, stop: int, block: int, n_resamples: int,
                    root_seed: int) -> pd.DataFrame:
    """Groups start..stop-1 of n fresh runs per approach: the best-by-dev run of each and its pair's
    paired-bootstrap p (one row per group, GROUP_COLUMNS; scores in metric units)."""
    sc = scenario
    if start % block or (stop % block and stop != start):
        raise ValueError(f"chunks must be whole blocks of {block} groups, got {start}..{stop}")
    if len(sc.approaches) != 2:
        raise ScenarioError(f"scenario {sc.name!r}: the Figure 4 simulation needs two approaches")
    items = {s: make_item_set(sc, s, root_seed, "noise") for s in SPLITS}
    names = [a.name for a in sc.approaches]
    laws = {a: DevLaw(sc, a, items["dev"]) for a in names}
    test_items = {a: items["test"].for_approach(a) for a in names}
    frames = []
    for lo in range(start, stop, block):
        groups = np.arange(lo, lo + block)
        picked = {}
        for a in names:
            dev, theta_test, low, rngs = [], [], [], []
            for g in groups:
                rng = generator(root_seed, STREAM, sc.name, n, a, int(g))
                theta, delta, flag = group_abilities(sc, a, rng, n)
                mean, var = laws[a].moments(theta + sc.dev_offset)
                scores = mean + np.sqrt(var) * rng.standard_normal(n)
                best = int(np.argmax(scores))
                dev.append(scores[best])
                theta_test.append(theta[best] + delta[best])
                low.append(flag[best])
                rngs.append(rng)          # the same generator then draws the picked run's test outcomes
            stats, test = _test_statistics(sc, test_items[a], np.asarray(theta_test), rngs)
            picked[a] = (np.asarray(dev), test, np.asarray(low), stats)
        pairs = np.stack([np.arange(block), np.arange(block)], axis=1)
        rng = generator(root_seed, STREAM, sc.name, n, "bootstrap", lo // block)
        delta, pvalue = bootstrap_pvalues(picked[names[0]][3], picked[names[1]][3], pairs, sc.metric,
                                          n_resamples, rng)
        frames.append(pd.DataFrame({"n": n, "group": groups, "dev_a": picked[names[0]][0],
                                    "dev_b": picked[names[1]][0], "test_a": picked[names[0]][1],
                                    "test_b": picked[names[1]][1], "low_a": picked[names[0]][2],
                                    "low_b": picked[names[1]][2], "delta": delta, "pvalue": pvalue}))
    if not frames:
        return pd.DataFrame({c: pd.Series(dtype=float) for c in GROUP_COLUMNS})
    return pd.concat(frames, ignore_index=True)[GROUP_COLUMNS]


def figure4_summary(scenario, groups: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Figure 4 rows (the study's summary format) of the dedicated simulation: % significant per n with its
    binomial MCSE, one row per n."""
    from simstats.studies.reimers2018.tables import SUMMARY_COLUMNS, _row, rate

    rows = []
    for n, part in groups.groupby("n", sort=True):
        p, se, k = rate(part.pvalue.to_numpy() < alpha)
        rows.append(_row(scenario, "F4_eval2_vs_n", "pct_significant", int(n), p, se, p - 1.96 * se, p + 1.96 * se,
                         k))
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def chunk_ranges(groups: int, block: int, chunk: int) -> list[tuple[int, int]]:
    """[start, stop) of each job's groups: whole blocks, ``chunk`` groups per job (a multiple of block)."""
    if groups % block or chunk % block:
        raise ValueError(f"groups ({groups}) and chunk ({chunk}) must be multiples of the block {block}")
    return [(s, min(s + chunk, groups)) for s in range(0, groups, chunk)]
