"""Writing results: atomic parquet/CSV/Markdown files (never a half-written output)."""
from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

import pandas as pd


def _atomic(path: str | os.PathLike, write) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_parquet(frame: pd.DataFrame, path) -> None:
    _atomic(path, lambda tmp: frame.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd"))


def write_csv(frame: pd.DataFrame, path) -> None:
    _atomic(path, lambda tmp: frame.to_csv(tmp, index=False, lineterminator="\n", float_format="%.10g"))


def write_text(text: str, path) -> None:
    def write(tmp):
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    _atomic(path, write)


def _cell(value, digits: int) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.{digits}g}"
    return str(value).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame, digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (floats to ``digits`` significant digits)."""
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_cell(v, digits) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"
