"""Runs of approaches (several seeds per system): from long tables or from the seed columns of a wide table."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from simstats.io.checks import InputError, check_gold, check_names, check_predictions, ids_text, show_value, sorted_unique
from simstats.io.predictions import item_clusters, statistics_from_predictions
from simstats.stats.metrics import Metric


@dataclasses.dataclass(frozen=True)
class Runs:
    """Runs (one trained model = one seed of one approach) scored on the same test items.

    Made by :func:`runs_from_long` and :func:`runs_from_approaches`; the input of
    :func:`compare_approach_runs` and :func:`plan_from_runs`.

    Attributes
    ----------
    names : list of str
        The approaches in order.
    approach : numpy.ndarray
        One approach label per run.
    seed : numpy.ndarray
        One seed id per run.
    stats : numpy.ndarray
        (runs, items, k) per-item statistics.
    metric : Metric
        The metric the runs are scored with.
    source : str
        "long" or "approach": the kind of table the runs were read from.
    clusters : numpy.ndarray or None
        Cluster (document) id per item, in the items' order (None: items resampled one by one).

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy
    >>> correct = np.array([[1, 1, 0, 1], [1, 0, 1, 1], [0, 1, 0, 1], [1, 0, 0, 0]])
    >>> runs = Runs(["A", "B"], np.array(["A", "A", "B", "B"]), np.array([1, 2, 1, 2]),
    ...             np.stack([correct, np.ones_like(correct)], axis=2), accuracy, "long")
    >>> runs.count("A"), runs.several_seeds, runs.scores().tolist()
    (2, True, [0.75, 0.75, 0.5, 0.25])
    """

    names: list
    approach: np.ndarray
    seed: np.ndarray
    stats: np.ndarray
    metric: Metric
    source: str
    #: cluster (document) id per item, in the items' order (None: items resampled one by one)
    clusters: np.ndarray | None = None

    def count(self, name) -> int:
        """Runs of approach ``name``."""
        return int(np.count_nonzero(self.approach == name))

    @property
    def several_seeds(self) -> bool:
        """Whether some approach has more than one run."""
        return any(self.count(name) > 1 for name in self.names)

    def scores(self) -> np.ndarray:
        """Each run's metric value."""
        return self.metric(self.stats.sum(axis=1))


def runs_clusters(runs: Runs, table: pd.DataFrame, column: str) -> Runs:
    """``--clusters`` of runs: the cluster of each item in the runs' item order (rows of a wide --approach
    table; sorted item ids of a long table)."""
    items = None if runs.source == "approach" else sorted_unique(table.item)
    return dataclasses.replace(runs, clusters=item_clusters(table, column, items=items))


def is_long_predictions(table: pd.DataFrame, prediction_column: str | None) -> bool:
    """A long table of predictions: a ``system`` column and a ``seed`` or prediction column
    (or --prediction given).  Wide tables, whatever their columns, are read as before."""
    if "system" not in table.columns:
        return False
    return prediction_column is not None or "seed" in table.columns or "pred" in table.columns


