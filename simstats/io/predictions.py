"""Per-item statistics from predictions and gold labels (wide tables) or from long tables of statistics,
and the items' cluster ids."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.io.checks import (InputError, check_names, check_gold, check_predictions, first_not_finite, in_all, not_usable, lacking,
                                no_missing, show_value)
from simstats.stats.metrics import Metric, accuracy, classification_f1, get_metric, label_statistics, mae, metric_names


LABEL_METRICS = ("accuracy", "f1", "precision", "recall", "macro_f1", "weighted_f1", "mae")


#: Columns taken as the item id (never a system) when no id column is named.
ID_COLUMNS = ("id", "item")


def label_metric(name: str, labels, positive=None, subset=None) -> tuple[Metric, dict]:
    """The metric object and the keyword arguments label_statistics needs."""
    if name == "accuracy":
        return accuracy, {}
    if name == "mae":
        return mae, {}
    if name in ("f1", "precision", "recall"):
        if positive is None:
            if len(labels) != 2:
                raise InputError(f"metric {name}: give --positive (labels are {list(labels)})")
            positive = sorted(labels, key=str)[-1]
        if positive not in labels:
            raise InputError(f"metric {name}: --positive {positive!r} is not a gold label "
                             f"(gold labels: {', '.join(map(str, labels[:10]))})")
        return get_metric(name), {"positive": positive}
    if name in ("macro_f1", "weighted_f1"):
        average = "macro" if name == "macro_f1" else "weighted"
        if subset:
            missing = [c for c in subset if c not in labels]
            if missing:
                raise InputError(f"metric {name}: classes {missing} are not gold labels")
        return classification_f1(labels, average, subset if average == "macro" else None), {"classes": labels}
    raise InputError(f"unknown metric {name!r} (choose from {', '.join(LABEL_METRICS)})")


def _coerce(values: pd.Series, like):
    """Parse CLI label strings (e.g. --positive 1) to the gold column's type."""
    out = []
    for v in values:
        try:
            if isinstance(like, (bool, np.bool_)):  # bool("False") is True: read the words
                value = {"true": True, "1": True, "false": False, "0": False}[str(v).strip().lower()]
            else:
                value = str(v) if isinstance(like, str) else type(like)(v)
        except (KeyError, TypeError, ValueError):
            kind = ("true/false" if isinstance(like, (bool, np.bool_)) else
                    "integers" if isinstance(like, (int, np.integer)) else
                    "numbers" if isinstance(like, (float, np.floating)) else "text")
            raise InputError(f"label {v!r} is not a gold label (gold labels are {kind})") from None
        out.append(value.item() if isinstance(value, np.generic) else value)  # 5, not np.int64(5), in messages
    return out


