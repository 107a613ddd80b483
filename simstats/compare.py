"""Comparing real systems: read predictions or statistics, test against a reference, correct.

Used by ``simstats compare`` and ``simstats compare-scores``; every problem with the
input raises :class:`InputError` with a one-line message naming it.
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats import classical
from simstats.stats.aso import METHODS as GENERIC_ASO_METHODS, MIN_SCORES as ASO_MIN_SCORES, WARN_SCORES, \
    SmallSampleWarning, aso
from simstats.studies.dror2019.conventions import dror2019_aso
from simstats.stats.bootstrap import PAIRED_PVALUE_METHODS, PVALUE_RULES, bootstrap_scores, paired_bootstrap
from simstats.stats.multitest import adjust_pvalues
from simstats.stats.renamed import renamed_parameters
from simstats.stats.metrics import (STATISTICS_METRICS, Metric, accuracy, classification_f1, get_metric,
                                    label_statistics, mae)
from simstats.stats.randomization import randomization_test
from simstats.stats.lazy import lazy_module
from simstats.stats.power import (MIN_DISCORDANT, paired_item_variance, paired_item_variance_from_rates, paired_plan,
                                  plan, seeds_items_grid, variance_components)
from simstats.stats.approaches import (TARGETS, approach_margin_test, approach_t_test, compare_approaches,
                                      oriented_unit_values)

sps = lazy_module("scipy.stats")

__all__ = ["read_table", "statistics_from_predictions", "statistics_from_long", "statistics_metric", "compare_systems",
           "compare_score_distributions", "compare_approach_runs", "plan_from_runs", "plan_one_run", "runs_from_long",
           "runs_from_approaches", "Runs", "InputError", "ASO_METHODS"]

LABEL_METRICS = ("accuracy", "f1", "precision", "recall", "macro_f1", "weighted_f1", "mae")
TESTS = ("bootstrap", "randomization", "exact-randomization", "t")
#: Score-distribution tests; wilcoxon pairs the i-th score of each system (matched seeds).
SCORE_TESTS = {"welch": classical.welch_t_test, "mwu": classical.mann_whitney_test,
               "wilcoxon": classical.wilcoxon_test, "aso": None}
#: ASO computations of ``compare-scores``: simstats.stats.aso.aso's methods and Dror et al.'s (2019) own.
ASO_METHODS = (*GENERIC_ASO_METHODS, "dror2019")
CORRECTIONS = {"none": None, "bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh", "fdr_bh": "fdr_bh"}
#: Columns taken as the item id (never a system) when no id column is named.
ID_COLUMNS = ("id", "item")


class InputError(ValueError):
    """Malformed or inconsistent input (one-line message).

    Every function of this module raises it for a problem with the input, with a message that
    names the file, column, value or row; the command line prints the message alone.

    Attributes
    ----------
    args : tuple of str
        The one-line message.

    Examples
    --------
    >>> import pandas as pd
    >>> try:
    ...     statistics_from_predictions(pd.DataFrame({"gold": [1, 0], "a": [1, 1]}), "label")
    ... except InputError as err:
    ...     print(err)
    gold column 'label' not found (columns: gold, a)
    >>> issubclass(InputError, ValueError)
    True
    """


def read_table(path: str) -> pd.DataFrame:
    """Read a table of predictions, statistics or scores from a file.

    Parameters
    ----------
    path : str
        A CSV file (comma-separated), a ``.tsv`` or ``.tab`` file (tab-separated), either of them
        compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``), or a ``.parquet`` file.

    Returns
    -------
    pandas.DataFrame
        The table; empty cells are NaN.

    Raises
    ------
    InputError
        If the path is a directory or no file, the file is empty, a line has more fields than the
        header, or the file cannot be read otherwise (the message names the file).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import pandas as pd
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "predictions.csv"
    ...     pd.DataFrame({"id": [1, 2, 3], "gold": ["pos", "neg", "pos"], "a": ["pos", "neg", "neg"]}).to_csv(
    ...         path, index=False)
    ...     table = read_table(str(path))
    ...     try:
    ...         read_table(folder)
    ...     except InputError as err:
    ...         message = str(err)
    >>> print(table.to_string(index=False))
     id gold   a
      1  pos pos
      2  neg neg
      3  pos neg
    >>> message.endswith(": is a directory, not a table file")
    True
    """
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{path}: is a directory, not a table file")
    if not p.is_file():
        raise InputError(f"{path}: no such file")
    try:
        if p.suffix == ".parquet":
            return pd.read_parquet(p)
        compressed = p.suffix in (".gz", ".bz2", ".xz", ".zst")
        kind = Path(p.stem).suffix if compressed else p.suffix      # table.tsv.gz: tab-separated, compressed
        sep = "\t" if kind in (".tsv", ".tab") or _tab_separated(p, compressed) else ","
        # only an empty cell is missing: labels such as "NA" or "None" are labels
        return pd.read_csv(p, sep=sep, keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        raise InputError(f"{path}: empty file (no header line)") from None
    except Exception as err:  # pandas/pyarrow raise many types; their class names mean nothing to a user
        import re

        text = str(err).splitlines()[0] if str(err) else "unreadable"
        fields = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text)
        if fields:
            header, line, saw = fields.groups()
            raise InputError(f"{path}: line {line} has {saw} fields, the header has {header}") from None
        raise InputError(f"{path}: cannot read table ({text})") from None


def _tab_separated(path: Path, compressed: bool) -> bool:
    """Whether a table file that is not named .tsv has tabs and no commas in its header line."""
    if compressed:
        return False
    with open(path, encoding="utf-8", errors="replace") as handle:
        header = handle.readline()
    return "\t" in header and "," not in header


def _no_missing(frame: pd.DataFrame, what: str) -> None:
    """A one-line error naming the first missing (NaN or empty) cell: its column and row (the file's line)."""
    missing = frame.isna().to_numpy()
    if missing.any():
        i, j = (int(k[0]) for k in np.nonzero(missing))
        raise InputError(f"{what}: missing value in column {frame.columns[j]!r} (row {i + 2})")


def show_value(value) -> str:
    """A table cell as messages show it: 5, not np.int64(5)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _first_not_finite(values: pd.Series) -> int | None:
    """Position of the first value that is not a finite number, None if all are.

    Messages give position + 2 as the row: the line of a CSV file, whose line 1 is the header."""
    bad = np.flatnonzero(~np.isfinite(pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)))
    return int(bad[0]) if bad.size else None


def _in_all(count: int, what: str) -> str:
    """"; 7 missing in all" after the first bad cell of a message, when it is not the only one."""
    return f"; {count} {what} in all" if count > 1 else ""


def _not_numbers(values: pd.Series) -> np.ndarray:
    """Positions of the (present) values that do not parse as numbers."""
    return np.flatnonzero((pd.to_numeric(values, errors="coerce").isna() & values.notna()).to_numpy())


def _mixes_numbers(values: pd.Series) -> bool:
    """A text column that is mostly numbers: some of its cells parse as numbers and some do not (a typo)."""
    if pd.api.types.is_numeric_dtype(values):
        return False
    bad = _not_numbers(values)
    return 0 < bad.size < int(values.notna().sum())


def _ids(values) -> str:
    """The first ids of a list, as messages show them: "17, 18, 40" or "17, 18, 40, 41, 42, ..."."""
    values = list(values)
    return ", ".join(show_value(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")


def _lacking(name: str, ids, other: str, other_ids, what: str = "items") -> list[str]:
    """Both ways, what one of two id sets lacks of the other: ["'B' lacks 3 of the 50 items of 'A'
    (first: 17, 18, 40)"]; every unmatched id is counted."""
    parts = []
    for x, x_ids, y, y_ids in ((name, ids, other, other_ids), (other, other_ids, name, ids)):
        y_set = set(y_ids)
        lacking = _sorted_unique(pd.Series(list(y_set - set(x_ids)), dtype=object))
        if lacking:
            parts.append(f"{x} lacks {len(lacking)} of the {len(y_set)} {what} of {y} (first: {_ids(lacking)})")
    return parts


def _check_gold(gold: pd.Series, metric_name: str, where, numeric_predictions: bool = False) -> None:
    """Gold labels: none missing; finite numbers for mae; numbers if the predictions are (a typo
    such as 'seven' in a numeric column).  ``where(i)``: the place of the i-th row in messages."""
    name = f"gold column {gold.name!r}"
    missing = np.flatnonzero(gold.isna().to_numpy())
    if missing.size:
        raise InputError(f"{name}: missing gold label (empty or NaN) in {where(missing[0])}"
                         f"{_in_all(missing.size, 'missing')}")
    if metric_name == "mae":
        i = _first_not_finite(gold)
        if i is not None:
            raise InputError(f"{name}: {show_value(gold.iloc[i])} ({where(i)}) is not a finite number")
    elif numeric_predictions and _mixes_numbers(gold):
        bad = _not_numbers(gold)
        raise InputError(f"{name}: {show_value(gold.iloc[bad[0]])} ({where(bad[0])}) is not a number, unlike the "
                         f"other gold labels and the predictions{_in_all(bad.size, 'such labels')}")


def _check_predictions(pred: pd.Series, labels, numeric_gold: bool, metric_name: str, who, where,
                       run=None) -> None:
    """Predictions (one column of a wide table, or a long table's prediction column): none missing;
    finite numbers for mae; numbers if the gold labels are; else gold labels only.  Messages name
    the system (``who(i)``), the value and its place (``where(i)``: the row, the file's line);
    ``run(i)``: the rows of row i's run (default: all), whose unknown labels are listed."""
    missing = np.flatnonzero(pred.isna().to_numpy())
    if missing.size:
        i = missing[0]
        raise InputError(f"{who(i)}: missing prediction (empty or NaN) in {where(i)}"
                         f"{_in_all(missing.size, 'missing')}")
    if metric_name == "mae":
        i = _first_not_finite(pred)
        if i is not None:
            raise InputError(f"{who(i)}: {show_value(pred.iloc[i])} ({where(i)}) is not a finite number")
        return
    if numeric_gold and _mixes_numbers(pred):
        bad = _not_numbers(pred)
        raise InputError(f"{who(bad[0])}: prediction {show_value(pred.iloc[bad[0]])} ({where(bad[0])}) is not a number, "
                         f"but the gold labels are numbers{_in_all(bad.size, 'such predictions')}")
    known = set(labels)
    unknown = [v for v in pd.unique(pred).tolist() if v not in known]
    if unknown:
        bad = np.flatnonzero(pred.isin(unknown).to_numpy())
        i = int(bad[0])
        rows = pred if run is None else pred[run(i)]
        listed = sorted((v for v in pd.unique(rows).tolist() if v not in known), key=str)
        raise InputError(f"{who(i)} predicts labels that are not gold labels: {listed[:5]} "
                         f"(first: {show_value(pred.iloc[i])} in {where(i)}{_in_all(bad.size, 'such predictions')})")


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
    _check_gold(table[gold_column], metric_name, where, all(numeric(table[s]) for s in systems))
    gold = table[gold_column].to_numpy()
    labels = sorted(pd.unique(gold).tolist(), key=str)
    describe = describe or (lambda s: f"system {s!r}")
    for s in systems:
        _check_predictions(table[s], labels, numeric(table[gold_column]), metric_name, lambda i: describe(s), where)
    like = gold[0]
    if positive is not None:
        positive = _coerce(pd.Series([positive]), like)[0]
    if subset:
        subset = _coerce(pd.Series(subset), like)
    metric, kwargs = label_metric(metric_name, labels, positive, subset)
    stats = np.stack([label_statistics(metric, gold, table[s].to_numpy(), **kwargs) for s in systems])
    return systems, stats, metric


def statistics_metric(name: str) -> Metric:
    """The metric ``--statistics`` input is scored with (accuracy, f1, precision, recall, mae, bleu).

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
    try:
        return STATISTICS_METRICS[name]
    except KeyError:
        raise InputError(f"metric {name!r} is not available for --statistics input "
                         f"({', '.join(STATISTICS_METRICS)})") from None


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
    _no_missing(table[["system", "item"]], "statistics table")

    def cell(i, c):
        return (f"statistics table: system {show_value(table.system.iloc[i])}, item {show_value(table.item.iloc[i])}, "
                f"column {c!r}")

    for c in metric.statistics:
        missing = np.flatnonzero(table[c].isna().to_numpy())
        if missing.size:
            i = missing[0]
            raise InputError(f"{cell(i, c)}: missing value (row {i + 2}{_in_all(missing.size, 'missing')})")
    for c in metric.statistics:
        i = _first_not_finite(table[c])
        if i is not None:
            raise InputError(f"statistics table: system {show_value(table.system.iloc[i])}, column {c!r}: "
                             f"{show_value(table[c].iloc[i])} (row {i + 2}) is not a finite number")
    for c in metric.statistics:  # every statistic is a count but mae's absolute error, a number >= 0
        values = pd.to_numeric(table[c]).to_numpy(float)
        bad = np.flatnonzero(values < 0 if c == "abs_error" else (values < 0) | (values != np.round(values)))
        if bad.size:
            i = bad[0]
            need = "negative (an absolute error is >= 0)" if c == "abs_error" else "not a count (an integer >= 0)"
            raise InputError(f"{cell(i, c)}: {show_value(table[c].iloc[i])} (row {i + 2}) is {need}"
                             f"{_in_all(bad.size, 'such values')}")
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
                             + "; ".join(_lacking(show_value(s), items[s], show_value(names[0]), first)))
    ordered = table.sort_values(["system", "item"], kind="stable")
    stats = np.stack([ordered.loc[ordered.system == s, list(metric.statistics)].to_numpy(float) for s in names])
    return names, stats


@renamed_parameters(seed="rng", convention="pvalue_method")
def compare_systems(names, stats, metric: Metric, *, test: str = "bootstrap", reference: str = "best",
                    n_resamples: int = 10_000, rng=0, correction: str = "none",
                    alternative: str = "two-sided", confidence_level: float = 0.95,
                    pvalue_method: str = "shift", pvalue_rule: str = "add-one", clusters=None) -> pd.DataFrame:
    """Each system against the reference (default: the best by observed score) on one test set.

    Parameters
    ----------
    names : sequence of str
        System names, one per row of ``stats``.
    stats : array (systems, items, k)
        Per-item statistics of ``metric`` (one run per system).
    metric : Metric
        Metric of summed statistics.
    test : {"bootstrap", "randomization", "exact-randomization", "t"}
        Paired bootstrap (:func:`simstats.paired_bootstrap`), approximate randomization, the exact
        stratified randomization test (:func:`simstats.randomization_test`), or the paired t-test
        over items (:func:`simstats.paired_difference`; cluster-robust over ``clusters``, t on C - 1
        degrees of freedom) for a metric that is the mean of per-item values (accuracy, a mean item
        score).  With ``"t"`` the scores' intervals are analytic too: Clopper-Pearson's for a proportion
        (every item 0 or 1, no clusters), else the t interval (:func:`simstats.mean_interval`); the
        intervals of the differences are the paired t-test's.
    reference : str
        The system every other is compared with; "best" (default) picks the best observed score.
    n_resamples : int
        Bootstrap resamples (intervals, and the bootstrap's p-values) or shuffles (randomization).
    rng : int or numpy.random.Generator
        Seed of the resampling (default 0).  With ``pvalue_method="sacrebleu"`` the test's resamples
        come from a fresh generator seeded ``rng``, so ``rng=12345, n_resamples=1000`` gives
        ``sacrebleu --paired-bs``'s p-values.
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the p-values over the m - 1 comparisons with the reference.
    alternative : {"two-sided", "greater", "less"}
        H1 about the reference's improvement over each system; two-sided by default ("the
        reference differs").  With reference="best" the data choose the reference, so "greater"
        is one-sided in the direction the data chose and rejects about 2 alpha of the time under
        no difference.
    confidence_level : float
        Level of the two-sided intervals of the scores and differences (percentile bootstrap; with
        ``test="t"`` Clopper-Pearson's or the t intervals).
    pvalue_method : {"shift", "percentile", "sacrebleu"}
        Which bootstrap replicates count as extreme (``test="bootstrap"`` only).
    pvalue_rule : {"add-one", "fraction"}
        (c + 1)/(B + 1), never 0 (default), or c/B (bootstrap, shift and percentile).
    clusters : array (items,), optional
        Cluster (document) id per item: the bootstrap resamples whole clusters; the t-test is
        cluster-robust over them.

    Returns
    -------
    pandas.DataFrame
        One row per system, sorted by score (best first): ``role`` (reference or system), score
        and its interval, ``difference`` (reference minus system, as its improvement for a
        lower-is-better metric) with its interval, ``pvalue`` and ``pvalue_adjusted``.  ``attrs``
        holds the claim and every setting.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, label_statistics
    >>> gold = np.arange(300) % 2
    >>> right = np.random.default_rng(0).random((3, 300)) < [[0.80], [0.78], [0.70]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(r, gold, 1 - gold)) for r in right])
    >>> out = compare_systems(["a", "b", "c"], stats, accuracy, n_resamples=2000, correction="holm")
    >>> print(out[["system", "role", "score", "pvalue_adjusted"]].round(4).to_string(index=False))
    system      role  score  pvalue_adjusted
         b reference 0.8033              NaN
         a    system 0.7367           0.0605
         c    system 0.6800           0.0010
    """
    if test not in TESTS:
        raise InputError(f"unknown test {test!r} (choose from {', '.join(TESTS)})")
    if pvalue_method not in PAIRED_PVALUE_METHODS:
        raise InputError(f"unknown p-value method {pvalue_method!r} (choose from {', '.join(PAIRED_PVALUE_METHODS)})")
    if pvalue_method != "shift" and test != "bootstrap":
        raise InputError(f"--pvalue-method {pvalue_method} is a method of --test bootstrap, not of --test {test}")
    if pvalue_method == "sacrebleu" and alternative != "two-sided":
        raise InputError(f"--pvalue-method sacrebleu is two-sided (sacrebleu's paired bootstrap tests |difference|); "
                         f"got --alternative {alternative}")
    if pvalue_rule not in PVALUE_RULES:
        raise InputError(f"unknown p-value rule {pvalue_rule!r} (choose from {', '.join(PVALUE_RULES)})")
    if pvalue_rule != "add-one" and (test != "bootstrap" or pvalue_method == "sacrebleu"):
        raise InputError(f"--pvalue-rule {pvalue_rule} applies to --test bootstrap with --pvalue-method shift or "
                         "percentile (approximate randomization and sacrebleu's method use (c + 1)/(B + 1); the "
                         "exact randomization test counts every arrangement, so its p-value is exact)")
    if correction not in CORRECTIONS:
        raise InputError(f"unknown correction {correction!r} (choose from {', '.join(CORRECTIONS)})")
    if clusters is not None and (test not in ("bootstrap", "t") or pvalue_method == "sacrebleu"):
        raise InputError(f"--clusters resamples whole clusters in the bootstrap (--test bootstrap, --pvalue-method "
                         f"shift or percentile) or is the cluster-robust t-test's unit (--test t); got --test {test}"
                         + (f" --pvalue-method {pvalue_method}" if test == "bootstrap" else ""))
    names = list(names)
    if test == "t":
        return _compare_systems_t(names, stats, metric, reference=reference, correction=correction,
                                  alternative=alternative, confidence_level=confidence_level, clusters=clusters)
    scores = metric(stats.sum(axis=1))
    ref = reference_index(names, scores, metric, reference)
    others = [i for i in range(len(names)) if i != ref]
    pairs = [(ref, i) for i in others]
    seed = rng
    rng = np.random.default_rng(seed)
    intervals = bootstrap_scores(stats, metric, n_resamples=n_resamples, rng=rng,
                                 confidence_level=confidence_level, clusters=clusters)
    low, high = intervals.confidence_interval
    if test == "bootstrap":
        res = paired_bootstrap(stats, metric, pairs, n_resamples=n_resamples, alternative=alternative,
                               rng=np.random.default_rng(seed) if pvalue_method == "sacrebleu" else rng,
                               confidence_level=confidence_level, pvalue_method=pvalue_method,
                               pvalue_rule=pvalue_rule, clusters=clusters)
    else:
        boot = paired_bootstrap(stats, metric, pairs, n_resamples=n_resamples, rng=rng, alternative=alternative,
                                confidence_level=confidence_level)
        try:
            res = randomization_test(stats, metric, pairs, method="approximate" if test == "randomization"
                                     else "exact-stratified", n_resamples=n_resamples, rng=rng,
                                     alternative=alternative)
        except ValueError as err:  # too many discordant-item kinds for the exact distribution
            raise InputError(f"--test exact-randomization: {str(err).split('; use ')[0]}; "
                             "use --test randomization (approximate) instead") from None
        res = dataclasses.replace(res, confidence_interval=boot.confidence_interval)
    pvalues = np.asarray(res.pvalue, dtype=float)
    adjusted = adjust_pvalues(pvalues, correction)
    rows = [{"system": names[ref], "role": "reference", "score": scores[ref], "score_ci_low": low[ref],
             "score_ci_high": high[ref], "reference": names[ref], "difference": 0.0, "difference_ci_low": np.nan,
             "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan}]
    for j, i in enumerate(others):
        rows.append({"system": names[i], "role": "system", "score": scores[i], "score_ci_low": low[i],
                     "score_ci_high": high[i], "reference": names[ref], "difference": res.statistic[j],
                     "difference_ci_low": res.confidence_interval.low[j],
                     "difference_ci_high": res.confidence_interval.high[j],
                     "pvalue": pvalues[j], "pvalue_adjusted": adjusted[j]})
    out = sorted_by_score(pd.DataFrame(rows), metric.higher_is_better)
    unit = "clusters" if clusters is not None else "items"
    out.attrs.update(metric=metric.name, test=res.method, correction=correction,
                     correction_scope=comparisons_with_reference(len(others)),
                     n_resamples=n_resamples, seed=seed if isinstance(seed, (int, np.integer)) else None,
                     alternative=alternative, confidence_level=confidence_level,
                     intervals="percentile bootstrap, two-sided",
                     claim=f"these runs differ on the population of test {unit} (one run per system; "
                           "not their training procedures)",
                     clusters=int(len(np.unique(clusters))) if clusters is not None else None)
    if test == "bootstrap":
        out.attrs.update(pvalue_method=pvalue_method,
                         pvalue_rule="add-one" if pvalue_method == "sacrebleu" else pvalue_rule)
    else:
        out.attrs["pvalue_rule"] = "add-one" if test == "randomization" else "exact"
    return out


def item_values(stats: np.ndarray, metric: Metric) -> np.ndarray:
    """(systems, items) per-item values of a metric that is their mean (statistics (value, 1) per item, as
    accuracy and a mean item score have); an :class:`InputError` for any other metric."""
    if metric.ratio_of != (0, 1) or stats.shape[-1] != 2 or not np.all(stats[..., 1] == 1):
        raise InputError(f"--test t compares means of per-item values (accuracy, a mean item score); metric "
                         f"{metric.name} is not one (use --test bootstrap)")
    return stats[..., 0]


def _compare_systems_t(names, stats, metric, *, reference, correction, alternative, confidence_level, clusters):
    """:func:`compare_systems` with ``test="t"``: analytic intervals and the paired t-test over items or clusters."""
    from simstats.stats.analytic import paired_difference, score_interval

    values = item_values(stats, metric)
    scores = values.mean(axis=1)
    ref = reference_index(names, scores, metric, reference)
    n_clusters = int(len(np.unique(clusters))) if clusters is not None else None
    level = confidence_level
    intervals = [score_interval(row, clusters=clusters, confidence_level=level) for row in values]
    exact = [interval.method.startswith("Clopper") for interval in intervals]
    others = [i for i in range(len(names)) if i != ref]
    try:
        # the difference is the reference's improvement: reference minus system, system minus reference for a
        # lower-is-better metric (mae)
        tests = [paired_difference(*((values[ref], values[i]) if metric.higher_is_better else (values[i], values[ref])),
                                   clusters=clusters, alternative=alternative, confidence_level=level)
                 for i in others]
    except ValueError as err:
        raise InputError(f"--test t: {err}") from None
    pvalues = np.array([t.pvalue for t in tests], dtype=float)
    adjusted = adjust_pvalues(pvalues, correction)
    rows = [{"system": names[ref], "role": "reference", "score": scores[ref],
             "score_ci_low": intervals[ref].confidence_interval.low,
             "score_ci_high": intervals[ref].confidence_interval.high, "reference": names[ref], "difference": 0.0,
             "difference_ci_low": np.nan, "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan}]
    for j, i in enumerate(others):
        rows.append({"system": names[i], "role": "system", "score": scores[i],
                     "score_ci_low": intervals[i].confidence_interval.low,
                     "score_ci_high": intervals[i].confidence_interval.high, "reference": names[ref],
                     "difference": tests[j].difference, "difference_ci_low": tests[j].confidence_interval.low,
                     "difference_ci_high": tests[j].confidence_interval.high, "pvalue": pvalues[j],
                     "pvalue_adjusted": adjusted[j]})
    out = sorted_by_score(pd.DataFrame(rows), metric.higher_is_better)
    unit = "clusters" if clusters is not None else "items"
    scores_by = ("Clopper-Pearson intervals (every item scores 0 or 1)" if all(exact) else
                 f"t intervals{' (cluster-robust)' if clusters is not None else ''}" if not any(exact) else
                 "Clopper-Pearson intervals where every item scores 0 or 1, else t intervals")
    over = (f"over {n_clusters} clusters (cluster-robust, C / (C - 1), t on C - 1 df)" if clusters is not None
            else "over items (t on n - 1 df)")
    out.attrs.update(metric=metric.name, test=f"paired t-test {over}",
                     correction=correction, correction_scope=comparisons_with_reference(len(others)),
                     n_resamples=None, seed=None, alternative=alternative, confidence_level=confidence_level,
                     intervals=f"scores: {scores_by}; differences: the paired t-test's",
                     claim=f"these runs differ on the population of test {unit} (one run per system; "
                           "not their training procedures)",
                     clusters=n_clusters, pvalue_rule=None)
    return out


def reference_index(names: list, scores, metric: Metric, reference: str) -> int:
    """The index of the reference system: ``reference`` by name, or "best" - the best observed score (the
    lowest for a lower-is-better metric)."""
    if reference == "best":
        return int(np.argmax(scores) if metric.higher_is_better else np.argmin(scores))
    if reference in names:
        return names.index(reference)
    raise InputError(f"reference system {reference!r} not found (systems: {', '.join(names)})")


def comparisons_with_reference(count: int) -> str:
    """The family of a correction over the comparisons with the reference, in words."""
    return f"the {count} comparison{'' if count == 1 else 's'} with the reference"


def sorted_by_score(table: pd.DataFrame, higher_is_better: bool = True, score: str = "score") -> pd.DataFrame:
    """Rows best score first (stable: ties keep their order), the index renumbered; attrs kept."""
    order = np.argsort(-table[score].to_numpy(float) if higher_is_better else table[score].to_numpy(float),
                       kind="stable")
    out = table.iloc[order].reset_index(drop=True)
    out.attrs = dict(table.attrs)
    return out


def _infinite(system, scores: pd.Series) -> None:
    bad = scores[np.isinf(scores.to_numpy(dtype=float))]
    if len(bad):
        raise InputError(f"system {system!r}: scores must be finite numbers, found {bad.iloc[0]} in row "
                         f"{bad.index[0] + 2}")


def _score_groups(table: pd.DataFrame) -> tuple[dict[str, pd.Series], bool]:
    """Scores per system as Series indexed by seed id, and whether seed ids were given.

    Long tables (columns system, score[, seed]): a ``seed`` column names each run's seed;
    without one, runs are numbered in order and cannot be paired.  Wide tables (one column of
    scores per system): a row is one seed (``seed`` column if present, else the row number)."""
    if {"system", "score"} <= set(table.columns):
        has_seed = "seed" in table.columns
        unnamed = np.flatnonzero(table.system.isna().to_numpy())
        if unnamed.size:
            raise InputError(f"row {unnamed[0] + 2}: missing system name")
        groups = {}
        for s, g in table.groupby("system", sort=False):
            scores = pd.to_numeric(g.score, errors="coerce")
            bad = g.score[scores.isna()]
            if len(bad):
                what = "missing score" if pd.isna(bad.iloc[0]) else f"score {bad.iloc[0]!r}"
                raise InputError(f"system {s!r}: {what} (row {bad.index[0] + 2}) is not a number")
            _infinite(s, scores)
            index = g.seed.to_numpy() if has_seed else np.arange(len(g))
            if has_seed and g.seed.isna().any():
                raise InputError(f"system {s!r}: missing seed (row {g.index[np.flatnonzero(g.seed.isna())[0]] + 2})")
            if has_seed and pd.Index(index).has_duplicates:
                j = int(np.flatnonzero(pd.Index(index).duplicated())[0])
                earlier = int(np.flatnonzero(index == index[j])[0])
                raise InputError(f"system {s!r} has several scores for seed {show_value(index[j])} (rows "
                                 f"{g.index[earlier] + 2} and {g.index[j] + 2})")
            groups[str(s)] = pd.Series(scores.to_numpy(float), index=index)
        return groups, has_seed
    if "system" in table.columns and not pd.api.types.is_numeric_dtype(table.system):
        raise InputError(f"long table: column 'score' not found (a long table has columns system, score and "
                         f"optionally seed; columns: {', '.join(map(str, table.columns))})")
    if "seed" in table.columns:
        missing = np.flatnonzero(table.seed.isna().to_numpy())
        if missing.size:
            raise InputError(f"column 'seed': missing seed (row {missing[0] + 2})")
        repeated = np.flatnonzero(table.seed.duplicated().to_numpy())
        if repeated.size:
            j = int(repeated[0])
            earlier = int(np.flatnonzero((table.seed == table.seed.iloc[j]).to_numpy())[0])
            raise InputError(f"column 'seed': seed {show_value(table.seed.iloc[j])} (row {j + 2}) repeats row "
                             f"{earlier + 2} (a wide table has one row per seed)")
    seeds = table["seed"].to_numpy() if "seed" in table.columns else np.arange(len(table))
    groups = {}
    for c in table.columns:
        if c == "seed":
            continue
        col = pd.to_numeric(table[c], errors="coerce")
        bad = table[c][col.isna() & table[c].notna()]
        if len(bad):
            raise InputError(f"system {c!r}: score {bad.iloc[0]!r} (row {bad.index[0] + 2}) is not a number")
        if col.isna().any():
            raise InputError(f"system {c!r}: missing score in row {int(np.flatnonzero(col.isna())[0]) + 2} "
                             "(a wide table needs one score per system and seed; use a long table for unequal runs)")
        _infinite(c, col)
        groups[str(c)] = pd.Series(col.to_numpy(float), index=seeds)
    return groups, True


@renamed_parameters(seed="rng")
def compare_score_distributions(table: pd.DataFrame, *, reference: str = "best", tests=("welch", "mwu"),
                                correction: str = "none", alternative: str = "two-sided", min_scores: int = 3,
                                aso_alpha: float = 0.05, aso_threshold: float | None = None, rng: int = 0,
                                confidence_level: float = 0.95, aso_method: str = "exact") -> pd.DataFrame:
    """Score distributions (one score per run, e.g. per training seed) of each system vs a reference.

    Parameters
    ----------
    table : pandas.DataFrame
        Long (columns system, score and optionally seed) or wide (one column of scores per
        system, one row per seed, optional seed column).
    reference : str
        The system every other is compared with; "best" (default): the highest mean score.
    tests : sequence of {"welch", "mwu", "wilcoxon", "aso"}
        Welch's t-test, Mann-Whitney U (independent runs), Wilcoxon signed-rank (scores paired
        by seed id: an error when a system's seeds differ from the reference's) and ASO's eps_min.
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of each test's p-values over the comparisons with the reference (ASO: the
        level is divided by their number unless "none").
    alternative : {"two-sided", "greater", "less"}
        H1 about the reference's scores against each system's; two-sided by default.  With
        ``reference="best"`` the data choose the reference, so "greater" is one-sided in the
        direction the data chose (about 2 alpha false positives under no difference).
    min_scores : int
        Fewest scores a system may have (at least 2; default 3, as the command).
    aso_alpha : float
        1 - confidence level of ASO's eps_min bound.
    aso_threshold : float, optional
        When given, an ``aso_decision`` column: the reference is declared almost stochastically
        larger when eps_min < threshold.  ASO is not a test at level alpha
        (:data:`simstats.stats.aso.NOT_A_TEST`), so no decision is made without a threshold.
    rng : int
        Seed of ASO's bootstrap.
    confidence_level : float
        Level of the two-sided Welch interval of the difference of means.
    aso_method : {"exact", "grid", "deepsig", "dror2019"}
        ASO computation (:func:`simstats.aso`; "dror2019": Dror et al.'s own script).

    Returns
    -------
    pandas.DataFrame
        One row per system, sorted by mean score (best first): ``role``, n, mean, sd, median,
        min, max, ``difference_mean`` (reference minus system) with its Welch interval, Cohen's d
        (pooled sd), ``pvalue_<test>`` and ``pvalue_<test>_adjusted``, ``eps_min_aso``.
        ``attrs`` holds the claim and every setting.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"system": ["a"] * 5 + ["b"] * 5,
    ...                      "score": [0.80, 0.82, 0.81, 0.79, 0.83, 0.78, 0.80, 0.79, 0.77, 0.81]})
    >>> out = compare_score_distributions(runs)
    >>> print(out[["system", "role", "mean", "pvalue_welch"]].round(4).to_string(index=False))
    system      role  mean  pvalue_welch
         a reference  0.81           NaN
         b    system  0.79        0.0805
    >>> import scipy.stats
    >>> round(float(scipy.stats.ttest_ind(runs.score[:5], runs.score[5:], equal_var=False).pvalue), 4)
    0.0805
    """
    seed = rng
    if min_scores < 2:
        raise InputError(f"the fewest scores a system may have (--min-scores) must be at least 2, got {min_scores}")
    if aso_threshold is not None and not 0 < aso_threshold <= 0.5:
        raise InputError(f"the ASO threshold (--aso-threshold) must be in (0, 0.5], got {aso_threshold}")
    groups, has_seed = _score_groups(table)
    if len(groups) < 2:
        raise InputError(f"need at least two systems to compare, got {len(groups)}")
    if "aso" in tests:
        few = [s for s, v in groups.items() if v.size < ASO_MIN_SCORES]
        if few:
            raise InputError(f"--tests aso needs at least {ASO_MIN_SCORES} scores per system; "
                             f"{', '.join(repr(s) for s in few)} {'has' if len(few) == 1 else 'have'} "
                             f"{', '.join(str(groups[s].size) for s in few)}")
    small = [s for s, v in groups.items() if v.size < min_scores]
    if small:
        raise InputError(f"system(s) {', '.join(map(str, small))} have fewer than {min_scores} scores")
    unknown = [t for t in tests if t not in SCORE_TESTS]
    if unknown:
        raise InputError(f"unknown score test(s) {unknown} (choose from {', '.join(SCORE_TESTS)})")
    if not 0 < confidence_level < 1:
        raise InputError(f"confidence level must be in (0, 1), got {confidence_level}")
    if aso_method not in ASO_METHODS:
        raise InputError(f"unknown ASO method {aso_method!r} (choose from {', '.join(ASO_METHODS)})")
    names = list(groups)
    means = {s: float(v.mean()) for s, v in groups.items()}
    ref = max(means, key=means.get) if reference == "best" else reference
    if ref not in groups:
        raise InputError(f"reference system {ref!r} not found")
    if correction not in CORRECTIONS:
        raise InputError(f"unknown correction {correction!r} (choose from {', '.join(CORRECTIONS)})")
    if "wilcoxon" in tests and not has_seed:
        raise InputError("wilcoxon pairs scores by seed: give a 'seed' column (or a wide table, one row per seed)")
    method = CORRECTIONS[correction]
    rows = []
    aso_comparisons = max(1, len(names) - 1) if method else 1
    tests = list(dict.fromkeys(tests))
    few = [s for s in names if groups[s].size < WARN_SCORES]
    if "aso" in tests and few:
        warnings.warn(f"aso: system(s) {', '.join(map(repr, few))} have fewer than {WARN_SCORES} scores; "
                      "eps_min's bootstrap sd is unreliable", SmallSampleWarning, stacklevel=2)
    r = groups[ref].to_numpy()
    for s in names:
        v = groups[s].to_numpy()
        row = {"system": s, "role": "reference" if s == ref else "system", "n": v.size, "mean": v.mean(),
               "sd": v.std(ddof=1), "median": np.median(v),
               "min": v.min(), "max": v.max(), "reference": ref, "difference_mean": means[ref] - v.mean()}
        if s == ref:
            row.update({"difference_ci_low": np.nan, "difference_ci_high": np.nan, "cohens_d": np.nan})
        else:
            welch = sps.ttest_ind(r, v, equal_var=False)
            ci = welch.confidence_interval(confidence_level)
            pooled = math.sqrt(((r.size - 1) * r.var(ddof=1) + (v.size - 1) * v.var(ddof=1)) / (r.size + v.size - 2))
            row.update({"difference_ci_low": float(ci.low), "difference_ci_high": float(ci.high),
                        "cohens_d": (means[ref] - v.mean()) / pooled if pooled > 0 else np.nan})
        for t in tests:
            if s == ref:
                row["eps_min_aso" if t == "aso" else f"pvalue_{t}"] = np.nan
                if t == "aso" and aso_threshold is not None:
                    row["aso_decision"] = "reference"
                continue
            if t == "aso":
                with warnings.catch_warnings():  # warned above, naming the systems
                    warnings.simplefilter("ignore", SmallSampleWarning)
                    if aso_method == "dror2019":
                        res = dror2019_aso(r, v, confidence_level=1 - aso_alpha, num_comparisons=aso_comparisons,
                                           rng=np.random.default_rng(seed))
                    else:
                        res = aso(r, v, confidence_level=1 - aso_alpha, num_comparisons=aso_comparisons,
                                  method=aso_method, rng=np.random.default_rng(seed))
                row["eps_min_aso"] = res.statistic
                if aso_threshold is not None:
                    row["aso_decision"] = (f"{ref} almost stochastically larger (eps_min < {aso_threshold:g})"
                                           if res.almost_stochastically_larger(aso_threshold) else
                                           f"not shown (eps_min >= {aso_threshold:g})")
                continue
            if t == "wilcoxon":
                a_seeds, b_seeds = groups[ref].index, groups[s].index
                if set(a_seeds) != set(b_seeds):
                    only = sorted(set(a_seeds) ^ set(b_seeds), key=str)
                    raise InputError(f"wilcoxon pairs scores by seed: {s!r} and {ref!r} have different seeds "
                                     f"({len(only)} unmatched: {', '.join(map(str, only[:5]))}"
                                     f"{', ...' if len(only) > 5 else ''})")
                paired = groups[s].reindex(a_seeds).to_numpy()
                row[f"pvalue_{t}"] = SCORE_TESTS[t](r, paired, alternative=alternative).pvalue
                continue
            row[f"pvalue_{t}"] = SCORE_TESTS[t](r, v, alternative=alternative).pvalue
        rows.append(row)
    out = pd.DataFrame(rows)
    for t in tests:
        if t == "aso":
            continue
        mask = (out.system != ref).to_numpy()
        adjusted = np.full(len(out), np.nan)
        adjusted[mask] = adjust_pvalues(out.loc[mask, f"pvalue_{t}"].to_numpy(float), correction)
        out[f"pvalue_{t}_adjusted"] = adjusted
    out = sorted_by_score(out, score="mean")
    out.attrs.update({"tests": list(tests), "reference": ref, "alternative": alternative, "correction": correction,
                      "correction_scope": comparisons_with_reference(len(names) - 1) + ", per test",
                      "claim": "the systems' training procedures differ in score over new seeds, on this test set "
                               "(one score per run)",
                      "confidence_level": confidence_level, "difference_ci": "Welch t interval, two-sided",
                      "effect_size": "Cohen's d (pooled sd)", "pairing": "by seed id" if has_seed else "none",
                      **({"aso_alpha": aso_alpha, "aso_method": aso_method, "aso_threshold": aso_threshold,
                          "seed": seed} if "aso" in tests else {})})
    return out


# --- approaches over seeds x items: `simstats compare` (several seeds per system) and `simstats plan` ---

#: --resample choice -> compare_approaches' resample= and the claim it supports.
RESAMPLE = {"both": ("seeds", "items"), "items": ("items",), "seeds": ("seeds",)}
CLAIMS = {"both": "new seeds and new test items: the approaches on the population of items (and of seeds)",
          "items": "these trained runs on new test items: these models on the population of items "
                   "(seed variance ignored)",
          "seeds": "new seeds on this test set: the approaches on this test set (item variance ignored)"}
#: What the shift convention counts as "at least as extreme" (d: observed difference, d*: replicate).
SHIFT_RULE = {"greater": "replicates with d* >= 2d", "less": "replicates with d* <= 2d",
              "two-sided": "replicates with |d* - d| >= |d|"}


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


def runs_clusters(runs: Runs, table: pd.DataFrame, column: str) -> Runs:
    """``--clusters`` of runs: the cluster of each item in the runs' item order (rows of a wide --approach
    table; sorted item ids of a long table)."""
    items = None if runs.source == "approach" else _sorted_unique(table.item)
    return dataclasses.replace(runs, clusters=item_clusters(table, column, items=items))


def is_long_predictions(table: pd.DataFrame, prediction_column: str | None) -> bool:
    """A long table of predictions: a ``system`` column and a ``seed`` or prediction column
    (or --prediction given).  Wide tables, whatever their columns, are read as before."""
    if "system" not in table.columns:
        return False
    return prediction_column is not None or "seed" in table.columns or "pred" in table.columns


def _sorted_unique(values: pd.Series) -> list:
    unique = pd.unique(values).tolist()
    try:
        return sorted(unique)
    except TypeError:
        return sorted(unique, key=str)


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
    _check_gold(table[gold_column], metric_name, where, numeric(table[pred]))
    gold_by_item = table.groupby("item", sort=False)[gold_column]
    if (gold_by_item.nunique(dropna=False) > 1).any():
        item = (gold_by_item.nunique(dropna=False) > 1).idxmax()
        rows = np.flatnonzero((table.item == item).to_numpy())
        gold = table[gold_column].iloc[rows]
        other = rows[np.flatnonzero((gold != gold.iloc[0]).to_numpy())[0]]
        raise InputError(f"gold column {gold_column!r}: item {show_value(item)} has different gold labels in "
                         f"different rows ({show_value(gold.iloc[0])} in row {table.index[rows[0]] + 2}, "
                         f"{show_value(table[gold_column].iloc[other])} in row {table.index[other] + 2})")
    _check_predictions(table[pred], sorted(pd.unique(table[gold_column]).tolist(), key=str),
                       numeric(table[gold_column]), metric_name, who, where, run_of)
    items = _sorted_unique(table.item)
    wide = pd.DataFrame({gold_column: gold_by_item.first().reindex(items).to_numpy()})
    labels, seeds, run_columns, incomplete = [], [], [], []
    for name in names:
        rows = table[table.system == name]
        for seed in _sorted_unique(rows.seed):
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
                         f"{len(lacking)} of the {len(items)} items (first: {_ids(lacking)})"
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


def _one_seed(runs: Runs, resample: str, test: str = "bootstrap") -> None:
    few = [name for name in runs.names if runs.count(name) < 2]
    if few and test == "t":
        raise InputError(f"approach {few[0]!r} has one seed (run): the approach t-test estimates the seed variance "
                         "and needs at least 2 per approach (give more seeds, or --test bootstrap --resample items "
                         "for these runs on new items)")
    if few and "seeds" in RESAMPLE[resample]:
        raise InputError(f"approach {few[0]!r} has one seed (run): --resample {resample} resamples seeds and needs "
                         "at least 2 per approach (give more seeds, or --resample items for these runs on new items)")


#: Tests of approaches over seeds x items (``compare --test``).
APPROACH_TESTS = ("t", "bootstrap")


@renamed_parameters(seed="rng")
def compare_approach_runs(runs: Runs, *, test: str = "t", resample: str = "both", reference: str = "best",
                          alternative: str = "two-sided", n_resamples: int = 10_000, rng: int = 0,
                          confidence_level: float = 0.95, correction: str = "none", paired_seeds=None,
                          margin: float | None = None, claim: str = "non-inferiority", alpha: float = 0.05,
                          variance: str = "moments") -> pd.DataFrame:
    """Each approach against the reference approach, over new seeds and new test items.

    Parameters
    ----------
    runs : Runs
        The runs of every approach (:func:`runs_from_long`, :func:`runs_from_approaches`).
    test : {"t", "bootstrap"}
        ``"t"``: :func:`simstats.approach_t_test` (the default); ``"bootstrap"``:
        :func:`simstats.compare_approaches`, resampling what ``resample`` names.
    resample : {"both", "items", "seeds"}
        What the bootstrap resamples (the t-test's claim is about both).
    reference : str
        The approach every other is compared with; "best" (default): the best mean score.
    alternative : {"two-sided", "greater", "less"}
        H1 about the reference's improvement over each approach.
    n_resamples : int
        Bootstrap resamples (``test="bootstrap"`` or ``variance="bootstrap"``).
    rng : int
        The bootstrap uses ``rng`` (an int seed) in every comparison, as a direct call would.
    confidence_level : float
        Level of the intervals of the differences.
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the p-values over the comparisons with the reference.
    paired_seeds : bool, optional
        As in :func:`simstats.approach_t_test`.
    margin : float, optional
        With ``margin`` (t-test only) each row also tests the ``claim`` that the reference is
        non-inferior to the approach (at most ``margin`` worse) or equivalent to it (within
        ``margin``), :func:`simstats.approach_margin_test` at ``alpha``: ``claim_pvalue``,
        ``claim_shown``.
    claim : {"non-inferiority", "equivalence"}
        The claim tested with ``margin``.
    alpha : float
        Level of the verdicts.
    variance : {"moments", "bootstrap"}
        ``"bootstrap"`` (t-test only): the variance of the difference from the seeds x items
        bootstrap corrected for the crossed design (``n_resamples``, ``rng``).

    Returns
    -------
    pandas.DataFrame
        One row per approach: runs, mean score over its runs and their sd; for the others, the
        reference's improvement (difference of approach means) with its interval, the p-value,
        the corrected p-value and the variance of the difference by source (``var_seeds``,
        ``var_items``, ``var_residual``); the t-test adds its degrees of freedom (``df``) and
        whether its variance was floored.  The column ``verdict`` states each row's answer in
        words (the difference at ``alpha``, or the claim).  Rows are sorted by score (best
        first), the reference marked in column ``role``; ``attrs`` holds the claim and every
        setting.

    Raises
    ------
    InputError
        If an option is invalid or does not apply to ``test``, the reference is unknown, an
        approach has one run where seeds are resampled (or for the t-test), or a comparison fails.

    Examples
    --------
    Three seeds of each of two approaches on 60 items, seeds paired by position:

    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 2, 60)
    >>> table = pd.DataFrame({"gold": gold})
    >>> for name, skill in (("A", 0.85), ("B", 0.75)):
    ...     for seed in (1, 2, 3):
    ...         table[f"{name}{seed}"] = np.where(rng.random(60) < skill, gold, 1 - gold)
    >>> runs = runs_from_approaches(table, "gold", ["A=A1,A2,A3", "B=B1,B2,B3"], paired_by_position=True)
    >>> out = compare_approach_runs(runs)
    >>> print(out[["system", "role", "runs", "score", "difference", "pvalue"]].round(4).to_string(index=False))
    system      role  runs  score  difference  pvalue
         A reference     3 0.7889      0.0000     NaN
         B    system     3 0.7222      0.0667  0.3465

    The difference is that of the mean accuracies, the p-value :func:`simstats.approach_t_test`'s:

    >>> correct = table.iloc[:, 1:].eq(table.gold, axis=0)
    >>> round(float(correct.iloc[:, :3].mean().mean() - correct.iloc[:, 3:].mean().mean()), 4)
    0.0667
    >>> round(approach_t_test(runs.stats, runs.metric, runs.approach, runs.seed).pvalue, 4)
    0.3465
    """
    seed = rng
    if variance not in ("moments", "bootstrap"):
        raise InputError(f"--variance must be moments or bootstrap, got {variance!r}")
    if variance != "moments" and test != "t":
        raise InputError("--variance applies to the approach t-test (--test t)")
    if margin is not None and test != "t":
        raise InputError("--margin applies to the approach t-test (--test t)")
    if test not in APPROACH_TESTS:
        raise InputError(f"the approach test must be one of {', '.join(APPROACH_TESTS)}, got {test!r}")
    if resample not in RESAMPLE:
        raise InputError(f"--resample must be one of {', '.join(RESAMPLE)}, got {resample!r}")
    if test == "t" and resample != "both":
        raise InputError(f"--resample {resample} applies to --test bootstrap; the t-test's claim is about new seeds "
                         "and new test items")
    if correction not in CORRECTIONS:
        raise InputError(f"unknown correction {correction!r} (choose from {', '.join(CORRECTIONS)})")
    _one_seed(runs, resample, test)
    scores = runs.scores()
    means = {name: float(scores[runs.approach == name].mean()) for name in runs.names}
    if reference == "best":
        pick = max if runs.metric.higher_is_better else min
        ref = pick(runs.names, key=means.get)
    elif reference in runs.names:
        ref = reference
    else:
        raise InputError(f"reference {reference!r} not found (systems: {', '.join(runs.names)})")
    others = [name for name in runs.names if name != ref]
    results, claims = [], []
    for name in others:
        idx = np.flatnonzero((runs.approach == ref) | (runs.approach == name))
        common = dict(approaches=(ref, name), alternative=alternative, confidence_level=confidence_level,
                      paired_seeds=paired_seeds, clusters=runs.clusters)
        try:
            if test == "t":
                how = dict(variance=variance, n_resamples=n_resamples, rng=seed)
                results.append(approach_t_test(runs.stats[idx], runs.metric, runs.approach[idx], runs.seed[idx],
                                               **common, **how))
                if margin is not None:
                    claims.append(approach_margin_test(runs.stats[idx], runs.metric, runs.approach[idx],
                                                       runs.seed[idx], margin=margin, hypothesis=claim, alpha=alpha,
                                                       approaches=(ref, name), paired_seeds=paired_seeds,
                                                       clusters=runs.clusters, **how))
            else:
                results.append(compare_approaches(runs.stats[idx], runs.metric, runs.approach[idx], runs.seed[idx],
                                                  resample=RESAMPLE[resample], n_resamples=n_resamples, rng=seed,
                                                  **common))
        except ValueError as err:
            raise InputError(f"{ref} vs {name}: {err}") from None
    adjusted = adjust_pvalues(np.array([r.pvalue for r in results], dtype=float), correction)

    def spread(name):
        s = scores[runs.approach == name]
        return float(s.std(ddof=1)) if s.size > 1 else np.nan

    def variance_part(res, source):
        return res.variance["units" if test == "t" and source == "items" else source]

    blank = {"difference_ci_low": np.nan, "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan,
             **({"df": np.nan} if test == "t" else {}), "var_seeds": np.nan, "var_items": np.nan,
             "var_residual": np.nan, "paired_seeds": np.nan, **({"floored": np.nan} if test == "t" else {}),
             **({"claim_pvalue": np.nan, "claim_shown": np.nan} if claims else {}), "verdict": "reference"}
    rows = [{"system": ref, "role": "reference", "runs": runs.count(ref), "score": means[ref], "score_sd": spread(ref), "reference": ref,
             "difference": 0.0, **blank}]
    for name, res, adj in zip(others, results, adjusted):
        row = {"system": name, "role": "system", "runs": runs.count(name), "score": means[name], "score_sd": spread(name),
               "reference": ref, "difference": res.statistic, "difference_ci_low": res.confidence_interval.low,
               "difference_ci_high": res.confidence_interval.high, "pvalue": res.pvalue,
               "pvalue_adjusted": float(adj)}
        if test == "t":
            row["df"] = res.df
        row.update({f"var_{source}": variance_part(res, source) for source in ("seeds", "items", "residual")})
        row["paired_seeds"] = res.paired_seeds
        if test == "t":
            row["floored"] = res.floored
        if claims:
            c = claims[len(rows) - 1]
            row.update(claim_pvalue=c.pvalue, claim_shown=c.shown, verdict=c.verdict)
        else:
            row["verdict"] = (f"{ref} and {name} differ: adjusted p = {adj:.2g} < {alpha:g}" if adj < alpha else
                              f"{ref} and {name} are not shown to differ: adjusted p = {adj:.2g} >= {alpha:g}")
        rows.append(row)
    out = sorted_by_score(pd.DataFrame(rows), runs.metric.higher_is_better)
    common_attrs = dict(metric=runs.metric.name, correction=correction,
                        correction_scope=comparisons_with_reference(len(others)), alternative=alternative, alpha=alpha,
                        margin=margin, margin_claim=claim if margin is not None else None,
                        confidence_level=confidence_level, items=int(runs.stats.shape[1]),
                        clusters=int(runs.clusters.max() + 1) if runs.clusters is not None else None,
                        difference="reference minus system: difference of the approaches' mean scores over seeds")
    if test == "t":
        out.attrs.update(test="approach t-test (approach_t_test)", claim=CLAIMS["both"], variance_estimate=variance,
                         **({"n_resamples": n_resamples, "seed": seed} if variance == "bootstrap" else {}),
                         target=TARGETS[("items", "seeds")], **common_attrs,
                         pvalue_method="fitted-components reference: the null distribution of difference / se "
                                       "under the fitted variance components (approach_t_test, "
                                       "reference='parametric')",
                         df="Satterthwaite's degrees of freedom of the variance estimate, a summary",
                         intervals="two-sided, from the same reference distribution",
                         variance="estimated variance of the difference over new seeds and new items (method of "
                                  "moments): var_seeds (seed effects), var_items (approach x item effects), "
                                  "var_residual (run x item noise); the three sum to it unless floored")
    else:
        out.attrs.update(test="approach bootstrap (compare_approaches)", resample=resample,
                         target=results[0].target if results else "", claim=CLAIMS[resample], pvalue_method="shift",
                         pvalue_rule="add-one", extreme=f"c = {SHIFT_RULE[alternative]}: p = (c + 1)/(B + 1)", n_resamples=n_resamples, seed=seed, **common_attrs,
                         intervals="percentile bootstrap, two-sided",
                         variance="bootstrap variance of the difference: var_seeds (seeds only), var_items (items "
                                  "only), var_residual (the seeds x items variance minus the two; the three sum to "
                                  "it)")
    return out


def plan_from_runs(runs: Runs, *, seeds=(3, 5, 10, 20), items=None, alpha: float = 0.05, target: float = 0.8,
                   difference=None, confidence: float = 0.95, paired_seeds=None) -> pd.DataFrame:
    """The planner (:mod:`simstats.stats.power`) on pilot runs of exactly two approaches.

    Parameters
    ----------
    runs : Runs
        Pilot runs of two approaches, at least 2 seeds each, on at least 2 items.
    seeds : sequence of int
        Planned numbers of seeds per approach.
    items : sequence of int, optional
        Planned numbers of test items (default: the planner's).
    alpha : float
        Level of the planned two-sided approach t-test.
    target : float
        Target power.
    difference : float, optional
        The difference to detect (default: the pilot's observed difference).
    confidence : float
        Level of the intervals from the pilot's uncertainty.
    paired_seeds : bool, optional
        As in :func:`simstats.approach_t_test`.

    Returns
    -------
    pandas.DataFrame
        One row per (seeds, items): ``se`` of the estimated difference, the planned t-test's
        ``df``, ``mdd`` (minimum detectable difference at ``target`` power) and ``power`` against
        ``difference``, each with its ``confidence`` interval from the pilot's uncertainty
        (``mdd_low``/``mdd_high``, ``power_low``/``power_high``).  ``attrs`` holds the variance
        components, those floored at 0, and per number of seeds the fewest items that reach the
        target power (``items_needed``; None: no number of items does).

    Raises
    ------
    InputError
        If the runs are not of exactly two approaches, an approach has one run, there are fewer
        than 2 items, or the variance components cannot be estimated.

    Examples
    --------
    A pilot of three paired seeds per approach on 60 items:

    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 2, 60)
    >>> table = pd.DataFrame({"gold": gold})
    >>> for name, skill in (("A", 0.85), ("B", 0.75)):
    ...     for seed in (1, 2, 3):
    ...         table[f"{name}{seed}"] = np.where(rng.random(60) < skill, gold, 1 - gold)
    >>> runs = runs_from_approaches(table, "gold", ["A=A1,A2,A3", "B=B1,B2,B3"], paired_by_position=True)
    >>> out = plan_from_runs(runs, seeds=(3, 10), items=(60, 600))
    >>> print(out[["seeds", "items", "se", "mdd", "power"]].round(4).to_string(index=False))
     seeds  items     se    mdd  power
         3     60 0.0630 0.2362 0.1513
         3    600 0.0387 0.1759 0.3014
        10     60 0.0443 0.1285 0.3070
        10    600 0.0230 0.0689 0.7745
    >>> out.attrs["items_needed"]
    {'3': None, '10': 806}

    At the pilot's own design the planned standard error is the t-test's on the pilot:

    >>> round(approach_t_test(runs.stats, runs.metric, runs.approach, runs.seed).standard_error, 4)
    0.063
    """
    if len(runs.names) != 2:
        raise InputError(f"plan needs exactly two approaches, got {len(runs.names)} ({', '.join(runs.names)}); "
                         "choose two with --systems (long table) or --approach")
    few = [name for name in runs.names if runs.count(name) < 2]
    if few:
        raise InputError(f"approach {few[0]!r} has one seed (run): the planner needs at least 2 pilot seeds per "
                         "approach")
    if runs.stats.shape[1] < 2:
        raise InputError("the planner needs at least 2 test items")
    try:
        comp = variance_components(runs.stats, runs.metric, runs.approach, runs.seed, approaches=runs.names,
                                   paired_seeds=paired_seeds, clusters=runs.clusters)
    except ValueError as err:
        raise InputError(f"plan: {err}") from None
    observed = difference is None
    difference = abs(comp.difference) if observed else float(difference)
    out = plan(comp, seeds=seeds, items=items, difference=difference, alpha=alpha, target=target,
               confidence=confidence)
    grid = seeds_items_grid(comp, difference, seeds=seeds, alpha=alpha, target=target) if difference > 0 else None
    needed = {} if grid is None else {str(k): (None if math.isnan(n) else int(n))
                                      for k, n in zip(grid.seeds, grid.items_needed)}
    out.attrs.update(metric=runs.metric.name, approaches=list(runs.names), pilot_runs=list(comp.runs),
                     pilot_items=comp.items, pilot_clusters=bool(runs.clusters is not None),
                     paired_seeds=comp.paired, pilot_difference=comp.difference, sigma2_seed=comp.seed,
                     sigma2_interaction=comp.interaction, sigma2_residual=comp.residual,
                     floored=list(comp.floored), alpha=alpha, target_power=target, confidence_level=confidence,
                     power_difference=difference,
                     power_difference_source="the pilot's observed difference" if observed else "--difference",
                     items_needed=needed,
                     test="two-sided approach t-test over seeds x items (simstats compare's default)",
                     claim=CLAIMS["both"])
    return out


def plan_one_run(names, stats, metric: Metric, *, items=None, alpha: float = 0.05, target: float = 0.8,
                 difference=None, confidence: float = 0.95, clusters=None, rates=None) -> pd.DataFrame:
    """The planner for one run per system (:func:`simstats.stats.power.paired_plan`).

    A paired comparison of two runs on new test items, from a pilot (``names``, ``stats``
    (2, items, k) of two runs, per cluster with ``clusters``) or from ``rates`` = (accuracy A,
    accuracy B, disagreement rate).

    Parameters
    ----------
    names : sequence of str
        The two systems (ignored with ``rates``).
    stats : array (2, items, k)
        Pilot per-item statistics of the two runs (ignored with ``rates``).
    metric : Metric
        The metric (ignored with ``rates``: accuracy).
    items : sequence of int, optional
        Planned numbers of test items (default: 1, 2 and 4 times the pilot's; required with
        ``rates``).
    alpha : float
        Level of the planned two-sided test.
    target : float
        Target power.
    difference : float, optional
        The difference to detect (default: the pilot's observed difference; from rates,
        accuracy A minus accuracy B).
    confidence : float
        Level of the intervals from the pilot.
    clusters : array (items,), optional
        Cluster id per pilot item.
    rates : (float, float, float), optional
        (accuracy A, accuracy B, disagreement rate) instead of a pilot.

    Returns
    -------
    pandas.DataFrame
        One row per number of items: ``se``, ``mdd`` and ``power`` against ``difference`` with
        their ``confidence`` intervals from the pilot.  ``attrs``: the variance of the per-item
        difference, ``items_needed``, and ``few_discordant``: the planned item counts at which the
        runs would differ on fewer than :data:`~simstats.stats.power.MIN_DISCORDANT` items, where
        the paired bootstrap has less power than predicted.

    Raises
    ------
    InputError
        If there are not exactly two systems, ``rates`` are invalid or come without ``items``,
        or the pilot's variance cannot be estimated.

    Examples
    --------
    From rates: accuracies 0.80 and 0.78, the runs disagreeing on 10 % of the items.  The per-item
    difference is -1, 0 or 1, with variance 0.10 - 0.02^2:

    >>> import numpy as np
    >>> out = plan_one_run(None, None, None, rates=(0.80, 0.78, 0.10), items=(500, 1000, 2000))
    >>> print(out[["items", "se", "mdd", "power"]].round(4).to_string(index=False))
     items     se    mdd  power
       500 0.0141 0.0394 0.2930
      1000 0.0100 0.0279 0.5168
      2000 0.0071 0.0198 0.8086
    >>> round(float(np.sqrt((0.10 - 0.02 ** 2) / 1000)), 4)
    0.01
    >>> out.attrs["items_needed"], out.attrs["few_discordant"]
    (1957, [500])
    """
    if rates is not None:
        try:
            var = paired_item_variance_from_rates(*rates)
        except (TypeError, ValueError) as err:
            raise InputError(f"--rates: {err}") from None
        names, share, pilot_items = ["A", "B"], float(rates[2]), None
        if items is None:
            raise InputError("--rates needs --items (the planned test-set sizes)")
    else:
        if len(names) != 2:
            raise InputError(f"plan with one run per system needs exactly two systems, got {len(names)} "
                             f"({', '.join(map(str, names))}); choose two with --systems")
        try:
            var = paired_item_variance(stats, metric, clusters=clusters)
        except ValueError as err:
            raise InputError(f"plan: {err}") from None
        values = oriented_unit_values(np.asarray(stats, dtype=np.float64), metric, clusters)
        share = float(np.mean(values[0] != values[1]))
        pilot_items = var.units
        items = (pilot_items, 2 * pilot_items, 4 * pilot_items) if items is None else items
    observed = difference is None
    difference = abs(var.difference) if observed else float(difference)
    try:
        out = paired_plan(var, items=items, difference=difference, alpha=alpha, target=target, confidence=confidence)
    except ValueError as err:
        raise InputError(f"plan: {err}") from None
    out.attrs["claim"] = "these two runs on new test items (not their training procedures: that needs several seeds)"
    out.attrs.update(metric=metric.name if rates is None else "accuracy", systems=[str(n) for n in names],
                     pilot_items=pilot_items, pilot_clusters=clusters is not None,
                     pilot_difference=var.difference, variance_per_item=var.variance, alpha=alpha,
                     target_power=target, confidence_level=confidence, power_difference=difference,
                     power_difference_source=("accuracy A minus accuracy B" if rates is not None and observed else
                                              "the pilot's observed difference" if observed else "--difference"),
                     differing_share=share,
                     few_discordant=[int(n) for n in items if n * share < MIN_DISCORDANT],
                     test="two-sided paired test of two runs on new test items (simstats compare's default with "
                          "one run per system: the paired bootstrap)")
    return out
