"""What every command prints: a Markdown table under a header that states the claim, CSV with the claim
and settings as constant columns, or JSON; and the exit status of a gate."""
from __future__ import annotations

import json
import math

from simstats import __version__

#: Settings every CSV row carries (when the command has them): the claim, and how it was tested.
CLAIM_FIELDS = ("claim", "test", "alternative", "correction", "correction_scope", "pvalue_method", "pvalue_rule",
                "n_resamples", "seed", "confidence_level", "alpha", "aso_threshold", "aso_note", "task",
                "samples_per_item")


def plain(value):
    """``value`` as plain JSON data: numpy scalars and arrays as Python numbers and lists, a number that is not
    finite (NaN, infinity) or a missing value as ``None`` (JSON null), dictionaries and sequences element-wise."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy scalars and arrays
        return plain(value.tolist())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (str, bool, int)):
        return value
    try:
        import pandas as pd
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return str(value)


def json_text(data) -> str:
    """Strict JSON (RFC 8259) of ``data``: no bare NaN or Infinity (:func:`plain`), indented."""
    return json.dumps(plain(data), indent=2, allow_nan=False)


def csv_text(frame) -> str:
    """``frame`` as CSV: floats at full (repr) precision, a value that is not a finite number left empty, text
    that a spreadsheet would run as a formula prefixed by ``'`` (:func:`simstats.io.write.csv_safe`)."""
    import numpy as np

    from simstats.io.write import csv_safe

    out = csv_safe(frame)
    for column in out.columns:
        if out[column].dtype.kind == "f":
            out[column] = out[column].where(np.isfinite(out[column]))
    return out.to_csv(index=False, lineterminator="\n")


def markdown_header(header: str) -> str:
    """A command's header lines as Markdown that opens no raw HTML (names come from the user's input)."""
    from simstats.io.write import markdown_text

    return markdown_text(header)


def emit(table, fmt: str, header: str) -> None:
    """Print ``table`` as Markdown (``header`` above it), CSV or JSON; CSV and JSON carry the claim and
    settings (``table.attrs``) as the header states them: JSON in ``settings``, CSV as constant columns."""
    from simstats.io.write import markdown_table

    if fmt == "json":
        settings = {**dict(table.attrs), "summary": header.strip(), "simstats_version": __version__}
        print(json_text({"settings": settings, "rows": table.to_dict(orient="records")}))
    elif fmt == "csv":
        out = table.copy()
        for key in CLAIM_FIELDS:
            value = table.attrs.get(key)
            if value is not None and key not in out.columns and not isinstance(value, (dict, list, tuple)):
                out[key] = value
        print(csv_text(out), end="")
    else:
        print(markdown_header(header))
        print(markdown_table(table, digits=4, literal=True), end="")


#: The one sign convention of every command: the first named minus the second (library: A minus B).
DIFFERENCE_SIGN = "difference = reference minus system (positive: the reference is better; for mae, its improvement)"


#: H1 as the header states it; compare tests the reference's improvement (metric-aware), compare-scores the scores.
IMPROVEMENT_H1 = {"greater": "better than", "less": "worse than", "two-sided": "differs from"}


SCORES_H1 = {"greater": "scores higher than", "less": "scores lower than", "two-sided": "scores differ from"}


#: compare's note when the data choose the reference (--reference best) and the p-value is one-sided.
BEST_ONE_SIDED = {
    "greater": "--alternative greater with --reference best: the test is one-sided in the direction the data "
               "chose (the observed best), so its false-positive rate under no difference is about 2 x alpha; "
               "use --alternative two-sided (the default) or name the reference",
    "less": "--alternative less with --reference best: the test is one-sided against the direction the data "
            "chose (the observed best), so its p-values are about 0.5 or more and it can hardly reject; "
            "use --alternative two-sided (the default) or name the reference"}


def sides(alternative: str, confidence: float) -> str:
    """States that the p-values follow --alternative while the intervals are always two-sided."""
    return (f"p-values {'two' if alternative == 'two-sided' else 'one'}-sided, "
            f"intervals two-sided {100 * confidence:g}%")


def gate(out, fail_on: str | None) -> int:
    """``--fail-on``: exit status 1 when a compared system meets the condition, else 0."""
    rows = out[out.role == "system"]
    if fail_on == "difference":
        return int(bool((rows.pvalue_adjusted < out.attrs["alpha"]).any()))
    if fail_on == "claim-not-shown":
        return int(not bool(rows.claim_shown.astype(bool).all()))
    return 0
