"""Many models over a suite of tasks: the tables of ``simstats suite``.

From a long table of scores (model, task, score and optionally run), each model's score per task is
the mean of its runs.  Over the tasks: average ranks, Friedman's test, Nemenyi's critical difference and
pairwise p-values, and Wilcoxon-Holm (:mod:`simstats.stats.suite`), with the claim "on tasks like these".
With several runs per model and task: the interquartile mean (IQM) of each model and the probability
of improvement of every pair, with stratified bootstrap intervals (runs resampled within tasks: "on
these tasks, over new runs").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.compare import InputError, show_value
from simstats.stats.suite import (friedman_test, interquartile_mean, nemenyi_test, probability_of_improvement,
                                  stratified_bootstrap, wilcoxon_holm)

__all__ = ["Suite", "read_suite", "analyse_suite"]


@dataclass(frozen=True)
class Suite:
    """A suite's scores: ``runs[model]`` is a (runs, tasks) matrix, tasks in ``tasks`` order."""

    models: list
    tasks: list
    runs: dict

    @property
    def scores(self) -> np.ndarray:
        """(models, tasks): each model's mean score over its runs on each task."""
        return np.stack([self.runs[m].mean(axis=0) for m in self.models])

    @property
    def runs_per_task(self) -> int:
        return min(r.shape[0] for r in self.runs.values())


