"""Computed checks behind the report's explanations of misses.

Each check takes the fidelity ledger, the ledger rows it explains and the results directory, and
returns the numbers named in braces in its explanation text (`simstats/data/explanations.yaml`)
plus ``shown``: the computation in one line, printed beside the explanation.  A check returns
None when what it needs is missing; the miss is then listed as unexplained.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.report.fidelity import read_if_present
from simstats.studies.dror2019.conventions import paper_table4
from simstats.studies.reference import paper_value, reference_table
from simstats.stats.lazy import lazy_module

special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

#: the mean z of a pair whose one-sided shift-convention p lies in (0.04, 0.05): tau = this x se
TAU_Z = float(np.mean(-special.ndtri(np.linspace(0.04, 0.05, 1001))))   # = stats.norm.isf


def _ranges(values) -> str:
    values = [v for v in values if np.isfinite(v)]
    if not values:
        return "–"
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}-{hi:.2f}"


def implied_significance(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 1 % significant implied by the paper's own tau and Delta95: differences N(0, (Delta95 /
    1.96)^2), a bootstrap se of tau / TAU_Z, significant when |Delta| > 1.645 se."""
    parts, gaps = [], []
    for task in rows.row.unique():
        tau = paper_value("reimers2018", "T1_eval1", task, "tau")
        d95 = paper_value("reimers2018", "T1_eval1", task, "delta95_test")
        pct = paper_value("reimers2018", "T1_eval1", task, "pct_significant")
        if None in (tau, d95, pct):
            continue
        se, sd = tau / TAU_Z, d95 / stats.norm.isf(0.025)
        implied = 100 * 2 * stats.norm.sf(stats.norm.isf(0.05) * se / sd)
        ours = rows[rows.row == task].ours
        parts.append(f"{task}: implied {implied:.1f} %, paper {pct:.2f} %"
                     + (f", ours {float(ours.iloc[0]):.1f} %" if len(ours) else ""))
        gaps.append(implied - pct)
    if not parts:
        return None
    return {"gap": _ranges(gaps), "tasks": len(parts),
            "shown": "; ".join(parts) + f" (tau = {TAU_Z:.3f} se)"}


