"""Dror et al. (2019) in the fidelity ledger: one row per published number, judged under the paper's
own ASO computation (its released script's eps_min margin: the "dror2019" convention).

Tables 1-3 (U test p, ASO eps_min) are judged on the paper's own runs where the project has them
(cases B and C: the UKP 2017 runs, role ``prediction``) and otherwise on distributions rebuilt from
the published summaries (case A: role ``analogue``).  Table 4 and the text's claims about the 510
comparisons are computed on comparison sets that are not the paper's (UKP factor-value pools;
``analogue``); section 6 on our synthetic population of 255 distributions (``analogue``), the
half-split mean and a near-automatic 50 % included.  Ours under the other convention (deepsig's
margin) and on the other data sources is the ``sensitivity`` text, never another row.

Section 6's tolerances are the paper's own Monte Carlo error (3 se of 25,500 comparisons, 100 per
distribution) plus the published rounding; claims stated as bounds ("under 5 %") are judged as
the range they state.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simstats.studies.dror2019.conventions import PAPER_NOISE, printed_rounding
from simstats.studies.reference import (NOT_COMPARED, judge, ledger_frame, ledger_row, published_text,
                                        read_if_present)

#: The published number the synthetic population's spreads were set to.
FITTED_CELLS = {("setup", "avg_std")}
#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {table: "summary statistics the Table 1-3 distributions are reconstructed from"
               for table in ("T1_caseA", "T2_caseB", "T3_caseC")}

PAPER = "dror2019"
PRIMARY = "dror2019"          # the paper's own computation
UKP_RUNS = "UKP runs"
RECONSTRUCTED = "reconstructed shapes"
TABLE4_PRIMARY = "UKP BiLSTM 2017"
#: The paper's section 6: 100 comparisons for each of its 255 distributions.
PAPER_COMPARISONS = 25_500

DROR_TABLES = {"Table 1": ("T1_caseA", "Lample et al. (41 scores) vs Ma&Hovy (87 scores)", "mean"),
               "Table 2": ("T2_caseB", "Adam (3898) vs RMSProp (1822)", "mean_std"),
               "Table 3": ("T3_caseC", "Variational (2599) vs No dropout (225)", "mean_std")}
NOISE_ROWS = {"false_positive": ("255 distributions x 100 comparisons vs +N(0;0.001) noise", "eps_mean_sd"),
              "half_split": ("random half splits x 100", "eps_mean"),
              "false_negative": ("1/4 of scores minus phi^2 and 3/4 plus phi^2; phi~N(0;0.01)", "eps_mean_sd")}
#: Section 6's statistic under the paper's computation and the others shown as sensitivity.
NOISE_PRIMARY = "eps_min_dror2019"
#: Why section 6's eps is eps_min (the primary), not the violation ratio eps_W2: the paper's own definitions.
EPS_REASON = ("eps is the ASO test's output, eps_min at alpha = 0.01 as in sections 4-5 (0 = better 'with the "
              "strongest confidence'; the released script prints eps_min); eps_W2 in sensitivity")
NOISE_OTHERS = {"violation_ratio_dror2019": "eps_W2", "eps_min": "deepsig eps_min"}


def _fmt(value: float) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.3g}"


def _sensitivity(parts: list[tuple[str, float, float, str]]) -> str:
    """"label: ours ± mcse (verdict)" for each other computation of the same published number."""
    return "; ".join(f"{label}: {_fmt(o)}" + (f" ± {_fmt(m)}" if math.isfinite(m) and m > 0 else "") + f" ({v})"
                     for label, o, m, v in parts)


def _verdict(text: str) -> str:
    return "misses" if str(text).startswith("misses") else str(text)


def _judged(ours: float, mcse: float, published: float, tolerance: float, scale: str = "linear") -> tuple[str, str]:
    """(verdict, why not compared): ``not compared`` when ours has no value or its MCSE is not computable (a
    random number is never judged as a point), else :func:`judge`."""
    if not math.isfinite(ours):
        return NOT_COMPARED, "no value of ours in these results"
    if not math.isfinite(mcse):
        return NOT_COMPARED, "ours' Monte Carlo error is not computable from these results"
    return judge(ours, mcse, published, tolerance, scale=scale), ""


def _paper_rows(conv: pd.DataFrame) -> list[dict]:
    """Tables 1-3: the U test's p and ASO's eps_min of each example."""
    rows = []
    part = conv[conv.table.isin(list(DROR_TABLES))].copy()
    part["data"] = [UKP_RUNS if str(s).endswith("(UKP runs)") else RECONSTRUCTED for s in part.source]
    part["kind"] = ["U test p" if q == "U test p" else "ASO eps_min" for q in part.quantity]
    for (table_name, kind), g in part.groupby(["table", "kind"], sort=True):
        table, row, column = DROR_TABLES[table_name]
        data = UKP_RUNS if (g.data == UKP_RUNS).any() else RECONSTRUCTED
        primary = g[(g.convention == PRIMARY) & (g.data == data)].iloc[0]
        others = g.drop(index=primary.name)
        scale = str(getattr(primary, "scale", "linear") or "linear")
        mcse = float(primary.mcse)
        verdict, why = _judged(float(primary.ours), mcse, float(primary.paper), float(primary.tolerance), scale)
        rows.append(ledger_row(
            paper=PAPER, table=table, row=row, column=column, item=f"{kind} (note)",
            variant=f"{PRIMARY} convention; {data}", published=float(primary.paper), ours=float(primary.ours),
            mcse=mcse, tolerance=float(primary.tolerance), rounding=printed_rounding(float(primary.paper)),
            tolerance_basis=primary.tolerance_basis, scale=scale,
            role="prediction" if data == UKP_RUNS else "analogue", verdict=verdict,
            sensitivity=_sensitivity([(f"{r.convention}, {r.data}", float(r.ours), float(r.mcse), _verdict(r.verdict))
                                      for r in others.itertuples()]),
            source="dror/conventions.csv",
            note=("the paper's own runs" if data == UKP_RUNS else "the paper's runs are not public: distributions "
                                                                  "rebuilt from its six summaries")
                 + (f"; {why}" if why else "")))
    return rows


TABLE4_ITEMS = {"share %": "share %", "eps mean": "eps mean", "eps sd": "eps sd"}
CLAIMS_510 = {"case D share %": ("claims_s5", "510 comparisons", "case_d_pct"),
              "ASO decisive %": ("claims_s5", "510 comparisons", "aso_decisive_pct")}


def _table4_rows(conv: pd.DataFrame) -> list[dict]:
    """Table 4 and the claims about all 510 comparisons, on our comparison sets (analogues)."""
    rows = []
    part = conv[conv.table == "Table 4"]
    for quantity, g in part.groupby("quantity", sort=False):
        if quantity in CLAIMS_510:
            (table, row, column), item = CLAIMS_510[quantity], ""
        else:
            case, what = quantity.split(" ", 2)[1], quantity.split(" ", 2)[2]
            table, row, column, item = "T4_summary", f"Case {case}", "pct_avg_eps_std", TABLE4_ITEMS[what]
        hit = g[(g.convention == PRIMARY) & (g.source == TABLE4_PRIMARY)]
        primary = hit.iloc[0] if len(hit) else g[g.convention == PRIMARY].iloc[0]
        others = g.drop(index=primary.name)
        ours, mcse = float(primary.ours), float(primary.mcse)
        has_value = math.isfinite(ours)
        verdict, why = _judged(ours, mcse, float(primary.paper), float(primary.tolerance))
        rows.append(ledger_row(
            paper=PAPER, table=table, row=row, column=column, item=item,
            variant=f"{PRIMARY} convention; {primary.source}", published=float(primary.paper), ours=ours,
            mcse=mcse if has_value else math.nan, tolerance=float(primary.tolerance),
            rounding=printed_rounding(float(primary.paper)), tolerance_basis=primary.tolerance_basis,
            role="analogue", verdict=verdict,
            sensitivity=_sensitivity([(f"{r.convention}, {r.source}", float(r.ours), float(r.mcse), _verdict(r.verdict))
                                      for r in others.itertuples() if math.isfinite(float(r.ours))]),
            source="dror/conventions.csv",
            note=("our comparison sets (every pair of values of one hyperparameter within a task), not the paper's 510"
                  + ("" if has_value else "; fewer than two comparisons in this case")
                  + (f"; {why}" if has_value and why else ""))))
    return rows


def _paper_se(key: str, published: float, sd: float | None) -> float:
    """The paper's own Monte Carlo se of a section 6 number from its 25,500 comparisons (NaN if unknown)."""
    n = PAPER_COMPARISONS
    if key == "mean":
        return sd / math.sqrt(n) if sd else math.nan
    if key == "sd":
        return published / math.sqrt(2 * (n - 1))
    if key.startswith("q") and sd:   # a normal quantile's se: sqrt(p (1 - p) / n) / density
        p = float(key[1:]) / 100
        z = abs(-1.959963984540054 if p < 0.5 else 1.959963984540054)
        return math.sqrt(p * (1 - p) / n) / (math.exp(-z * z / 2) / math.sqrt(2 * math.pi) / sd)
    return math.sqrt(published * (1 - published) / n)    # a share