def runs_from_long(table: pd.DataFrame, gold_column: str, prediction_column: str | None = None,
                   metric_name: str = "accuracy", positive=None, subset=None, systems=None) -> Runs:
    """Runs from a long table: one row per (system, seed, item) with the prediction and the gold label.

    Items are ordered by id; every run must predict every item once, and an item's gold label must
    be the same in every row.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns system, seed, item, the prediction and the gold label.
    gold_column : str
        The gold labels' column.
    prediction_column : str, optional
        The predictions' column (default "pred").
    metric_name, positive, subset
        As in :func:`statistics_from_predictions`.
    systems : sequence of str, optional
        The systems (approaches) to keep, in this order (default: all, in order of appearance).

    Returns
    -------
    Runs
        One run per (system, seed), seeds sorted within each system; ``source`` "long".

    Raises
    ------
    InputError
        If a column is missing, a (system, seed, item) row repeats, an item has different gold
        labels, a run lacks items, a value is bad, or fewer than two systems remain.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"system": ["A"] * 4 + ["B"] * 4, "seed": [1, 1, 2, 2] * 2,
    ...                      "item": ["x", "y"] * 4, "gold": [1, 0] * 4,
    ...                      "pred": [1, 0, 1, 1, 0, 0, 1, 1]})
    >>> runs = runs_from_long(long, "gold")
    >>> runs.names, runs.approach.tolist(), runs.seed.tolist(), runs.stats.shape
    (['A', 'B'], ['A', 'A', 'B', 'B'], [1, 2, 1, 2], (4, 2, 2))
    >>> runs.scores().tolist()
    [1.0, 0.5, 0.5, 0.5]
    """
    pred = prediction_column or "pred"
    columns = ", ".join(map(str, table.columns))
    for c, what in (("system", "column 'system'"), ("seed", "column 'seed'"), ("item", "column 'item'"),
                    (pred, f"prediction column {pred!r} (--prediction)"),
                    (gold_column, f"gold column {gold_column!r} (--gold)")):
        if c not in table.columns:
            raise InputError(f"long table: {what} not found (a long table has columns system, seed, item, "
                             f"the prediction and the gold label; columns: {columns})")
    if pred == gold_column:
        raise InputError(f"--prediction: {pred!r} is the gold column (--gold)")
    table = table.reset_index(drop=True)  # index = position in the file, kept when --systems selects rows
    check_names(table, ("system",), "long table")
    for c in ("system", "seed", "item"):
        missing = np.flatnonzero(table[c].isna().to_numpy())
        if missing.size:
            raise InputError(f"long table: missing value in column {c!r} (row {missing[0] + 2})")
    repeated = table.duplicated(["system", "seed", "item"])
    if repeated.any():
        i = int(np.flatnonzero(repeated.to_numpy())[0])
        raise InputError(f"long table: system {show_value(table.system.iloc[i])}, seed {show_value(table.seed.iloc[i])}, "
                         f"item {show_value(table.item.iloc[i])} (row {i + 2}) repeats an earlier row")
    names = list(pd.unique(table.system))
    if systems:
        unknown = [s for s in systems if s not in {str(n) for n in names}]
        if unknown:
            raise InputError(f"--systems: {', '.join(map(repr, unknown))} not in column 'system' "
                             f"(systems: {', '.join(map(str, names))})")
        keep = [n for s in systems for n in names if str(n) == s]
        table = table[table.system.isin(keep)]
        names = keep
    if len(names) < 2:
        raise InputError(f"need at least two systems to compare, got {len(names)}")

    def where(i):  # the i-th row of the (selected) table: its line in the file and its item
        return f"row {table.index[i] + 2}, item {show_value(table.item.iloc[i])}"

    def who(i):
        return f"system {show_value(table.system.iloc[i])}, seed {show_value(table.seed.iloc[i])}"

    def run_of(i):
        return ((table.system == table.system.iloc[i]) & (table.seed == table.seed.iloc[i])).to_numpy()

    numeric = pd.api.types.is_numeric_dtype
    check_gold(table[gold_column], metric_name, where, numeric(table[pred]))
    gold_by_item = table.groupby("item", sort=False)[gold_column]
    if (gold_by_item.nunique(dropna=False) > 1).any():
        item = (gold_by_item.nunique(dropna=False) > 1).idxmax()
        rows = np.flatnonzero((table.item == item).to_numpy())
        gold = table[gold_column].iloc[rows]
        other = rows[np.flatnonzero((gold != gold.iloc[0]).to_numpy())[0]]
        raise InputError(f"gold column {gold_column!r}: item {show_value(item)} has different gold labels in "
                         f"different rows ({show_value(gold.iloc[0])} in row {table.index[rows[0]] + 2}, "
                         f"{show_value(table[gold_column].iloc[other])} in row {table.index[other] + 2})")
    check_predictions(table[pred], sorted(pd.unique(table[gold_column]).tolist(), key=str),
                       numeric(table[gold_column]), metric_name, who, where, run_of)
    items = sorted_unique(table.item)
    wide = pd.DataFrame({gold_column: gold_by_item.first().reindex(items).to_numpy()})
    labels, seeds, run_columns, incomplete = [], [], [], []
    for name in names:
        rows = table[table.system == name]
        for seed in sorted_unique(rows.seed):
            run = rows[rows.seed == seed].set_index("item")[pred]
            if len(run) != len(items):
                incomplete.append((name, seed, [i for i in items if i not in run.index]))
                continue
            column = f"{name} (seed {seed})"
            wide[column] = run.reindex(items).to_numpy()
            labels.append(name)
            seeds.append(seed)
            run_columns.append(column)
    if incomplete:  # every run must predict every item: name the first incomplete run, count them all
        name, seed, lacking = incomplete[0]
        raise InputError(f"unmatched items across systems: system {show_value(name)}, seed {show_value(seed)} lacks "
                         f"{len(lacking)} of the {len(items)} items (first: {ids_text(lacking)})"
                         + (f"; {len(incomplete)} of the {len(labels) + len(incomplete)} runs lack items"
                            if len(incomplete) > 1 else ""))
    _, stats, metric = statistics_from_predictions(wide, gold_column, run_columns, metric_name, positive, subset)
    return Runs([str(n) for n in names], np.array([str(n) for n in labels]), np.array(seeds), stats, metric, "long")


