"""Nava-Muñoz et al. (2024) in the fidelity ledger, one row per published number.

* Tables 2 and 3, CI widths (``prediction``; ``fitted`` for the Basque differences between teams, which the
  shared item difficulty was set to match): the mean width over many simulated test sets of the
  paper's class counts and true scores (``competition/<case>/widths.csv``), with its MCSE; the
  tolerance is 1.96 sd of one test set's width (the paper's widths come from one test set) plus the
  rounding of the two printed limits.
* Tables 4 and 5 and Appendix A (``identity``): differences from Table 1's scores, the corrections
  of the printed raw p-values; Table 4's marks against Table 5's raw p-values (``self-consistency``).
* Figure 3's p-values against Table 5's raw ones (``self-consistency``, log10 scale): two bootstrap
  estimates of one p-value with B = 10,000 each.
* Tables 7-11: possible comparisons m (m - 1) / 2 and every published tie count judged against the
  range the task's other counts allow (``self-consistency``); the ties that follow from published
  p-values (Table 8 Basque Textual from Table 5, PAR-MEX 2022's ties with the winner from Appendix A)
  and the measures that follow from Table 1's scores (``identity``).
* Section 5's text numbers against the tables they quote (``self-consistency``).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats.competition import adjust_pair_table, summary_measures
from simstats.io.competition import significance_mark
from simstats.studies.reference import (NOT_COMPARED, Z95, identity_row, judge, ledger_frame, ledger_row,
                                        published_text, reference_table, rounding)

PAPER = "navamunoz2024"
#: Bootstrap samples behind every p-value and CI the paper computes (section 4).
PAPER_B = 10_000
#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {
    "T1_scores": "the true scores of the simulated competition",
    "T6_metrics": "definitions, not numbers",
    "T5_corrections": "Table 5's raw bootstrap p-values on the VaxxStance Basque data (not released): the inputs of "
                      "its corrections, Table 4's marks and Table 8's Basque ties",
    "A_compstats": "CompStats' p-values on the PAR-MEX 2022 data (not shipped): inputs of the Bonferroni column and "
                   "of Table 11's PAR-MEX ties with the winner",
}
#: Table 4's marks as numbers: 0 none, 1 dagger (p < .1), 2 * (< .05), 3 ** (< .01), 4 *** (< .001).
MARK_CODES = {"": 0, "†": 1, "*": 2, "**": 3, "***": 4}
#: p-value band of each mark (lower, upper); *** reaches down to 1 / B, the smallest positive bootstrap p.
MARK_BANDS = {0: (0.1, 1.0), 1: (0.05, 0.1), 2: (0.01, 0.05), 3: (0.001, 0.01), 4: (1 / PAPER_B, 0.001)}
#: Widths the shared item difficulty (sigma_item = 0.5, config) was set to match: Basque differences between teams.
FITTED_WIDTHS = {("Basque", "T3", "WordUp.01", s) for s in ("MultiAztertest.01", "SQYQP.01", "MultiAztertest.02")}
BASQUE_ORDER = ["WordUp.01", "WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02"]
LABELS = ("none", "bonferroni", "holm", "bh")
#: The order adjusted p-values obey (raw <= BH <= Holm <= Bonferroni), so tie counts can only grow along it.
CORRECTION_ORDER = ("none", "bh", "holm", "bonferroni")
PARMEX_SYSTEMS = ["baseline", "temu_bsc", "UC3M-DEEPNLP", "FRSCIC", "Abu", "Thang CIC", "T Par"]


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows (see the module docstring)."""
    rows = _width_rows(results)
    rows += _table4_5_rows()
    rows += _figure3_rows()
    rows += _tables7_11_rows()
    rows += _appendix_rows()
    rows += _section5_rows()
    return ledger_frame(rows)


