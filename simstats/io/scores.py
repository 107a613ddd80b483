"""A generic long table of per-item scores: ``model, item, score`` and optionally ``task``, ``epoch``
and a cluster column.

Scores are numbers: 0/1 correctness, a judge's grade, partial credit, a per-item metric value.  Each
row is one sample of one item by one model; several rows of an item are its epochs (repeats).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.io.checks import InputError, check_names, not_usable, show_value, usable
from simstats.io.formats import COLUMNS

__all__ = ["read_scores"]

REQUIRED = ("model", "item", "score")


def read_scores(table: pd.DataFrame, *, cluster_column: str | None = None) -> pd.DataFrame:
    """The rows of a long table of scores, checked, in the readers' shape (:data:`simstats.io.formats.COLUMNS`).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``model`` (or ``system``), ``item``, ``score``; optionally ``task`` (default: one
        task named "-"), ``epoch`` (default: each row of a (model, task, item) is the next epoch)
        and ``cluster_column``.
    cluster_column : str, optional
        Column of the items' cluster ids (subjects, documents).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`simstats.io.formats.COLUMNS`, one row per sample.

    Raises
    ------
    simstats.io.checks.InputError
        One line naming the column, the value and its row (the file's line: the first data row is
        row 2): a missing column, a missing or non-numeric score, a missing model or item, a repeated
        (model, task, item, epoch).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"model": ["a", "a", "b", "b"], "item": [1, 2, 1, 2], "score": [1, 0.5, 0, 1]})
    >>> print(read_scores(rows)[["model", "task", "item", "score", "epoch"]].to_string(index=False))
    model task  item  score  epoch
        a    -     1    1.0      0
        a    -     2    0.5      0
        b    -     1    0.0      0
        b    -     2    1.0      0
    """
    frame = table.rename(columns={"system": "model"}) if "model" not in table and "system" in table else table
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise InputError(f"scores table: column(s) {', '.join(map(repr, missing))} not found (columns: "
                         f"{', '.join(map(str, table.columns))}); a scores table has model, item, score and "
                         "optionally task, epoch and a cluster column")
    if cluster_column is not None and cluster_column not in frame.columns:
        raise InputError(f"--clusters: column {cluster_column!r} not found (columns: "
                         f"{', '.join(map(str, table.columns))})")
    check_names(frame, ("model", "item", "task"), "scores table")
    scores = pd.to_numeric(frame.score, errors="coerce")
    bad = np.flatnonzero(~usable(frame.score))
    if bad.size:
        value = frame.score.iloc[bad[0]]
        what = "missing score" if pd.isna(value) else f"score {value!r}"
        raise InputError(f"scores table: {what} (row {bad[0] + 2}, model {show_value(frame.model.iloc[bad[0]])}, item "
                         f"{show_value(frame['item'].iloc[bad[0]])}) {not_usable(value)}"
                         + (f"; {bad.size} such rows in all" if bad.size > 1 else ""))
    out = pd.DataFrame({"model": frame.model.astype(str).to_numpy(),
                        "task": frame.task.astype(str).to_numpy() if "task" in frame else "-",
                        "item": frame["item"].to_numpy(), "score": scores.to_numpy(dtype=float)})
    keys = ["model", "task", "item"]
    if "epoch" in frame:
        out["epoch"] = frame.epoch.to_numpy()
    else:
        out["epoch"] = out.groupby(keys, sort=False).cumcount().to_numpy()
    again = np.flatnonzero(out.duplicated(keys + ["epoch"]).to_numpy())
    if again.size:
        first = out.iloc[again[0]]
        same = (out[keys + ["epoch"]] == first[keys + ["epoch"]]).all(axis=1).to_numpy()
        rows = np.flatnonzero(same)                       # the first occurrence and its repeat
        raise InputError(f"scores table: model {show_value(first.model)}, task {show_value(first.task)}, item "
                         f"{show_value(first['item'])}, epoch {show_value(first.epoch)} appears twice (rows {rows[0] + 2} and "
                         f"{rows[1] + 2})")
    out["cluster"] = frame[cluster_column].to_numpy() if cluster_column is not None else None
    out["item_hash"] = None
    return out[list(COLUMNS)]
