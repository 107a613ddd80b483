"""The replication report: every study's side-by-side comparisons with the papers in one Markdown file.

`replication_report(results_dir, figures_dir, ...)` reads the fidelity ledger (`fidelity.csv`, built
by :mod:`simstats.report.fidelity` if absent) and the studies' tables.  Its overview counts the
predictions only; the other roles are counted apart, and checks that are not published numbers (sizes
against nominal alpha, the noise model's closed forms, CompStats' documented values) sit in a separate
validation section.  Each paper's part opens with a summary (what reproduces, what does not and the notes
that explain it), then the study's own section, the table of its misses and systematic findings, and
its numbered notes: each explanation once, with the computed check behind it, cited by the rows it
explains.  A miss whose note's check does not remove it is **unexplained**.
"""
from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pandas as pd

import simstats.studies as registry
from simstats.io.write import markdown_table
from simstats.report.fidelity import (RULE, UNEXPLAINED, _fmt, fidelity_ledger, ledger_markdown_rows, ledger_notes,
                                      paper_titles, role_counts, systematic_findings)

#: Longest line of prose the report writes (tables, headings and figure links are not wrapped).
LINE_WIDTH = 120


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


def paper_summary(ledger: pd.DataFrame, paper: str) -> list[str]:
    """The paper's summary: its predictions' verdicts, the tables whose predictions all agree, the quantities
    that miss (with the notes that explain them), and the other roles' counts."""
    part = ledger[ledger.paper == paper]
    pred = part[part.role == "prediction"]
    judged = pred[pred.verdict.isin(["agrees", "misses", "undetermined"])]
    missed = pred[pred.verdict == "misses"]
    explained = int(missed.explanation.str.startswith("note").sum())
    lines = [f"**Summary.** {_plural(len(pred), 'prediction')}: {(judged.verdict == 'agrees').sum()} agree, "
             f"{len(missed)} miss ({explained} explained, {len(missed) - explained} unexplained), {(judged.verdict == 'undetermined').sum()} undetermined, "
             f"{(pred.verdict == 'not compared').sum()} not compared."]
    good = [t for t, g in judged.groupby("table", sort=False) if (g.verdict == "agrees").all()]
    if good:
        lines.append("Reproduced (every prediction agrees): " + ", ".join(good) + ".")
    bad = []
    for (table, column), g in missed.groupby(["table", "column"], sort=False):
        notes = sorted(set(g.explanation) - {UNEXPLAINED}, key=lambda x: int(x.split()[-1]))
        why = ", ".join(notes) + (" and " if notes and (g.explanation == UNEXPLAINED).any() else "") + \
            ("unexplained" if (g.explanation == UNEXPLAINED).any() else "")
        bad.append(f"{table} {column} ({_plural(len(g), 'miss')}: {why})")
    if bad:
        lines.append("Not reproduced: " + "; ".join(bad) + ".")
    others = []
    for role in ("fitted", "identity", "validation", "self-consistency", "analogue"):
        g = part[part.role == role]
        if len(g):
            counts = g.verdict.value_counts()
            others.append(f"{role} {len(g)} ({', '.join(f'{n} {v}' for v, n in counts.items())})")
    if others:
        lines.append("Other rows: " + "; ".join(others) + ".")
    return [" ".join(lines), ""]


