"""Comparing two models on an LLM-style benchmark: coverage of every interval, size and power of every paired
test, by simulation with known truth.

A simulated evaluation is what a harness log holds: ``n`` test items drawn from an item population, each
scored ``samples`` times (epochs, repeats) by two models A and B, the items optionally in clusters
(subjects, documents).  Two generators, neither of them the seeds x items noise model of the other studies:

* ``logit``: item i of cluster c has, for model m, the probability of a correct (or high) score
  p_mi = sigmoid(mu_m + u_c + v_mc + d_i + e_mi): u_c ~ N(0, cluster_sd^2) shared by the cluster's
  items and the models, v_mc ~ N(0, cluster_interaction_sd^2) each model's own cluster effect (a model
  better at one subject: the differences are clustered too), d_i ~ N(0, item_sd^2) shared by the two
  models (so their correctness is correlated) and e_mi ~ N(0, interaction_sd^2) each model's own (so
  they disagree on some items).  A sample is
  Bernoulli(p_mi) (``scores: binary``) or Beta with mean p_mi and concentration ``concentration``
  (``scores: graded``: a judge's grade or partial credit in [0, 1]).  mu_A = logit(accuracy) and
  mu_B = mu_A + ``difference`` (logit units) in the difference cells.  Truth: a model's score is
  the population mean E[p_mi] = E[sigmoid(mu_m + s Z)], s^2 = cluster_sd^2 + cluster_interaction_sd^2
  + item_sd^2 + interaction_sd^2, computed by Gauss-Hermite quadrature (:func:`population_score`).
* ``pair``: one sample per independent item; each item's (A correct, B correct) from a fixed 2 x 2
  table of probabilities (:func:`pair_cells`) given by A's ``accuracy``, B's advantage ``difference``
  and the ``disagreement`` (the share of items exactly one of them gets right): a real pair of
  systems, e.g. two SQuAD 2.0 leaderboard systems' published accuracies and disagreement.  In the
  identical cells the two discordant cells are made equal (the same disagreement, no difference).

What is computed on each simulated evaluation (``METHODS``), as a user of ``simstats compare --from
scores`` gets it (the item means over the samples, the clusters when the items have them):

* one model's score (A's): ``compare --from``'s default (``compare_systems(test="t")``, i.e.
  :func:`simstats.stats.analytic.score_interval`: Clopper-Pearson's interval when every item mean is
  0 or 1 and there are no clusters, else the t interval, cluster-robust with clusters), the
  percentile bootstrap of ``--test bootstrap``
  (resampling the clusters when there are any, and once ignoring them), the t interval
  (:func:`simstats.mean_interval`, plain and cluster-robust) and the Wilson and Clopper-Pearson
  intervals of the proportion of correct samples, every sample counted as a trial
  (:func:`simstats.proportion_interval`; binary scores);
* the difference B - A: ``compare --from``'s default (Bonett-Price's adjusted Wald,
  :func:`simstats.stats.analytic.adjusted_paired_difference`, for items scored in [0, 1]; the
  cluster-robust paired t-test with clusters),
  the paired bootstrap of ``--test bootstrap`` (its shift p-value and percentile interval; items, or
  clusters when there are any, and once ignoring them), the paired t-test
  (:func:`simstats.paired_difference`, plain and cluster-robust), and the unpaired z-test of two
  independently computed standard errors (what a harness that reports one standard error per model
  invites).

Every rate carries its binomial Monte Carlo standard error; replicate r of a cell is keyed by
(variant, items, truth, r), so results do not depend on how replicates are split into jobs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.sim.closed_forms import logistic_normal_mean
from simstats.sim.seeding import generator
from simstats.stats.analytic import (adjusted_paired_difference, default_item_test, mean_interval, paired_difference,
                                     proportion_interval, score_interval)
from simstats.stats.bootstrap import bootstrap_scores, paired_bootstrap
from simstats.stats.metrics import mean_score
from simstats.stats.lazy import lazy_module
from simstats.stats.montecarlo import coverage_verdict, proportion_with_se, size_verdict

sps = lazy_module("scipy.stats")
special = lazy_module("scipy.special")

STREAM = "harness"
TRUTHS = ("identical", "difference")

#: Interval methods for one model's score: name -> label.
SCORE_INTERVALS = {
    "default": "compare --from's default (Clopper-Pearson for 0/1 items, else t; cluster-robust with clusters)",
    "bootstrap": "percentile bootstrap (compare --test bootstrap)",
    "bootstrap_items": "percentile bootstrap over items, clusters ignored",
    "t": "t interval, items independent",
    "t_cluster": "t interval, cluster-robust",
    "wilson": "Wilson, samples counted as independent trials",
    "clopper_pearson": "Clopper-Pearson, samples counted as independent trials",
}
#: Paired tests of the difference (p-value and, where the method has one, interval): name -> label.
DIFFERENCE_TESTS = {
    "default": "compare --from's default (Bonett-Price adjusted Wald for items in [0, 1]; cluster-robust paired "
               "t-test with clusters)",
    "paired_bootstrap": "paired bootstrap (compare --test bootstrap)",
    "paired_bootstrap_items": "paired bootstrap over items, clusters ignored",
    "paired_t": "paired t-test, items independent",
    "paired_t_cluster": "paired t-test, cluster-robust",
    "unpaired_z": "unpaired z-test of two standard errors",
}
#: Every method, with the kind of rate it has.
METHODS = {**{f"score:{k}": v for k, v in SCORE_INTERVALS.items()},
           **{f"difference:{k}": v for k, v in DIFFERENCE_TESTS.items()}}


@dataclass(frozen=True)
class Variant:
    """One population of evaluations (see the module's docstring for the two generators)."""

    name: str
    generator: str = "logit"             # "logit" or "pair"
    scores: str = "binary"               # "binary" or "graded" (logit generator)
    samples: int = 1                     # samples (epochs) per item and model
    accuracy: float = 0.7                # model A's accuracy on an item of average logit (logit generator)
    item_sd: float = 1.5                 # item difficulty sd, shared by the two models (logit units)
    interaction_sd: float = 0.7          # each model's own item effect sd (logit units)
    cluster_sd: float = 0.0              # cluster effect sd, shared by the models (logit units)
    cluster_interaction_sd: float = 0.0  # each model's own cluster effect sd (logit units)
    cluster_size: int = 0                # items per cluster (0: no clusters)
    concentration: float = 4.0           # Beta concentration of a graded sample
    difference: float = 0.3              # B's advantage in the difference cells (logit units; pair: accuracy)
    disagreement: float = 0.0            # pair generator: the share of items exactly one model gets right
    description: str = ""

    @property
    def cells(self) -> tuple[float, float, float, float]:
        """Pair generator: the difference cells' 2 x 2 probabilities (:func:`pair_cells`)."""
        return pair_cells(self.accuracy, self.accuracy + self.difference, self.disagreement)

    @property
    def clustered(self) -> bool:
        return self.cluster_size > 0


def pair_cells(accuracy_a: float, accuracy_b: float, disagreement: float) -> tuple[float, float, float, float]:
    """The 2 x 2 cell probabilities (both right, only A right, only B right, both wrong) of two systems
    with the given accuracies and disagreement rate (the share of items exactly one gets right).

    Examples
    --------
    >>> [round(c, 3) for c in pair_cells(0.8, 0.7, 0.2)]
    [0.65, 0.15, 0.05, 0.15]
    """
    only_a = (disagreement + accuracy_a - accuracy_b) / 2
    only_b = disagreement - only_a
    both = accuracy_a - only_a
    cells = (both, only_a, only_b, 1 - both - only_a - only_b)
    if min(cells) < 0:
        raise ValueError(f"accuracies {accuracy_a}, {accuracy_b} and disagreement {disagreement} are not "
                         "a 2 x 2 table of probabilities")
    return cells


def population_score(mu: float, sd: float, nodes: int = 120) -> float:
    """E[sigmoid(mu + sd Z)], Z standard normal, by Gauss-Hermite quadrature (error below 1e-12 here).

    Examples
    --------
    >>> round(population_score(0.0, 1.5), 12)      # symmetric about 0.5
    0.5
    """
    return float(logistic_normal_mean(mu, sd, nodes))


def true_scores(variant: Variant, truth: str) -> tuple[float, float]:
    """Models A's and B's population scores in a cell."""
    if variant.generator == "pair":
        both, only_a, only_b, _ = _pair_truth_cells(variant, truth)
        return both + only_a, both + only_b
    mu = float(special.logit(variant.accuracy))
    sd = math.sqrt(variant.cluster_sd ** 2 + variant.cluster_interaction_sd ** 2 + variant.item_sd ** 2
                   + variant.interaction_sd ** 2)
    shift = variant.difference if truth == "difference" else 0.0
    return population_score(mu, sd), population_score(mu + shift, sd)


def _pair_truth_cells(variant: Variant, truth: str) -> tuple[float, float, float, float]:
    both, only_a, only_b, neither = variant.cells
    if truth == "identical":
        only_a = only_b = (only_a + only_b) / 2
    return both, only_a, only_b, neither


def simulate_items(variant: Variant, truth: str, items: int, rng: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """One simulated evaluation: (samples of A, samples of B), each (items, samples), and the cluster ids."""
    if variant.generator == "pair":
        cells = np.asarray(_pair_truth_cells(variant, truth))
        kind = rng.choice(4, size=items, p=cells / cells.sum())
        a = np.isin(kind, (0, 1)).astype(float)[:, None]
        b = np.isin(kind, (0, 2)).astype(float)[:, None]
        return a, b, None
    clusters = None
    logit = np.full(items, special.logit(variant.accuracy))
    if variant.clustered:
        clusters = np.arange(items) // variant.cluster_size
        logit = logit + rng.normal(0.0, variant.cluster_sd, clusters.max() + 1)[clusters]
    logit = logit + rng.normal(0.0, variant.item_sd, items)
    shift = variant.difference if truth == "difference" else 0.0
    out = []
    for m_shift in (0.0, shift):
        own = rng.normal(0.0, variant.interaction_sd, items)
        if variant.clustered and variant.cluster_interaction_sd > 0:
            own = own + rng.normal(0.0, variant.cluster_interaction_sd, clusters.max() + 1)[clusters]
        p = special.expit(logit + m_shift + own)
        if variant.scores == "binary":
            out.append((rng.random((items, variant.samples)) < p[:, None]).astype(float))
        else:
            kappa = variant.concentration
            pp = np.repeat(p[:, None], variant.samples, axis=1)
            out.append(rng.beta(pp * kappa, (1 - pp) * kappa))
    return out[0], out[1], clusters


def evaluate(a: np.ndarray, b: np.ndarray, clusters: np.ndarray | None, *, binary: bool, truth_a: float,
             truth_b: float, n_resamples: int, rng: np.random.Generator, confidence_level: float = 0.95
             ) -> dict[str, float]:
    """Every method on one simulated evaluation: for each interval 1.0 if it covers the truth (else 0.0), for
    each test its two-sided p-value (``p:<test>``) and, where it has one, its interval's hit (``ci:<test>``).

    The library functions behind ``simstats compare`` are called directly: the default of ``--from``
    (:func:`simstats.stats.analytic.score_interval` and, as
    :func:`~simstats.stats.analytic.default_item_test` chooses, :func:`~simstats.stats.analytic.adjusted_paired_difference`
    or :func:`~simstats.stats.analytic.paired_difference`) and the paired bootstrap of ``--test bootstrap``
    (:func:`~simstats.stats.bootstrap.bootstrap_scores`, :func:`~simstats.stats.bootstrap.paired_bootstrap`:
    shift p-value, (c + 1)/(B + 1), percentile intervals).  When the differences do not vary (between items,
    or between clusters for the cluster-robust test) and their mean is not 0, a t-test has no standard
    error (``simstats compare`` stops with a message): the evaluation is counted as a rejection with the
    interval of the observed difference alone."""
    out: dict[str, float] = {}
    mean_a, mean_b = a.mean(axis=1), b.mean(axis=1)
    diff_true = truth_b - truth_a
    observed = float(mean_b.mean() - mean_a.mean())

    def covers(interval, value):
        return float(interval[0] <= value <= interval[1])

    out["score:default"] = covers(score_interval(mean_a, clusters=clusters,
                                                 confidence_level=confidence_level).confidence_interval, truth_a)
    adjusted = default_item_test(np.stack([mean_a, mean_b]), clusters) == "adjusted"
    for test, units in (("default", clusters), ("paired_t", None)) + (
            (("paired_t_cluster", clusters),) if clusters is not None else ()):
        try:
            paired = (adjusted_paired_difference(mean_b, mean_a, confidence_level=confidence_level)
                      if test == "default" and adjusted else
                      paired_difference(mean_b, mean_a, clusters=units, confidence_level=confidence_level))
            out[f"p:{test}"], out[f"ci:{test}"] = float(paired.pvalue), covers(paired.confidence_interval, diff_true)
        except ValueError:
            out[f"p:{test}"], out[f"ci:{test}"] = 0.0, covers((observed, observed), diff_true)
    stats = np.ones((2, a.shape[0], 2))
    stats[0, :, 0], stats[1, :, 0] = mean_b, mean_a                # B minus A
    seed = int(rng.integers(2 ** 63))
    designs = [("", clusters)] + ([("_items", None)] if clusters is not None else [])
    for suffix, units in designs:
        draws = np.random.default_rng(seed)
        scores = bootstrap_scores(stats, mean_score, n_resamples=n_resamples, rng=draws,
                                  confidence_level=confidence_level, clusters=units)
        out[f"score:bootstrap{suffix}"] = covers((scores.confidence_interval.low[1],
                                                  scores.confidence_interval.high[1]), truth_a)
        test = paired_bootstrap(stats, mean_score, [(0, 1)], n_resamples=n_resamples, rng=draws,
                                confidence_level=confidence_level, clusters=units)
        out[f"p:paired_bootstrap{suffix}"] = float(test.pvalue[0])
        out[f"ci:paired_bootstrap{suffix}"] = covers((test.confidence_interval.low[0],
                                                      test.confidence_interval.high[0]), diff_true)
    plain = mean_interval(mean_a, confidence_level=confidence_level)
    plain_b = mean_interval(mean_b, confidence_level=confidence_level)
    out["score:t"] = covers(plain.confidence_interval, truth_a)
    if clusters is not None:
        robust = mean_interval(mean_a, clusters=clusters, confidence_level=confidence_level)
        out["score:t_cluster"] = covers(robust.confidence_interval, truth_a)
    se = math.hypot(plain.standard_error, plain_b.standard_error)
    z = observed / se if se > 0 else 0.0
    out["p:unpaired_z"] = float(2 * sps.norm.sf(abs(z)))
    half = sps.norm.ppf(0.5 + confidence_level / 2) * se
    out["ci:unpaired_z"] = covers((observed - half, observed + half), diff_true)
    if binary:
        count, nobs = int(round(a.sum())), a.size
        for method, name in (("wilson", "wilson"), ("clopper_pearson", "clopper-pearson")):
            interval = proportion_interval(count, nobs, method=name, confidence_level=confidence_level)
            out[f"score:{method}"] = covers(interval.confidence_interval, truth_a)
    return out


def simulate_cell(variant: Variant, items: int, truth: str, replicates, root_seed: int, n_resamples: int,
                  confidence_level: float = 0.95) -> pd.DataFrame:
    """One row per replicate of one cell: every method's hit or p-value (:func:`evaluate`)."""
    truth_a, truth_b = true_scores(variant, truth)
    rows = []
    for r in replicates:
        rng = generator(root_seed, STREAM, variant.name, items, truth, r)
        a, b, clusters = simulate_items(variant, truth, items, rng)
        row = evaluate(a, b, clusters, binary=variant.scores == "binary", truth_a=truth_a, truth_b=truth_b,
                       n_resamples=n_resamples, rng=rng, confidence_level=confidence_level)
        rows.append({"variant": variant.name, "items": items, "truth": truth, "replicate": r, **row})
    return pd.DataFrame(rows)


#: The columns of a replicate row, in the order the summary lists them: (column, target).
COLUMNS = tuple((f"score:{m}", "score") for m in SCORE_INTERVALS) + tuple(
    (f"{kind}:{m}", "difference") for m in DIFFERENCE_TESTS for kind in ("p", "ci"))
#: Verdicts that fail a method: a test above alpha + 3 MCSE, an interval below its level - 3 MCSE.
FAILING = ("liberal", "undercovers")


def summarise(replicates: pd.DataFrame, *, alpha: float = 0.05, confidence_level: float = 0.95) -> pd.DataFrame:
    """Rates with their MCSE per (variant, items, truth, method): coverage of every interval, rejection rate of
    every test (size in the identical cells, power in the difference cells), and a verdict against the nominal
    value +- 3 MCSE computed at it (:func:`simstats.stats.montecarlo.size_verdict`, ``coverage_verdict``);
    power has none.  Rows in the order of ``(variant, items, truth)`` as given, then :data:`COLUMNS`."""
    rows = []
    keys = ["variant", "items", "truth"]
    for (variant, items, truth), cell in replicates.groupby(keys, sort=False):
        for column, target in COLUMNS:
            if column not in cell or cell[column].isna().all():
                continue
            kind, method = column.split(":", 1)
            values = cell[column].dropna().to_numpy()
            if kind == "p":
                rate, se, _ = proportion_with_se(values < alpha)
                measure, nominal = ("size", alpha) if truth == "identical" else ("power", None)
                verdict = size_verdict(rate, alpha, len(values)) if nominal is not None else ""
            else:
                rate, se, _ = proportion_with_se(values > 0.5)
                measure, nominal = "coverage", confidence_level
                verdict = coverage_verdict(rate, confidence_level, len(values))
            rows.append({"variant": variant, "items": items, "truth": truth, "target": target,
                         "method": method, "measure": measure, "rate": rate, "mcse": se, "replicates": len(values),
                         "nominal": nominal, "verdict": verdict})
    return pd.DataFrame(rows)


def read_replicates(paths) -> pd.DataFrame:
    """The replicate rows of simulated chunks, in one order whatever the chunking (variant, items, truth,
    replicate), so that the rates do not depend on it."""
    replicates = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    return replicates.sort_values(["variant", "items", "truth", "replicate"], kind="stable").reset_index(drop=True)


MEASURE_LABELS = {"coverage": "coverage", "size": "false-positive rate (identical models)", "power": "power"}


def method_label(target: str, method: str) -> str:
    return (SCORE_INTERVALS if target == "score" else DIFFERENCE_TESTS)[method]


def study_markdown(summary: pd.DataFrame, settings) -> str:
    """The study's tables: per variant, every method's rate ± MCSE per test-set size, verdicts marked."""
    marks = {"liberal": " ▲", "conservative": " ▽", "undercovers": " ▼", "overcovers": " △", "undetermined": " ?"}
    lines = ["# Comparing two models from an evaluation's per-item scores: coverage, size and power", "",
             f"{settings.replicates:,} simulated evaluations per cell, {settings.n_resamples:,} bootstrap resamples "
             f"each; alpha = {settings.alpha:g}, intervals {settings.confidence_level:.0%}.  Each rate is ± its Monte "
             "Carlo standard error; ▲ a test above alpha + 3 MCSE (liberal), ▽ below alpha - 3 MCSE (conservative), "
             "▼ an interval below its level - 3 MCSE (undercovers), △ above its level + 3 MCSE, ? too few evaluations "
             "to judge.", ""]
    for variant in settings.variants:
        cells = summary[summary.variant == variant.name]
        if not len(cells):
            continue
        lines += [f"## {variant.name}", "", variant.description or _describe(variant), ""]
        sizes = sorted(cells["items"].unique())
        header = "| target | method | measure | " + " | ".join(f"{n:,} items" for n in sizes) + " |"
        lines += [header, "|" + "---|" * (3 + len(sizes))]
        for (target, method, measure, truth), group in cells.groupby(["target", "method", "measure", "truth"],
                                                                    sort=False):
            by_n = group.set_index("items")
            values = [f"{by_n.rate[n]:.3f} ± {by_n.mcse[n]:.3f}{marks.get(by_n.verdict[n], '')}" if n in by_n.index else "–"
                      for n in sizes]
            what = measure if measure != "coverage" else f"coverage ({truth})"
            lines.append(f"| {target} | {method_label(target, method)} | {what} | " + " | ".join(values) + " |")
        lines.append("")
    return "\n".join(lines)


def _describe(variant: Variant) -> str:
    if variant.generator == "pair":
        return (f"One 0/1 sample per independent item; A's accuracy {variant.accuracy:g}, B's advantage "
                f"{variant.difference:g}, disagreement {variant.disagreement:g}.")
    parts = [f"{variant.scores} scores, {variant.samples} sample(s) per item",
             f"A's accuracy on an average item {variant.accuracy:g}",
             f"item sd {variant.item_sd:g}, model x item sd {variant.interaction_sd:g} (logit units)"]
    if variant.clustered:
        parts.append(f"clusters of {variant.cluster_size} items with sd {variant.cluster_sd:g}, each model's own "
                     f"{variant.cluster_interaction_sd:g}")
    parts.append(f"B's advantage {variant.difference:g} (logit units)")
    return "; ".join(parts) + "."