def mixture_reach(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The calibrated model's closed form for the missed Evaluation 2 cells (reimers/closed_form_curves.csv
    at the row's n; Table 2 is n = 50) beside the paper, the calibration's note on Table 2's fit
    (reimers/calibration_fit.csv), and how many MCSE the simulated value lies from the closed form."""
    import re

    from simstats.studies.reimers2018.calibration import EVAL2_N

    fit = read_if_present(results / "reimers" / "calibration_fit.csv")
    curves = read_if_present(results / "reimers" / "closed_form_curves.csv")
    if fit is None or curves is None:
        return None
    parts, closed, zs, notes = [], [], [], []
    for r in rows.itertuples():
        digits = re.search(r"_n(\d+)$", str(r.column))
        n = int(digits.group(1)) if digits else EVAL2_N
        curve = curves[(curves.reference == r.row) & (curves.n == n)]
        if curve.empty:
            continue
        value = float(curve.pct_significant.iloc[0])
        target = fit[(fit.reference == r.row) & (fit.kind == "target") & (fit.quantity == "pct_significant_eval2")]
        note = str(target.note.iloc[0]) if len(target) else "Table 2 not fitted"
        z = (float(r.ours) - value) / float(r.mcse) if r.mcse and np.isfinite(r.mcse) and r.mcse > 0 else float("nan")
        parts.append(f"{r.row}, n = {n}: closed form {value:.2f} %, paper {float(r.published):.2f} %, simulated "
                     f"{float(r.ours):.2f} ± {float(r.mcse):.2f} (z = {z:.1f} from the closed form; {note})")
        closed.append(value)
        zs.append(z)
        notes.append(note)
    if not parts:
        return None
    reach = ("meets it exactly" if all(k == "fit exact" for k in notes)
             else "cannot reach it while keeping tau, Delta95 and rho (closest fit)" if all(k != "fit exact" for k in notes)
             else "meets it exactly in some of these tasks and not in others (see the computation)")
    return {"closed": _ranges(closed), "z": _ranges(zs), "reach": reach, "shown": "; ".join(parts)}


def yeh_counts(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Yeh's trial counts against the exact expectation, our own 2^20 shuffles, and his two-sided bound."""
    example = pd.read_csv(results / "yeh/example.csv") if (results / "yeh/example.csv").exists() else None
    two = ledger[(ledger.paper == "yeh2000") & (ledger.column == "p_two_sided")]
    if example is None or two.empty:
        return None
    shuffles = 2 ** 20
    z_ours = (example.our_trials - example.expected_trials) / np.sqrt(shuffles * example.exact_p
                                                                         * (1 - example.exact_p))
    parts = [f"{m}: Yeh z = {zy:+.1f}, our shuffles z = {zo:+.1f}"
             for m, zy, zo in zip(example.metric, example.z_yeh_vs_exact, z_ours)]
    p2 = float(two.ours.iloc[0])
    doubled = 2 * 25_770 / shuffles
    return {"z_ours_max": f"{float(np.abs(z_ours).max()):.1f}", "p_two_sided": f"{p2:.4f}",
            "doubled": f"{doubled:.4f}",
            "shown": "; ".join(parts) + f"; exact two-sided precision p = {p2:.4f} (< 0.04, Yeh section 2.2), "
                                        f"2 x 25,770 / 2^20 = {doubled:.4f}"}


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
    from simstats.report.fidelity import example_checks

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
    return {"missed_r": _ranges(missed_r), "other_r": _ranges(other_r), "ours_r": _ranges(ours_all),
            "shown": " | ".join(parts)}


def convention_contrast(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The same published numbers under the paper's own ASO computation (dror2019 convention)."""
    other = ledger[(ledger.paper == "dror2019") & ledger.variant.str.startswith("dror2019 convention")]
    if other.empty:
        return None
    keys = set(zip(rows.table, rows.row, rows.column, rows["item"],
                   rows.variant.str.replace("deepsig convention", "dror2019 convention", regex=False)))
    match = other[[k in keys for k in zip(other.table, other.row, other.column, other["item"], other.variant)]]
    if match.empty:
        return None
    counts = match.verdict.value_counts()
    text = ", ".join(f"{v} {k}" for k, v in counts.items())
    return {"dror2019_verdicts": text, "dror2019_agrees": int(counts.get("agrees", 0)), "n": len(match),
            "shown": "; ".join(f"{r.table} {r.row[:24]} {r['item']}: ours {r.ours:.3g} ({r.verdict})"
                               for _, r in match.iterrows())}


def real_runs_contrast(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The same published Table 2 / 3 numbers computed on the UKP runs themselves (cases B and C),
    and whether the paper printed the two groups' summaries in swapped order."""
    variant = str(rows.variant.iloc[0]).split(";")[0]
    real = ledger[(ledger.paper == "dror2019") & (ledger.table == rows.table.iloc[0])
                  & (ledger.variant == f"{variant}; UKP runs")]
    if real.empty:
        return None
    swapped = ""
    path = results / "dror" / ("paper_cases_dror2019.csv" if variant.startswith("dror2019") else "paper_cases.csv")
    if path.exists():
        cases = pd.read_csv(path)
        if "summaries_swapped" in cases:
            hit = cases[(cases.source == "UKP runs") & cases.summaries_swapped.fillna(False).astype(bool)]
            hit = hit[hit.case.map(lambda c: f"T{'ABC'.index(c) + 1}") == str(rows.table.iloc[0])[:2]]
            if len(hit):
                swapped = (f" The paper printed case {hit.case.iloc[0]}'s summaries in swapped order: its "
                           f"'{hit['first'].iloc[0]}' numbers are the {hit['second'].iloc[0]} runs' (mean "
                           f"{hit.second_mean.iloc[0]:.4f}, sd {hit.second_sd.iloc[0]:.4f}, median "
                           f"{hit.second_median.iloc[0]:.4f}).")
    counts = real.verdict.value_counts()
    return {"real_verdicts": ", ".join(f"{v} {k}" for k, v in counts.items()), "swapped": swapped,
            "shown": "; ".join(f"{r['item'].removesuffix(' (note)')}: UKP runs {r.ours:.3g}, paper {r.published:.4g} "
                               f"({r.verdict})" for _, r in real.iterrows())}


def ties_ordering(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The published tie counts of the rows, in the order none / BH / Holm / Bonferroni."""
    if rows.empty:
        return None
    return {"shown": "; ".join(f"{r.row}: {r.note}" for r in rows.itertuples())}


def _shares(ledger: pd.DataFrame) -> dict[str, dict[str, float]]:
    """Table 4 case shares (percent) per ledger variant (convention; comparison set): {variant: {case: share}}."""
    rows = ledger[(ledger.paper == "dror2019") & (ledger.table == "T4_summary") & (ledger["item"] == "share %")]
    out: dict[str, dict[str, float]] = {}
    for r in rows.itertuples():
        out.setdefault(r.variant, {})[str(r.row).removeprefix("Case ")] = float(r.ours)
    return out


def table4_readings(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 4's shares against two things that need no ASO: COS alone (case A + B), and the share with a
    significant U test (case A + D) under every reading of the paper's U test (dror/so_readings.csv)."""
    readings = read_if_present(results / "dror" / "so_readings.csv")
    shares = _shares(ledger)
    if readings is None or readings.empty or not shares:
        return None
    cos = {v: s.get("A", np.nan) + s.get("B", np.nan) for v, s in shares.items()}
    table4 = paper_table4()
    paper_cos = table4["A"]["share"] + table4["B"]["share"]
    shown = [f"COS decisive (A + B): paper {paper_cos:.2f} %, ours " + ", ".join(
        f"{v.split('; ')[-1]} {x:.1f} %" for v, x in cos.items() if v.startswith("dror2019"))]
    shown += [f"{r.source}, {r.reading}: U significant {r.so_percent:.1f} %, case A {r.case_a_percent:.1f} %, "
              f"case D {r.case_d_percent:.1f} %" for r in readings.itertuples()]
    return {"so_range": _ranges(readings.so_percent), "a_range": _ranges(readings.case_a_percent),
            "d_range": _ranges(readings.case_d_percent), "cos_range": _ranges(cos.values()),
            "paper_cos": f"{paper_cos:.2f}", "paper_so": f"{readings.paper_so_percent.iloc[0]:g}",
            "shown": "; ".join(shown)}


def u_test_examples(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The U p-values of the UKP runs behind Tables 2 and 3 in every sidedness and order
    (dror/so_readings_examples.csv), beside the published p."""
    examples = read_if_present(results / "dror" / "so_readings_examples.csv")
    if examples is None:
        return None
    case = {"T2_caseB": "B", "T3_caseC": "C"}.get(str(rows.table.iloc[0]))
    hit = examples[examples.case == case]
    if hit.empty:
        return None
    r = hit.iloc[0]
    values = [r.p_two_sided, r.p_first_less, r.p_second_less]
    return {"pvalues": ", ".join(f"{v:.3g}" for v in values), "paper_p": f"{r.p_paper:g}",
            "n": f"{int(r.n_first)} / {int(r.n_second)}",
            "shown": (f"case {case}, {r['first']} ({int(r.n_first)}) vs {r['second']} ({int(r.n_second)}): "
                      f"two-sided p {values[0]:.3g}, {r['first']} less p {values[1]:.3g}, {r['second']} less p "
                      f"{values[2]:.3g}; paper {r.p_paper:g}")}


CHECKS = {f.__name__: f for f in (mixture_reach, table4_readings, u_test_examples, ties_ordering, real_runs_contrast, implied_significance, yeh_counts, figure3_vs_table5,
                                  implied_correlation, convention_contrast)}


def run_check(name: str, ledger: pd.DataFrame, rows: pd.DataFrame, results) -> dict | None:
    if name not in CHECKS:
        raise ValueError(f"unknown check {name!r} in explanations.yaml (known: {', '.join(sorted(CHECKS))})")
    out = CHECKS[name](ledger, rows, Path(results))
    if out is not None:
        out = {k: (f"{v:.3g}" if isinstance(v, float) and not math.isnan(v) else v) for k, v in out.items()}
    return out