# --------------------------------------------------------------------------- p-values
def pvalue_se(p: float, b: int = PAPER_B) -> float:
    """Binomial Monte Carlo se of a bootstrap p-value estimated from b resamples."""
    return math.sqrt(max(p, 1.0 / b) * (1 - p) / b)


def log_tolerance(published: float, tolerance: float) -> float:
    """A linear ± tolerance around a positive ``published`` in log10 units: the narrower side,
    log10(1 + tolerance / published), so the log band never admits more than the linear one."""
    return math.log10(1 + tolerance / published)


def pvalue_identity(table, row, column, printed: str, ours: float, note: str, source: str,
                    input_error: float = 0.0) -> dict:
    """A p-value computed by arithmetic from printed p-values: judged on log10 (a factor), or linearly where the
    printed value or its rounding band reaches 0."""
    published, half = float(printed), rounding(printed)
    tol = half + input_error
    basis = "rounding" + (f" + {input_error:.2g} from the inputs' rounding" if input_error else "")
    if published - tol > 0 and ours > 0:
        log_tol = log_tolerance(published, tol)
        return ledger_row(paper=PAPER, table=table, row=row, column=column, published=published, ours=float(ours),
                          mcse=0.0, tolerance=log_tol, rounding=half, scale="log10", role="identity",
                          tolerance_basis=basis + " (as a factor, log10 units)",
                          verdict=judge(float(ours), 0.0, published, log_tol, scale="log10"), source=source, note=note)
    return ledger_row(paper=PAPER, table=table, row=row, column=column, published=published, ours=float(ours),
                      mcse=0.0, tolerance=tol, rounding=half, tolerance_basis=basis + " (linear: printed 0)",
                      role="identity", verdict=judge(float(ours), 0.0, published, tol), source=source, note=note)


def mark_band_verdict(p: float, code: int, b: int = PAPER_B) -> str:
    """Is a bootstrap p-value estimated as ``p`` from b resamples compatible with the mark ``code``?  Its
    Wilson interval judged against the mark's p band on log10 (agrees: inside; misses: outside)."""
    from simstats.studies.reference import rate_interval

    low, high = MARK_BANDS[code]
    centre, half = (math.log10(low) + math.log10(high)) / 2, (math.log10(high) - math.log10(low)) / 2
    interval = rate_interval(max(p, 1.0 / b), b)
    return judge(max(p, 1.0 / b), 0.0, 10 ** centre, half, interval=interval, scale="log10")


# --------------------------------------------------------------------------- Tables 2 and 3
def example_checks(results: Path) -> list[Path]:
    """The CI-width checks (one test set) of the simulated example competitions compared with a paper column."""
    out = []
    for path in sorted((results / "competition").glob("*/check.csv")):
        head = pd.read_csv(path, nrows=1)
        if "language" in head.columns:
            out.append(path)
    return out


def width_bands(results: Path) -> dict[str, pd.DataFrame]:
    """{language: widths.csv} of the examples compared with a paper column."""
    out = {}
    for path in sorted((results / "competition").glob("*/widths.csv")):
        band = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if len(band):
            out[str(band.language.iloc[0])] = band.assign(source=path.relative_to(results).as_posix())
    return out


def _width_key(r) -> tuple[str, str]:
    if r.table == "T2":
        return "T2_ci", f"{r.language} {r.system}"
    return "T3_diff_ci", f"{r.language} {r.reference} - {r.system}"


