"""Many models over a suite of tasks: the tables of ``simstats suite``.

A suite's scores come at one of three levels, its ``unit``:

* ``"items"``: every model's output on every item of every task (a table with an ``item`` column, or an
  evaluation harness's logs); within a task the models are paired on the items, each item's samples
  (epochs) averaged;
* ``"runs"``: several independent runs (seeds) of every model on every task;
* ``"none"``: one score per model and task.

Each model's score on a task is the mean of its items or runs.  Over the tasks: average ranks,
Friedman's test, Nemenyi's critical difference and pairwise p-values, and Wilcoxon-Holm
(:mod:`simstats.stats.suite`), with the claim "on tasks like these".  With items or runs, also each
model's mean score over the tasks with its interval, every pair's difference of means, rank intervals and
tie groups (:func:`simstats.stats.suite.suite_mean`, claim "tasks like these" or "these tasks"), and every
model against each task's best (or a reference) within each task
(:func:`simstats.stats.suite.compare_within_tasks`).  With runs, each model's interquartile mean (IQM)
and every pair's probability of improvement; their stratified bootstrap intervals (runs resampled within
tasks) only on request (``bootstrap_intervals``): in the suite study they undercover with 10 runs per task,
and with 20 runs over 5 tasks (the IQM's over 100 tasks too).
"""
from __future__ import annotations

import pandas as pd

from simstats.io.checks import InputError
from simstats.io.suite import Suite
from simstats.stats.suite import (compare_within_tasks, friedman_test, interquartile_mean, nemenyi_test, probability_of_improvement, stratified_bootstrap, suite_mean,
                                  wilcoxon_holm)

#: Below this many tasks the header warns that the interval over tasks like these leans on normal task scores
#: (the suite study: it undercovers over 5 tasks of skewed accuracies, covers over 8 or more).
FEW_TASKS = 8

__all__ = ["SCOPE_NAMES", "CORRECTION_NAMES", "analyse_suite"]


SCOPE_NAMES = {"tasks like these": "tasks like these", "like-these": "tasks like these",
               "these tasks": "these tasks", "these": "these tasks"}
"""Spellings of the suite means' claim (``--scope``) -> the scope of :func:`simstats.stats.suite.suite_mean`."""

CORRECTION_NAMES = ("holm", "bonferroni", "bh", "none")
"""Corrections of the per-task comparisons and of the suite means' pairs."""


def _scope(scope: str) -> str:
    if scope not in SCOPE_NAMES:
        raise InputError(f"--scope {scope!r}: not a scope (choose 'tasks like these', also written like-these, or "
                         "'these tasks', also written these)")
    return SCOPE_NAMES[scope]


def _task_table(suite: Suite, within, anchor: str, alpha: float) -> pd.DataFrame:
    """The tasks' table of :func:`analyse_suite`: each model against the task's best or the reference."""
    unit_column = "items" if suite.unit == "items" else "runs"
    columns = ["task", anchor, "model", f"score_{anchor}", "score_model", unit_column, "difference", "ci_low",
               "ci_high", "pvalue", "pvalue_adjusted", "significant", "note"]
    if within is None:
        return pd.DataFrame({c: [] for c in columns})
    t = within.table
    return pd.DataFrame({
        "task": [suite.tasks[i] for i in t.task], anchor: [suite.models[i] for i in t.model_a],
        "model": [suite.models[i] for i in t.model_b], f"score_{anchor}": t.score_a.to_numpy(),
        "score_model": t.score_b.to_numpy(), unit_column: [suite.units_per_task[i] for i in t.task],
        "difference": t.difference.to_numpy(), "ci_low": t.ci_low.to_numpy(), "ci_high": t.ci_high.to_numpy(),
        "pvalue": t.pvalue.to_numpy(), "pvalue_adjusted": t.pvalue_adjusted.to_numpy(),
        "significant": t.pvalue_adjusted.to_numpy() < alpha, "note": t.note.to_numpy()})[columns]


