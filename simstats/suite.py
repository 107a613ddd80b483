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

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.compare import InputError, show_value
from simstats.stats.suite import (compare_within_tasks, friedman_test, interquartile_mean, nemenyi_test, probability_of_improvement, stratified_bootstrap, suite_mean,
                                  wilcoxon_holm)

#: Below this many tasks the header warns that the interval over tasks like these leans on normal task scores
#: (the suite study: it undercovers over 5 tasks of skewed accuracies, covers over 8 or more).
FEW_TASKS = 8

__all__ = ["SCOPE_NAMES", "CORRECTION_NAMES", "Suite", "read_suite",
           "suite_from_evaluations", "analyse_suite"]


SCOPE_NAMES = {"tasks like these": "tasks like these", "like-these": "tasks like these",
               "these tasks": "these tasks", "these": "these tasks"}
"""Spellings of the suite means' claim (``--scope``) -> the scope of :func:`simstats.stats.suite.suite_mean`."""

CORRECTION_NAMES = ("holm", "bonferroni", "bh", "none")
"""Corrections of the per-task comparisons and of the suite means' pairs."""

_UNIT_NAMES = {"items": "item", "runs": "run", "none": "score"}


@dataclass(frozen=True)
class Suite:
    """A suite's scores: one (units, models) matrix per task.

    Attributes
    ----------
    models : list of str
        The models, the cells' columns.
    tasks : list of str
        The tasks, in the cells' order (sorted).
    cells : list of numpy.ndarray
        Per task a (units, models) matrix: item means (rows aligned across models, ``unit == "items"``),
        runs (``"runs"``) or one score (``"none"``).
    unit : str
        ``"items"``, ``"runs"`` or ``"none"``.
    samples : tuple of int
        (fewest, most) samples (epochs) per item and model; (1, 1) unless ``unit == "items"``.
    clusters_ignored : bool
        The items came with cluster ids, which the suite does not use (its items are taken as independent).

    Examples
    --------
    >>> suite = Suite(["a", "b"], ["x", "y"], [np.array([[0.9, 0.8], [0.7, 0.8]]), np.array([[0.6, 0.4]] * 2)],
    ...               "runs")
    >>> suite.scores.tolist(), suite.runs["b"].tolist()
    ([[0.8, 0.6], [0.8, 0.4]], [[0.8, 0.4], [0.8, 0.4]])
    """

    models: list
    tasks: list
    cells: list
    unit: str
    samples: tuple = (1, 1)
    clusters_ignored: bool = False

    @property
    def scores(self) -> np.ndarray:
        """(models, tasks): each model's mean score on each task (the mean of its items or runs)."""
        return np.stack([cell.mean(axis=0) for cell in self.cells], axis=1)

    @property
    def runs(self) -> dict:
        """``runs[model]``: a (runs, tasks) matrix of the model's runs; with items, one run per task (the
        model's mean item score)."""
        if self.unit == "items":
            scores = self.scores
            return {m: scores[i][None, :] for i, m in enumerate(self.models)}
        return {m: np.stack([cell[:, i] for cell in self.cells], axis=1) for i, m in enumerate(self.models)}

    @property
    def runs_per_task(self) -> int:
        """Runs of every model on every task (1 with items or one score)."""
        return 1 if self.unit == "items" else self.cells[0].shape[0]

    @property
    def units_per_task(self) -> list:
        """The items (or runs) of each task."""
        return [cell.shape[0] for cell in self.cells]


def _run_column(frame: pd.DataFrame, table: pd.DataFrame, run_column: str | None) -> str | None:
    if run_column is None:
        return next((c for c in ("seed", "run") if c in frame.columns), None)
    if run_column not in frame.columns:
        raise InputError(f"--run: column {run_column!r} not found (columns: {', '.join(map(str, table.columns))})")
    return run_column


