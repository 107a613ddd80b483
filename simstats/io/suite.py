"""A suite of tasks read from a table (runs, one score, or items per model and task) or from an evaluation's
per-item scores: :class:`Suite`, the input of :func:`simstats.suite.analyse_suite`."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.io.checks import InputError, check_names, not_usable, show_value, usable

__all__ = ["Suite", "read_suite", "suite_from_evaluations"]


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
    items_left_out : int
        Items that not every model scored, left out (``suite_from_evaluations(shared_items=True)``).

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
    items_left_out: int = 0

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
    simstats.io.checks.InputError
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
        from simstats.io.scores import read_scores

        return suite_from_evaluations(read_scores(frame, cluster_column="cluster" if "cluster" in frame.columns
                                                  else None))
    check_names(frame, ("model", "task"), "suite table")
    scores = pd.to_numeric(frame.score, errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~usable(frame.score))
    if bad.size:
        raise InputError(f"suite table: score {show_value(frame.score.iloc[bad[0]])} (row {bad[0] + 2}, model "
                         f"{show_value(frame.model.iloc[bad[0]])}, task {show_value(frame.task.iloc[bad[0]])}) "
                         f"{not_usable(frame.score.iloc[bad[0]])}")
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


def suite_from_evaluations(evaluations: pd.DataFrame, *, models=None, shared_items: bool = False) -> Suite:
    """An evaluation's per-item scores (a readers' table, :data:`simstats.io.formats.COLUMNS`) as a suite of items.

    Each model's samples (epochs) of an item are averaged, and within each task the models are joined on
    the item ids (:func:`simstats.io.paired.paired_scores`).

    Parameters
    ----------
    evaluations : pandas.DataFrame
        Columns model, task, item, score, epoch, cluster, item_hash (from
        :func:`simstats.io.scores.read_scores`, :func:`simstats.io.lm_eval.read_lm_eval`, ...);
        clusters are not used.
    models : sequence of str, optional
        The models (default: all, in order of appearance).
    shared_items : bool
        Within each task, keep the items every model scored (:func:`simstats.io.paired.paired_scores`);
        ``Suite.items_left_out`` counts the others.

    Returns
    -------
    Suite
        ``unit == "items"``; tasks sorted.

    Raises
    ------
    simstats.io.checks.InputError
        Fewer than 2 models or tasks, a model without a task another model has, a model lacking items of
        a task (task, model and the first such item named), an item whose content hash differs between
        models, a task with one item.

    Examples
    --------
    >>> from simstats.io.scores import read_scores
    >>> rows = pd.DataFrame({"model": ["a"] * 6 + ["b"] * 6, "task": list("xxxyyy") * 2, "item": [1, 1, 2, 1, 2, 3] * 2,
    ...                      "score": [1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0]})   # item 1 of task x: two epochs
    >>> suite = suite_from_evaluations(read_scores(rows))
    >>> suite.cells[0].tolist(), suite.units_per_task, suite.samples
    ([[0.5, 0.0], [1.0, 1.0]], [2, 3], (1, 2))
    """
    from simstats.io.paired import paired_scores

    present = list(dict.fromkeys(evaluations.model.astype(str)))
    models = present if models is None else list(models)
    tasks = sorted(evaluations.task.astype(str).unique())
    _check_models_and_tasks(models, tasks, evaluations.assign(model=evaluations.model.astype(str),
                                                              task=evaluations.task.astype(str)))
    cells, low, high, left_out = [], np.inf, 0, 0
    for task in tasks:
        rows = evaluations[evaluations.task.astype(str) == task].assign(task=task, cluster=None)
        paired = paired_scores(rows, task=task, models=models, shared_items=shared_items)
        left_out += paired.items_left_out
        if paired.items.size < 2:
            raise InputError(f"task {task!r} has {paired.items.size} item; the comparisons within a task and the "
                             "intervals of the suite means need at least 2 items per task")
        cells.append(paired.stats[:, :, 0].T.copy())
        low, high = min(low, paired.samples[0]), max(high, paired.samples[1])
    clustered = "cluster" in evaluations.columns and bool(evaluations.cluster.notna().any())
    return Suite(models, tasks, cells, "items", (int(low), int(high)), clusters_ignored=clustered,
                 items_left_out=left_out)
