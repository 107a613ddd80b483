"""The fidelity ledger: every published number of the four papers beside ours, with one verdict rule.

`fidelity_ledger(results_dir)` reads the tables the studies wrote and returns one row per
published number we compare (every row of `simstats/data/paper_targets.csv`, split into its
numbers where a cell holds several, plus the shipped Nava-Muñoz tables): the paper's key
(paper, table, row, column), the `item` within a cell holding several numbers, the `variant`
(convention or data source where one published number is compared more than once), the published
value, ours with its Monte Carlo standard error, the tolerance (including half a unit of the
published value's last digit) and its basis, the role and the verdict.

Roles:
* ``fitted``     - a number the noise parameters were fitted to;
* ``identity``   - follows from fitted or published input numbers by arithmetic (or, for the
  model's own closed forms, from fitted numbers alone), so agreement is nearly automatic;
* ``prediction`` - everything else: the replication's real tests;
* ``input``      - a number the simulation takes as given (or a setting), not judged.

Each registered study that replicates a paper writes its rows (``ledger_rows`` of its
``study.py``, :mod:`simstats.studies`); this module assembles them.  Verdicts follow
:func:`simstats.studies.reference.judge` (95 % Monte Carlo interval inside the
band: agrees; entirely outside: misses; else undetermined); ``not compared`` marks a published
number we have no counterpart for, with the reason in `note`.

`systematic_findings(ledger)` reports, per table and quantity across its tasks, a deviation of
one sign in every task beyond 3 MCSE (plus rounding), or two or more misses all of one sign.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.io import markdown_table

import simstats.studies as registry
from simstats.studies.reference import (LEDGER_COLUMNS, NOT_COMPARED, ROLES, ledger_row, paper_targets,
                                        verdict_counts)

__all__ = ["LEDGER_COLUMNS", "NOT_COMPARED", "ROLES", "fidelity_ledger", "fidelity_markdown", "paper_titles",
           "systematic_findings", "verdict_counts"]


# --------------------------------------------------------------------------- the ledger
def paper_titles() -> dict[str, str]:
    """{paper key: title} of the registered studies that replicate a paper, in registry order."""
    return {study.paper: study.title for study in registry.papers()}


def fidelity_ledger(results_dir) -> pd.DataFrame:
    """One row per published number (see the module docstring); raises if no study output exists."""
    results = Path(results_dir)
    papers = registry.papers()
    ledgers = {study.paper: study.part("ledger") for study in papers}
    parts = [ledgers[study.paper].ledger_rows(results) for study in papers]
    ledger = pd.concat([p for p in parts if len(p)], ignore_index=True) if any(len(p) for p in parts) else None
    if ledger is None or not (ledger.source.str.contains("/") & (ledger.source != "computed")).any():
        raise ValueError(f"no study results found under {results}")
    ledger = ledger[LEDGER_COLUMNS]
    # every published cell of paper_targets.csv appears: inputs as such, the rest as not compared
    judged_keys = {k for k, item in zip(zip(ledger.paper, ledger.table, ledger.row, ledger.column), ledger.item)
                   if not str(item).endswith("(note)")}
    noted_keys = set(zip(ledger.paper, ledger.table, ledger.row, ledger.column)) - judged_keys
    papers_run = set(ledger.paper[ledger.source.str.contains("/")])
    extra = []
    for t in paper_targets().itertuples(index=False):
        key = (t.paper, t.table, t.row, t.column)
        study = ledgers.get(t.paper)
        input_notes = getattr(study, "INPUT_NOTES", {})
        value = float(pd.to_numeric(pd.Series([t.value]), errors="coerce").iloc[0])
        if t.table in input_notes and key not in judged_keys:
            extra.append(ledger_row(paper=t.paper, table=t.table, row=t.row, column=t.column, published=value,
                                    role="input", verdict=NOT_COMPARED, source="paper_targets.csv",
                                    note=f"{input_notes[t.table]}; published as {t.value!r}"))
        elif key not in judged_keys and key not in noted_keys:
            cell = (t.table, t.column)
            role = ("fitted" if cell in getattr(study, "FITTED_CELLS", ()) else
                    "identity" if cell in getattr(study, "IDENTITY_CELLS", {}) else "prediction")
            note = "study not run" if t.paper not in papers_run else "not simulated at this scale"
            extra.append(ledger_row(paper=t.paper, table=t.table, row=t.row, column=t.column, published=value,
                                    role=role, verdict=NOT_COMPARED, source="paper_targets.csv", note=note))
    ledger = pd.concat([ledger, pd.DataFrame(extra, columns=LEDGER_COLUMNS)], ignore_index=True)
    order = {study.paper: i for i, study in enumerate(papers)}
    ledger = ledger.sort_values(["paper", "table"], key=lambda c: c.map(order) if c.name == "paper" else c,
                                kind="stable").reset_index(drop=True)
    return ledger


def systematic_findings(ledger: pd.DataFrame, *, min_rows: int = 3) -> pd.DataFrame:
    """Per (paper, table, column, item, variant) over its tasks: one sign of deviation in every task,
    each beyond 3 MCSE plus the published rounding ("all beyond 3 MCSE"), or at least two misses
    all of one sign ("misses of one sign").  ``beyond_3_mcse`` counts the tasks beyond 3 MCSE on the
    finding's side."""
    judged = ledger[ledger.role.isin(["prediction", "identity", "fitted"])
                    & ledger.verdict.isin(["agrees", "misses", "undetermined"])]
    out = []
    for key, g in judged.groupby(["paper", "table", "column", "item", "variant"], sort=False):
        if len(g) < min_rows and (g.verdict == "misses").sum() < 2:
            continue
        dev = g.ours - g.published
        mcse = g.mcse.fillna(0.0)
        beyond = dev.abs() > 3 * mcse + g.rounding
        signs = np.sign(dev[beyond])
        misses = g[g.verdict == "misses"]
        miss_signs = np.sign(misses.ours - misses.published)
        finding = ""
        if len(g) >= min_rows and beyond.all() and (signs == signs.iloc[0]).all():
            finding = "all beyond 3 MCSE"
        elif len(misses) >= 2 and (miss_signs == miss_signs.iloc[0]).all():
            finding = "misses of one sign"
        if not finding:
            continue
        positive = (dev[beyond] if finding.startswith("all") else misses.ours - misses.published).iloc[0] > 0
        sign = "above" if positive else "below"
        # tasks beyond 3 MCSE on the finding's side (the others may lie beyond it on the other side)
        same_side = int((beyond & ((dev > 0) if positive else (dev < 0))).sum())
        out.append({"paper": key[0], "table": key[1], "column": key[2], "item": key[3], "variant": key[4],
                    "role": "/".join(sorted(g.role.unique())), "finding": finding, "direction": sign,
                    "tasks": len(g), "beyond_3_mcse": same_side, "misses": len(misses),
                    "deviation_min": float(dev.min()), "deviation_max": float(dev.max())})
    return pd.DataFrame(out, columns=["paper", "table", "column", "item", "variant", "role", "finding",
                                      "direction", "tasks", "beyond_3_mcse", "misses", "deviation_min",
                                      "deviation_max"])