def _noise_rows(noise: pd.DataFrame) -> list[dict]:
    """Section 6: eps (the paper's computation) and COS shares per analysis, and the text's claims."""
    rows = []
    stats = noise.set_index(["analysis", "statistic"])
    for analysis, values in PAPER_NOISE.items():
        if (analysis, NOISE_PRIMARY) not in stats.index:
            continue
        row, column = NOISE_ROWS[analysis]
        table = "false_negative" if analysis == "false_negative" else "false_positive"
        paper_sd = values.get("sd")
        for key, published in values.items():
            cos = key.startswith("cos")
            name = key if cos else f"eps {key}"
            primary = stats.loc[(analysis, NOISE_PRIMARY)]
            se = _paper_se("share" if cos else key, published, paper_sd)
            half = printed_rounding(published)
            tol = (3 * se if math.isfinite(se) else 0.0) + half
            basis = ("3 se of the paper's 25,500 comparisons + rounding" if math.isfinite(se)
                     else "rounding (the paper gives no spread)")
            ours, mcse = float(primary[key]), float(primary[f"{key}_mcse"])
            verdict, why = _judged(ours, mcse, published, tol)
            others = [] if cos else [(label, float(stats.loc[(analysis, stat)][key]),
                                      float(stats.loc[(analysis, stat)][f"{key}_mcse"]),
                                      judge(float(stats.loc[(analysis, stat)][key]),
                                            float(stats.loc[(analysis, stat)][f"{key}_mcse"]), published, tol))
                                     for stat, label in NOISE_OTHERS.items() if (analysis, stat) in stats.index]
            rows.append(ledger_row(
                paper=PAPER, table=table, row=row, column=column, item=name,
                variant="COS" if cos else f"{PRIMARY} convention eps_min", published=published, ours=ours, mcse=mcse,
                tolerance=tol, rounding=half, tolerance_basis=basis, role="analogue",
                verdict=verdict, sensitivity=_sensitivity(others), source="dror/noise_analyses.csv",
                note=f"our synthetic population of {int(primary.distributions)} distributions, "
                     f"{int(primary.comparisons)} comparisons" + ("" if cos else f"; {EPS_REASON}")
                     + (f"; {why}" if why else "")))
    rows += _claim_rows(stats)
    return rows