def _width_rows(results: Path) -> list[dict]:
    bands = width_bands(results)
    single = {}
    for path in example_checks(results):
        for r in pd.read_csv(path, keep_default_na=False, na_values=[""]).itertuples(index=False):
            single[_width_key(r)] = (float(r.ours), path.relative_to(results).as_posix())
    ref = reference_table("nava_munoz_2024_table2_3").fillna({"reference": ""})
    rows = []
    for r in ref.itertuples(index=False):
        table, row = _width_key(r)
        printed_w = float(r.uci) - float(r.lci)
        base = dict(paper=PAPER, table=table, row=row, column="lci_mean_uci", item="95% CI width",
                    published=printed_w, rounding=1e-4, role="fitted" if (r.language, r.table, r.reference,
                                                                          r.system) in FITTED_WIDTHS else "prediction")
        one = single.get((table, row))
        sensitivity = f"the case's one test set: {one[0]:.4f}" if one else ""
        band = bands.get(r.language)
        hit = None if band is None else band[(band.table == r.table) & (band.system == r.system)
                                              & (band.reference.fillna("") == (r.reference or ""))]
        if hit is None or hit.empty:
            rows.append(ledger_row(**base, ours=one[0] if one else math.nan, verdict=NOT_COMPARED,
                                   sensitivity=sensitivity, source=one[1] if one else "nava_munoz_2024_table2_3.csv",
                                   note="no width band over simulated test sets in these results"))
            continue
        b = hit.iloc[0]
        tol = Z95 * float(b["sd"]) + 1e-4
        rows.append(ledger_row(**base, ours=float(b["mean"]), mcse=float(b["mcse"]), tolerance=tol,
                               tolerance_basis=f"1.96 sd of one test set's width ({float(b['sd']):.4f}) + rounding of "
                                               "the two limits",
                               verdict=judge(float(b["mean"]), float(b["mcse"]), printed_w, tol),
                               variant=f"mean over {int(b.test_sets)} simulated test sets", sensitivity=sensitivity,
                               source=b.source,
                               note=f"one test set's width: 95 % of them in {b.q025:.4f}-{b.q975:.4f}"))
    return rows


# --------------------------------------------------------------------------- Tables 4 and 5
def basque_scores() -> dict[str, float]:
    """Table 1's Basque scores (4 decimals)."""
    text = published_text(PAPER, "T1_scores", "VaxxStance Basque", "F1")
    return {name: float(v) for name, v in (part.strip().rsplit(" ", 1) for part in text.split(";"))}


def _table4_5_rows() -> list[dict]:
    t5 = reference_table("nava_munoz_2024_table5")
    scores = basque_scores()
    rows = []
    adjusted = adjust_pair_table(t5[["reference", "system", "pvalue"]], scope="group")
    group_size = t5.groupby("reference").size().to_dict()
    for r in t5.itertuples(index=False):
        diff = scores[r.reference] - scores[r.system]
        printed_diff = f"{r.difference:.3f}"
        pair = f"{r.reference} vs {r.system}"
        rows.append(identity_row(PAPER, "T5_corrections", pair, "difference", "", printed_diff, diff,
                                 "Table 1's scores", source="nava_munoz_2024_table5.csv", input_error=1e-4))
        rows.append(identity_row(PAPER, "T4_differences", f"Basque {r.reference} - {r.system}", "difference", "",
                                 printed_diff, diff, "Table 1's scores", source="paper_targets.csv",
                                 input_error=1e-4))
        code = float(MARK_CODES[significance_mark(float(r.pvalue))])
        published = float(published_text(PAPER, "T4_differences", f"Basque {r.reference} - {r.system}", "mark"))
        rows.append(ledger_row(paper=PAPER, table="T4_differences", row=f"Basque {r.reference} - {r.system}",
                               column="mark", published=published, ours=code, mcse=0.0, tolerance=0.5,
                               rounding=0.5, tolerance_basis="exact (mark code)", role="self-consistency",
                               verdict=judge(code, 0.0, published, 0.5), source="nava_munoz_2024_table5.csv",
                               note=f"the mark of Table 5's raw p = {r.pvalue:.4f} (0 none, 1 †, 2 *, 3 **, 4 ***)"))
        o = adjusted[(adjusted.reference == r.reference) & (adjusted.system == r.system)].iloc[0]
        k = group_size[r.reference]
        for column, label in (("bonferroni", "bonferroni"), ("fdr", "bh"), ("holm", "holm"), ("bh", "bh")):
            rows.append(pvalue_identity("T5_corrections", pair, column, f"{getattr(r, column):.4f}",
                                        float(o[f"pvalue_{label}"]),
                                        f"statsmodels' {label} within the group of {k} of the printed raw p-values",
                                        "nava_munoz_2024_table5.csv", input_error=k * 0.5e-4))
    return rows