def statistics_from_predictions(table: pd.DataFrame, gold_column: str, systems=None, metric_name: str = "accuracy",
                                positive=None, subset=None, *, id_column=None, exclude=(), describe=None):
    """Per-item statistics of every system from a wide table of gold labels and predictions.

    The systems are ``systems`` or else every column but the gold column, the item-id column
    (``id_column``, default: a column named ``id`` or ``item``) and the ``exclude`` columns.
    Item ids must be unique.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per item: the gold label and one prediction column per system.
    gold_column : str
        The gold labels' column.
    systems : sequence of str, optional
        The system columns (default: every other column, as above).
    metric_name : str
        One of :data:`LABEL_METRICS`: "accuracy", "f1", "precision", "recall", "macro_f1",
        "weighted_f1" or "mae".
    positive : optional
        The positive label of f1, precision and recall (default: the larger of two labels).
    subset : sequence, optional
        The classes macro F1 averages over (default: all gold labels).
    id_column : str, optional
        The item-id column.
    exclude : sequence of str
        Columns that are not systems.
    describe : callable, optional
        ``describe(column)`` names a column in messages (default "system 'a'").

    Returns
    -------
    names : list of str
        The systems.
    stats : numpy.ndarray, shape (systems, items, k)
        Per-item statistics of the metric.
    metric : Metric
        The metric they are scored with.

    Raises
    ------
    InputError
        If a column is missing or named twice, fewer than two systems remain, an item id repeats,
        or a cell is bad (missing, not a number where numbers are needed, not a gold label): the
        message names the column, the value and its row (the file's line: the first row after
        the header is row 2).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"id": [1, 2, 3, 4], "gold": ["pos", "neg", "pos", "neg"],
    ...                       "a": ["pos", "neg", "neg", "neg"], "b": ["pos", "pos", "pos", "neg"]})
    >>> names, stats, metric = statistics_from_predictions(table, "gold")
    >>> names, stats.shape, metric.name, metric(stats.sum(axis=1)).tolist()
    (['a', 'b'], (2, 4, 2), 'accuracy', [0.75, 0.75])
    >>> [float((table[s] == table.gold).mean()) for s in names]
    [0.75, 0.75]

    F1 of the label "pos": a finds 1 of the 2 gold positives with no spurious one, b both with one
    spurious, so F1 = 2/3 and 4/5:

    >>> names, stats, metric = statistics_from_predictions(table, "gold", metric_name="f1", positive="pos")
    >>> metric.statistics, metric(stats.sum(axis=1)).round(4).tolist()
    (('recalled', 'gold', 'spurious'), [0.6667, 0.8])
    """
    columns = ", ".join(map(str, table.columns))
    if gold_column not in table.columns:
        raise InputError(f"gold column {gold_column!r} not found (columns: {columns})")
    if id_column is not None and id_column not in table.columns:
        raise InputError(f"--id column {id_column!r} not found (columns: {columns})")
    if id_column == gold_column:
        raise InputError(f"--id: {id_column!r} is the gold column (--gold)")
    missing = [c for c in exclude if c not in table.columns]
    if missing:
        raise InputError(f"--exclude column(s) {', '.join(map(repr, missing))} not found (columns: {columns})")
    if systems:
        systems = list(systems)
        repeated = [s for i, s in enumerate(systems) if s in systems[:i]]
        if repeated:
            raise InputError(f"--systems: {repeated[0]!r} is given more than once")
        for s in systems:
            if s == gold_column or s == id_column:
                raise InputError(f"--systems: {s!r} is the {'gold' if s == gold_column else 'item id'} column, "
                                 "not a system")
        ids = [id_column] if id_column is not None else []
    else:
        ids = [id_column] if id_column is not None else [c for c in ID_COLUMNS if c in table.columns]
        systems = [c for c in table.columns if c != gold_column and c not in ids]
    systems = [s for s in systems if s not in exclude]
    missing = [s for s in systems if s not in table.columns]
    if missing:
        raise InputError(f"system column(s) {', '.join(missing)} not found")
    for c in ids:
        missing = np.flatnonzero(table[c].isna().to_numpy())
        if missing.size:
            raise InputError(f"item id column {c!r}: missing id (row {missing[0] + 2})")
        repeated = table[c].duplicated()
        if repeated.any():
            i = int(np.flatnonzero(repeated.to_numpy())[0])
            raise InputError(f"item id column {c!r}: {show_value(table[c].iloc[i])} (row {i + 2}) repeats an earlier id")
    if len(systems) < 2:
        raise InputError(f"need at least two systems to compare, got {len(systems)}")
    if len(table) == 0:
        raise InputError("the table has no rows")
    def where(i):
        return f"row {i + 2}"

    numeric = pd.api.types.is_numeric_dtype
    check_gold(table[gold_column], metric_name, where, all(numeric(table[s]) for s in systems))
    gold = table[gold_column].to_numpy()
    labels = sorted(pd.unique(gold).tolist(), key=str)
    describe = describe or (lambda s: f"system {s!r}")
    for s in systems:
        check_predictions(table[s], labels, numeric(table[gold_column]), metric_name, lambda i: describe(s), where)
    like = gold[0]
    if positive is not None:
        positive = _coerce(pd.Series([positive]), like)[0]
    if subset:
        subset = _coerce(pd.Series(subset), like)
    metric, kwargs = label_metric(metric_name, labels, positive, subset)
    stats = np.stack([label_statistics(metric, gold, table[s].to_numpy(), **kwargs) for s in systems])
    return systems, stats, metric


