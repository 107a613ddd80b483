"""Yeh (2000) study: two correlated systems on one test set; paired vs independence tests.

Population.  A test set is n units drawn i.i.d.: a *gold* item (relation of interest) with
probability ``gold_share`` (1 for recall/accuracy), otherwise a *spurious candidate*.  System
k recalls a gold item with probability p_k and produces a spurious candidate with probability
s_k; on each unit the two systems' indicators have item-level (phi) correlation r12:

    P(both) = p1 p2 + r12 sqrt(p1 (1 - p1) p2 (1 - p2))       (likewise for s).

So a unit is one of 8 kinds (gold 11/10/01/00, spurious 11/10/01/00), the data of a test set
are the kind counts, Multinomial(n, pi), and the population values of recall, precision and F1
are the metrics of the expected sums (equal for the two systems under the null).

Tests (two-sided, level alpha).  Independence-assuming: two-sample t and two-proportion z on
recall/accuracy, chi-square 2x2 on precision.  Paired: matched-pair t, sign test (= exact
McNemar), Wilcoxon signed-rank, paired bootstrap, approximate randomization and exact
stratified randomization.  Because units of one kind are interchangeable, a bootstrap
resample of a test set is Multinomial(n, counts / n) over kinds and a shuffle swaps
Binomial(count, 1/2) units of each discordant kind: the same distributions as resampling and
shuffling the n units, drawn for all replicates of a design cell at once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize

from . import classical
from .bootstrap import _extreme_counts
from .metrics import yeh_metric
from .randomization import _hits, exact_stratified_randomization
from .seeding import generator

METRICS = ("recall", "precision", "f1")
#: Per-kind statistics (recalled, gold, spurious) of systems 1 and 2: gold 11, 10, 01, 00, spurious 11, 10, 01, 00.
KIND_STATS = np.array([
    [[1, 1, 0], [1, 1, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1], [0, 0, 0], [0, 0, 0]],
    [[1, 1, 0], [0, 1, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0], [0, 0, 1], [0, 0, 0]],
], dtype=np.float64)
DISCORDANT = np.array([1, 2, 5, 6])
TESTS = {
    "recall": ("two_sample_t", "two_proportion_z", "paired_t", "sign_mcnemar", "wilcoxon", "paired_bootstrap",
               "approximate_randomization", "exact_stratified_randomization"),
    "precision": ("chi2_2x2", "paired_bootstrap", "approximate_randomization", "exact_stratified_randomization"),
    "f1": ("paired_bootstrap", "approximate_randomization", "exact_stratified_randomization"),
}
INDEPENDENCE_TESTS = ("two_sample_t", "two_proportion_z", "chi2_2x2")


def joint_probabilities(p1: float, p2: float, r12: float) -> np.ndarray:
    """P(11), P(10), P(01), P(00) of two Bernoulli indicators with phi correlation r12."""
    both = p1 * p2 + r12 * math.sqrt(p1 * (1 - p1) * p2 * (1 - p2))
    probs = np.array([both, p1 - both, p2 - both, 1 - p1 - p2 + both])
    if probs.min() < -1e-12:
        raise ValueError(f"r12 = {r12} is not attainable for rates {p1:.4f} and {p2:.4f}")
    return np.clip(probs, 0, 1)


def max_r12(p1: float, p2: float) -> float:
    lo, hi = sorted((p1, p2))
    return math.sqrt(lo * (1 - hi) / (hi * (1 - lo)))


@dataclass(frozen=True)
class PairPopulation:
    """Two systems' rates; ``kind_probs`` over the 8 unit kinds."""

    metric: str
    recall: tuple[float, float]
    spurious: tuple[float, float]
    gold_share: float
    r12: float

    @property
    def kind_probs(self) -> np.ndarray:
        g = self.gold_share
        gold = joint_probabilities(*self.recall, self.r12) * g
        spur = joint_probabilities(*self.spurious, self.r12) * (1 - g) if g < 1 else np.zeros(4)
        return np.concatenate([gold, spur])

    def true_values(self) -> np.ndarray:
        """Population metric of each system (metric of the expected sums)."""
        sums = np.einsum("k,skj->sj", self.kind_probs, KIND_STATS)
        return yeh_metric(self.metric)(sums)