def _fmt(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{float(value):.{digits}g}"


def fidelity_markdown(ledger: pd.DataFrame, findings: pd.DataFrame) -> str:
    titles = paper_titles()
    lines = ["# Fidelity ledger: every published number beside ours", "",
             "One row per published number of the four papers (`fidelity.csv`). Verdict rule, one for all "
             "studies: **agrees** when ours' 95 % Monte Carlo interval (ours ± 1.96 MCSE; a computation without "
             "Monte Carlo error is a point) lies inside published ± tolerance, **misses** when it lies entirely "
             "outside, **undetermined** otherwise. Every tolerance includes half a unit of the published value's "
             "last printed digit. Roles: *fitted* (the simulation was fitted to it), *identity* (follows from "
             "fitted or published input numbers by arithmetic, so agreement is nearly automatic), *prediction* "
             "(the replication's real tests), *input* (taken as given, not judged).", ""]
    for role, title in (("prediction", "Predictions"), ("fitted", "Fitted numbers"),
                        ("identity", "Identities (arithmetic from fitted or published numbers)")):
        counts = verdict_counts(ledger, role, paper_titles())
        if len(counts):
            lines += [f"## {title}", "", markdown_table(counts), ""]
    inputs = ledger[ledger.role == "input"]
    lines += [f"Inputs (not judged): {len(inputs)} published numbers.", ""]
    lines += ["## Systematic findings", "",
              "Per table and quantity across its tasks: a deviation of one sign in every task beyond 3 MCSE plus "
              "the published rounding, or two or more misses all of one sign.", ""]
    if len(findings):
        shown = findings.assign(paper=findings.paper.map(lambda p: titles.get(p, p)),
                                deviation=[f"{_fmt(a)} to {_fmt(b)}" for a, b in
                                           zip(findings.deviation_min, findings.deviation_max)])
        lines += [markdown_table(shown[["paper", "table", "column", "item", "variant", "role", "finding",
                                        "direction", "tasks", "beyond_3_mcse", "misses", "deviation"]]), ""]
    else:
        lines += ["None.", ""]
    for paper, part in ledger.groupby("paper", sort=False):
        shown = pd.DataFrame({
            "table": part.table, "row": part.row, "column": part.column, "item": part["item"],
            "variant": part.variant, "published": part.published.map(_fmt), "ours": part.ours.map(_fmt),
            "MCSE": part.mcse.map(lambda v: _fmt(v, 2)), "tolerance": part.tolerance.map(lambda v: _fmt(v, 3)),
            "basis": part.tolerance_basis, "role": part.role, "verdict": part.verdict, "note": part.note})
        lines += [f"## {titles.get(paper, paper)}", "", markdown_table(shown), ""]
    return "\n".join(lines)
