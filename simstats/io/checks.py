"""Input checks: :class:`InputError` and the one-line messages that name a bad value, its column and row."""
from __future__ import annotations

import numpy as np
import pandas as pd


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
    >>> from simstats.io.predictions import statistics_from_predictions
    >>> try:
    ...     statistics_from_predictions(pd.DataFrame({"gold": [1, 0], "a": [1, 1]}), "label")
    ... except InputError as err:
    ...     print(err)
    gold column 'label' not found (columns: gold, a)
    >>> issubclass(InputError, ValueError)
    True
    """


def no_missing(frame: pd.DataFrame, what: str) -> None:
    """A one-line error naming the first missing (NaN or empty) cell: its column and row (the file's line)."""
    missing = frame.isna().to_numpy()
    if missing.any():
        i, j = (int(k[0]) for k in np.nonzero(missing))
        raise InputError(f"{what}: missing value in column {frame.columns[j]!r} (row {i + 2})")


def show_value(value) -> str:
    """A table cell as messages show it: 5, not np.int64(5)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


#: The largest magnitude of a score, label or statistic: the square of a larger one (a variance) overflows a float
#: once a few thousand of them are added.
MAX_MAGNITUDE = 1e100

def not_usable(value) -> str:
    """Why a value that is not :func:`usable` is refused, as the end of a message: ``is not a finite number`` or,
    beyond :data:`MAX_MAGNITUDE`, that it is too large."""
    number = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    if np.isfinite(number):
        return "is too large (beyond 1e100 in magnitude, a variance of such values overflows)"
    return "is not a finite number"


def usable(values) -> np.ndarray:
    """Whether each value is a finite number of magnitude at most :data:`MAX_MAGNITUDE` (text that does not
    parse as a number is not)."""
    x = pd.to_numeric(pd.Series(np.asarray(values, dtype=object).ravel()), errors="coerce").to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        return np.isfinite(x) & (np.abs(x) <= MAX_MAGNITUDE)


def first_not_finite(values: pd.Series) -> int | None:
    """Position of the first value that is not a finite number of magnitude at most :data:`MAX_MAGNITUDE`
    (:func:`usable`), None if all are.

    Messages give position + 2 as the row: the line of a CSV file, whose line 1 is the header."""
    bad = np.flatnonzero(~usable(values))
    return int(bad[0]) if bad.size else None


def check_names(frame: pd.DataFrame, columns, what: str) -> None:
    """A one-line error naming the first missing or blank name (a model, system, task or item) and its row."""
    for column in columns:
        if column not in frame.columns:
            continue
        values = frame[column]
        blank = values.isna().to_numpy() | (values.astype(str).str.strip() == "").to_numpy()
        if blank.any():
            raise InputError(f"{what}: missing or blank {column} name in row {int(np.flatnonzero(blank)[0]) + 2}")


def in_all(count: int, what: str) -> str:
    """"; 7 missing in all" after the first bad cell of a message, when it is not the only one."""
    return f"; {count} {what} in all" if count > 1 else ""


def not_numbers(values: pd.Series) -> np.ndarray:
    """Positions of the (present) values that do not parse as numbers."""
    return np.flatnonzero((pd.to_numeric(values, errors="coerce").isna() & values.notna()).to_numpy())


def mixes_numbers(values: pd.Series) -> bool:
    """A text column that is mostly numbers: some of its cells parse as numbers and some do not (a typo)."""
    if pd.api.types.is_numeric_dtype(values):
        return False
    bad = not_numbers(values)
    return 0 < bad.size < int(values.notna().sum())


def ids_text(values) -> str:
    """The first ids of a list, as messages show them: "17, 18, 40" or "17, 18, 40, 41, 42, ..."."""
    values = list(values)
    return ", ".join(show_value(v) for v in values[:5]) + (", ..." if len(values) > 5 else "")


def lacking(name: str, ids, other: str, other_ids, what: str = "items") -> list[str]:
    """Both ways, what one of two id sets lacks of the other: ["'B' lacks 3 of the 50 items of 'A'
    (first: 17, 18, 40)"]; every unmatched id is counted."""
    parts = []
    for x, x_ids, y, y_ids in ((name, ids, other, other_ids), (other, other_ids, name, ids)):
        y_set = set(y_ids)
        lacking = sorted_unique(pd.Series(list(y_set - set(x_ids)), dtype=object))
        if lacking:
            parts.append(f"{x} lacks {len(lacking)} of the {len(y_set)} {what} of {y} (first: {ids_text(lacking)})")
    return parts


def sorted_unique(values: pd.Series) -> list:
    unique = pd.unique(values).tolist()
    try:
        return sorted(unique)
    except TypeError:
        return sorted(unique, key=str)


def check_gold(gold: pd.Series, metric_name: str, where, numeric_predictions: bool = False) -> None:
    """Gold labels: none missing; finite numbers for mae; numbers if the predictions are (a typo
    such as 'seven' in a numeric column).  ``where(i)``: the place of the i-th row in messages."""
    name = f"gold column {gold.name!r}"
    missing = np.flatnonzero(gold.isna().to_numpy())
    if missing.size:
        raise InputError(f"{name}: missing gold label (empty or NaN) in {where(missing[0])}"
                         f"{in_all(missing.size, 'missing')}")
    if metric_name == "mae":
        i = first_not_finite(gold)
        if i is not None:
            raise InputError(f"{name}: {show_value(gold.iloc[i])} ({where(i)}) {not_usable(gold.iloc[i])}")
    elif numeric_predictions and mixes_numbers(gold):
        bad = not_numbers(gold)
        raise InputError(f"{name}: {show_value(gold.iloc[bad[0]])} ({where(bad[0])}) is not a number, unlike the "
                         f"other gold labels and the predictions{in_all(bad.size, 'such labels')}")


def check_predictions(pred: pd.Series, labels, numeric_gold: bool, metric_name: str, who, where,
                       run=None) -> None:
    """Predictions (one column of a wide table, or a long table's prediction column): none missing;
    finite numbers for mae; numbers if the gold labels are; else gold labels only.  Messages name
    the system (``who(i)``), the value and its place (``where(i)``: the row, the file's line);
    ``run(i)``: the rows of row i's run (default: all), whose unknown labels are listed."""
    missing = np.flatnonzero(pred.isna().to_numpy())
    if missing.size:
        i = missing[0]
        raise InputError(f"{who(i)}: missing prediction (empty or NaN) in {where(i)}"
                         f"{in_all(missing.size, 'missing')}")
    if metric_name == "mae":
        i = first_not_finite(pred)
        if i is not None:
            raise InputError(f"{who(i)}: {show_value(pred.iloc[i])} ({where(i)}) {not_usable(pred.iloc[i])}")
        return
    if numeric_gold and mixes_numbers(pred):
        bad = not_numbers(pred)
        raise InputError(f"{who(bad[0])}: prediction {show_value(pred.iloc[bad[0]])} ({where(bad[0])}) is not a number, "
                         f"but the gold labels are numbers{in_all(bad.size, 'such predictions')}")
    known = set(labels)
    unknown = [v for v in pd.unique(pred).tolist() if v not in known]
    if unknown:
        bad = np.flatnonzero(pred.isin(unknown).to_numpy())
        i = int(bad[0])
        rows = pred if run is None else pred[run(i)]
        listed = sorted((v for v in pd.unique(rows).tolist() if v not in known), key=str)
        raise InputError(f"{who(i)} predicts labels that are not gold labels: {listed[:5]} "
                         f"(first: {show_value(pred.iloc[i])} in {where(i)}{in_all(bad.size, 'such predictions')})")
