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
shuffling the n units.  All test sets of a design cell are tested at once, from their (test
sets x 8) count matrix (:mod:`simstats.studies.yeh2000.kinds`); each test set keeps its own
generator, so its p-values do not depend on the others.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import ndtri

from simstats.sim.seeding import generator
from simstats.stats import classical
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import get_metric
from simstats.stats.montecarlo import rejection_rate, size_verdict
from simstats.stats.randomization import randomization_test
from simstats.studies.yeh2000 import kinds
from simstats.studies.yeh2000.kinds import KIND_STATS
from simstats.stats.lazy import lazy_module
from simstats.sim.schema import apply_schema
from simstats.stats.metrics import accuracy
from simstats.sim.noise import bivariate_normal_equal_cdf
from simstats.sim.fields import fail
from simstats.io.write import markdown_table

optimize = lazy_module("scipy.optimize")

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")

METRICS = ("recall", "precision", "f1")
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
        return get_metric(self.metric)(sums)


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
    """One classical test on one test set through the :mod:`simstats.stats.classical` wrappers:
    the reference of the vectorised :func:`simstats.studies.yeh2000.kinds.classical_pvalues`
    (which falls back on it where its closed forms do not apply)."""
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
        # the study's t-test has no answer where every difference is the same (the wrapper then falls back on
        # the exact sign test): counted as no rejection, p = 1, as the vectorised closed form does
        res = classical.paired_t_test(a, b, alternative="two-sided")
        return 1.0 if not np.isfinite(res.statistic) else res.pvalue
    if test == "sign_mcnemar":
        return classical.sign_test(a, b, alternative="two-sided").pvalue
    if test == "wilcoxon":
        return classical.wilcoxon_test(a, b, alternative="two-sided").pvalue
    raise ValueError(f"unknown test {test!r}")


def simulate_cell(population: PairPopulation, n: int, replicates, *, root_seed: int, key: tuple,
                  n_resamples: int = 1000, alpha: float = 0.05, max_exact_cells: int = 250_000) -> pd.DataFrame:
    """One row per replicate: each test's p-value on a fresh test set of n units.

    Replicate r's generator, keyed by (key, r), draws its test set and then its resamples:
    chunk-invariant.  All replicates' p-values are computed together (:func:`cell_pvalues`)."""
    probs = population.kind_probs
    replicates = [int(r) for r in replicates]
    rngs = [generator(root_seed, "yeh", *(str(k) for k in key), r) for r in replicates]
    counts = np.array([rng.multinomial(n, probs) for rng in rngs], dtype=np.float64).reshape(-1, 8)
    rows = cell_pvalues(counts, population.metric, rngs, n_resamples=n_resamples, max_exact_cells=max_exact_cells)
    rows.insert(0, "replicate", np.array(replicates, dtype=np.int64))
    return rows


def cell_pvalues(counts, metric_name: str, rngs, *, n_resamples: int = 1000,
                 max_exact_cells: int = 250_000) -> pd.DataFrame:
    """Scores and every test's two-sided p-value for test sets given by their kind counts
    (rows of ``counts``), one row each; test set i's resamples come from ``rngs[i]``.

    Paired bootstrap: Multinomial(n, counts / n) over the kinds (the engine's distinct-row
    resampler with the counts as weights).  Approximate randomization: Binomial(count, 1/2)
    swaps per discordant kind give, per stratum, Binomial(discordant units, 1/2) units kept by
    system 1: the exact stratified distribution, from which its shuffles are independent draws,
    so its count of shuffles at least as extreme is drawn as Binomial(n_resamples, exact p).
    Exact stratified randomization: over both strata; NaN where its grid
    (Dg + 1) (Ds + 1) exceeds ``max_exact_cells``.  Classical tests: closed forms from the counts
    (:mod:`simstats.studies.yeh2000.kinds`)."""
    counts = kinds.as_counts(counts)
    if len(rngs) != len(counts):
        raise ValueError(f"need one generator per test set: {len(counts)} test sets, {len(rngs)} generators")
    metric = get_metric(metric_name)
    observed = metric(kinds.kind_sums(counts))
    table = {"score_1": observed[:, 0], "score_2": observed[:, 1], "delta": observed[:, 0] - observed[:, 1]}
    cells = (counts[:, [1, 2]].sum(axis=1) + 1) * (counts[:, [5, 6]].sum(axis=1) + 1)
    reported = cells <= max_exact_cells
    # where the exact p-value is not reported it only sets approximate randomization's count:
    # computed to within 2e-14 (kinds.RANDOMIZATION_TOLERANCE), much faster on large grids
    exact = kinds.exact_stratified_pvalues(counts, metric, np.where(reported, 0.0, kinds.RANDOMIZATION_TOLERANCE))
    table["paired_bootstrap"] = kinds.bootstrap_pvalues(counts, metric, rngs, n_resamples)
    table["approximate_randomization"] = kinds.randomization_pvalues(exact, rngs, n_resamples)
    table["exact_stratified_randomization"] = np.where(reported, exact, np.nan)
    for test in TESTS[metric_name]:
        if test not in table:
            table[test] = kinds.classical_pvalues(test, counts, reference=_classical)
    return pd.DataFrame(table)


