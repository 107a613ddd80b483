"""Computed checks behind the explanations of Dror et al. (2019)'s misses (explanations.yaml)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simstats.studies.dror2019.conventions import paper_table4
from simstats.studies.reference import read_if_present, value_range

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
    return {"so_range": value_range(readings.so_percent), "a_range": value_range(readings.case_a_percent),
            "d_range": value_range(readings.case_d_percent), "cos_range": value_range(cos.values()),
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


CHECKS = {f.__name__: f for f in (convention_contrast, real_runs_contrast, table4_readings, u_test_examples)}