def _suite_settings(suite: Suite, *, scope, correction, reference, anchor, alpha, higher_is_better, friedman, ranks,
                    wilcoxon, means, within, bootstrap, n_resamples, rng, confidence_level) -> dict:
    """The settings of :func:`analyse_suite`: the tests' statistics, methods, claims and notes."""
    k, n_tasks = suite.scores.shape
    intervals = suite.unit != "none"
    paired = suite.unit == "items"
    several = suite.unit == "runs"
    units = suite.units_per_task
    epochs = suite.samples[1] > 1
    what = "items" if paired else "runs"
    noise = {"items": "the item noise", "runs": "the run-to-run noise", "none": ""}[suite.unit]
    settings = {
        "models": k, "tasks": n_tasks, "unit": suite.unit, "runs_per_task": suite.runs_per_task,
        "units_per_task": [min(units), max(units)], "samples_per_item": list(suite.samples) if paired else None,
        "items_left_out": suite.items_left_out if paired else None,
        "alpha": alpha, "higher_is_better": higher_is_better,
        "friedman_statistic": friedman.statistic if friedman else None,
        "friedman_pvalue": friedman.pvalue if friedman else None,
        "critical_difference": float(ranks.critical_difference),
        "method_friedman": friedman.method if friedman else None,
        "method_nemenyi": ranks.method, "method_wilcoxon": wilcoxon.method,
        "claim_ranks": f"the models' ranks differ on tasks like these (the {n_tasks} tasks drawn from a population of "
                       f"tasks; each task's score, the mean of its {'items' if paired else 'runs'}, taken as exact)",
        "scope": scope if intervals else None, "correction": correction if intervals else None,
        "reference": reference if intervals else None,
        "claim_means": (None if not intervals else
                        f"each model's mean score over tasks like these (the {n_tasks} tasks drawn from a "
                        f"population of tasks; {noise} within each task is part of its score)"
                        if scope == "tasks like these" else
                        f"each model's mean score over these {n_tasks} tasks, over new {what} of each task (the "
                        "tasks fixed)"),
        "method_means": means.method if intervals else None,
        "note_clusters": ("the items' cluster ids are not used: within each task the items are taken as "
                          "independent, and with items in clusters (subjects, documents) the comparisons within "
                          "tasks are too liberal; compare --from ... --clusters compares one task cluster-robustly"
                          if suite.clusters_ignored else None),
        "note_means": (f"with {n_tasks} tasks the t interval over tasks like these leans on the tasks' scores being "
                       "near normal: in the suite study, over 5 tasks of skewed accuracies, it covers 92-94 % for a "
                       "95 % level (docs/studies/suite.md)"
                       if intervals and scope == "tasks like these" and n_tasks < FEW_TASKS else
                       "over these tasks the interval takes each task's variance from its runs: in the suite study "
                       "it undercovers when a few runs fail (0.80-0.91 over 5-8 tasks with 3.5 % failed runs); "
                       "'tasks like these' covers there (docs/studies/suite.md)"
                       if intervals and scope == "these tasks" and several else None),
        "claim_tasks": (None if not intervals else
                        f"within each task, the model differs from the task's {anchor} "
                        + (f"on the population of items of that task ({'item means over the epochs; ' if epochs else ''}"
                           "not the models' training procedures)" if paired else
                           "over new runs of the two models on that task")),
        "method_tasks": within.method if intervals else None,
        "family_tasks": within.family if intervals else None,
        "note_intervals": (None if intervals else
                           "one score per model and task: the suite means' intervals, rank intervals and the "
                           "comparisons within tasks need item- or run-level scores"),
        "claim_runs": ("on these tasks, over new runs (runs resampled within tasks; the tasks fixed)"
                       if several else None),
        "bootstrap": bootstrap,
        "note_bootstrap": None if not several else (
            "the stratified bootstrap intervals (--bootstrap-intervals) undercover in the suite study with 10 runs "
            "per task, and with 20 over 5 tasks: read them as rough (docs/studies/suite.md)" if bootstrap else
            "no intervals: their stratified bootstrap undercovers in the suite study with 10 runs per task, and with "
            "20 over 5 tasks (--bootstrap-intervals gives them; docs/studies/suite.md)"),
        "n_resamples": n_resamples if bootstrap else None,
        "seed": rng if bootstrap else None,
        "confidence_level": confidence_level if intervals else None,
        "sign": 1.0 if higher_is_better else -1.0,
    }
    return settings