def _paper_misses(ledger: pd.DataFrame, findings: pd.DataFrame, notes, paper: str) -> list[str]:
    """The paper's misses (every role but inputs), systematic findings and numbered notes."""
    lines = []
    missed = ledger[(ledger.paper == paper) & (ledger.verdict == "misses")]
    lines += ["### Misses", ""]
    if missed.empty:
        lines += ["No published number misses its tolerance.", ""]
    else:
        lines += [markdown_table(ledger_markdown_rows(missed).drop(columns="verdict")), ""]
    found = findings[findings.paper == paper]
    if len(found):
        cited = []
        for f in found.itertuples(index=False):
            rows = ledger[(ledger.paper == paper) & (ledger.table == f.table) & (ledger.column == f.column)
                          & (ledger["item"] == f.item)]
            cited.append(", ".join(sorted(set(rows.explanation) - {""}, key=str)) or "–")
        shown = pd.DataFrame({"table": found.table, "quantity": [" ".join(x for x in (c, i) if x) for c, i in
                                                                 zip(found.column, found["item"])],
                              "role": found.role, "finding": found.finding, "direction": found.direction,
                              "tasks": found.tasks, "beyond 3 MCSE": found.beyond_3_mcse, "misses": found.misses,
                              "deviation": [f"{_fmt(a)} to {_fmt(b)}" for a, b in
                                            zip(found.deviation_min, found.deviation_max)],
                              "explanation": cited})
        lines += ["Systematic findings (one sign of deviation across a table's tasks):", "",
                  markdown_table(shown), ""]
    mine = [n for n in notes if n.paper == paper]
    if mine:
        lines += ["### Notes", ""]
        for n in mine:
            removed = f"its check removes {len(n.explained)} of the {_plural(len(n.rows), 'miss')} it is offered for"
            lines.append(f"{n.number}. {n.text} *Computed check:* {n.shown}. ({removed}.)")
        lines.append("")
    return lines


def wrap_prose(lines: list[str], width: int = LINE_WIDTH) -> list[str]:
    """Lines of prose longer than ``width`` wrapped (list items keep their indentation); tables, headings,
    figure links and code are left as they are."""
    out = []
    for line in lines:
        for part in str(line).split("\n"):
            if len(part) <= width or part.startswith(("|", "#", "![", "    ", "```")):
                out.append(part)
                continue
            marker = re.match(r"^(\s*(?:[-*]|\d+\.)\s+)", part)
            indent = " " * len(marker.group(1)) if marker else ""
            out += textwrap.wrap(part, width=width, subsequent_indent=indent, break_long_words=False,
                                 break_on_hyphens=False)
    return out


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
        ledger = pd.read_csv(path, keep_default_na=False, na_values=[""]) if path.exists() else fidelity_ledger(results)
    for column in ("item", "variant", "note", "tolerance_basis", "sensitivity", "explanation", "scale", "source"):
        ledger[column] = ledger[column].fillna("").astype(str)
    findings = systematic_findings(ledger)
    notes = ledger_notes(ledger, results)
    rel = Path(os.path.relpath(figures, results)).as_posix()
    sections = []
    for study in registry.papers():
        lines = study.part("report_section").report_section(results, figures, rel, ledger)
        if not lines:
            continue
        sections += lines[:2] + paper_summary(ledger, study.paper) + lines[2:]
        sections += _paper_misses(ledger, findings, notes, study.paper)
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
    unexplained = int((ledger.explanation == UNEXPLAINED).sum())
    head = ["# simstats replication report", "",
            f"Scale: {scale}; root seed {root_seed}. Every published number of the four papers is a row of the "
            "fidelity ledger ([`fidelity.md`](fidelity.md), [`fidelity.csv`](fidelity.csv)) with its role and "
            "verdict: " + RULE + " A miss is explained only by a note whose computed check removes it"
            + (f"; {unexplained} {'miss is' if unexplained == 1 else 'misses are'} **unexplained**." if unexplained
               else "."), "",
            "## Overview", "",
            "Predictions (not fitted to, not implied by arithmetic on fitted or published numbers):", "",
            markdown_table(role_counts(ledger, "prediction", titles)), ""]
    others = []
    for role in ("fitted", "identity", "validation", "self-consistency", "analogue"):
        counts = role_counts(ledger, role, titles)
        if len(counts):
            others.append(counts.assign(role=role))
    if others:
        table = pd.concat(others, ignore_index=True)
        table = table[["paper", "role"] + [c for c in table.columns if c not in ("paper", "role")]]
        head += ["Other rows (fitted numbers, identities, validations, the papers against themselves, analogues on "
                 "other data), not counted above:", "", markdown_table(table), ""]
    head += [f"Systematic findings (one sign of deviation across a table's tasks): {len(findings)}, listed under "
             "each paper.", ""]
    if checks:
        head += ["Validation against known truth, not published numbers (see the last section):", "",
                 markdown_table(pd.DataFrame(checks)), ""]
    return "\n".join(wrap_prose(head + sections))