def statistics_metric(name: str) -> Metric:
    """The metric ``--statistics`` input is scored with: a registered metric (accuracy, f1, precision, recall,
    mae, bleu, or one added with :func:`simstats.stats.metrics.register_metric`).

    Parameters
    ----------
    name : str
        The metric's name.

    Returns
    -------
    Metric
        The metric; its ``statistics`` are the columns a statistics table needs.

    Raises
    ------
    InputError
        If no such metric takes statistics input.

    Examples
    --------
    >>> statistics_metric("accuracy").statistics
    ('correct', 'items')
    >>> statistics_metric("f1").statistics
    ('recalled', 'gold', 'spurious')
    """
    if name not in metric_names():
        raise InputError(f"metric {name!r} is not available for --statistics input "
                         f"({', '.join(metric_names())})")
    return get_metric(name)


def statistics_from_long(table: pd.DataFrame, metric: Metric):
    """Per-item statistics of every system from a long table with columns system, item and the metric's statistics.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per (system, item): the columns system, item and ``metric.statistics``.
    metric : Metric
        The metric (:func:`statistics_metric`).

    Returns
    -------
    names : list
        The systems, in order of first appearance.
    stats : numpy.ndarray, shape (systems, items, k)
        The statistics, items sorted by id.

    Raises
    ------
    InputError
        If a column or value is missing, a statistic is not a finite count (an absolute error
        >= 0 for mae), a (system, item) row repeats, there are fewer than two systems, or the
        systems are scored on different items.

    Examples
    --------
    >>> import pandas as pd
    >>> accuracy = statistics_metric("accuracy")
    >>> long = pd.DataFrame({"system": ["a"] * 3 + ["b"] * 3, "item": [3, 1, 2] * 2,
    ...                      "correct": [0, 1, 1, 1, 0, 0], "items": 1})
    >>> names, stats = statistics_from_long(long, accuracy)
    >>> names, stats.shape, stats[:, :, 0].tolist(), accuracy(stats.sum(axis=1)).round(4).tolist()
    (['a', 'b'], (2, 3, 2), [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [0.6667, 0.3333])
    """
    need = ["system", "item", *metric.statistics]
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise InputError(f"statistics table lacks column(s) {', '.join(missing)} (metric {metric.name} needs "
                         f"{', '.join(metric.statistics)})")
    no_missing(table[["system", "item"]], "statistics table")
    check_names(table, ("system",), "statistics table")

    def cell(i, c):
        return (f"statistics table: system {show_value(table.system.iloc[i])}, item {show_value(table.item.iloc[i])}, "
                f"column {c!r}")

    for c in metric.statistics:
        missing = np.flatnonzero(table[c].isna().to_numpy())
        if missing.size:
            i = missing[0]
            raise InputError(f"{cell(i, c)}: missing value (row {i + 2}{in_all(missing.size, 'missing')})")
    for c in metric.statistics:
        i = first_not_finite(table[c])
        if i is not None:
            raise InputError(f"statistics table: system {show_value(table.system.iloc[i])}, column {c!r}: "
                             f"{show_value(table[c].iloc[i])} (row {i + 2}) {not_usable(table[c].iloc[i])}")
    for c in metric.statistics:  # the metric's counts are integers >= 0; mae's absolute error a number >= 0
        if c not in metric.counts and c != "abs_error":
            continue
        values = pd.to_numeric(table[c]).to_numpy(float)
        bad = np.flatnonzero(values < 0 if c == "abs_error" else (values < 0) | (values != np.round(values)))
        if bad.size:
            i = bad[0]
            need = "negative (an absolute error is >= 0)" if c == "abs_error" else "not a count (an integer >= 0)"
            raise InputError(f"{cell(i, c)}: {show_value(table[c].iloc[i])} (row {i + 2}) is {need}"
                             f"{in_all(bad.size, 'such values')}")
    for small, large in metric.at_most:  # e.g. correct <= items, matched n-grams <= n-grams
        bad = np.flatnonzero((pd.to_numeric(table[small]) > pd.to_numeric(table[large])).to_numpy())
        if bad.size:
            i = bad[0]
            raise InputError(f"{cell(i, small)}: {show_value(table[small].iloc[i])} exceeds {large} "
                             f"{show_value(table[large].iloc[i])} (row {i + 2}{in_all(bad.size, 'such rows')}): "
                             "impossible counts")
    for c in metric.positive:  # a denominator that sums to 0 leaves the system's score undefined
        sums = pd.to_numeric(table[c]).groupby(table.system, sort=False).sum()
        if (sums <= 0).any():
            raise InputError(f"statistics table: system {show_value(sums.index[int(np.flatnonzero(sums <= 0)[0])])}: "
                             f"column {c!r} sums to 0 over its items, so its {metric.name} is not defined")
    repeated = np.flatnonzero(table.duplicated(["system", "item"]).to_numpy())
    if repeated.size:
        i = repeated[0]
        raise InputError(f"statistics table: system {show_value(table.system.iloc[i])}, item {show_value(table.item.iloc[i])} "
                         f"(row {i + 2}) repeats an earlier (system, item) row")
    names = list(pd.unique(table.system))
    if len(names) < 2:
        raise InputError(f"need at least two systems to compare, got {len(names)}")
    items = {s: set(g.item) for s, g in table.groupby("system", sort=False)}
    first = items[names[0]]
    for s in names[1:]:
        if items[s] != first:
            raise InputError(f"systems {show_value(names[0])} and {show_value(s)} are scored on different items: "
                             + "; ".join(lacking(show_value(s), items[s], show_value(names[0]), first)))
    ordered = table.sort_values(["system", "item"], kind="stable")
    stats = np.stack([ordered.loc[ordered.system == s, list(metric.statistics)].to_numpy(float) for s in names])
    return names, stats