_HALF_ONE = 100 / PAPER_COMPARISONS / 2
_COS_TOL = 3 * 100 * math.sqrt(0.25 / PAPER_COMPARISONS) + 0.5
#: The section 6 text's claims: (paper row, column, analysis, statistic, share column, printed value, band
#: centre, tolerance, basis), in percent.
CLAIMS_S6 = [
    ("false_positive: eps outside [0.4; 0.6]", "pct_max", "false_positive", NOISE_PRIMARY,
     "share_outside_0.4_0.6", 5.0, 2.5, 2.5, "the claim's range [0, 5] %"),
    ("false_positive: COS decisive", "pct", "false_positive", NOISE_PRIMARY, "cos_decisive", 50.0, 50.0,
     _COS_TOL, "3 se of the paper's 25,500 comparisons + rounding"),
    ("false_positive: SO decisive (eps_W2 0 or 1)", "pct", "false_positive", "violation_ratio_dror2019",
     "share_0_or_1", 0.0, 0.0, _HALF_ONE, "half a comparison of 25,500"),
    ("false_negative: eps below 0.4", "pct_min", "false_negative", NOISE_PRIMARY, "share_below_0.4", 99.0,
     99.5, 0.5, "the claim's range [99, 100] %"),
    ("false_negative: SO undecided (eps_W2 > 0)", "pct", "false_negative", "violation_ratio_dror2019",
     "share_positive", 100.0, 100.0, _HALF_ONE, "half a comparison of 25,500"),
]


