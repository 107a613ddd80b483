"""Published numbers the studies are compared with, the one verdict rule they are judged by, and the
rows of the fidelity ledger the studies write.

The shipped copy of the four papers' numbers is `simstats/data/paper_targets.csv`.  Every study
judges a simulated number against a published one with :func:`judge`: the 95 % Monte
Carlo interval of ours must lie inside the published value ± tolerance to agree, entirely outside
it to miss; otherwise the comparison is undetermined.  The tolerance always includes half a unit
of the published value's last printed digit (:func:`rounding`).
"""
from __future__ import annotations

import functools
import math
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.io.write import format_number, markdown_table, mcse_suffix
from simstats.stats.lazy import lazy_module

proportion = lazy_module("statsmodels.stats.proportion")   # simulation jobs importing this module skip statsmodels

#: The normal quantile of the two-sided 95 % Monte Carlo interval used by :func:`judge`.
Z95 = 1.959963984540054
VERDICTS = ("agrees", "misses", "undetermined")
#: Scales a published number is judged on (:func:`judge`).
SCALES = ("linear", "log10")


@functools.lru_cache(maxsize=1)
def paper_targets() -> pd.DataFrame:
    return pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "paper_targets.csv")


@functools.lru_cache(maxsize=1)
def _paper_targets_text() -> pd.DataFrame:
    return pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "paper_targets.csv", dtype=str,
                       keep_default_na=False)


def paper_value(paper: str, table: str, row: str, column: str) -> float | None:
    """One published cell, or None if the paper prints no such cell."""
    t = paper_targets()
    hit = t[(t.paper == paper) & (t.table == table) & (t.row == row) & (t.column == column)]
    return float(hit.value.iloc[0]) if len(hit) else None


def paper_text(paper: str, table: str, row: str, column: str) -> str | None:
    """One published cell exactly as printed (e.g. ``"0.40"``), or None."""
    t = _paper_targets_text()
    hit = t[(t.paper == paper) & (t.table == table) & (t.row == row) & (t.column == column)]
    return str(hit.value.iloc[0]) if len(hit) else None


def rounding(printed) -> float:
    """Half a unit of the last printed digit of a published number: ``"0.42"`` -> 0.005,
    ``"31.02"`` -> 0.005, ``"96"`` -> 0.5.  A number given as a float (no printed text) has no
    rounding."""
    if printed is None or isinstance(printed, float):
        return 0.0
    try:
        exponent = Decimal(str(printed).strip()).as_tuple().exponent
    except InvalidOperation as exc:
        raise ValueError(f"published value {printed!r} is not a number") from exc
    return 0.5 * 10.0 ** int(exponent)


def judge(ours: float, mcse: float, published: float, tolerance: float, *, z: float = Z95,
          interval: tuple[float, float] | None = None, scale: str = "linear") -> str:
    """The symmetric verdict of one comparison with a published number.

    ``agrees`` when ours' 95 % Monte Carlo interval lies inside published ± tolerance, ``misses`` when
    it lies entirely outside, ``undetermined`` otherwise.  The interval is ours ± z·mcse, or
    ``interval`` when given (e.g. a Wilson interval of a simulated rate: :func:`rate_interval`).
    ``mcse`` NaN or 0 means ours carries no Monte Carlo error (a computation, not a simulation): the
    interval is the point itself.  NaN ours or published gives ``undetermined``.

    ``scale="log10"`` judges ratios such as p-values on a log scale: ``tolerance`` is then in log10
    units, the band is log10(published) ± tolerance and ours' interval is log10 of ours ± z·mcse (the
    delta method, z·mcse / (ours ln 10), when ``interval`` is not given); a value at or below 0 lies at
    minus infinity.  A published value at or below 0 cannot be judged on this scale (``undetermined``).
    """
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
    if scale == "log10":
        ours, published = (math.nan if v is None else float(v) for v in (ours, published))
        if not (math.isfinite(ours) and math.isfinite(published)) or published <= 0:
            return "undetermined"
        if interval is not None and all(math.isfinite(float(v)) for v in interval):
            low, high = float(interval[0]), float(interval[1])
        else:
            half = 0.0 if mcse is None or not math.isfinite(float(mcse)) else z * abs(float(mcse))
            if ours > 0:       # the delta method on log10
                spread = half / (ours * math.log(10))
                low, high = ours * 10 ** -spread, ours * 10 ** spread
            else:
                low, high = ours - half, ours + half
        # a value at or below 0 lies at minus infinity on the log scale
        to_log = lambda v: math.log10(v) if v > 0 else -math.inf   # noqa: E731
        return judge(0.0, 0.0, math.log10(published), tolerance, interval=(to_log(low), to_log(high)))
    values = (ours, published, tolerance)
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values):
        return "undetermined"
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance}")
    if interval is not None and not any(math.isnan(float(v)) for v in interval):
        low, high = float(interval[0]), float(interval[1])
    else:
        half = 0.0 if mcse is None or not math.isfinite(mcse) else z * abs(mcse)
        low, high = ours - half, ours + half
    band_low, band_high = published - tolerance, published + tolerance
    if band_low <= low and high <= band_high:
        return "agrees"
    if high < band_low or low > band_high:
        return "misses"
    return "undetermined"


def rate_interval(rate: float, count: int, *, scale: float = 1.0, level: float = 0.95) -> tuple[float, float]:
    """Wilson interval of a simulated rate (``rate`` in units of ``scale``, e.g. 100 for percent) from
    ``count`` replicates (statsmodels ``proportion_confint``).  Unlike rate ± 1.96 binomial se it does
    not shrink to a point at 0 or 1 hits, so a handful of hits cannot make a confident miss."""
    if not count or not math.isfinite(rate):
        return math.nan, math.nan
    hits = round(rate / scale * count)
    low, high = proportion.proportion_confint(hits, count, alpha=1 - level, method="wilson")
    return scale * float(low), scale * float(high)


