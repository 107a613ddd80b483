"""The fidelity ledger: every published number of the four papers beside ours, with one verdict rule.

`fidelity_ledger(results_dir)` reads the tables the studies wrote and returns one row per published
number (every row of `simstats/data/paper_targets.csv`, split into its numbers where a cell holds
several, plus the shipped Nava-Muñoz tables): the paper's key (paper, table, row, column, item), how
ours was computed (`variant`), the published value, ours with its Monte Carlo standard error (0 for a
computation), the tolerance (including half a unit of the published value's last digit, and the paper's
own Monte Carlo error where it states it) and its basis, the scale it is judged on (log10 for ratios
such as p-values), the role, the verdict, ours under other conventions (`sensitivity`) and, for a
miss, the note that explains it or ``unexplained``.

Roles (:data:`simstats.studies.reference.ROLES`) say what agreement would show: ``prediction``,
``fitted``, ``identity``, ``validation``, ``self-consistency``, ``analogue`` and ``input``; headline
counts are of predictions only.  Verdicts follow :func:`simstats.studies.reference.judge`; ``not
compared`` marks a published number without a counterpart, with the reason in `note`.

A miss is explained only by a note (an entry of its study's ``explanations.yaml``) whose computed check
shows the published value agrees, or is undetermined, under the stated cause (:func:`ledger_notes`).

`systematic_findings(ledger)` reports, per table and quantity across its tasks, a deviation of
one sign in every task beyond 3 MCSE (plus rounding), or two or more misses all of one sign.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from simstats.io.write import markdown_table

import simstats.studies as registry
from simstats.studies.reference import (LEDGER_COLUMNS, NOT_COMPARED, ROLES, UNEXPLAINED, VERDICTS, ledger_row,
                                        paper_targets)

__all__ = ["LEDGER_COLUMNS", "NOT_COMPARED", "ROLES", "Note", "explanations", "fidelity_ledger", "fidelity_markdown",
           "ledger_notes", "paper_titles", "role_counts", "systematic_findings"]

#: The columns that name one published number: the ledger has one row per key.
KEY_COLUMNS = ["paper", "table", "row", "column", "item"]


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
    for column in ("item", "variant", "note", "tolerance_basis", "sensitivity", "explanation", "source"):
        ledger[column] = ledger[column].fillna("").astype(str)
    check_ledger(ledger)
    ledger["explanation"] = ""
    for note in ledger_notes(ledger, results):
        ledger.loc[note.explained, "explanation"] = note.label
    ledger.loc[(ledger.verdict == "misses") & (ledger.explanation == ""), "explanation"] = UNEXPLAINED
    return ledger


def check_ledger(ledger: pd.DataFrame) -> None:
    """Raise ValueError naming the first row that breaks the ledger's contract: one row per published
    number, a known role, a verdict from the rule, ``not compared`` for a row without a value, and a Monte
    Carlo standard error (0 for a computation) on every judged number."""
    dup = ledger[ledger.duplicated(KEY_COLUMNS, keep=False)]
    if len(dup):
        key = dup.iloc[0]
        raise ValueError("the ledger has " + str(len(dup)) + " rows for one published number: "
                         + " / ".join(str(key[c]) for c in KEY_COLUMNS))
    for i, r in ledger.iterrows():
        where = f"ledger row {r.paper} / {r.table} / {r.row} / {r.column}" + (f" / {r['item']}" if r["item"] else "")
        if r.role not in ROLES:
            raise ValueError(f"{where}: unknown role {r.role!r}")
        if r.verdict not in VERDICTS + (NOT_COMPARED,):
            raise ValueError(f"{where}: unknown verdict {r.verdict!r}")
        if r.verdict == NOT_COMPARED:
            continue
        if r.role == "input":
            raise ValueError(f"{where}: an input is not judged (verdict {r.verdict!r})")
        values = pd.to_numeric(pd.Series([r.ours, r.published]), errors="coerce")
        if not np.isfinite(values).all():
            raise ValueError(f"{where}: a row without a value is 'not compared', not {r.verdict!r} "
                             f"(ours {r.ours!r}, published {r.published!r})")
        if not (isinstance(r.mcse, (int, float)) and math.isfinite(r.mcse) and r.mcse >= 0):
            raise ValueError(f"{where}: a judged number needs a Monte Carlo standard error (0 for a computation), "
                             f"got {r.mcse!r}")


# --------------------------------------------------------------------------- explanations of misses
@functools.lru_cache(maxsize=None)
def explanations(paper: str) -> tuple[dict, ...]:
    """The explanations of a paper's misses (``explanations.yaml`` of its study package), validated.

    Each entry: ``match`` (``paper``, ``table`` and optionally ``column``, ``item`` and ``variant``; a value
    may be a list, and ``item``/``variant`` match as prefixes), ``check`` (a function of the study's
    ``checks.CHECKS``) and ``text`` (its braces filled from the check's result)."""
    study = registry.paper_study(paper)
    path = study.directory / "explanations.yaml"
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
    for i, e in enumerate(entries or []):
        if not isinstance(e, dict) or set(e) != {"match", "check", "text"} or not {"paper", "table"} <= set(e["match"]):
            raise ValueError(f"{path} entry {i + 1}: needs match (paper, table), check and text")
    return tuple(entries or ())


def _matches(match: dict, row) -> bool:
    def values(key):
        v = match[key]
        return [str(x) for x in (v if isinstance(v, list) else [v])]
    if row["paper"] not in values("paper") or row["table"] not in values("table"):
        return False
    if "column" in match and row["column"] not in values("column"):
        return False
    return all(key not in match or any(str(row[key]).startswith(v) for v in values(key)) for key in ("item", "variant"))


@dataclass
class Note:
    """One explanation of a paper's misses as printed once in the report: ``number`` within the paper,
    ``text`` and the computed check's ``shown`` line; ``rows`` are the misses it was offered for (ledger
    index), ``explained`` those whose verdict under the stated cause is agrees or undetermined."""
    paper: str
    number: int
    text: str
    shown: str
    rows: list = field(default_factory=list)
    explained: list = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"note {self.number}"


def run_check(paper: str, name: str, ledger: pd.DataFrame, rows: pd.DataFrame, results) -> dict | None:
    """A paper's computed check (``CHECKS`` of its study) on the misses ``rows``."""
    module = registry.paper_study(paper).part("checks")
    checks = module.CHECKS if module is not None else {}
    if name not in checks:
        raise ValueError(f"unknown check {name!r} in {paper}'s explanations.yaml (known: {', '.join(sorted(checks))})")
    return checks[name](ledger, rows, Path(results))


def ledger_notes(ledger: pd.DataFrame, results) -> list[Note]:
    """The notes that explain the ledger's misses, per paper in the order of its ``explanations.yaml``.

    Each miss is offered to the first entry that matches it; the entry's check returns the text's fields,
    ``shown`` and ``verdicts`` ({ledger index: verdict under the stated cause}).  A miss is explained only
    when that verdict is agrees or undetermined; otherwise it stays unexplained, whatever the text says.
    Entries that match no miss are not notes."""
    notes = []
    misses = ledger[ledger.verdict == "misses"]
    for paper in dict.fromkeys(ledger.paper):
        left = misses[misses.paper == paper]
        number = 0
        for entry in explanations(paper):
            hit = left[[_matches(entry["match"], r) for _, r in left.iterrows()]]
            if hit.empty:
                continue
            left = left.drop(hit.index)
            values = run_check(paper, entry["check"], ledger, hit, results)
            if values is None:
                continue
            verdicts = values.get("verdicts", {})
            shown = {k: (f"{v:.3g}" if isinstance(v, float) and not math.isnan(v) else v)
                     for k, v in values.items() if k != "verdicts"}
            text = " ".join(str(entry["text"]).split()).format(**shown)
            number += 1
            notes.append(Note(paper, number, text[0].upper() + text[1:], str(shown.get("shown", "")),
                              rows=list(hit.index),
                              explained=[i for i in hit.index if verdicts.get(i) in ("agrees", "undetermined")]))
    return notes


def systematic_findings(ledger: pd.DataFrame, *, min_rows: int = 3) -> pd.DataFrame:
    """Per (paper, table, column, item) over its tasks: one sign of deviation in every task,
    each beyond 3 MCSE plus the published rounding ("all beyond 3 MCSE"), or at least two misses
    all of one sign ("misses of one sign").  ``beyond_3_mcse`` counts the tasks beyond 3 MCSE on the
    finding's side."""
    judged = ledger[ledger.role.isin(["prediction", "fitted", "identity", "validation", "analogue"])
                    & ledger.verdict.isin(["agrees", "misses", "undetermined"])]
    out = []
    for key, g in judged.groupby(["paper", "table", "column", "item"], sort=False):
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
        out.append({"paper": key[0], "table": key[1], "column": key[2], "item": key[3],
                    "role": "/".join(sorted(g.role.unique())), "finding": finding, "direction": sign,
                    "tasks": len(g), "beyond_3_mcse": same_side, "misses": len(misses),
                    "deviation_min": float(dev.min()), "deviation_max": float(dev.max())})
    return pd.DataFrame(out, columns=["paper", "table", "column", "item", "role", "finding",
                                      "direction", "tasks", "beyond_3_mcse", "misses", "deviation_min",
                                      "deviation_max"])


def _fmt(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{float(value):.{digits}g}"


ROLE_TITLES = {
    "prediction": "Predictions (not fitted, not implied by arithmetic)",
    "fitted": "Fitted numbers (the noise parameters were fitted to them)",
    "identity": "Identities (arithmetic on fitted or published numbers)",
    "validation": "Validations (a size any valid test has)",
    "self-consistency": "Self-consistency (the paper against itself)",
    "analogue": "Analogues (the paper's procedure on other data)",
}

RULE = ("**agrees** when ours' 95 % Monte Carlo interval lies inside published ± tolerance, **misses** when it "
        "lies entirely outside, **undetermined** otherwise; a number without a counterpart is **not compared**. "
        "Tolerances include the published value's rounding and, where a paper states its number of replicates, "
        "its own Monte Carlo error; ratios such as p-values are judged on a log10 scale.")


def role_counts(ledger: pd.DataFrame, role: str, titles: dict | None = None) -> pd.DataFrame:
    """Verdicts of one role per paper, misses split into explained (a note's check removes them) and
    unexplained."""
    part = ledger[ledger.role == role]
    out = []
    for paper, g in part.groupby("paper", sort=False):
        missed = g[g.verdict == "misses"]
        out.append({"paper": (titles or {}).get(paper, paper), "agrees": int((g.verdict == "agrees").sum()),
                    "misses": len(missed), "explained": int((missed.explanation.str.startswith("note")).sum()),
                    "unexplained": int((missed.explanation == UNEXPLAINED).sum()),
                    "undetermined": int((g.verdict == "undetermined").sum()),
                    NOT_COMPARED: int((g.verdict == NOT_COMPARED).sum())})
    return pd.DataFrame(out, columns=["paper", "agrees", "misses", "explained", "unexplained", "undetermined",
                                      NOT_COMPARED])


def _ours(r) -> str:
    if r.ours is None or (isinstance(r.ours, float) and math.isnan(r.ours)):
        return "–"
    text = _fmt(r.ours)
    return text + (f" ± {_fmt(r.mcse, 2)}" if isinstance(r.mcse, float) and math.isfinite(r.mcse) and r.mcse > 0
                   else "")


def ledger_markdown_rows(part: pd.DataFrame) -> pd.DataFrame:
    """Ledger rows as shown in the Markdown files: key, published, ours ± MCSE, tolerance (with its scale),
    role, verdict, explanation."""
    return pd.DataFrame({
        "table": part.table, "row": part.row, "quantity": [" ".join(x for x in (c, i) if x)
                                                           for c, i in zip(part.column, part["item"])],
        "paper": part.published.map(_fmt), "ours": [_ours(r) for r in part.itertuples()],
        "tolerance": [("±" + _fmt(t, 3) + (" log10" if sc == "log10" else "")) if isinstance(t, float)
                      and math.isfinite(t) else "–" for t, sc in zip(part.tolerance, part.scale)],
        "role": part.role, "verdict": part.verdict, "explanation": part.explanation})


def fidelity_markdown(ledger: pd.DataFrame, findings: pd.DataFrame) -> str:
    titles = paper_titles()
    lines = ["# Fidelity ledger: every published number beside ours", "",
             "One row per published number of the four papers (`fidelity.csv`, which also holds each row's "
             "tolerance basis, how ours was computed, ours under other conventions and notes). Verdict rule: "
             + RULE, ""]
    for role, title in ROLE_TITLES.items():
        counts = role_counts(ledger, role, titles)
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
        lines += [markdown_table(shown[["paper", "table", "column", "item", "role", "finding",
                                        "direction", "tasks", "beyond_3_mcse", "misses", "deviation"]]), ""]
    else:
        lines += ["None.", ""]
    for paper, part in ledger.groupby("paper", sort=False):
        lines += [f"## {titles.get(paper, paper)}", "", markdown_table(ledger_markdown_rows(part)), ""]
    return "\n".join(lines)