def kind_pvalues(counts, metric_name: str, rng: np.random.Generator, *, n_resamples: int = 1000,
                 max_exact_cells: int = 250_000) -> dict:
    """Scores and every test's two-sided p-value for one test set given by its 8 kind counts
    (:func:`cell_pvalues` for one test set)."""
    row = cell_pvalues(np.asarray(counts, dtype=np.float64)[None], metric_name, [rng], n_resamples=n_resamples,
                       max_exact_cells=max_exact_cells).iloc[0]
    return {key: float(value) for key, value in row.items()}


def rejection_rates(rows: pd.DataFrame, tests, alpha: float) -> list[dict]:
    """Share of replicates with p < alpha per test, with its Monte Carlo standard error."""
    out = []
    for test in tests:
        rate, mcse, n = rejection_rate(rows[test], alpha)
        out.append({"test": test, "rate": rate, "mcse": mcse, "replicates": n})
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
    # standard error from the spread of the ratio over 20 batches of the replicates
    batches = np.array_split(np.arange(replicates), 20)
    parts = [math.sqrt(x[b, 0].var(ddof=1) + x[b, 1].var(ddof=1)) / (x[b, 0] - x[b, 1]).std(ddof=1)
             for b in batches]
    se = float(np.std(parts, ddof=1) / math.sqrt(len(parts)))
    return {"r12": r12, "analytic": 1 / math.sqrt(1 - r12), "simulated": sim, "se": se}


# --------------------------------------------------------------------------- real data: SQuAD 2.0
def leaderboard_pairs(models: pd.DataFrame, pairs: pd.DataFrame, n_questions: int, *,
                      alpha: float = 0.05) -> pd.DataFrame:
    """Paired (McNemar) vs unpaired (two-proportion z) tests on leaderboard pairs.

    models: index, dev_em (percent); pairs: i, j, dev_delta = #correct(j) - #correct(i),
    dev_disagree = #questions exactly one of the two got right.  Returns one row per pair with
    both p-values, the implied item-level correlation r12 (phi of the 2x2 table) and whether
    the verdicts at ``alpha`` differ."""
    need = {"i", "j", "dev_delta", "dev_disagree"}
    if not need <= set(pairs.columns) or not {"index", "dev_em"} <= set(models.columns):
        raise ValueError("pairs need columns i, j, dev_delta, dev_disagree; models need index, dev_em")
    correct = (models.set_index("index").dev_em * n_questions / 100).round().astype(int)
    missing = set(pairs.i) | set(pairs.j)
    missing -= set(correct.index)
    if missing:
        raise ValueError(f"pairs refer to unknown models {sorted(missing)[:5]}")
    a_i = correct.loc[pairs.i].to_numpy()
    a_j = correct.loc[pairs.j].to_numpy()
    delta = pairs.dev_delta.to_numpy()
    disagree = pairs.dev_disagree.to_numpy()
    only_j = (disagree + delta) / 2
    only_i = (disagree - delta) / 2
    if np.any(only_i % 1) or np.any(only_i < 0) or np.any(only_j < 0):
        raise ValueError("dev_delta and dev_disagree are inconsistent (b + c and c - b must have equal parity)")
    rows = []
    for k in range(len(pairs)):
        p_mc = classical.mcnemar_counts(int(only_i[k]), int(only_j[k])).pvalue
        p_z = classical.two_proportion_z_test(int(a_i[k]), n_questions, int(a_j[k]), n_questions,
                                              alternative="two-sided").pvalue
        both = a_i[k] - only_i[k]
        neither = n_questions - a_i[k] - only_j[k]
        den = math.sqrt(a_i[k] * (n_questions - a_i[k]) * a_j[k] * (n_questions - a_j[k]))
        rows.append({"i": int(pairs.i.iloc[k]), "j": int(pairs.j.iloc[k]), "correct_i": int(a_i[k]),
                     "correct_j": int(a_j[k]), "only_i": int(only_i[k]), "only_j": int(only_j[k]),
                     "delta_mismatch": int(a_j[k] - a_i[k] - delta[k]),
                     "r12": (both * neither - only_i[k] * only_j[k]) / den if den else np.nan,
                     "pvalue_mcnemar": p_mc, "pvalue_z": p_z})
    out = pd.DataFrame(rows)
    out["significant_mcnemar"] = out.pvalue_mcnemar < alpha
    out["significant_z"] = out.pvalue_z < alpha
    return out