def item_clusters(table: pd.DataFrame, column: str, *, items=None) -> np.ndarray:
    """Cluster id of every item from the table's ``column`` (``--clusters``): in row order for a wide
    table, or in the order ``items`` for a long table, where an item's rows must agree."""
    if column not in table.columns:
        raise InputError(f"--clusters column {column!r} not found (columns: {', '.join(map(str, table.columns))})")
    missing = np.flatnonzero(table[column].isna().to_numpy())
    if missing.size:
        raise InputError(f"--clusters column {column!r}: missing value (row {missing[0] + 2})")
    if items is None:
        values = table[column]
    else:
        per_item = table.groupby("item", sort=False)[column]
        split = per_item.nunique() > 1
        if split.any():
            item = split.idxmax()
            rows = np.flatnonzero((table.item == item).to_numpy())
            first = table[column].iloc[rows[0]]
            other = rows[np.flatnonzero((table[column].iloc[rows] != first).to_numpy())[0]]
            raise InputError(f"--clusters column {column!r}: item {show_value(item)} is in more than one cluster "
                             f"({show_value(first)} in row {rows[0] + 2}, {show_value(table[column].iloc[other])} in row "
                             f"{other + 2})")
        values = per_item.first().reindex(items)
    codes = pd.factorize(values.to_numpy(), sort=False)[0]
    if codes.size == 0 or codes.max() + 1 < 2:
        only = f" ({show_value(values.iloc[0])})" if codes.size else ""
        raise InputError(f"--clusters column {column!r}: one cluster only{only}; the bootstrap needs at least 2")
    return codes


def wide_clusters(table: pd.DataFrame, column: str | None, systems=None, exclude=None):
    """``--clusters`` of a wide table: (cluster code per row or None, the ``exclude`` columns plus the cluster
    column, which is never a system)."""
    exclude = list(exclude or [])
    if column is None:
        return None, exclude
    if systems and column in systems:
        raise InputError(f"--clusters: {column!r} is named in --systems; it holds cluster ids, not a system")
    return item_clusters(table, column), exclude + ([] if systems else [column])
