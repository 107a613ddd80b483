"""Computed checks behind the explanations of Nava-Muñoz et al. (2024)'s misses (explanations.yaml)."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.studies.navamunoz2024.ledger import example_checks
from simstats.studies.reference import reference_table, value_range

def figure3_vs_table5(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    if rows.empty:
        return None
    parts = [f"{r.row}: Figure 3 {r.published:.4f}, Table 5 raw {r.ours:.4f}" for r in rows.itertuples()]
    return {"shown": "; ".join(parts)}


def _implied_correlations(widths: dict, pairs: list) -> dict:
    """Correlation of two systems' bootstrap scores implied by CI widths: w_d^2 = w_a^2 + w_b^2 - 2 r w_a w_b."""
    out = {}
    for a, b, wd in pairs:
        if a in widths and b in widths:
            wa, wb = widths[a], widths[b]
            out[(a, b)] = (wa ** 2 + wb ** 2 - wd ** 2) / (2 * wa * wb)
    return out


def implied_correlation(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Bootstrap correlation of the winner with each other system implied by Table 2 and 3 widths,
    the paper's and ours, per language of the rows: the simulation gives every pair one shared
    item difficulty."""
    ref_all = reference_table("nava_munoz_2024_table2_3")
    checks = [pd.read_csv(p) for p in example_checks(results)]
    missed_r, other_r, ours_all, parts = [], [], [], []
    missed_rows = rows[rows.verdict == "misses"] if (rows.verdict == "misses").any() else rows
    for language in sorted({str(x).split(" ")[0] for x in rows.row}):
        ref = ref_all[ref_all.language == language]
        paper_w = {r.system: r.uci - r.lci for r in ref[ref.table == "T2"].itertuples()}
        paper_pairs = [(r.reference, r.system, r.uci - r.lci) for r in ref[ref.table == "T3"].itertuples()]
        mine = [c for c in checks if len(c) and (c.language == language).all()]
        if not mine or not paper_w:
            continue
        check = mine[0]
        ours_w = dict(zip(check[check.table == "T2"].system, check[check.table == "T2"].ours))
        ours_pairs = [(r.reference, r.system, r.ours) for r in check[check.table == "T3"].itertuples()]
        paper_r, ours_r = _implied_correlations(paper_w, paper_pairs), _implied_correlations(ours_w, ours_pairs)
        missed = [tuple(str(x).removeprefix(f"{language} ").split(" - ")) for x in missed_rows.row
                  if str(x).startswith(language)]
        missed_r += [paper_r[m] for m in missed if m in paper_r]
        other_r += [r for k, r in paper_r.items() if k not in missed]
        ours_all += list(ours_r.values())
        parts.append(f"{language}: " + "; ".join(
            f"{a} vs {b}: paper r = {r:.2f}" + (f", ours {ours_r[(a, b)]:.2f}" if (a, b) in ours_r else "")
            for (a, b), r in paper_r.items()))
    if not missed_r:
        return None
    return {"missed_r": value_range(missed_r), "other_r": value_range(other_r), "ours_r": value_range(ours_all),
            "shown": " | ".join(parts)}


def ties_ordering(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The published tie counts of the rows, in the order none / BH / Holm / Bonferroni."""
    if rows.empty:
        return None
    return {"shown": "; ".join(f"{r.row}: {r.note}" for r in rows.itertuples())}


CHECKS = {f.__name__: f for f in (figure3_vs_table5, implied_correlation, ties_ordering)}