def leaderboard_summary(table: pd.DataFrame) -> pd.DataFrame:
    n = len(table)
    sig_p, sig_z = table.significant_mcnemar, table.significant_z
    r = table.r12.dropna()
    rows = [("pairs", n), ("significant, McNemar (paired)", sig_p.mean()), ("significant, two-proportion z (unpaired)",
                                                                           sig_z.mean()),
            ("significant only when paired", (sig_p & ~sig_z).mean()),
            ("significant only when unpaired", (~sig_p & sig_z).mean()),
            ("implied r12: median", r.median()), ("implied r12: 5th percentile", r.quantile(0.05)),
            ("implied r12: 95th percentile", r.quantile(0.95)), ("implied r12 < 0", (r < 0).mean()),
            ("pairs whose EM-count difference equals dev_delta", (table.delta_mismatch == 0).mean()),
            ("largest |EM-count difference - dev_delta| (questions)", table.delta_mismatch.abs().max())]
    return pd.DataFrame(rows, columns=["quantity", "value"])


# --------------------------------------------------------------------------- dependent test items
@dataclass(frozen=True)
class ClusteredPair:
    """Two equally good systems on test items grouped in documents of ``doc_size`` items.

    Latents: system 1: theta + b_i + u_d + e_1i, system 2: theta + b_i - u_d + e_2i (right iff > 0),
    b ~ N(0, sigma_item^2) per item, u ~ N(0, tau^2) per document, e ~ N(0, 1).  Some documents
    suit one system, some the other: the per-item differences are correlated within documents,
    with design effect 1 + (doc_size - 1) * ICC of the differences."""

    accuracy: float
    sigma_item: float
    tau: float
    doc_size: int

    @property
    def scale(self) -> float:
        return math.sqrt(self.sigma_item ** 2 + self.tau ** 2 + 1)

    @property
    def theta(self) -> float:
        return float(ndtri(self.accuracy)) * self.scale

    def _moments(self) -> tuple[float, float]:
        """(var of one item's difference y1 - y2, covariance of two items' differences in a document)."""
        s2 = self.scale ** 2
        h = self.theta / self.scale           # P(right) = Phi(h)
        both = float(bivariate_normal_equal_cdf(h, (self.sigma_item ** 2 - self.tau ** 2) / s2))
        rho = self.tau ** 2 / s2
        cov = 2 * (float(bivariate_normal_equal_cdf(h, rho)) - float(bivariate_normal_equal_cdf(h, -rho)))
        return 2 * (self.accuracy - both), cov

    def design_effect(self) -> float:
        var_d, cov = self._moments()
        return 1 + (self.doc_size - 1) * cov / var_d

    def delta_variance(self, n_docs: int) -> float:
        """Exact variance of the accuracy difference over test sets of n_docs documents."""
        var_d, _ = self._moments()
        return var_d * self.design_effect() / (n_docs * self.doc_size)


