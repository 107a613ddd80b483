"""Published numbers the studies are compared with (shipped copy of paper_targets.csv)."""
from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd


@functools.lru_cache(maxsize=1)
def paper_targets() -> pd.DataFrame:
    return pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "paper_targets.csv")


def paper_value(paper: str, table: str, row: str, column: str) -> float | None:
    """One published cell, or None if the paper prints no such cell."""
    t = paper_targets()
    hit = t[(t.paper == paper) & (t.table == table) & (t.row == row) & (t.column == column)]
    return float(hit.value.iloc[0]) if len(hit) else None


def reference_table(name: str) -> pd.DataFrame:
    """A shipped table of published values, e.g. ``nava_munoz_2024_table5``."""
    path = Path(__file__).resolve().parents[1] / "data" / f"{name}.csv"
    if not path.is_file():
        raise ValueError(f"no reference table {name!r}")
    return pd.read_csv(path)