def _figure3_rows() -> list[dict]:
    """Figure 3's p-values (B = 10,000) against Table 5's raw ones of the same pairs (another B = 10,000 run)."""
    t5 = reference_table("nava_munoz_2024_table5")
    raw = dict(zip(zip(t5.reference, t5.system), t5.pvalue))
    rows = []
    for reference, system in (("WordUp.01", "SQYQP.01"), ("WordUp.01", "WordUp.02")):
        row = f"Basque {reference} vs {system}"
        printed = published_text(PAPER, "pvalue", row, "p")
        published, ours = float(printed), float(raw[(reference, system)])
        half = rounding(printed)
        log_tol = log_tolerance(published, 3 * pvalue_se(published) + half)    # the narrower side of the band
        z = abs(published - ours) / math.hypot(pvalue_se(published), pvalue_se(ours))
        rows.append(ledger_row(paper=PAPER, table="pvalue", row=row, column="p", published=published, ours=ours,
                               mcse=pvalue_se(ours), tolerance=log_tol, rounding=half, scale="log10",
                               tolerance_basis="3 se of Figure 3's B = 10,000 estimate + rounding (log10 units, narrower side)",
                               role="self-consistency",
                               verdict=judge(ours, pvalue_se(ours), published, log_tol, scale="log10"),
                               variant="Table 5's raw p-value (its own B = 10,000 run)",
                               source="nava_munoz_2024_table5.csv",
                               note=f"difference {abs(published - ours):.4f} = {z:.2f} se of the difference of two "
                                    "B = 10,000 estimates"))
    return rows


# --------------------------------------------------------------------------- Tables 7-11
def task_label(r) -> str:
    return " ".join(str(x) for x in (r.competition, r.task, r.language) if isinstance(x, str) and x)


def allowed_range(counts: dict, column: str, label: str, m: int, pairs: int) -> tuple[int, int]:
    """The range [low, high] the task's other published tie counts allow one count: ties grow along
    none <= BH <= Holm <= Bonferroni, ties with the winner are some of all ties (at most m - 1), ties at
    most the possible comparisons."""
    order = CORRECTION_ORDER.index(label)
    same = counts[column]
    low = [same[c] for c in CORRECTION_ORDER[:order]] + [0]
    high = [same[c] for c in CORRECTION_ORDER[order + 1:]] + [m - 1 if column == "ties_with_winner" else pairs]
    if column == "ties_with_winner":
        high.append(counts["ties"][label])
    else:
        low.append(counts["ties_with_winner"][label])
    return max(low), min(high)


def tie_counts(r) -> dict:
    return {column: dict(zip(LABELS, (int(x) for x in str(getattr(r, column)).split("/"))))
            for column in ("ties_with_winner", "ties")}


def parmex_ties_with_winner() -> dict:
    """Table 11's PAR-MEX 2022 ties with the winner from Appendix A's p-values (p >= 0.05 after each correction)."""
    raw = [float(published_text(PAPER, "A_compstats", f"PAR-MEX 2022 {s}", "raw_p")) for s in PARMEX_SYSTEMS]
    pairs = pd.DataFrame({"reference": "winner", "system": PARMEX_SYSTEMS, "pvalue": raw})
    adjusted = adjust_pair_table(pairs, scope="group")
    return {label: int((adjusted[f"pvalue_{label}"] >= 0.05).sum()) for label in LABELS}