def clustered_pair(design_effect: float, *, accuracy: float = 0.7, sigma_item: float = 0.5,
                   doc_size: int = 10) -> ClusteredPair:
    """The document effect tau that gives ``design_effect`` (1 = independent items)."""
    if design_effect < 1:
        raise ValueError(f"design effect must be >= 1, got {design_effect}")
    if design_effect == 1:
        return ClusteredPair(accuracy, sigma_item, 0.0, doc_size)
    top = ClusteredPair(accuracy, sigma_item, 20.0, doc_size).design_effect()
    if design_effect >= top:
        raise ValueError(f"design effect {design_effect} not reachable with documents of {doc_size} items "
                         f"(max {top:.2f})")
    tau = optimize.brentq(lambda t: ClusteredPair(accuracy, sigma_item, t, doc_size).design_effect()
                          - design_effect, 0.0, 20.0, xtol=1e-10)
    return ClusteredPair(accuracy, sigma_item, float(tau), doc_size)


def draw_clustered(pair: ClusteredPair, n_docs: int, rng: np.random.Generator):
    """Both systems' correctness (bool arrays) on n_docs documents of pair.doc_size items."""
    n = n_docs * pair.doc_size
    base = pair.theta + rng.normal(0, pair.sigma_item, n)
    u = np.repeat(rng.normal(0, pair.tau, n_docs), pair.doc_size) if pair.tau > 0 else 0.0
    return base + u + rng.normal(0, 1, n) > 0, base - u + rng.normal(0, 1, n) > 0


CLUSTER_TESTS = ("item_bootstrap", "item_randomization", "sign_mcnemar", "cluster_bootstrap",
                 "cluster_randomization")


def simulate_cluster_cell(pair: ClusteredPair, n_docs: int, replicates, *, root_seed: int, key: tuple,
                          n_resamples: int = 1000) -> pd.DataFrame:
    """One row per replicate: p-values (two-sided) of item- and cluster-level tests."""
    metric = accuracy
    n = n_docs * pair.doc_size
    docs = np.repeat(np.arange(n_docs), pair.doc_size)
    rows = []
    for r in replicates:
        rng = generator(root_seed, "yeh", "clusters", *(str(k) for k in key), int(r))
        y1, y2 = draw_clustered(pair, n_docs, rng)
        stats = np.stack([np.stack([y1, np.ones(n, bool)], 1), np.stack([y2, np.ones(n, bool)], 1)])
        kw = {"alternative": "two-sided", "n_resamples": n_resamples, "rng": rng}
        rows.append({
            "replicate": int(r), "delta": float(y1.mean() - y2.mean()),
            "item_bootstrap": float(paired_bootstrap(stats, metric, confidence_level=None, pvalue_rule="fraction",
                                                     **kw).pvalue[0]),
            "item_randomization": float(randomization_test(stats, metric, **kw).pvalue[0]),
            "sign_mcnemar": float(classical.sign_test(y1, y2, alternative="two-sided").pvalue),
            "cluster_bootstrap": float(paired_bootstrap(stats, metric, confidence_level=None, clusters=docs,
                                                        pvalue_rule="fraction", **kw).pvalue[0]),
            "cluster_randomization": float(randomization_test(stats, metric, clusters=docs, **kw).pvalue[0]),
        })
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- configuration and summaries
@dataclass(frozen=True)
class YehSdRatioSettings:
    n: int
    replicates: int


@dataclass(frozen=True)
class YehClusterSettings:
    n_docs: int
    doc_size: int
    accuracy: float
    sigma_item: float
    design_effects: tuple[float, ...]
    replicates: int


@dataclass(frozen=True)
class YehSettings:
    """The ``yeh`` section of the configuration (types, ranges and defaults: the schema)."""

    alpha: float
    replicates: int
    n_resamples: int
    r12: tuple[float, ...]
    sizes: tuple[int, ...]
    differences: dict          # metric -> tuple of true differences (0 first)
    recall: float
    spurious: float
    gold_share: float
    max_exact_cells: int
    sd_ratio: YehSdRatioSettings
    clusters: YehClusterSettings
    n_questions: int           # yeh.squad.n_questions