def _claim_rows(stats: pd.DataFrame) -> list[dict]:
    """The section 6 text's claims (:data:`CLAIMS_S6`), in percent; bounds judged as the range they state."""
    rows = []
    for row, column, analysis, stat, share, printed, centre, tol, basis in CLAIMS_S6:
        if (analysis, stat) not in stats.index:
            continue
        s = stats.loc[(analysis, stat)]
        ours, mcse = 100 * float(s[share]), 100 * float(s[f"{share}_mcse"])
        verdict, why = _judged(ours, mcse, centre, tol)
        others = [(label, 100 * float(stats.loc[(analysis, other)][share]),
                   100 * float(stats.loc[(analysis, other)][f"{share}_mcse"]),
                   judge(100 * float(stats.loc[(analysis, other)][share]),
                         100 * float(stats.loc[(analysis, other)][f"{share}_mcse"]), centre, tol))
                  for other, label in NOISE_OTHERS.items()
                  if stat == NOISE_PRIMARY and (analysis, other) in stats.index]
        rows.append(ledger_row(
            paper=PAPER, table="claims_s6", row=row, column=column, item="",
            variant=f"{PRIMARY} convention " + ("eps_min" if stat == NOISE_PRIMARY else "eps_W2"),
            published=centre, ours=ours, mcse=mcse, tolerance=tol, rounding=printed_rounding(printed),
            tolerance_basis=basis, role="analogue", verdict=verdict,
            sensitivity=_sensitivity(others), source="dror/noise_analyses.csv",
            note=(f"published as {published_text(PAPER, 'claims_s6', row, column)} % "
                  + ("(a bound, judged as its range); " if centre != printed else "; ")
                  + f"our synthetic population, {int(s.comparisons)} comparisons"
                  + (f"; {EPS_REASON}" if stat == NOISE_PRIMARY else "; SO is eps_W2 at 0 or 1")
                  + (f"; {why}" if why else ""))))
    return rows


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows (see the module docstring)."""
    rows = []
    conv = read_if_present(results / "dror/conventions.csv")
    if conv is not None:
        rows += _paper_rows(conv) + _table4_rows(conv)
    population = read_if_present(results / "dror/population.csv")
    if population is not None:
        published = float(published_text(PAPER, "setup", "255 distributions", "avg_std"))
        ours, mcse = float(population.sd.mean()), float(population.sd.std(ddof=1) / math.sqrt(len(population)))
        tol = 0.01 + printed_rounding(published)
        verdict, why = _judged(ours, mcse, published, tol)
        rows.append(ledger_row(paper=PAPER, table="setup", row="255 distributions", column="avg_std",
                               item="mean sd of the distributions", variant="synthetic population", published=published,
                               ours=ours, mcse=mcse, tolerance=tol, rounding=printed_rounding(published),
                               tolerance_basis="±0.01 + rounding", role="fitted",
                               verdict=verdict, source="dror/population.csv",
                               note=f"our population's spreads were set by hand to resemble the paper's (body sd "
                                    f"0.003-0.03, failed runs in about half the distributions); "
                                    f"{len(population)} distributions" + (f"; {why}" if why else "")))
    noise = read_if_present(results / "dror/noise_analyses.csv")
    if noise is not None and "mean_mcse" in noise:
        rows += _noise_rows(noise)
    return ledger_frame(rows)