def _tables7_11_rows() -> list[dict]:
    rows = []
    table = reference_table("nava_munoz_2024_tables7_11")
    printed_table = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "nava_munoz_2024_tables7_11.csv",
                                dtype=str, keep_default_na=False)
    basque = _basque_textual_measures()
    parmex = parmex_ties_with_winner()
    for r, p in zip(table.itertuples(index=False), printed_table.itertuples(index=False)):
        label = task_label(r)
        base = {"paper": PAPER, "table": f"{r.table}_summary", "row": label, "source": "nava_munoz_2024_tables7_11.csv"}
        pairs = r.m * (r.m - 1) // 2
        rows.append(ledger_row(**base, column="possible_comparisons", published=float(r.possible_comparisons),
                               ours=float(pairs), mcse=0.0, tolerance=0.5, rounding=0.5, role="self-consistency",
                               tolerance_basis="exact (integers)",
                               verdict=judge(float(pairs), 0.0, float(r.possible_comparisons), 0.5),
                               note=f"m (m - 1) / 2 with the table's m = {r.m}"))
        counts = tie_counts(r)
        textual_basque = r.table == "T8" and r.task == "Close Track-Textual" and r.language == "Basque"
        for column in ("ties_with_winner", "ties"):
            printed = "/".join(str(counts[column][c]) for c in CORRECTION_ORDER)
            for label in LABELS:
                value = counts[column][label]
                if textual_basque or (r.competition == "PAR-MEX 2022" and column == "ties_with_winner"):
                    ours = basque[f"{column}_{label}"] if textual_basque else parmex[label]
                    where = "Table 5's raw p-values" if textual_basque else "Appendix A's p-values"
                    rows.append(identity_row(PAPER, base["table"], base["row"], column, label, str(value), ours,
                                             f"p >= 0.05 after {label} within each reference system's group, from "
                                             f"{where}", source=base["source"]))
                    continue
                low, high = allowed_range(counts, column, label, r.m, r.possible_comparisons)
                ours = float(min(max(value, low), high))
                rows.append(ledger_row(**base, column=column, item=label, published=float(value), ours=ours,
                                       mcse=0.0, tolerance=0.5, rounding=0.5, role="self-consistency",
                                       tolerance_basis="exact (integers)",
                                       verdict=judge(ours, 0.0, float(value), 0.5),
                                       note=f"the task's other counts allow {low}-{high} (none/BH/Holm/Bonferroni = "
                                            f"{printed})"))
        textual = r.table == "T8" and r.task == "Close Track-Textual"
        for column in ("win_minus_median", "cv_percent", "ppi_percent"):
            printed = getattr(p, column)
            if textual:
                scores = _textual_scores(r.language)
                measures, errors = _score_measures(scores), _score_rounding_effects(scores, 0.5e-4)
                rows.append(identity_row(PAPER, base["table"], base["row"], column, "", printed, measures[column],
                                         "from Table 1's scores (4 decimals)", source="nava_munoz_2024_summaries.csv",
                                         input_error=errors[column]))
            else:
                rows.append(ledger_row(**base, column=column, published=float(printed), role="identity",
                                       verdict=NOT_COMPARED, note="the paper publishes no per-system scores for this task"))
    return rows


def _textual_scores(language: str) -> list[float]:
    s = reference_table("nava_munoz_2024_summaries")
    hit = s[s.competition.str.endswith(language)].iloc[0]
    return [float(x) for x in str(hit.scores).split(";")]


def _basque_textual_measures() -> dict:
    """Table 8's Basque Textual measures from Table 1's scores and Table 5's raw p-values."""
    t5 = reference_table("nava_munoz_2024_table5")
    scores = basque_scores()
    return summary_measures(BASQUE_ORDER, [scores[n] for n in BASQUE_ORDER], t5[["reference", "system", "pvalue"]],
                            n_items=312)


