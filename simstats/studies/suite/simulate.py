"""Many models over a suite of tasks: the family-wise error and false discovery rate of the per-task decisions,
the coverage of the suite means' and rank intervals, and the size of the rank tests, by simulation with known
truth (``simstats suite``'s defaults and the alternatives a user might reach for).

A simulated suite has ``models`` models and ``tasks`` tasks.  Model m's ability on task t is
mu_m + tau_t + g_mt: mu_m its overall effect (``model_effects``), tau_t ~ N(0, task_sd^2) the task's
difficulty shared by the models and g_mt ~ N(0, task_specific_sd^2) the model's own effect on the task.
Models with the same overall effect are *clones*: they share g_mt too, so they are equally good on every
task, the pairs whose differences are true null hypotheses.  Two generators (``unit``):

* ``items``: task t has n_t test items (log-uniform in ``items``, so tasks differ in size); an item's
  probability of a correct answer from model m is sigmoid(logit(accuracy) + mu_m + tau_t + g_mt + d_i + e_mi),
  d_i ~ N(0, item_sd^2) shared by the models (correlated correctness), e_mi ~ N(0, interaction_sd^2) each
  model's own; one 0/1 answer per item and model.  A model's true score on a task is the item population's
  mean E[sigmoid(.)] (Gauss-Hermite quadrature), on tasks like these the mean over the task population as well.
* ``runs``: each model is run ``runs`` times on every task (fine-tuning seeds); a run scores
  accuracy + mu_m + tau_t + g_mt + N(0, s_t^2) with s_t log-uniform in ``run_sd`` (tasks differ in noise),
  and with probability ``failure_rate`` it fails and scores ``failure_score`` instead (a collapsed run).
  True scores: the runs' expectation per task; over tasks like these E tau = E g = 0.

What is judged on each simulated suite (``COLUMNS``):

* per-task decisions (:func:`simstats.stats.suite.compare_within_tasks`): every model against the task's best,
  Holm over all pairs and tasks (the default), the same with Holm over the shown comparisons only, against a
  fixed reference (model 0), Benjamini-Hochberg over all pairs (its FDR), and no correction.  A decision is
  false when the two models are clones or the truth has the other sign;
* the suite means' intervals and the rank intervals (:func:`simstats.stats.suite.suite_mean`), for both
  claims, each against its own truth: "tasks like these" against the task population's means, "these
  tasks" against this suite's true per-task scores;
* the rank tests over tasks: Friedman's size (when every model is a clone), Nemenyi's and Wilcoxon-Holm's
  false decisions among clones;
* with runs: the stratified bootstrap intervals of the interquartile mean (model 0) and of the probability of
  improvement (model 0 against the last model);
* the percentile bootstrap intervals of model 0's suite mean that the t intervals stand in for: tasks
  resampled (tasks like these) and, with runs, runs resampled within tasks (these tasks).

Every rate carries its Monte Carlo standard error; replicate r of a cell is keyed by (variant, tasks, r), so
results do not depend on how replicates are split into jobs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.sim.closed_forms import logistic_normal_mean
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module
from simstats.stats.multitest import adjust_pvalues, quick_gc
from simstats.stats.montecarlo import coverage_verdict, mean_with_se, proportion_with_se, size_verdict
from simstats.stats.resample import ItemIndices
from simstats.stats.suite import (compare_within_tasks, friedman_test, interquartile_mean, nemenyi_test,
                                  probability_of_improvement, stratified_bootstrap, suite_mean, wilcoxon_holm)

sps = lazy_module("scipy.stats")
special = lazy_module("scipy.special")

STREAM = "suite"


@dataclass(frozen=True)
class Variant:
    """One population of suites (see the module's docstring)."""

    name: str
    unit: str = "items"                      # "items" or "runs"
    model_effects: tuple = (0.0, 0.0, 0.2, 0.2, 0.5)
    accuracy: float = 0.7                    # score of a model of effect 0 on an average task (items: on an average item)
    task_sd: float = 1.0                     # task difficulty sd, shared by the models
    task_specific_sd: float = 0.3            # each model's own task effect sd (clones share it)
    items: tuple = (50, 1000)                # items: the range of a task's test-set size (log-uniform)
    item_sd: float = 1.5                     # items: item difficulty sd, shared by the models (logit units)
    interaction_sd: float = 0.7              # items: each model's own item effect sd (logit units)
    runs: int = 5                            # runs: runs per model and task
    run_sd: tuple = (0.005, 0.03)            # runs: the range of a task's run-to-run sd (log-uniform)
    failure_rate: float = 0.0                # runs: probability that a run fails
    failure_score: float = 0.3               # runs: a failed run's score
    description: str = ""

    @property
    def models(self) -> int:
        return len(self.model_effects)

    @property
    def clones(self) -> np.ndarray:
        """(models, models) booleans: the pair has the same overall effect (equally good on every task)."""
        effects = np.asarray(self.model_effects, dtype=float)
        same = effects[:, None] == effects[None, :]
        np.fill_diagonal(same, False)
        return same


def population_truth(variant: Variant) -> np.ndarray:
    """(models,) each model's mean score over the population of tasks ("tasks like these")."""
    effects = np.asarray(variant.model_effects, dtype=float)
    if variant.unit == "items":
        sd = math.sqrt(variant.task_sd ** 2 + variant.task_specific_sd ** 2 + variant.item_sd ** 2
                       + variant.interaction_sd ** 2)
        return logistic_normal_mean(special.logit(variant.accuracy) + effects, sd)
    return (1 - variant.failure_rate) * (variant.accuracy + effects) + variant.failure_rate * variant.failure_score


def simulate_suite(variant: Variant, tasks: int, rng: np.random.Generator):
    """One simulated suite: (cells, per-task truth (tasks, models), run means and sds or None)."""
    k = variant.models
    effects = np.asarray(variant.model_effects, dtype=float)
    _, profile = np.unique(effects, return_inverse=True)             # clones share their task effects
    tau = rng.normal(0.0, variant.task_sd, tasks)
    own = rng.normal(0.0, variant.task_specific_sd, (tasks, profile.max() + 1))[:, profile]
    ability = effects[None, :] + tau[:, None] + own                  # (tasks, models)
    cells = []
    if variant.unit == "items":
        low, high = np.log(variant.items[0]), np.log(variant.items[1])
        sizes = np.round(np.exp(rng.uniform(low, high, tasks))).astype(int)
        base = special.logit(variant.accuracy)
        sd = math.sqrt(variant.item_sd ** 2 + variant.interaction_sd ** 2)
        truth = logistic_normal_mean(base + ability, sd)
        for t, n in enumerate(sizes):
            item = rng.normal(0.0, variant.item_sd, n)[:, None]
            p = special.expit(base + ability[t][None, :] + item + rng.normal(0.0, variant.interaction_sd, (n, k)))
            cells.append((rng.random((n, k)) < p).astype(float))
        return cells, truth, None
    low, high = np.log(variant.run_sd[0]), np.log(variant.run_sd[1])
    sds = np.exp(rng.uniform(low, high, tasks))
    means = variant.accuracy + ability
    f = variant.failure_rate
    truth = (1 - f) * means + f * variant.failure_score
    for t in range(tasks):
        x = means[t][None, :] + rng.normal(0.0, sds[t], (variant.runs, k))
        if f > 0:
            x = np.where(rng.random((variant.runs, k)) < f, variant.failure_score, x)
        cells.append(x)
    return cells, truth, (means, sds)


def _mixture_cdf(x, means, sds, f, c):
    """CDF at x (array) of a run drawn from a random task: N(means_t, sds_t), with mass f at c."""
    normal = special.ndtr((np.asarray(x)[..., None] - means) / sds).mean(axis=-1)
    return (1 - f) * normal + f * (np.asarray(x) >= c)


def true_iqm(means: np.ndarray, sds: np.ndarray, f: float, c: float, grid: int = 2000) -> float:
    """The interquartile mean of one model's run distribution pooled over the tasks (each task equally likely):
    2 times the integral of its quantile function over [0.25, 0.75] (midpoint rule; quantiles by bisection)."""
    u = 0.25 + (np.arange(grid) + 0.5) / grid * 0.5
    lo = np.full(grid, min(means.min() - 10 * sds.max(), c) - 1.0)
    hi = np.full(grid, max(means.max() + 10 * sds.max(), c) + 1.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        below = _mixture_cdf(mid, means, sds, f, c) < u
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return float(np.mean((lo + hi) / 2))


def true_improvement(mx, my, sds, f: float, c: float) -> float:
    """The probability of improvement of X over Y, per task P(X > Y) + P(X = Y) / 2 averaged over tasks, for
    normal runs with failures at c."""
    both = sps.norm.cdf((mx - my) / (sds * math.sqrt(2)))
    x_only = sps.norm.cdf((mx - c) / sds)          # X a normal run, Y failed
    y_only = sps.norm.sf((my - c) / sds)           # X failed, Y a normal run: P(c > Y)
    per_task = (1 - f) ** 2 * both + (1 - f) * f * (x_only + y_only) + f * f * 0.5
    return float(per_task.mean())


def _covers_ranks(rank_low, rank_high, truth: np.ndarray, higher_is_better: bool = True) -> bool:
    """Every model's rank interval holds its whole tie range: 1 + #truly better ... k - #truly worse."""
    sign = 1.0 if higher_is_better else -1.0
    better = (sign * truth[None, :] > sign * truth[:, None])      # [i, j]: j truly better than i
    worse = (sign * truth[None, :] < sign * truth[:, None])
    k = truth.size
    return bool(np.all(rank_low <= 1 + better.sum(axis=1)) and np.all(rank_high >= k - worse.sum(axis=1)))


def _false_decisions(table: pd.DataFrame, truth: np.ndarray, clones: np.ndarray, alpha: float) -> tuple[int, int, int, int]:
    """(false rejections, rejections, true rejections, true differences) of per-task comparison rows."""
    a, b, t = table.model_a.to_numpy(), table.model_b.to_numpy(), table.task.to_numpy()
    rejected = table.pvalue_adjusted.to_numpy() < alpha
    true_diff = truth[t, a] - truth[t, b]
    null = clones[a, b]
    wrong = rejected & (null | (np.sign(true_diff) != np.sign(table.difference.to_numpy())))
    real = ~null
    return int(wrong.sum()), int(rejected.sum()), int((rejected & real & ~wrong).sum()), int(real.sum())


def evaluate(variant: Variant, cells, truth: np.ndarray, run_parameters, *, alpha: float, confidence_level: float,
             n_resamples: int, rng) -> dict:
    """Every judged quantity of one simulated suite (see the module's docstring)."""
    paired = variant.unit == "items"
    clones = variant.clones
    k = variant.models
    row: dict = {}
    # per-task decisions
    rules = {"best_holm": dict(correction="holm"), "reference_holm": dict(correction="holm", reference=0),
             "best_bh": dict(correction="bh"), "best_none": dict(correction="none")}
    for name, kwargs in rules.items():
        res = compare_within_tasks(cells, paired=paired, confidence_level=confidence_level, **kwargs)
        wrong, rejected, right, real = _false_decisions(res.table, truth, clones, alpha)
        row[f"fwer:{name}"] = float(wrong > 0)
        row[f"fdr:{name}"] = wrong / max(rejected, 1)
        row[f"power:{name}"] = right / real if real else np.nan
        if name == "best_holm":               # Holm over the shown comparisons only, the naive family
            shown = res.table.assign(pvalue_adjusted=adjust_pvalues(res.table.pvalue.to_numpy(), "holm"))
            wrong, rejected, right, real = _false_decisions(shown, truth, clones, alpha)
            row["fwer:best_holm_shown"] = float(wrong > 0)
            row["fdr:best_holm_shown"] = wrong / max(rejected, 1)
            row["power:best_holm_shown"] = right / real if real else np.nan
    # suite means and ranks, both claims
    truths = {"tasks like these": population_truth(variant), "these tasks": truth.mean(axis=0)}
    for scope, target in truths.items():
        key = "like_these" if scope == "tasks like these" else "these"
        res = suite_mean(cells, paired=paired, scope=scope, alpha=alpha, confidence_level=confidence_level)
        for m in range(k):
            row[f"cover:mean_{key}:{m}"] = float(res.ci_low[m] <= target[m] <= res.ci_high[m])
        d = target[0] - target[k - 1]
        row[f"cover:difference_{key}"] = float(res.difference_ci_low[0, k - 1] <= d <= res.difference_ci_high[0, k - 1])
        row[f"cover:ranks_{key}"] = float(_covers_ranks(res.rank_low, res.rank_high, target))
    # the percentile bootstrap the t intervals stand in for (model 0): tasks resampled ("tasks like these")
    task_means = np.array([x[:, 0].mean() for x in cells])
    boot = ItemIndices(rng, n_resamples, task_means.size).draw(n_resamples)
    low, high = np.quantile(task_means[boot].mean(axis=1), [(1 - confidence_level) / 2, (1 + confidence_level) / 2])
    row["cover:mean_bootstrap_like_these"] = float(low <= truths["tasks like these"][0] <= high)
    # rank tests over tasks
    scores = np.stack([x.mean(axis=0) for x in cells], axis=1)        # (models, tasks)
    null_pairs = np.triu(clones, 1)
    if null_pairs.any():
        nemenyi = nemenyi_test(scores, alpha=alpha)
        row["fwer:nemenyi"] = float((nemenyi.different() & null_pairs).any())
        wilcoxon = wilcoxon_holm(scores)
        row["fwer:wilcoxon_holm"] = float(((wilcoxon.pvalues_adjusted < alpha) & null_pairs).any())
    if k >= 3 and clones[0, 1:].all():
        row["p:friedman"] = friedman_test(scores).pvalue
    # the aggregates over runs (rliable's)
    if run_parameters is not None:
        means, sds = run_parameters
        f, c = variant.failure_rate, variant.failure_score
        runs = [np.stack([x[:, m] for x in cells], axis=1) for m in range(k)]      # (runs, tasks) per model
        _, (low, high) = stratified_bootstrap([runs[0]], interquartile_mean, n_resamples=n_resamples,
                                              confidence_level=confidence_level, rng=rng, vectorized=True)
        row["cover:iqm"] = float(low <= true_iqm(means[:, 0], sds, f, c) <= high)
        _, (low, high) = stratified_bootstrap([runs[0], runs[k - 1]], probability_of_improvement,
                                              n_resamples=n_resamples, confidence_level=confidence_level, rng=rng,
                                              vectorized=True)
        row["cover:improvement"] = float(low <= true_improvement(means[:, 0], means[:, k - 1], sds, f, c) <= high)
        # and runs resampled within tasks ("these tasks")
        _, (low, high) = stratified_bootstrap([runs[0]], _mean_of_runs, n_resamples=n_resamples,
                                              confidence_level=confidence_level, rng=rng, vectorized=True)
        row["cover:mean_bootstrap_these"] = float(low <= truth[:, 0].mean() <= high)
    return row


def _mean_of_runs(runs: np.ndarray):
    """The mean over tasks of the mean of the runs: (..., runs, tasks) -> (...)."""
    return runs.mean(axis=(-2, -1))


def simulate_cell(variant: Variant, tasks: int, replicates, root_seed: int, *, alpha: float = 0.05,
                  confidence_level: float = 0.95, n_resamples: int = 1000) -> pd.DataFrame:
    """One row per replicate of one cell (variant, number of tasks): every judged quantity (:func:`evaluate`)."""
    rows = []
    with quick_gc():
        for r in replicates:
            rng = generator(root_seed, STREAM, variant.name, tasks, r)
            cells, truth, run_parameters = simulate_suite(variant, tasks, rng)
            row = evaluate(variant, cells, truth, run_parameters, alpha=alpha, confidence_level=confidence_level,
                           n_resamples=n_resamples, rng=rng)
            rows.append({"variant": variant.name, "tasks": tasks, "replicate": r, **row})
    return pd.DataFrame(rows)


#: What is judged, in the order the summary lists it: column prefix -> (label, measure, target kind, default).
#: The measure's nominal value: alpha for "fwer", "fdr" and "size", the confidence level for "coverage".
CHECKS = {
    "fwer:best_holm": ("per task, each model against the task's best, Holm over all pairs and tasks", "fwer", True),
    "fwer:reference_holm": ("per task, each model against a fixed reference, Holm over tasks and models", "fwer", True),
    "fwer:best_holm_shown": ("per task, against the task's best, Holm over the shown comparisons only", "fwer", False),
    "fdr:best_bh": ("per task, against the task's best, Benjamini-Hochberg over all pairs and tasks", "fdr", False),
    "fwer:best_none": ("per task, against the task's best, no correction", "fwer", False),
    "power:best_holm": ("per task, against the best, Holm over all pairs: share of true differences found", "power",
                        True),
    "power:best_bh": ("per task, against the best, Benjamini-Hochberg: share of true differences found", "power",
                      False),
    "cover:mean_like_these": ("suite mean, tasks like these (worst model)", "coverage", True),
    "cover:mean_these": ("suite mean, these tasks (worst model)", "coverage", False),
    "cover:difference_like_these": ("difference of suite means (first - last model), tasks like these", "coverage",
                                    True),
    "cover:difference_these": ("difference of suite means (first - last model), these tasks", "coverage", False),
    "cover:mean_bootstrap_like_these": ("suite mean, tasks like these, percentile bootstrap over tasks (model 0)",
                                        "coverage", False),
    "cover:mean_bootstrap_these": ("suite mean, these tasks, stratified bootstrap over runs (model 0)", "coverage",
                                   False),
    "cover:ranks_like_these": ("rank intervals, all models together, tasks like these", "coverage", True),
    "cover:ranks_these": ("rank intervals, all models together, these tasks", "coverage", False),
    "p:friedman": ("Friedman's test, every model a clone", "size", True),
    "fwer:nemenyi": ("Nemenyi: a pair of clones declared different", "fwer", True),
    "fwer:wilcoxon_holm": ("Wilcoxon-Holm over tasks: a pair of clones declared different", "fwer", True),
    "cover:iqm": ("interquartile mean (model 0), stratified bootstrap over runs", "coverage", False),
    "cover:improvement": ("probability of improvement (first vs last model), stratified bootstrap", "coverage", False),
}
#: Verdicts that fail a default: an error rate above alpha + 3 MCSE, an interval below its level - 3 MCSE.
FAILING = ("liberal", "undercovers")


def summarise(replicates: pd.DataFrame, *, alpha: float = 0.05, confidence_level: float = 0.95
              ) -> pd.DataFrame:
    """Rates with their MCSE per (variant, tasks, check): family-wise error and false discovery rates of the
    decision rules, coverage of the intervals (per model; the summary's row is the worst model's), the size of
    Friedman's test; verdicts against the nominal value +- 3 MCSE computed at it.  ``default`` says whether
    ``simstats suite`` gives the check's method by default."""
    rows = []
    for (variant, tasks), cell in replicates.groupby(["variant", "tasks"], sort=False):
        for prefix, (label, measure, default) in CHECKS.items():
            columns = [c for c in cell.columns if c == prefix or c.startswith(prefix + ":")]
            candidates = []
            for column in columns:
                values = cell[column].dropna().to_numpy()
                if not values.size:
                    continue
                if measure == "size":
                    rate, se, n = proportion_with_se(values < alpha)
                elif measure in ("fdr", "power"):
                    rate, se, n = mean_with_se(values)
                else:
                    rate, se, n = proportion_with_se(values > 0.5)
                candidates.append((rate, se, n))
            if not candidates:
                continue
            # the worst model's coverage; one column otherwise
            rate, se, n = min(candidates) if measure == "coverage" else candidates[0]
            if measure == "coverage":
                nominal = confidence_level
                verdict = coverage_verdict(rate, confidence_level, n, width=worst_of(len(candidates)))
            elif measure == "power":
                nominal, verdict = None, ""
            else:
                nominal = alpha
                verdict = size_verdict(rate, alpha, n)
            rows.append({"variant": variant, "tasks": int(tasks), "check": prefix, "method": label,
                         "measure": measure, "rate": rate, "mcse": se, "replicates": n, "nominal": nominal,
                         "verdict": verdict, "default": bool(default)})
    return pd.DataFrame(rows)


def worst_of(k: int) -> float:
    """The band's half-width, in MCSE, for the lowest of k coverages: the normal quantile of 1 - 0.00135 / k
    (3 for one, 3.46 for five), so that picking the lowest does not flag it more often than a single
    coverage is flagged at 3 MCSE (Bonferroni over the k).

    Examples
    --------
    >>> round(worst_of(1), 3), round(worst_of(5), 2)
    (3.0, 3.46)
    """
    return float(sps.norm.isf(sps.norm.sf(3.0) / k))


def read_replicates(paths) -> pd.DataFrame:
    """The replicate rows of simulated chunks in one order whatever the chunking (variant, tasks, replicate)."""
    replicates = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    return replicates.sort_values(["variant", "tasks", "replicate"], kind="stable").reset_index(drop=True)


MARKS = {"liberal": " ▲", "conservative": " ▽", "undercovers": " ▼", "overcovers": " △", "undetermined": " ?"}


def study_markdown(summary: pd.DataFrame, settings) -> str:
    """The study's tables: per variant, every check's rate ± MCSE per number of tasks, verdicts marked."""
    lines = ["# Many models over a suite of tasks: error rates, coverage and size", "",
             f"{settings.replicates:,} simulated suites per cell, {settings.n_resamples:,} bootstrap resamples each; "
             f"alpha = {settings.alpha:g}, intervals {settings.confidence_level:.0%}.  Each rate is ± its Monte Carlo "
             "standard error; ▲ an error rate above alpha + 3 MCSE (liberal), ▽ below alpha - 3 MCSE, ▼ an interval "
             "below its level - 3 MCSE (undercovers), △ above its level + 3 MCSE (a rank interval's coverage is a "
             "lower bound: △ is what it promises), ? too few suites to judge; the worst of k models' coverages is "
             "judged with the 1 - 0.00135 / k normal quantile of MCSE instead of 3 (3.46 for five models), as it is "
             "low by selection.  **Bold**: what `simstats suite` "
             "gives by default.  FWER: the share of suites with at least one false decision (two clones declared "
             "different, or a difference of the wrong sign); FDR: the mean share of false decisions among the "
             "decisions made.", ""]
    for variant in settings.variants:
        cells = summary[summary.variant == variant.name]
        if not len(cells):
            continue
        lines += [f"## {variant.name}", "", variant.description or describe(variant), ""]
        sizes = sorted(cells["tasks"].unique())
        lines += ["| check | measure | " + " | ".join(f"{n} tasks" for n in sizes) + " |",
                  "|" + "---|" * (2 + len(sizes))]
        for check, group in cells.groupby("check", sort=False):
            by_n = group.set_index("tasks")
            values = [f"{by_n.rate[n]:.3f} ± {by_n.mcse[n]:.3f}{MARKS.get(by_n.verdict[n], '')}" if n in by_n.index
                      else "–" for n in sizes]
            label = group.method.iloc[0]
            label = f"**{label}**" if group["default"].iloc[0] else label
            lines.append(f"| {label} | {group.measure.iloc[0]} | " + " | ".join(values) + " |")
        lines.append("")
    return "\n".join(lines)


def describe(variant: Variant) -> str:
    effects = ", ".join(f"{e:g}" for e in variant.model_effects)
    parts = [f"{variant.models} models with overall effects {effects} (equal effects: clones)",
             f"task sd {variant.task_sd:g}, model x task sd {variant.task_specific_sd:g}"]
    if variant.unit == "items":
        parts.append(f"{variant.items[0]:,}-{variant.items[1]:,} items per task (log-uniform), 0/1 answers, accuracy "
                     f"{variant.accuracy:g} on an average item, item sd {variant.item_sd:g}, model x item sd "
                     f"{variant.interaction_sd:g} (logit units)")
    else:
        parts.append(f"{variant.runs} runs per model and task, mean score {variant.accuracy:g}, run sd "
                     f"{variant.run_sd[0]:g}-{variant.run_sd[1]:g} per task (log-uniform)")
        if variant.failure_rate:
            parts.append(f"a run fails with probability {variant.failure_rate:g} and scores {variant.failure_score:g}")
    return "; ".join(parts) + "."
