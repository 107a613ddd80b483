"""The replication report: every study's side-by-side comparisons with the papers in one Markdown file.

`replication_report(results_dir, figures_dir, ...)` reads the fidelity ledger (`fidelity.csv`,
built by :mod:`simstats.report.fidelity` if absent) and the studies' tables.  Its overview counts
the predictions only (agree / miss / undetermined); fitted numbers and identities (numbers that
follow from fitted or published ones by arithmetic) are counted apart, and checks that are not
published numbers (sizes against nominal alpha, the noise model's closed forms, CompStats'
documented values) sit in a separate validation section.  Every miss is listed under its paper's
*Discrepancies* with the explanation stored in its study's `explanations.yaml`, its numbers filled
in by a computed check (``CHECKS`` of the study) printed beside it; a miss no explanation
covers is listed as **Unexplained**, never dropped.
"""
from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path

import pandas as pd
import yaml

import simstats.studies as registry
from simstats.io import markdown_table, mcse_suffix, format_number
from simstats.report.fidelity import fidelity_ledger, paper_titles, systematic_findings, verdict_counts


@functools.lru_cache(maxsize=None)
def explanations(paper: str) -> list[dict]:
    """The explanations of a paper's misses (``explanations.yaml`` of its study package), validated."""
    path = registry.paper_study(paper).directory / "explanations.yaml"
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != {"match", "check", "text"} or not {"paper", "table"} <= set(e["match"]):
            raise ValueError(f"{path} entry {i + 1}: needs match (paper, table), check and text")
    return entries


def run_check(paper: str, name: str, ledger: pd.DataFrame, rows: pd.DataFrame, results) -> dict | None:
    """A paper's computed check (``CHECKS`` of its study), its float values in three significant digits."""
    module = registry.paper_study(paper).part("checks")
    checks = module.CHECKS if module is not None else {}
    if name not in checks:
        raise ValueError(f"unknown check {name!r} in {paper}'s explanations.yaml (known: {', '.join(sorted(checks))})")
    out = checks[name](ledger, rows, Path(results))
    if out is not None:
        out = {k: (f"{v:.3g}" if isinstance(v, float) and not math.isnan(v) else v) for k, v in out.items()}
    return out


def _matches(entry: dict, key: dict) -> bool:
    m = entry["match"]
    return (m["paper"] == key["paper"] and m["table"] == key["table"]
            and ("column" not in m or m["column"] == key["column"])
            and ("item" not in m or str(key["item"]).startswith(m["item"]))
            and ("variant" not in m or str(key["variant"]).startswith(m["variant"])))


def explain(ledger: pd.DataFrame, rows: pd.DataFrame, results) -> tuple[str, str] | None:
    """(explanation, computed check) of a group of ledger rows, or None when none applies."""
    first = rows.iloc[0]
    for entry in explanations(first["paper"]):
        if _matches(entry, first):
            values = run_check(first["paper"], entry["check"], ledger, rows, results)
            if values is None:
                return None
            text = " ".join(str(entry["text"]).split()).format(**values)
            return text[0].upper() + text[1:], values["shown"]
    return None


def _cell(r) -> str:
    """One ledger row in a discrepancy line: what (row and the quantity), ours ± MCSE, the paper's value."""
    item = str(r["item"]).removesuffix(" (note)")
    what = f"{r.row}, {item or r.column}"
    return (f"{what}: ours {format_number(r.ours)}{mcse_suffix(r.mcse)}, paper {format_number(r.published)} "
            f"(tolerance ±{format_number(r.tolerance, 4)})")


def _explained_lines(ledger: pd.DataFrame, groups, results: Path) -> tuple[list[str], int]:
    lines, unexplained = [], 0
    for title, rows in groups:
        found = explain(ledger, rows, results)
        cells = "; ".join(_cell(r) for _, r in rows.iterrows())
        if found is None:
            unexplained += 1
            lines.append(f"- {title}: {cells}. **Unexplained.**")
        else:
            why, shown = found
            lines.append(f"- {title}: {cells}. **Why:** {why} *Computed check:* {shown}.")
    return lines, unexplained


def _paper_discrepancies(ledger: pd.DataFrame, findings: pd.DataFrame, paper: str, results: Path):
    """The paper's systematic findings and misses, grouped by table, quantity and variant."""
    lines, unexplained = [], 0
    found = findings[findings.paper == paper]
    if len(found):
        groups = []
        for f in found.itertuples(index=False):
            rows = ledger[(ledger.paper == paper) & (ledger.table == f.table) & (ledger.column == f.column)
                          & (ledger["item"] == f.item) & (ledger.variant == f.variant)
                          & ledger.verdict.isin(["agrees", "misses", "undetermined"])]
            title = (f"**Systematic** ({f.finding}, ours {f.direction} the paper in {f.beyond_3_mcse} of "
                     f"{f.tasks} {'tasks' if f.tasks > 1 else 'task'}, {f.misses} misses): {f.table} {f.column}"
                     + (f" {f.item}" if f.item else "") + (f" [{f.variant}]" if f.variant else ""))
            groups.append((title, rows))
        more, n = _explained_lines(ledger, groups, results)
        lines += ["Systematic findings (one per table and quantity):", ""] + more + [""]
        unexplained += n
    misses = ledger[(ledger.paper == paper) & (ledger.verdict == "misses")]
    covered = set(zip(found.table, found.column, found["item"], found.variant))
    misses = misses[[k not in covered for k in zip(misses.table, misses.column, misses["item"], misses.variant)]]
    if misses.empty and len(found):
        return lines, unexplained
    if misses.empty:
        return lines + ["No published number misses its tolerance.", ""], unexplained
    groups = [(f"{table} {column}" + (f" {item.removesuffix(' (note)')}" if item else "")
               + (f" [{variant}]" if variant else "") + f" ({rows.role.iloc[0]})", rows)
              for (table, column, item, variant), rows in misses.groupby(["table", "column", "item", "variant"],
                                                                         sort=False)]
    more, n = _explained_lines(ledger, groups, results)
    return lines + more + [""], unexplained + n