def _score_measures(scores) -> dict:
    a = np.asarray(scores, dtype=float)
    return {"win_minus_median": float(abs(a[0] - np.median(a))), "cv_percent": float(100 * a.std(ddof=1) / a.mean()),
            "ppi_percent": float(100 * (1 - a[0]))}


def _score_rounding_effects(scores, half_unit: float) -> dict:
    """Largest change of each Table 8 measure when every score moves by up to ``half_unit``
    (first order: the sum of |partial derivative| x half_unit, by central differences)."""
    base = np.asarray(scores, dtype=float)
    out = dict.fromkeys(_score_measures(base), 0.0)
    for i in range(base.size):
        up, down = base.copy(), base.copy()
        up[i] += half_unit
        down[i] -= half_unit
        hi, lo = _score_measures(up), _score_measures(down)
        for key in out:
            out[key] += abs(hi[key] - lo[key]) / 2
    return out


# --------------------------------------------------------------------------- Appendix A and section 5
def _appendix_rows() -> list[dict]:
    """Appendix A's Bonferroni column: min(1, 7 p) of its printed p-values."""
    rows = []
    for system in PARMEX_SYSTEMS:
        row = f"PAR-MEX 2022 {system}"
        raw = float(published_text(PAPER, "A_compstats", row, "raw_p"))
        ours = min(1.0, len(PARMEX_SYSTEMS) * raw)
        rows.append(pvalue_identity("A_compstats", row, "bonferroni", published_text(PAPER, "A_compstats", row,
                                                                                    "bonferroni"),
                                    ours, f"min(1, {len(PARMEX_SYSTEMS)} p) of the printed p",
                                    "paper_targets.csv", input_error=0.0))
    return rows


#: Section 5's text numbers: (row, column) -> (table, task row, column of the table it quotes).
SECTION5 = {
    ("EXIST 2021 Sexism Identification English", "cv_percent"): "cv_percent",
    ("EXIST 2021 Sexism Identification English", "win_minus_median"): "win_minus_median",
    ("PAR-MEX 2022 Paraphrase Identification", "cv_percent"): "cv_percent",
    ("PAR-MEX 2022 Paraphrase Identification", "win_minus_median"): "win_minus_median",
    ("VaxxStance 2021 Close Track-Contextual Basque", "cv_percent"): "cv_percent",
    ("VaxxStance 2021 Close Track-Contextual Basque", "win_minus_median"): "win_minus_median",
    ("VaxxStance 2021 Close Track-Contextual Basque", "tie_share"): "tie_share",
}


def table_printed(row: str, column: str) -> tuple[str, str]:
    """(table, printed value) of a task's measure in Tables 7-11; ``tie_share`` = ties (none) / possible comparisons."""
    table = pd.read_csv(Path(__file__).resolve().parents[2] / "data" / "nava_munoz_2024_tables7_11.csv",
                        dtype=str, keep_default_na=False)
    for r in table.itertuples(index=False):
        if task_label(r) == row:
            if column == "tie_share":
                return r.table, repr(int(r.ties.split("/")[0]) / int(r.possible_comparisons))
            return r.table, getattr(r, column)
    raise ValueError(f"no task {row!r} in Tables 7-11")


def _section5_rows() -> list[dict]:
    rows = []
    for (row, column), quoted in SECTION5.items():
        printed = published_text(PAPER, "S5_text", row, column)
        table, value = table_printed(row, quoted)
        tol = rounding(printed) + (rounding(value) if column != "tie_share" else 0.0)
        ours = float(value)
        rows.append(ledger_row(paper=PAPER, table="S5_text", row=row, column=column, published=float(printed),
                               ours=ours, mcse=0.0, tolerance=tol, rounding=rounding(printed),
                               tolerance_basis="rounding of both", role="self-consistency",
                               verdict=judge(ours, 0.0, float(printed), tol), variant=f"Table {table[1:]}",
                               source="nava_munoz_2024_tables7_11.csv",
                               note=f"section 5's number against Table {table[1:]}'s"))
    return rows
