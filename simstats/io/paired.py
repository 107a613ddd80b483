"""From a readers' table (:data:`simstats.io.formats.COLUMNS`) to the per-item statistics of one task.

Each model's samples of an item are averaged over their epochs (:func:`simstats.stats.analytic.item_means`
reasoning: the item mean carries the within-item noise divided by the samples), and the models are
joined on the item ids of the task: every model must have scored every item.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.io.checks import InputError, show_value
from simstats.stats.metrics import Metric, mean_score

__all__ = ["MEAN_SCORE", "PairedScores", "paired_scores", "shared_tasks", "check_item_hashes"]

MEAN_SCORE = mean_score
"""The mean item score, from per-item (score, 1) (:data:`simstats.stats.metrics.mean_score`)."""


@dataclass(frozen=True)
class PairedScores:
    """Every model's item means on the items of one task, ready for the paired tests.

    Attributes
    ----------
    names : list of str
        The models.
    stats : numpy.ndarray
        (models, items, 2): each item's mean score over its epochs, and 1 (:data:`MEAN_SCORE`).
    items : numpy.ndarray
        The item ids, sorted.
    clusters : numpy.ndarray or None
        Cluster index per item (None without a cluster column).
    task : str
        The task compared.
    samples : tuple
        (fewest, most) samples per item and model.
    metric : Metric
        :data:`MEAN_SCORE`.
    items_left_out : int
        Items of the task that not every model scored, left out (``paired_scores(shared_items=True)``).

    Examples
    --------
    >>> import numpy as np
    >>> paired = PairedScores(["a", "b"], np.array([[[1.0, 1], [0.5, 1]], [[0.0, 1], [1.0, 1]]]), np.array([1, 2]),
    ...                       None, "-", (1, 2))
    >>> paired.metric(paired.stats.sum(axis=1)).tolist()          # each model's mean item score
    [0.75, 0.5]
    """

    names: list
    stats: np.ndarray
    items: np.ndarray
    clusters: np.ndarray | None
    task: str
    samples: tuple
    metric: Metric = MEAN_SCORE
    items_left_out: int = 0


def paired_scores(evaluations: pd.DataFrame, *, task: str | None = None, models=None,
                  shared_items: bool = False) -> PairedScores:
    """The item means of every model on one task, joined on the item ids.

    Parameters
    ----------
    evaluations : pandas.DataFrame
        A readers' table (:data:`simstats.io.formats.COLUMNS`), e.g. from
        :func:`simstats.io.scores.read_scores`.
    task : str, optional
        The task to compare (required when the table has several).
    models : sequence of str, optional
        The models to compare (default: all, in order of appearance).
    shared_items : bool
        Keep the items every model scored, the others left out and counted in ``items_left_out``
        (default: refuse a model that lacks items another model has).

    Returns
    -------
    PairedScores
        Names, (models, items, 2) statistics of :data:`MEAN_SCORE`, item ids, cluster index.

    Raises
    ------
    simstats.io.checks.InputError
        Several tasks and none chosen, an unknown task or model, a model that lacks items of the
        task (all of them counted), an item whose content hash differs between models (not the
        same item), an item in two clusters.

    Examples
    --------
    >>> import pandas as pd
    >>> from simstats.io.scores import read_scores
    >>> rows = pd.DataFrame({"model": list("aaaabbbb"), "item": [1, 1, 2, 2] * 2,
    ...                      "score": [1, 0, 1, 1, 0, 0, 1, 0]})           # two epochs per item
    >>> paired = paired_scores(read_scores(rows))
    >>> paired.stats[:, :, 0].tolist(), paired.samples
    ([[0.5, 1.0], [0.0, 0.5]], (2, 2))
    """
    tasks = list(dict.fromkeys(evaluations.task))
    if task is None:
        if len(tasks) > 1:
            raise InputError(f"the table has {len(tasks)} tasks ({', '.join(tasks[:8])}"
                             f"{', ...' if len(tasks) > 8 else ''}): choose one with --task")
        task = tasks[0]
    if task not in tasks:
        raise InputError(f"--task {task!r} not found (tasks: {', '.join(tasks[:8])}{', ...' if len(tasks) > 8 else ''})")
    rows = evaluations[evaluations.task == task]
    present = list(dict.fromkeys(rows.model))
    names = present if models is None else list(models)
    unknown = [m for m in names if m not in present]
    if unknown:
        raise InputError(f"model(s) {', '.join(map(repr, unknown))} not found in task {task!r} "
                         f"(models: {', '.join(present)})")
    if len(names) < 2:
        raise InputError(f"task {task!r} has {len(names)} model; a comparison needs at least two")
    rows = rows[rows.model.isin(names)]
    check_item_hashes(rows, task)
    items = np.sort(rows["item"].unique())
    left_out = 0
    if shared_items:
        scored = [set(rows.loc[rows.model == name, "item"]) for name in names]
        shared = np.array(sorted(set.intersection(*scored)), dtype=items.dtype)
        left_out = int(items.size - shared.size)
        if shared.size < 2:
            raise InputError(f"task {task!r}: the models share {shared.size} of its {items.size} items; a comparison "
                             "needs at least 2")
        rows, items = rows[rows["item"].isin(shared)], shared
    grouped = rows.groupby(["model", "item"], sort=True).score.agg(["mean", "size"])
    stats = np.empty((len(names), items.size, 2))
    for k, name in enumerate(names):
        mine = grouped.loc[name]
        lacking = np.setdiff1d(items, mine.index.to_numpy())
        if lacking.size:
            raise InputError(f"task {task!r}: model {name!r} lacks {lacking.size} of the {items.size} items scored by "
                             f"another model (first: {', '.join(map(str, lacking[:5]))}); a paired comparison "
                             "needs every model on the same items")
        stats[k, :, 0] = mine.loc[items, "mean"].to_numpy()
        stats[k, :, 1] = 1.0
    sizes = grouped["size"].to_numpy()
    clusters = None
    if rows.cluster.notna().any():
        per_item = rows.drop_duplicates(["item", "cluster"])
        twice = per_item[per_item.duplicated("item", keep=False)]
        if len(twice):
            values = twice[twice["item"] == twice["item"].iloc[0]].cluster.tolist()
            raise InputError(f"task {task!r}: item {show_value(twice['item'].iloc[0])} is in more than one cluster "
                             f"({', '.join(map(str, values[:3]))})")
        if per_item.cluster.isna().any():
            raise InputError(f"task {task!r}: item {show_value(per_item[per_item.cluster.isna()]['item'].iloc[0])} has "
                             "no cluster id")
        by_item = per_item.set_index("item").cluster.loc[items]
        clusters = np.unique(by_item.to_numpy(), return_inverse=True)[1].ravel()
        if clusters.max() < 1:
            raise InputError(f"task {task!r}: one cluster only; the clustered tests need at least 2")
    return PairedScores(names, stats, items, clusters, str(task), (int(sizes.min()), int(sizes.max())),
                        items_left_out=left_out)


def check_item_hashes(rows: pd.DataFrame, task: str) -> None:
    """Refuse a join of items whose content hashes differ between models (the same id, another item): an
    InputError naming the item and two models; rows without a hash are not checked.

    Parameters
    ----------
    rows : pandas.DataFrame
        Columns model, item and item_hash, of one task.
    task : str
        The task, for the message.

    Returns
    -------
    None
        Nothing: it returns when every item has one hash.

    Raises
    ------
    simstats.io.checks.InputError
        An item with two hashes.

    Examples
    --------
    >>> import pandas as pd
    >>> check_item_hashes(pd.DataFrame({"model": ["a", "b"], "item": [1, 1], "item_hash": ["x", "x"]}), "t")
    """
    hashed = rows[rows.item_hash.notna()]
    if not len(hashed):
        return
    per_item = hashed.drop_duplicates(["item", "item_hash"])
    twice = per_item[per_item.duplicated("item", keep=False)]
    if len(twice):
        item = twice["item"].iloc[0]
        models = hashed[hashed["item"] == item].drop_duplicates("item_hash").model.tolist()
        raise InputError(f"task {task!r}: item {show_value(item)} has different content in model {models[0]!r} and "
                         f"model {models[1]!r} (their item hashes differ): the logs were not made on the same items")


def shared_tasks(evaluations: pd.DataFrame, *, models=None) -> list[str]:
    """The tasks every model has, in order of appearance (the others are left out with a warning).

    Parameters
    ----------
    evaluations : pandas.DataFrame
        A readers' table (:data:`simstats.io.formats.COLUMNS`).
    models : sequence of str, optional
        The models to compare (default: all).

    Returns
    -------
    list of str
        The tasks on which every model was evaluated.

    Raises
    ------
    simstats.io.checks.InputError
        A model of ``models`` that the table does not have; no task has every model.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"model": ["a", "a", "b", "b", "b"], "task": ["x", "y", "x", "y", "z"]})
    >>> shared_tasks(rows)
    ['x', 'y']
    """
    present = list(dict.fromkeys(evaluations.model))
    names = present if models is None else list(models)
    unknown = [m for m in names if m not in present]
    if unknown:
        raise InputError(f"model(s) {', '.join(map(repr, unknown))} not found (models: {', '.join(present)})")
    by_task = evaluations.groupby("task", sort=False).model.agg(set)
    tasks = [task for task, present in by_task.items() if set(names) <= present]
    if not tasks:
        raise InputError(f"no task has every model ({', '.join(names)}): "
                         + "; ".join(f"{t}: {', '.join(sorted(p))}" for t, p in list(by_task.items())[:5]))
    missing = [task for task in by_task.index if task not in tasks]
    if missing:
        warnings.warn(f"task(s) {', '.join(missing)} left out: not every model was evaluated on them")
    return tasks
