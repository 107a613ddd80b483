"""``simstats fit``: a user's runs table to a fitted noise scenario (:mod:`simstats.sim.fit`).

Two table shapes:

* item level: one row per run and item, with columns ``seed`` (the run), ``item`` and either a 0/1
  ``correct`` column or a prediction and a gold label; optionally ``split`` (dev/test; default: every
  row is test), a cluster column and a ``system`` column (one system, or choose one);
* run level: one row per run with its ``test`` score (and ``dev`` score), or long rows
  (``seed``, ``split``, ``score``); optionally groups of runs that share a configuration.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from dataclasses import dataclass

from simstats.io.checks import InputError
from simstats.sim.fit import FitError, ScenarioFit, fit_outcomes, fit_scores

__all__ = ["FitOptions", "fit_table", "select_rows"]


@dataclass(frozen=True)
class FitOptions:
    """How :func:`fit_table` reads a runs table and fits it (the options of ``simstats fit``).

    Column names left None take their defaults: ``run`` seed or run, ``item`` item, ``split`` split,
    ``outcome`` correct, ``prediction`` pred or prediction, ``gold`` y or gold, ``test_column`` test,
    ``dev_column`` dev, ``score`` score.

    Attributes
    ----------
    where : list of str, optional
        ``COLUMN=VALUE`` conditions every kept row meets.
    run, item, split, outcome, prediction, gold, test_column, dev_column, score : str, optional
        Column names (above).
    system : str, optional
        The system to fit, when a ``system`` column names several.
    clusters : str, optional
        Cluster (document) id column of item-level rows.
    group : list of str, optional
        Run level: columns whose values together name a configuration.
    metric : {"accuracy", "recall", "precision", "f1"}
        The scores' metric.
    test_size, dev_size : int, optional
        Run level: test and dev items.
    assume_item_share : float
        Run level without dev scores: the assumed share sigma_item^2 of the latent noise variance.
    confidence_level : float
        Level of every interval.
    n_resamples : int
        Item level: bootstrap resamples of the item (cluster) correlations.
    failure_alpha : float
        Level of the test that flags failed runs; 0 turns it off.
    rng : int
        Seed of the bootstrap and pivotal draws.
    """
    where: list[str] | None = None
    run: str | None = None
    item: str | None = None
    split: str | None = None
    outcome: str | None = None
    prediction: str | None = None
    gold: str | None = None
    system: str | None = None
    clusters: str | None = None
    test_column: str | None = None
    dev_column: str | None = None
    score: str | None = None
    group: list[str] | None = None
    metric: str = "accuracy"
    test_size: int | None = None
    dev_size: int | None = None
    assume_item_share: float = 0.5
    confidence_level: float = 0.95
    n_resamples: int = 200
    failure_alpha: float = 0.01
    rng: int = 0

RUN_COLUMNS = ("seed", "run")


def _row(index) -> int:
    """A table row as the file's line (the first row after the header is row 2)."""
    return int(index) + 2


def select_rows(table: pd.DataFrame, where: list[str] | None) -> pd.DataFrame:
    """Rows whose COLUMN equals VALUE for every ``COLUMN=VALUE`` of ``where`` (compared as text)."""
    for condition in where or ():
        column, sep, value = condition.partition("=")
        if not sep or not column:
            raise InputError(f"--where needs COLUMN=VALUE, got {condition!r}")
        if column not in table.columns:
            raise InputError(f"--where: no column {column!r} (columns: {', '.join(map(str, table.columns))})")
        table = table[table[column].astype(str) == value]
        if table.empty:
            raise InputError(f"--where {condition}: no row matches")
    return table


def _column(table: pd.DataFrame, given: str | None, defaults: tuple, what: str, required: bool = True):
    if given is not None:
        if given not in table.columns:
            raise InputError(f"no {what} column {given!r} (columns: {', '.join(map(str, table.columns))})")
        return given
    for name in defaults:
        if name in table.columns:
            return name
    if required:
        raise InputError(f"no {what} column: name one ({' or '.join(defaults)} by default)")
    return None