def make_population(metric: str, r12: float, difference: float, *, recall: float, spurious: float,
                    gold_share: float) -> PairPopulation:
    """System 1 better than system 2 by ``difference`` in ``metric`` (population values).

    recall/accuracy and F1: the recall rates move apart symmetrically; precision: the spurious
    rates do.  r12 is capped at the largest phi the rates allow."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")
    g = 1.0 if metric == "recall" else gold_share

    def pop(h: float, r: float) -> PairPopulation:
        if metric == "precision":
            return PairPopulation(metric, (recall, recall), (spurious - h, spurious + h), g, r)
        return PairPopulation(metric, (recall + h, recall - h), (spurious, spurious), g, r)

    h = 0.0
    if difference:
        span = (spurious if metric == "precision" else min(recall, 1 - recall)) * 0.999
        h = optimize.brentq(lambda x: float(np.diff(pop(x, 0.0).true_values()[::-1])[0]) - difference, 0, span)
    p = pop(h, 0.0)
    cap = max_r12(*p.recall) if g == 1 else min(max_r12(*p.recall), max_r12(*p.spurious))
    return pop(h, min(r12, cap - 1e-9))


# --------------------------------------------------------------------------- one design cell
def _stats_of(counts: np.ndarray) -> np.ndarray:
    """(systems, units, 3) statistics of one test set from its 8 kind counts."""
    return np.repeat(KIND_STATS, counts.astype(np.int64), axis=1)


def _classical(test: str, counts: np.ndarray) -> float:
    g11, g10, g01, g00, s11, s10, s01, _ = counts.astype(int)
    if test == "two_proportion_z":
        n = g11 + g10 + g01 + g00
        return classical.two_proportion_z_test(g11 + g10, n, g11 + g01, n, alternative="two-sided").pvalue
    if test == "chi2_2x2":
        table = (g11 + g10, s11 + s10, g11 + g01, s11 + s01)
        if min(table[0] + table[1], table[2] + table[3], table[0] + table[2], table[1] + table[3]) == 0:
            return 1.0
        return classical.precision_chi2_test(*table).pvalue
    gold = np.repeat(KIND_STATS[:, :4, 0], counts[:4].astype(np.int64), axis=1)      # per-item recall 0/1
    a, b = gold
    if test == "two_sample_t":
        if a.std() == 0 and b.std() == 0:
            return 1.0 if a.mean() == b.mean() else 0.0
        return classical.two_sample_t_test(a, b, alternative="two-sided").pvalue
    if test == "paired_t":
        p = classical.paired_t_test(a, b, alternative="two-sided").pvalue
        return 1.0 if not np.isfinite(p) else p
    if test == "sign_mcnemar":
        return classical.sign_test(a, b, alternative="two-sided").pvalue
    if test == "wilcoxon":
        return classical.wilcoxon_test(a, b, alternative="two-sided").pvalue
    raise ValueError(f"unknown test {test!r}")


def simulate_cell(population: PairPopulation, n: int, replicates, *, root_seed: int, key: tuple,
                  n_resamples: int = 1000, alpha: float = 0.05, max_exact_cells: int = 250_000) -> pd.DataFrame:
    """One row per replicate: each test's p-value on a fresh test set of n units.

    Replicate r's test set and resamples are keyed by (key, r): chunk-invariant."""
    metric = yeh_metric(population.metric)
    probs = population.kind_probs
    rows = []
    for r in replicates:
        rng = generator(root_seed, "yeh", *(str(k) for k in key), int(r))
        counts = rng.multinomial(n, probs).astype(np.float64)
        sums = counts @ KIND_STATS                                              # (2, 3)
        observed = metric(sums)
        delta = float(observed[0] - observed[1])
        row = {"replicate": int(r), "score_1": float(observed[0]), "score_2": float(observed[1]), "delta": delta}
        # paired bootstrap: Multinomial(n, counts / n) over kinds, two-sided shift convention
        boot = rng.multinomial(n, counts / n, size=n_resamples).astype(np.float64)
        bsums = np.einsum("bk,skj->bsj", boot, KIND_STATS)
        values = metric(bsums)
        dstar = values[:, 0] - values[:, 1]
        row["paired_bootstrap"] = float(_extreme_counts(dstar[:, None], np.array([delta]), "two-sided",
                                                        "shift")[0] / n_resamples)
        # approximate randomization: swap Binomial(count, 1/2) units of each discordant kind
        swaps = rng.binomial(counts[DISCORDANT].astype(np.int64), 0.5, size=(n_resamples, DISCORDANT.size))
        move = KIND_STATS[1, DISCORDANT] - KIND_STATS[0, DISCORDANT]           # (4, 3): what system 1 gains
        shift = swaps @ move
        s1 = metric(sums[0] + shift)
        s2 = metric(sums[1] - shift)
        hits = int(np.count_nonzero(_hits(s1 - s2, delta, "two-sided")))
        row["approximate_randomization"] = (hits + 1) / (n_resamples + 1)
        # exact: one kind of discordant gold item and one of discordant spurious ones (canonical orientation)
        cells = float(counts[[1, 2]].sum() + 1) * float(counts[[5, 6]].sum() + 1)
        if cells <= max_exact_cells:
            row["exact_stratified_randomization"] = float(exact_stratified_randomization(
                _stats_of(counts), metric, alternative="two-sided").pvalue[0])
        else:
            row["exact_stratified_randomization"] = np.nan
        for test in TESTS[population.metric]:
            if test not in row:
                row[test] = float(_classical(test, counts))
        rows.append(row)
    return pd.DataFrame(rows)