def parse_yeh(value) -> YehSettings:
    """Validate the ``yeh`` config section against the schema (defaults filled in) plus the
    cross-field checks; raise ScenarioError naming the field."""
    path = "yeh"
    v = apply_schema(value, SCHEMA, path)
    differences = {}
    for m in METRICS:
        d = v["differences"][m]
        if d[0] != 0:
            fail(f"{path}.differences.{m}", "must be a list starting with 0 (the null)")
        for x in d[1:]:
            try:
                make_population(m, 0.0, x, recall=v["recall"], spurious=v["spurious"], gold_share=v["gold_share"])
            except ValueError as err:
                fail(f"{path}.differences.{m}", f"{x} is not attainable ({err})")
        differences[m] = tuple(d)
    cl = v["clusters"]
    clusters = YehClusterSettings(cl["n_docs"], cl["doc_size"], cl["accuracy"], cl["sigma_item"],
                                  tuple(cl["design_effects"]), cl.get("replicates", v["replicates"]))
    for d in clusters.design_effects:
        try:
            clustered_pair(d, accuracy=clusters.accuracy, sigma_item=clusters.sigma_item, doc_size=clusters.doc_size)
        except ValueError as err:
            fail(f"{path}.clusters.design_effects", str(err))
    return YehSettings(
        alpha=v["alpha"], replicates=v["replicates"], n_resamples=v["n_resamples"], r12=tuple(v["r12"]),
        sizes=tuple(v["sizes"]), differences=differences, recall=v["recall"], spurious=v["spurious"],
        gold_share=v["gold_share"], max_exact_cells=v["max_exact_cells"],
        sd_ratio=YehSdRatioSettings(v["sd_ratio"]["n"], v["sd_ratio"]["replicates"]), clusters=clusters,
        n_questions=v["squad"]["n_questions"])


def summarise_cells(rows: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Rejection rates per (metric, n, r12, difference, test) with MCSE; size verdicts at difference 0."""
    out = []
    keys = ["metric", "n", "r12", "r12_population", "difference"]
    for key, g in rows.groupby(keys, sort=True):
        metric = key[0]
        for res in rejection_rates(g, TESTS[metric], alpha):
            row = dict(zip(keys, key)) | res
            row["kind"] = "independence" if res["test"] in INDEPENDENCE_TESTS else "paired"
            row["verdict"] = size_verdict(res["rate"], alpha, res["replicates"]) if key[4] == 0 and res["replicates"] \
                else ""
            out.append(row)
    return pd.DataFrame(out)


def summarise_clusters(rows: pd.DataFrame, alpha: float) -> pd.DataFrame:
    out = []
    for (de, tau), g in rows.groupby(["design_effect", "tau"], sort=True):
        for res in rejection_rates(g, CLUSTER_TESTS, alpha):
            out.append({"design_effect": de, "tau": tau, **res,
                        "level": "cluster" if res["test"].startswith("cluster") else "item",
                        "verdict": size_verdict(res["rate"], alpha, res["replicates"])})
    return pd.DataFrame(out)


def size_power_markdown(summary: pd.DataFrame, alpha: float) -> str:
    """Size and power tables (rate ± MCSE per test; size verdicts marked)."""
    mark = {"liberal": " ↑", "conservative": " ↓", "holds alpha": "", "undetermined": " ?", "": ""}
    parts = [f"# Correlated systems: size and power of tests (Yeh 2000), two-sided, α = {alpha}\n",
             "Each cell: share of simulated test sets with p < α ± Monte Carlo SE. Size verdicts: ↑ liberal / "
             "↓ conservative (outside α ± 3 MCSE); ? undetermined (too few test sets: the band reaches 0); "
             "unmarked = holds α. `r12` is the item-level correlation "
             "of the two systems; `–` = not computed (exact stratified randomization above its cell limit).\n"]
    null = summary[summary.difference == 0].assign(verdict=lambda f: f.verdict.replace("", "not computed"))
    verdicts = null.groupby(["kind", "test", "verdict"]).size().unstack(fill_value=0)
    parts += ["## Size verdicts over all null cells (metric × n × r12)\n", markdown_table(verdicts.reset_index())]
    for metric in METRICS:
        sub = summary[summary.metric == metric]
        if sub.empty:
            continue
        for diff in sorted(sub.difference.unique()):
            d = sub[sub.difference == diff].copy()
            d["cell"] = [("–" if np.isnan(r) else f"{r:.3f} ± {s:.3f}{mark[v]}")
                         for r, s, v in zip(d.rate, d.mcse, d.verdict)]
            wide = d.pivot_table(index=["n", "r12"], columns="test", values="cell", aggfunc="first")
            wide = wide[[t for t in TESTS[metric] if t in wide.columns]].reset_index()
            title = "size (no true difference)" if diff == 0 else f"power at a true difference of {diff}"
            parts += [f"\n## {metric}: {title}\n", markdown_table(wide)]
    return "\n".join(parts)
