"""Reading a table of predictions, statistics or scores (CSV, TSV or parquet, optionally compressed)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io.checks import InputError


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
        The table; empty cells are NaN.  A first column with no name that holds the row numbers 0, 1, 2, ...
        (the index pandas' ``to_csv`` writes by default) is left out.

    Raises
    ------
    InputError
        If the path is a directory or no file, the file is empty, a line has more fields than the
        header, a column other than such an index has no name, or the file cannot be read otherwise
        (the message names the file).

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
            return _named_columns(pd.read_parquet(p), path, "")
        compressed = p.suffix in (".gz", ".bz2", ".xz", ".zst")
        kind = Path(p.stem).suffix if compressed else p.suffix      # table.tsv.gz: tab-separated, compressed
        sep = "\t" if kind in (".tsv", ".tab") or _tab_separated(p, compressed) else ","
        # only an empty cell is missing: labels such as "NA" or "None" are labels
        return _named_columns(pd.read_csv(p, sep=sep, keep_default_na=False, na_values=[""]), path, "Unnamed: ")
    except InputError:
        raise
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


def _named_columns(frame: pd.DataFrame, path, unnamed: str) -> pd.DataFrame:
    """``frame`` without a saved row index (a first column with no name holding 0, 1, 2, ...), refused in one
    line if another column has no name: such a column would otherwise be read as a system named by its position."""
    for position, column in enumerate(frame.columns):
        name = str(column)
        if name.strip() and not (unnamed and name.startswith(unnamed) and name[len(unnamed):].split(".")[0].isdigit()):
            continue
        values = pd.to_numeric(frame[column], errors="coerce").to_numpy()
        if position == 0 and len(values) and (values == range(len(values))).all():
            frame = frame.drop(columns=column)          # the row numbers pandas' to_csv writes by default
            continue
        raise InputError(f"{path}: column {position + 1} has no name in the header line (name it, or write the "
                         "table without it)")
    return frame


def _tab_separated(path: Path, compressed: bool) -> bool:
    """Whether a table file that is not named .tsv has tabs and no commas in its header line."""
    if compressed:
        return False
    with open(path, encoding="utf-8", errors="replace") as handle:
        header = handle.readline()
    return "\t" in header and "," not in header