# --------------------------------------------------------------------------- the whole report
def scale_summary(settings) -> str:
    """The run's scale in a line, from the validated settings (:func:`simstats.config.validate_config`)."""
    parts = [f"results in `{settings.results_dir}`"]
    for study in registry.STUDIES:
        parsed = settings.studies.get(study.config_key)
        summary = getattr(study.part("settings"), "scale_summary", None)
        if parsed is not None and summary is not None:
            parts.append(summary(parsed))
    return "; ".join(parts)


VALIDATION_INTRO = ["## Validation against known truth (not published numbers)", "",
                    "Checks of the simulation and the tests against their own ground truth: the noise model's closed "
                    "forms, the size of every test under the null (alpha ± 3 MCSE), the simulated sd ratio against "
                    "1/sqrt(1 - r12), and our p-values on CompStats' data beside its documented ones.", ""]


def replication_report(results_dir, figures_dir, *, scale: str, root_seed: int,
                       ledger: pd.DataFrame | None = None) -> str:
    """The Markdown report of every study found under ``results_dir`` (figures linked relative to it).
    ``ledger``: the fidelity ledger (default: ``results_dir/fidelity.csv``, or built from the results)."""
    results, figures = Path(results_dir), Path(figures_dir)
    if ledger is None:
        path = results / "fidelity.csv"
        ledger = (pd.read_csv(path, keep_default_na=False, na_values=[""]).fillna(
            {"item": "", "variant": "", "note": "", "tolerance_basis": "", "source": ""})
            if path.exists() else fidelity_ledger(results))
    for column in ("item", "variant", "note", "tolerance_basis"):
        ledger[column] = ledger[column].fillna("").astype(str)
    findings = systematic_findings(ledger)
    rel = Path(os.path.relpath(figures, results)).as_posix()
    sections, unexplained = [], 0
    for study in registry.papers():
        lines = study.part("report_section").report_section(results, figures, rel, ledger)
        if not lines:
            continue
        more, n = _paper_discrepancies(ledger, findings, study.paper, results)
        sections += lines + ["### Discrepancies", ""] + more
        unexplained += n
    validation, checks = list(VALIDATION_INTRO), []
    for study in registry.STUDIES:
        validate = getattr(study.part("report_section"), "validation_section", None)
        if validate is not None:
            lines, overview = validate(results, figures, rel)
            validation += lines
            checks += overview
    if not sections and not checks:
        raise ValueError(f"no study results found under {results}")
    sections += validation
    # the studies' own tables, named in backticks, become links relative to the report
    sections = [re.sub(r"`([a-z0-9_]+/[a-z0-9_/]+\.md)`",
                       lambda m: f"[`{m.group(1)}`]({m.group(1)})" if (results / m.group(1)).exists() else m.group(0),
                       line) for line in sections]
    titles = paper_titles()
    predictions = verdict_counts(ledger, "prediction", titles)
    head = ["# simstats replication report", "",
            f"Scale: {scale}; root seed {root_seed}. Generated by the workflow from the tables under this "
            "directory. Every published number of the four papers is in the fidelity ledger "
            "([`fidelity.md`](fidelity.md)) with its role and the verdict of one rule: **agrees** when ours' 95 % "
            "Monte Carlo interval lies inside published ± tolerance (tolerances include the published value's "
            "rounding), **misses** when it lies entirely outside, **undetermined** otherwise. A miss is listed "
            "under its paper's *Discrepancies* with its explanation and the computed check behind it"
            + (f"; {unexplained} {'is' if unexplained == 1 else 'are'} **unexplained**." if unexplained else "."), "",
            "## Overview", "", "Predictions (published numbers the simulation was not fitted to and that do not "
            "follow from fitted or published numbers by arithmetic):", "", markdown_table(predictions), ""]
    for role, title in (("fitted", "Fitted numbers (the simulation was fitted to them)"),
                        ("identity", "Identities (follow from fitted or published numbers by arithmetic)")):
        counts = verdict_counts(ledger, role, titles)
        if len(counts):
            head += [f"{title}:", "", markdown_table(counts), ""]
    head += [f"Systematic findings (one sign of deviation across a table's tasks): {len(findings)}, listed under "
             "each paper's discrepancies.", ""]
    if checks:
        head += ["Validation against known truth, not published numbers (see the last section):", "",
                 markdown_table(pd.DataFrame(checks)), ""]
    return "\n".join(head + sections)