def read_suite(table: pd.DataFrame, *, run_column: str | None = None) -> Suite:
    """A long table (model, task, score[, run] or model, task, item, score[, epoch]) as a :class:`Suite`.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``model`` (or ``system``), ``task``, ``score`` and either, with several runs per model
        and task, a run column (``run_column``, default ``seed`` or ``run`` if present), or, with
        item-level outputs, ``item`` (and optionally ``epoch``; a model's samples of an item are
        averaged).
    run_column : str, optional
        The column naming each run.

    Returns
    -------
    Suite
        ``unit`` "items" with an item column, "runs" with at least 2 runs per model and task, else "none".

    Raises
    ------
    simstats.compare.InputError
        A missing column, a score that is not a finite number (row named), a model without a task
        another model has, a model and task with a number of runs other than the others', a run
        given twice, an item column beside a run column, a model lacking items of a task that
        another model has (task, model and item named), a task with one item.

    Examples
    --------
    >>> rows = pd.DataFrame({"model": list("aabb"), "task": ["x", "y", "x", "y"], "score": [0.9, 0.7, 0.8, 0.75]})
    >>> suite = read_suite(rows)
    >>> suite.scores.tolist(), suite.unit
    ([[0.9, 0.7], [0.8, 0.75]], 'none')
    >>> items = pd.DataFrame({"model": list("aaaabbbb"), "task": list("xxyy") * 2, "item": [1, 2] * 4,
    ...                       "score": [1, 0, 1, 1, 0, 0, 1, 0]})
    >>> suite = read_suite(items)
    >>> suite.unit, suite.cells[1].tolist()
    ('items', [[1.0, 1.0], [1.0, 0.0]])
    """
    frame = table.rename(columns={"system": "model"}) if "model" not in table and "system" in table else table
    missing = [c for c in ("model", "task", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"suite table: column(s) {', '.join(map(repr, missing))} not found (columns: "
                         f"{', '.join(map(str, table.columns))}); a suite table has model, task, score and optionally "
                         "a run (seed) column or an item column")
    run_column = _run_column(frame, table, run_column)
    if "item" in frame.columns:
        if run_column is not None:
            raise InputError(f"suite table: columns 'item' and {run_column!r} both given; item-level outputs of "
                             "several runs are not supported (give the items of one run, or each run's task scores "
                             "without the item column)")
        from simstats.readers.scores import read_scores

        return suite_from_evaluations(read_scores(frame, cluster_column="cluster" if "cluster" in frame.columns
                                                  else None))
    scores = pd.to_numeric(frame.score, errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        raise InputError(f"suite table: score {show_value(frame.score.iloc[bad[0]])} (row {bad[0] + 2}, model "
                         f"{show_value(frame.model.iloc[bad[0]])}, task {show_value(frame.task.iloc[bad[0]])}) is not "
                         "a finite number")
    data = pd.DataFrame({"model": frame.model.astype(str), "task": frame.task.astype(str), "score": scores,
                         "run": frame[run_column].to_numpy() if run_column else 0})
    again = data.duplicated(["model", "task", "run"])
    if again.any():
        row = data[again].iloc[0]
        raise InputError(f"suite table: model {row.model!r}, task {row.task!r}"
                         + (f", {run_column} {show_value(row.run)}" if run_column else "")
                         + " appears twice" + ("" if run_column else " (name the runs with a seed or run column)"))
    models = list(dict.fromkeys(data.model))
    tasks = sorted(data.task.unique())
    _check_models_and_tasks(models, tasks, data)
    counts = data.groupby(["model", "task"]).size().unstack()
    values = counts.to_numpy()
    if values.min() != values.max():
        raise InputError(f"models have {int(values.min())} to {int(values.max())} runs per task; give every model "
                         "the same number of runs on every task")
    # the runs of each model and task in the order of their names (runs of different models are independent:
    # row r of a task's cell holds every model's r-th run)
    data = data.sort_values("run", kind="stable")
    data["position"] = data.groupby(["model", "task"]).cumcount()
    cube = data.set_index(["task", "position", "model"]).score.unstack("model")[models]
    cells = [cube.loc[task].to_numpy() for task in tasks]
    return Suite(models, tasks, cells, "runs" if values.min() >= 2 else "none")


def _check_models_and_tasks(models: list, tasks: list, data: pd.DataFrame) -> None:
    """At least 2 models and 2 tasks, and every model on every task."""
    if len(models) < 2 or len(tasks) < 2:
        raise InputError(f"a suite needs at least 2 models and 2 tasks, got {len(models)} and {len(tasks)}")
    have = data.groupby("model", sort=False).task.agg(set)
    for model in models:
        lacking = [t for t in tasks if t not in have[model]]
        if lacking:
            raise InputError(f"model {model!r} has no score on task {lacking[0]!r}, which another model has; every "
                             "model needs every task")


def suite_from_evaluations(evaluations: pd.DataFrame, *, models=None) -> Suite:
    """An evaluation's per-item scores (a readers' table, :data:`simstats.readers.COLUMNS`) as a suite of items.

    Each model's samples (epochs) of an item are averaged, and within each task the models are joined on
    the item ids (:func:`simstats.readers.paired.paired_scores`).

    Parameters
    ----------
    evaluations : pandas.DataFrame
        Columns model, task, item, score, epoch, cluster, item_hash (from
        :func:`simstats.readers.scores.read_scores`, :func:`simstats.readers.lm_eval.read_lm_eval`, ...);
        clusters are not used.
    models : sequence of str, optional
        The models (default: all, in order of appearance).

    Returns
    -------
    Suite
        ``unit == "items"``; tasks sorted.

    Raises
    ------
    simstats.compare.InputError
        Fewer than 2 models or tasks, a model without a task another model has, a model lacking items of
        a task (task, model and the first such item named), an item whose content hash differs between
        models, a task with one item.

    Examples
    --------
    >>> from simstats.readers.scores import read_scores
    >>> rows = pd.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "task": list("xxxyyy") * 2, "item": [1, 1, 2, 1, 2, 3] * 2,
    ...                      "score": [1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0]})   # item 1 of task x: two epochs
    >>> suite = suite_from_evaluations(read_scores(rows))
    >>> suite.cells[0].tolist(), suite.units_per_task, suite.samples
    ([[0.5, 0.0], [1.0, 1.0]], [2, 3], (1, 2))
    """
    from simstats.readers.paired import paired_scores

    present = list(dict.fromkeys(evaluations.model.astype(str)))
    models = present if models is None else list(models)
    tasks = sorted(evaluations.task.astype(str).unique())
    _check_models_and_tasks(models, tasks, evaluations.assign(model=evaluations.model.astype(str),
                                                              task=evaluations.task.astype(str)))
    cells, low, high = [], np.inf, 0
    for task in tasks:
        rows = evaluations[evaluations.task.astype(str) == task].assign(task=task, cluster=None)
        paired = paired_scores(rows, task=task, models=models)
        if paired.items.size < 2:
            raise InputError(f"task {task!r} has {paired.items.size} item; the comparisons within a task and the "
                             "intervals of the suite means need at least 2 items per task")
        cells.append(paired.stats[:, :, 0].T.copy())
        low, high = min(low, paired.samples[0]), max(high, paired.samples[1])
    clustered = "cluster" in evaluations.columns and bool(evaluations.cluster.notna().any())
    return Suite(models, tasks, cells, "items", (int(low), int(high)), clusters_ignored=clustered)


def _scope(scope: str) -> str:
    if scope not in SCOPE_NAMES:
        raise InputError(f"--scope {scope!r}: not a scope (choose 'tasks like these', also written like-these, or "
                         "'these tasks', also written these)")
    return SCOPE_NAMES[scope]


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
    simstats.compare.InputError
        An unknown reference model, correction or scope.

    Examples
    --------
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
    unit_column = "items" if paired else "runs"
    columns = ["task", anchor, "model", f"score_{anchor}", "score_model", unit_column, "difference", "ci_low",
               "ci_high", "pvalue", "pvalue_adjusted", "significant"]
    if intervals:
        t = within.table
        tasks = pd.DataFrame({
            "task": [suite.tasks[i] for i in t.task], anchor: [suite.models[i] for i in t.model_a],
            "model": [suite.models[i] for i in t.model_b], f"score_{anchor}": t.score_a.to_numpy(),
            "score_model": t.score_b.to_numpy(), unit_column: [suite.units_per_task[i] for i in t.task],
            "difference": t.difference.to_numpy(), "ci_low": t.ci_low.to_numpy(), "ci_high": t.ci_high.to_numpy(),
            "pvalue": t.pvalue.to_numpy(), "pvalue_adjusted": t.pvalue_adjusted.to_numpy(),
            "significant": t.pvalue_adjusted.to_numpy() < alpha})[columns]
    else:
        tasks = pd.DataFrame({c: [] for c in columns})
    units = suite.units_per_task
    epochs = suite.samples[1] > 1
    what = "items" if paired else "runs"
    noise = {"items": "the item noise", "runs": "the run-to-run noise", "none": ""}[suite.unit]
    settings = {
        "models": k, "tasks": n_tasks, "unit": suite.unit, "runs_per_task": suite.runs_per_task,
        "units_per_task": [min(units), max(units)], "samples_per_item": list(suite.samples) if paired else None,
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
    return models, pairs, tasks, settings