def analyse_suite(suite: Suite, *, alpha: float = 0.05, higher_is_better: bool = True, n_resamples: int = 2000,
                  rng=0, confidence_level: float = 0.95, reference: str | None = None, correction: str = "holm",
                  bootstrap_intervals: bool = False,
                  scope: str = "tasks like these") -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict]:
    """The models', the pairs' and the tasks' tables of ``simstats suite``, and the settings.

    Parameters
    ----------
    suite : Suite
    alpha : float
        Level of Nemenyi's critical difference, of the rank intervals and tie groups, and of the
        ``different`` and ``significant`` verdicts.
    higher_is_better : bool
        Whether higher scores are better.
    n_resamples : int
        Stratified bootstrap resamples (runs, with ``bootstrap_intervals``).
    rng : int
        Seed of the bootstrap.
    confidence_level : float
        Level of the intervals.
    reference : str, optional
        Compare every model with this one within each task (default: with each task's best).
    correction : {"holm", "bonferroni", "bh", "none"}
        Correction of the per-task comparisons (over their family) and of the suite means' pairs.
    scope : {"tasks like these", "these tasks"}
        The claim of the suite means' intervals (also ``like-these`` and ``these``).

    Returns
    -------
    models : pandas.DataFrame
        One row per model, best average rank first: the mean score over tasks, its interval, the rank
        interval and tie group of the mean (items or runs), the average rank, the IQM (runs; its
        interval with enough runs).
    pairs : pandas.DataFrame
        One row per pair: the difference of average ranks, Nemenyi's p-value and verdict, Wilcoxon's
        p-value and its Holm-adjusted value, the difference of the suite means with its interval and
        p-values (items or runs), the probability of improvement (runs; its interval with enough runs).
    tasks : pandas.DataFrame
        One row per task and model other than the task's best (or the reference): the two mean scores,
        the difference, its interval, the p-value and its adjusted value, ``significant`` (empty with one
        score per model and task).
    settings : dict
        The tests' statistics, methods, claims and settings.

    Raises
    ------
    simstats.io.checks.InputError
        An unknown reference model, correction or scope.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from simstats.io.suite import read_suite
    >>> rng = np.random.default_rng(0)
    >>> rows = pd.DataFrame([{"model": m, "task": t, "seed": s, "score": 0.7 + 0.05 * k + rng.normal(0, 0.02)}
    ...                      for k, m in enumerate("abc") for t in range(8) for s in range(3)])
    >>> models, pairs, tasks, settings = analyse_suite(read_suite(rows), n_resamples=200)
    >>> models.model.tolist(), models.rank_low.tolist(), round(settings["friedman_pvalue"], 5)
    (['c', 'b', 'a'], [1, 2, 3], 0.00034)
    >>> tasks.shape[0], settings["family_tasks"]
    (16, 24)
    """
    scope = _scope(scope)
    if correction not in CORRECTION_NAMES:
        raise InputError(f"--correction {correction!r}: not a correction (choose from {', '.join(CORRECTION_NAMES)})")
    if reference is not None and reference not in suite.models:
        raise InputError(f"--reference {reference!r}: not a model of the suite (models: {', '.join(suite.models)})")
    scores = suite.scores
    k, n_tasks = scores.shape
    ranks = nemenyi_test(scores, alpha=alpha, higher_is_better=higher_is_better)
    friedman = friedman_test(scores) if k >= 3 else None
    wilcoxon = wilcoxon_holm(scores)
    intervals = suite.unit != "none"
    paired = suite.unit == "items"
    several = suite.unit == "runs"
    bootstrap = several and bootstrap_intervals
    means = within = None
    if intervals:
        means = suite_mean(suite.cells, paired=paired, scope=scope, correction=correction, alpha=alpha,
                           higher_is_better=higher_is_better, confidence_level=confidence_level)
        within = compare_within_tasks(suite.cells, paired=paired,
                                      reference=None if reference is None else suite.models.index(reference),
                                      correction=correction, higher_is_better=higher_is_better,
                                      confidence_level=confidence_level)
        groups = means.tie_groups()
    runs = suite.runs if several else None
    key = {model: position for position, model in enumerate(sorted(suite.models))}   # seeds whatever the row order
    rows = []
    for i, model in enumerate(suite.models):
        row = {"model": model, "tasks": n_tasks, "runs_per_task": suite.runs_per_task}
        if paired:
            row["items"] = int(sum(suite.units_per_task))
        row["mean_score"] = float(scores[i].mean())
        if intervals:
            mine = [g for g in groups if i in g]
            row.update(mean_ci_low=float(means.ci_low[i]), mean_ci_high=float(means.ci_high[i]),
                       rank_low=int(means.rank_low[i]), rank_high=int(means.rank_high[i]),
                       tie_group=groups.index(mine[0]) + 1,
                       tied_with=", ".join(suite.models[m] for m in dict.fromkeys(m for g in mine for m in g)
                                           if m != i))
        row["average_rank"] = float(ranks.average_ranks[i])
        if several:
            if bootstrap:
                iqm, (low, high) = stratified_bootstrap([runs[model]], interquartile_mean, n_resamples=n_resamples,
                                                        confidence_level=confidence_level, rng=[rng, key[model]],
                                                        vectorized=True)
                row.update(iqm=iqm, iqm_ci_low=low, iqm_ci_high=high)
            else:
                row["iqm"] = interquartile_mean(runs[model])
        rows.append(row)
    models = pd.DataFrame(rows).sort_values("average_rank", kind="stable").reset_index(drop=True)
    order = [suite.models.index(m) for m in models.model]
    pair_rows = []
    for a_pos, i in enumerate(order):
        for j in order[a_pos + 1:]:
            row = {"model_a": suite.models[i], "model_b": suite.models[j],
                   "rank_difference": float(ranks.average_ranks[j] - ranks.average_ranks[i]),
                   "nemenyi_pvalue": float(ranks.pvalues[i, j]),
                   "nemenyi_different": bool(ranks.different()[i, j]),
                   "wilcoxon_pvalue": float(wilcoxon.pvalues[i, j]),
                   "wilcoxon_pvalue_holm": float(wilcoxon.pvalues_adjusted[i, j]),
                   "mean_difference": float(scores[i].mean() - scores[j].mean())}
            if intervals:
                row.update(mean_difference=float(means.differences[i, j]),
                           mean_difference_ci_low=float(means.difference_ci_low[i, j]),
                           mean_difference_ci_high=float(means.difference_ci_high[i, j]),
                           mean_difference_pvalue=float(means.pvalues[i, j]),
                           mean_difference_pvalue_adjusted=float(means.pvalues_adjusted[i, j]),
                           mean_different=bool(means.pvalues_adjusted[i, j] < alpha))
            if several:
                x, y = runs[suite.models[i]], runs[suite.models[j]]
                x, y = (x, y) if higher_is_better else (-x, -y)
                if bootstrap:
                    poi, (low, high) = stratified_bootstrap([x, y], probability_of_improvement, n_resamples=n_resamples,
                                                            confidence_level=confidence_level,
                                                            rng=[rng, k + key[suite.models[i]] * k + key[suite.models[j]]],
                                                            vectorized=True)
                    row.update(probability_of_improvement=poi, poi_ci_low=low, poi_ci_high=high)
                else:
                    row["probability_of_improvement"] = probability_of_improvement(x, y)
            pair_rows.append(row)
    pairs = pd.DataFrame(pair_rows)
    anchor = "best" if reference is None else "reference"
    tasks = _task_table(suite, within, anchor, alpha)
    settings = _suite_settings(suite, scope=scope, correction=correction, reference=reference, anchor=anchor,
                               alpha=alpha, higher_is_better=higher_is_better, friedman=friedman, ranks=ranks,
                               wilcoxon=wilcoxon, means=means, within=within, bootstrap=bootstrap,
                               n_resamples=n_resamples, rng=rng, confidence_level=confidence_level)
    return models, pairs, tasks, settings