def rejection_rates(rows: pd.DataFrame, tests, alpha: float) -> list[dict]:
    """Share of replicates with p < alpha per test, with its Monte Carlo standard error."""
    out = []
    for test in tests:
        p = rows[test].dropna().to_numpy()
        if p.size == 0:
            out.append({"test": test, "rate": np.nan, "mcse": np.nan, "replicates": 0})
            continue
        rate = float(np.mean(p < alpha))
        out.append({"test": test, "rate": rate, "mcse": math.sqrt(max(rate * (1 - rate), 1e-12) / p.size),
                    "replicates": int(p.size)})
    return out


# --------------------------------------------------------------------------- sd table
def sd_ratio(r12: float, *, n: int = 748, recall: float = 0.5, replicates: int = 20_000, root_seed: int = 0):
    """Simulated sd_ind / sd of the recall difference: sqrt(var X1 + var X2) / sd(X1 - X2) over
    test sets, beside the analytic 1 / sqrt(1 - r12) (equal rates)."""
    pop = PairPopulation("recall", (recall, recall), (0.0, 0.0), 1.0, r12)
    counts = generator(root_seed, "yeh", "sd_ratio", n, repr(float(r12))).multinomial(n, pop.kind_probs,
                                                                                size=replicates)
    x = counts @ KIND_STATS[:, :, 0].T / n                                   # (replicates, 2) recalls
    sim = math.sqrt(x[:, 0].var(ddof=1) + x[:, 1].var(ddof=1)) / (x[:, 0] - x[:, 1]).std(ddof=1)
    # delta-method standard error of the ratio, from a bootstrap over replicates would be costly:
    # the relative SE of a variance ratio estimate is about sqrt(2 (1 + ...) / R); we report it exactly
    # by splitting the replicates into 20 batches
    batches = np.array_split(np.arange(replicates), 20)
    parts = [math.sqrt(x[b, 0].var(ddof=1) + x[b, 1].var(ddof=1)) / (x[b, 0] - x[b, 1]).std(ddof=1)
             for b in batches]
    se = float(np.std(parts, ddof=1) / math.sqrt(len(parts)))
    return {"r12": r12, "analytic": 1 / math.sqrt(1 - r12), "simulated": sim, "se": se}