def _numeric(values: pd.Series, what: str) -> np.ndarray:
    empty = values.isna()
    if empty.any():
        raise InputError(f"{what}: row {_row(values.index[empty.to_numpy().nonzero()[0][0]])} is empty")
    out = pd.to_numeric(values, errors="coerce")
    bad = out.isna()
    if bad.any():
        row = bad.to_numpy().nonzero()[0][0]
        raise InputError(f"{what}: row {_row(values.index[row])} is not a number: {values.iloc[row]!r}")
    return out.to_numpy(dtype=float)


def _splits(table: pd.DataFrame, column: str | None) -> pd.Series:
    if column is None:
        return pd.Series("test", index=table.index)
    split = table[column].astype(str).str.lower()
    bad = ~split.isin(("dev", "test"))
    if bad.any():
        row = bad.to_numpy().nonzero()[0][0]
        raise InputError(f"{column}: row {_row(table.index[row])} is {table[column].iloc[row]!r}; splits are dev "
                         "and test")
    return split


def _item_level(table, run_col, item_col, args) -> ScenarioFit:
    if "system" in table.columns:
        systems = sorted(table["system"].astype(str).unique())
        if args.system is None and len(systems) > 1:
            raise InputError(f"the table has {len(systems)} systems ({', '.join(systems[:5])}"
                             f"{', ...' if len(systems) > 5 else ''}): choose one with --system")
        if args.system is not None:
            if args.system not in systems:
                raise InputError(f"--system {args.system!r}: not in the table's systems ({', '.join(systems[:5])})")
            table = table[table["system"].astype(str) == args.system]
    elif args.system is not None:
        raise InputError("--system needs a system column")
    if args.outcome is not None or "correct" in table.columns:
        col = _column(table, args.outcome, ("correct",), "outcome")
        correct = _numeric(table[col], col)
        if not np.isin(correct, (0, 1)).all():
            row = int(np.flatnonzero(~np.isin(correct, (0, 1)))[0])
            raise InputError(f"{col}: row {_row(table.index[row])} is {correct[row]:g}; outcomes are 0 or 1")
    else:
        pred = _column(table, args.prediction, ("pred", "prediction"), "prediction")
        gold = _column(table, args.gold, ("y", "gold"), "gold label")
        for col in (pred, gold):
            if table[col].isna().any():
                row = table.index[table[col].isna().to_numpy()][0]
                raise InputError(f"{col}: row {_row(row)} is empty")
        correct = (table[pred].astype(str) == table[gold].astype(str)).to_numpy(dtype=float)
    split = _splits(table, _column(table, args.split, ("split",), "split", required=False))
    frame = pd.DataFrame({"run": table[run_col].astype(str).to_numpy(), "item": table[item_col].astype(str).to_numpy(),
                          "split": split.to_numpy(), "y": correct})
    if args.clusters is not None:
        if args.clusters not in table.columns:
            raise InputError(f"--clusters: no column {args.clusters!r}")
        missing = table[args.clusters].isna()
        if missing.any():
            raise InputError(f"{args.clusters}: row {_row(table.index[missing.to_numpy()][0])} has no cluster id")
        frame["cluster"] = table[args.clusters].astype(str).to_numpy()
        ids = frame.drop_duplicates(["split", "item", "cluster"])
        twice = ids.duplicated(["split", "item"])
        if twice.any():
            item = ids[twice].iloc[0]
            raise InputError(f"{args.clusters}: item {item['item']!r} ({item['split']}) is in two clusters; an "
                             "item's cluster is the same for every run")
    dup = frame.duplicated(["run", "item", "split"])
    if dup.any():
        row = table.index[dup.to_numpy()][0]
        raise InputError(f"row {_row(row)}: run {frame.run[dup].iloc[0]!r} has item {frame.item[dup].iloc[0]!r} twice")
    outcomes, clusters = {}, {}
    runs = sorted(frame.run.unique())
    for s, part in frame.groupby("split"):
        wide = part.pivot(index="run", columns="item", values="y")
        missing = wide.isna()
        if missing.to_numpy().any():
            r, i = np.argwhere(missing.to_numpy())[0]
            raise InputError(f"{s}: run {wide.index[r]!r} has no outcome for item {wide.columns[i]!r} "
                             "(every run needs every item of the split)")
        if sorted(wide.index) != runs:
            absent = sorted(set(runs) - set(wide.index))
            raise InputError(f"{s}: run {absent[0]!r} has no rows in this split")
        outcomes[s] = wide.loc[runs].to_numpy()
        if args.clusters is not None:
            ids = part.drop_duplicates("item").set_index("item")["cluster"]
            clusters[s] = ids.loc[wide.columns].to_numpy()
    if "test" not in outcomes:
        raise InputError("no test rows: the split column needs test rows")
    return fit_outcomes(outcomes, clusters or None, confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                        failure_alpha=args.failure_alpha, rng=args.rng, runs=runs)