def parse_approaches(specs) -> list[tuple[str, list[str]]]:
    """``["A=a1,a2", "B=b1,b2"]`` -> [("A", ["a1", "a2"]), ("B", ["b1", "b2"])]."""
    out = []
    for spec in specs:
        name, eq, cols = spec.partition("=")
        columns = [c.strip() for c in cols.split(",") if c.strip()]
        if not eq or not name.strip() or not columns:
            raise InputError(f"--approach {spec!r}: expected NAME=column1,column2,...")
        out.append((name.strip(), columns))
    return out


def runs_from_approaches(table: pd.DataFrame, gold_column: str, specs, metric_name: str = "accuracy",
                         positive=None, subset=None, *, id_column=None, paired_by_position: bool = False) -> Runs:
    """Runs from a wide table whose seed columns are grouped into approaches by ``--approach``.

    Seed ids are the column names (no pairing across approaches) or, with ``paired_by_position``,
    the position in each approach's list (the i-th columns of all approaches share a seed).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per item: the gold label and one prediction column per run.
    gold_column : str
        The gold labels' column.
    specs : sequence of str
        ``"NAME=column1,column2,..."`` per approach (at least two).
    metric_name, positive, subset, id_column
        As in :func:`statistics_from_predictions`.
    paired_by_position : bool
        Seed ids by position (paired seeds) instead of column names.

    Returns
    -------
    Runs
        One run per column named in ``specs``; ``source`` "approach".

    Raises
    ------
    InputError
        If a spec is malformed or repeats an approach, a column is unknown, the gold or id column,
        or in two approaches, approaches of unequal sizes are paired by position, or a cell is bad.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"gold": [1, 0, 1, 1], "a1": [1, 0, 1, 0], "a2": [1, 0, 0, 1],
    ...                       "b1": [0, 0, 1, 0], "b2": [1, 1, 1, 0]})
    >>> runs = runs_from_approaches(table, "gold", ["A=a1,a2", "B=b1,b2"])
    >>> runs.names, runs.approach.tolist(), runs.seed.tolist(), runs.scores().tolist()
    (['A', 'B'], ['A', 'A', 'B', 'B'], ['a1', 'a2', 'b1', 'b2'], [0.75, 0.75, 0.5, 0.5])
    >>> runs_from_approaches(table, "gold", ["A=a1,a2", "B=b1,b2"], paired_by_position=True).seed.tolist()
    [0, 1, 0, 1]
    """
    groups = parse_approaches(specs)
    names = [name for name, _ in groups]
    repeated = [n for i, n in enumerate(names) if n in names[:i]]
    if repeated:
        raise InputError(f"--approach: {repeated[0]!r} is given more than once")
    if len(groups) < 2:
        raise InputError(f"need at least two approaches to compare, got {len(groups)} (--approach)")
    all_columns = ", ".join(map(str, table.columns))
    seen: dict = {}
    for name, columns in groups:
        unknown = [c for c in columns if c not in table.columns]
        if unknown:
            raise InputError(f"--approach {name}: column(s) {', '.join(map(repr, unknown))} not found "
                             f"(columns: {all_columns})")
        for c in columns:
            if c == gold_column or c == id_column:
                raise InputError(f"--approach {name}: {c!r} is the {'gold' if c == gold_column else 'item id'} "
                                 "column, not a run")
            if c in seen:
                raise InputError(f"--approach {name}: column {c!r} is already a run of "
                                 f"{'approach ' + repr(seen[c]) if seen[c] != name else 'this approach'}")
            seen[c] = name
    if paired_by_position:
        sizes = {name: len(columns) for name, columns in groups}
        if len(set(sizes.values())) > 1:
            raise InputError(f"--paired-seeds yes pairs the i-th columns of every --approach: the approaches have "
                             f"different numbers of columns ({', '.join(f'{n} {k}' for n, k in sizes.items())})")
    columns = [c for _, cols in groups for c in cols]
    _, stats, metric = statistics_from_predictions(table, gold_column, columns, metric_name, positive, subset,
                                                   id_column=id_column, describe=lambda c: f"--approach {seen[c]}: "
                                                                                           f"column {c!r}")
    labels = np.array([name for name, cols in groups for _ in cols])
    seeds = np.array([i if paired_by_position else c for _, cols in groups for i, c in enumerate(cols)], dtype=object)
    return Runs(names, labels, seeds, stats, metric, "approach")