def reference_table(name: str) -> pd.DataFrame:
    """A shipped table of published values, e.g. ``nava_munoz_2024_table5``."""
    path = Path(__file__).resolve().parents[1] / "data" / f"{name}.csv"
    if not path.is_file():
        raise ValueError(f"no reference table {name!r}")
    return pd.read_csv(path)


#: The fidelity ledger's columns (one row per published number; see :mod:`simstats.report.fidelity`).
#: ``variant`` says how ours was computed (e.g. the convention or the data); ``sensitivity`` gives ours
#: under other conventions, which are not extra rows; ``explanation`` is filled by the ledger for misses.
LEDGER_COLUMNS = ["paper", "table", "row", "column", "item", "variant", "published", "ours", "mcse",
                  "tolerance", "rounding", "tolerance_basis", "scale", "role", "verdict", "sensitivity",
                  "explanation", "source", "note"]
#: What agreement of a row would show:
#: ``prediction`` - a number the simulation was not fitted to and that no arithmetic implies;
#: ``fitted`` - a number the noise parameters were fitted to;
#: ``identity`` - arithmetic on fitted or published numbers (e.g. Delta95 / sqrt(n));
#: ``validation`` - a size check any valid test passes (about alpha for any model);
#: ``self-consistency`` - the paper against itself (two of its numbers that must agree);
#: ``analogue`` - the paper's procedure applied to other data than the paper's;
#: ``input`` - a number the simulation takes as given (not judged).
ROLES = ("prediction", "fitted", "identity", "validation", "self-consistency", "analogue", "input")
NOT_COMPARED = "not compared"
UNEXPLAINED = "unexplained"


def ledger_row(**values) -> dict:
    """One row of the fidelity ledger: the given columns, the others empty (numbers NaN, rounding 0,
    scale linear).  Raises on an unknown column, role or scale."""
    unknown = set(values) - set(LEDGER_COLUMNS)
    if unknown:
        raise ValueError(f"unknown ledger columns: {sorted(unknown)}")
    row = dict.fromkeys(LEDGER_COLUMNS, "")
    row.update({"ours": math.nan, "mcse": math.nan, "tolerance": math.nan, "published": math.nan, "rounding": 0.0,
                "scale": "linear"})
    row.update(values)
    if row["role"] not in ROLES:
        raise ValueError(f"unknown ledger role {row['role']!r} (known: {', '.join(ROLES)})")
    if row["scale"] not in SCALES:
        raise ValueError(f"unknown ledger scale {row['scale']!r} (known: {', '.join(SCALES)})")
    return row


def ledger_frame(rows: list[dict]) -> pd.DataFrame:
    """Ledger rows as a DataFrame with the ledger's columns (also when there are none)."""
    return pd.DataFrame(rows, columns=LEDGER_COLUMNS)


def read_if_present(path: Path) -> pd.DataFrame | None:
    """A study table (CSV) if the study wrote it, else None."""
    return pd.read_csv(path) if path.exists() else None


def published_text(paper: str, table: str, row: str, column: str) -> str:
    """One published cell as printed; raises if paper_targets.csv has no such cell."""
    text = paper_text(paper, table, row, column)
    if text is None:
        raise ValueError(f"paper_targets.csv has no cell {paper}/{table}/{row}/{column}")
    return text


def published_item(paper, table, row, column, index) -> str:
    """One number of a published cell that holds several ("45.6; 49.5; 47.5"), as printed."""
    return published_text(paper, table, row, column).split(";")[index].strip()


def identity_row(paper, table, row, column, item, printed: str, ours: float, note: str, source="computed",
                 input_error: float = 0.0) -> dict:
    """An identity row: tolerance = the published rounding plus ``input_error``, the largest change of
    ours that the rounding of the published inputs it is computed from can cause."""
    half = rounding(printed)
    tol = half + input_error
    published = float(printed)
    basis = "rounding" if not input_error else f"rounding + {input_error:.2g} from the inputs' rounding"
    return ledger_row(paper=paper, table=table, row=row, column=column, item=item, published=published,
                      ours=float(ours), mcse=0.0, tolerance=tol, rounding=half, tolerance_basis=basis,
                      role="identity", verdict=judge(float(ours), 0.0, published, tol), source=source, note=note)


def value_range(values) -> str:
    """The finite values' range in two decimals ("0.12-0.30"), one value if they agree, "–" if none."""
    values = [v for v in values if np.isfinite(v)]
    if not values:
        return "–"
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}-{hi:.2f}"


def ledger_table(ledger: pd.DataFrame) -> str:
    """Ledger rows as a Markdown table: quantity, paper, ours ± MCSE, tolerance, role, verdict (and how ours was
    computed, where any row says)."""
    table = pd.DataFrame({
        "table": ledger.table, "row": ledger.row, "quantity": [" ".join(x for x in (c, i) if x)
                                                              for c, i in zip(ledger.column, ledger["item"])],
        "variant": ledger.variant, "paper": ledger.published.map(format_number),
        "ours": [f"{format_number(o)}{mcse_suffix(m)}" for o, m in zip(ledger.ours, ledger.mcse)],
        "tolerance": ledger.tolerance.map(lambda v: f"±{format_number(v, 4)}"), "role": ledger.role,
        "verdict": ledger.verdict})
    if not table.variant.astype(str).str.strip().any():
        table = table.drop(columns="variant")
    if len(table) > 1 and table.quantity.nunique() == 1:       # one quantity throughout: said once, in the title
        table = table.rename(columns={"paper": f"paper ({table.quantity.iloc[0]})"}).drop(columns="quantity")
    return markdown_table(table)