def _run_level(table, run_col, args) -> ScenarioFit:
    groups = None
    if args.group:
        for g in args.group:
            if g not in table.columns:
                raise InputError(f"--group: no column {g!r}")
        groups = table[args.group].astype(str).agg("|".join, axis=1).to_numpy()
    scores = {}
    labels = ([str(v) for v in table[run_col]] if run_col is not None else
              [f"on row {_row(i)}" for i in table.index])
    if args.test_column is not None or "test" in table.columns:
        test_col = _column(table, args.test_column, ("test",), "test score")
        scores["test"] = _numeric(table[test_col], test_col)
        dev_col = _column(table, args.dev_column, ("dev",), "dev score", required=False)
        if dev_col is not None:
            scores["dev"] = _numeric(table[dev_col], dev_col)
    else:
        score_col = _column(table, args.score, ("score",), "score")
        split = _splits(table, _column(table, args.split, ("split",), "split", required=False))
        if run_col is None:
            if (split == "dev").any():
                raise InputError("long rows with dev and test scores need a run column (seed or run)")
            scores["test"] = _numeric(table[score_col], score_col)
        else:
            frame = pd.DataFrame({"run": table[run_col].astype(str).to_numpy(), "split": split.to_numpy(),
                                  "score": _numeric(table[score_col], score_col)})
            if groups is not None:
                frame["group"] = groups
            dup = frame.duplicated(["run", "split"])
            if dup.any():
                raise InputError(f"row {_row(table.index[dup.to_numpy()][0])}: run {frame.run[dup].iloc[0]!r} has two "
                                 f"{frame.split[dup].iloc[0]} scores")
            wide = frame.pivot(index="run", columns="split", values="score")
            if wide.isna().to_numpy().any():
                r, c = np.argwhere(wide.isna().to_numpy())[0]
                raise InputError(f"run {wide.index[r]!r} has no {wide.columns[c]} score")
            scores = {s: wide[s].to_numpy() for s in wide.columns}
            labels = list(wide.index)
            if groups is not None:
                groups = frame.drop_duplicates("run").set_index("run").loc[wide.index, "group"].to_numpy()
    sizes = {}
    for s, value in (("test", args.test_size), ("dev", args.dev_size)):
        if value is not None:
            sizes[s] = value
    if "test" not in sizes:
        raise InputError("run-level scores need --test-size (items, or gold items for f1/precision/recall)")
    if "dev" in scores and "dev" not in sizes:
        sizes["dev"] = sizes["test"]
    return fit_scores(scores, metric=args.metric, sizes=sizes, groups=groups, confidence_level=args.confidence_level,
                      assumed_item_share=args.assume_item_share, failure_alpha=args.failure_alpha, rng=args.rng,
                      runs=labels)


def fit_table(table: pd.DataFrame, options: FitOptions | None = None) -> ScenarioFit:
    """Fit a scenario to a runs table (the module docstring's shapes) with ``options``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame({"seed": range(8), "test": 0.8 + rng.normal(0, 0.01, 8)})
    >>> fit = fit_table(runs, FitOptions(test_size=1000))
    >>> fit.family
    'normal'
    """
    args = FitOptions() if options is None else options
    table = select_rows(table, args.where)
    if table.empty:
        raise InputError("the table has no rows")
    run_col = _column(table, args.run, RUN_COLUMNS, "run", required=False)
    item_col = _column(table, args.item, ("item",), "item", required=False)
    try:
        if item_col is not None:
            if run_col is None:
                raise InputError("item-level rows need a run column (seed or run)")
            if args.metric != "accuracy":
                raise InputError(f"item-level outcomes are fitted as accuracy (correct or not), not {args.metric}: "
                                 "fit f1 tasks from run-level scores")
            return _item_level(table, run_col, item_col, args)
        return _run_level(table, run_col, args)
    except FitError as err:
        raise InputError(str(err)) from None