def read_suite(table: pd.DataFrame, *, run_column: str | None = None) -> Suite:
    """A long table (model, task, score[, run]) as a :class:`Suite`.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``model`` (or ``system``), ``task``, ``score`` and, with several runs per model and
        task, a run column (``run_column``, default ``seed`` or ``run`` if present).
    run_column : str, optional
        The column naming each run.

    Returns
    -------
    Suite

    Raises
    ------
    simstats.compare.InputError
        A missing column, a score that is not a finite number (row named), a model without a task
        another model has, a model and task with a number of runs other than the others', a run
        given twice.

    Examples
    --------
    >>> rows = pd.DataFrame({"model": list("aabb"), "task": ["x", "y", "x", "y"], "score": [0.9, 0.7, 0.8, 0.75]})
    >>> read_suite(rows).scores.tolist()
    [[0.9, 0.7], [0.8, 0.75]]
    """
    frame = table.rename(columns={"system": "model"}) if "model" not in table and "system" in table else table
    missing = [c for c in ("model", "task", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"suite table: column(s) {', '.join(map(repr, missing))} not found (columns: "
                         f"{', '.join(map(str, table.columns))}); a suite table has model, task, score and optionally "
                         "a run (seed) column")
    if run_column is None:
        run_column = next((c for c in ("seed", "run") if c in frame.columns), None)
    elif run_column not in frame.columns:
        raise InputError(f"--run: column {run_column!r} not found (columns: {', '.join(map(str, table.columns))})")
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
    if len(models) < 2 or len(tasks) < 2:
        raise InputError(f"a suite needs at least 2 models and 2 tasks, got {len(models)} and {len(tasks)}")
    counts = data.groupby(["model", "task"]).size().unstack()
    if counts.isna().any().any():
        model, task = next((m, t) for m in counts.index for t in counts.columns if pd.isna(counts.loc[m, t]))
        raise InputError(f"model {model!r} has no score on task {task!r}, which another model has; every model "
                         "needs every task")
    values = counts.to_numpy()
    if values.min() != values.max():
        raise InputError(f"models have {int(values.min())} to {int(values.max())} runs per task; give every model "
                         "the same number of runs on every task")
    runs = {}
    for model, part in data.groupby("model", sort=False):
        pivot = part.pivot(index="run", columns="task", values="score")[tasks]
        runs[model] = pivot.to_numpy()
    return Suite(models, tasks, runs)


def analyse_suite(suite: Suite, *, alpha: float = 0.05, higher_is_better: bool = True, n_resamples: int = 2000,
                  rng=0, confidence_level: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """The models' and the pairs' tables of ``simstats suite``, and the settings.

    Parameters
    ----------
    suite : Suite
    alpha : float
        Level of Nemenyi's critical difference and of the ``different`` verdicts.
    higher_is_better : bool
        Whether higher scores are better.
    n_resamples : int
        Stratified bootstrap resamples (several runs per task only).
    rng : int
        Seed of the bootstrap.
    confidence_level : float
        Level of the bootstrap intervals.

    Returns
    -------
    models : pandas.DataFrame
        One row per model, best average rank first: mean score over tasks, average rank, IQM and its
        interval (several runs).
    pairs : pandas.DataFrame
        One row per pair: the difference of average ranks, Nemenyi's p-value and verdict, Wilcoxon's
        p-value and its Holm-adjusted value, the probability of improvement and its interval (several
        runs).
    settings : dict
        Friedman's statistic and p-value, the critical difference, the claims.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> rows = pd.DataFrame([{"model": m, "task": t, "seed": s, "score": 0.7 + 0.05 * k + rng.normal(0, 0.02)}
    ...                      for k, m in enumerate("abc") for t in range(8) for s in range(3)])
    >>> models, pairs, settings = analyse_suite(read_suite(rows), n_resamples=200)
    >>> models.model.tolist(), round(settings["friedman_pvalue"], 5)
    (['c', 'b', 'a'], 0.00034)
    """
    scores = suite.scores
    k = len(suite.models)
    ranks = nemenyi_test(scores, alpha=alpha, higher_is_better=higher_is_better)
    friedman = friedman_test(scores) if k >= 3 else None
    wilcoxon = wilcoxon_holm(scores)
    several = suite.runs_per_task >= 2
    sign = 1.0 if higher_is_better else -1.0
    rows = []
    for i, model in enumerate(suite.models):
        row = {"model": model, "tasks": len(suite.tasks), "runs_per_task": suite.runs[model].shape[0],
               "mean_score": float(scores[i].mean()), "average_rank": float(ranks.average_ranks[i])}
        if several:
            iqm, (low, high) = stratified_bootstrap([suite.runs[model]], interquartile_mean, n_resamples=n_resamples,
                                                    confidence_level=confidence_level, rng=[rng, i])
            row.update(iqm=iqm, iqm_ci_low=low, iqm_ci_high=high)
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
                   "wilcoxon_pvalue_holm": float(wilcoxon.pvalues_adjusted[i, j])}
            if several:
                x, y = (suite.runs[suite.models[i]], suite.runs[suite.models[j]])
                x, y = (x, y) if higher_is_better else (-x, -y)
                poi, (low, high) = stratified_bootstrap([x, y], probability_of_improvement, n_resamples=n_resamples,
                                                        confidence_level=confidence_level, rng=[rng, k + i * k + j])
                row.update(probability_of_improvement=poi, poi_ci_low=low, poi_ci_high=high)
            pair_rows.append(row)
    pairs = pd.DataFrame(pair_rows)
    settings = {
        "models": k, "tasks": len(suite.tasks), "runs_per_task": suite.runs_per_task, "alpha": alpha,
        "higher_is_better": higher_is_better,
        "friedman_statistic": friedman.statistic if friedman else None,
        "friedman_pvalue": friedman.pvalue if friedman else None,
        "critical_difference": float(ranks.critical_difference),
        "claim_ranks": f"the models' ranks differ on tasks like these (the {len(suite.tasks)} tasks drawn from a "
                       "population of tasks; each task's score, the mean of its runs, taken as exact)",
        "claim_runs": ("on these tasks, over new runs (runs resampled within tasks; the tasks fixed)"
                       if several else None),
        "n_resamples": n_resamples if several else None, "seed": rng if several else None,
        "confidence_level": confidence_level if several else None, "sign": sign,
    }
    return models, pairs, settings
