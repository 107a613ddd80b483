"""Dror et al. (2019) under both ASO conventions, beside the paper's published numbers.

"deepsig": eps_min with deepsig's margin at the data's own sizes (Phi^-1(1 - alpha) sd of the
bootstrap eps times sqrt((n + m) / (n m))) and the two-sided U test; "dror2019": the paper's own
computation (margin Phi^-1(1 - alpha) sigma / sqrt(500) from 1,000 draws per replicate; one-sided
U tests, p = 1 below 20 scores).  One row per published number: Tables 1-3 (U p-value, winner,
eps), Table 4 (share and eps mean / sd per case; UKP runs and the synthetic population) and
section 6 (eps mean / sd of the false-positive and false-negative analyses).

Tolerances (ours, stated per row): eps and eps means +-0.05, eps sds +-0.03, case shares +-10
points, U p-values +-0.05 (or the same side of 0.05 when the paper's p is below 0.01).
"""
from __future__ import annotations

import pandas as pd

from simstats.studies.dror2019.simulate import CASES, PAPER_NOISE

TOL = {"eps": 0.05, "eps_sd": 0.03, "share": 10.0, "u_p": 0.05}


def _table4_paper(targets: pd.DataFrame) -> dict:
    t = targets[(targets.paper == "dror2019") & (targets.table == "T4_summary")]
    out = {}
    for r in t.itertuples(index=False):
        share, mean, sd = (float(x) for x in str(r.value).split(";"))
        out[r.row.removeprefix("Case ")] = {"share": share, "eps_mean": mean, "eps_sd": sd}
    return out


def _verdict(ours: float, paper: float, tol: float) -> str:
    if pd.isna(ours) or pd.isna(paper):
        return "undetermined"
    return "agrees" if abs(ours - paper) <= tol else "misses"


def conventions_table(paper_cases: dict, comparisons: dict, noise_summary: pd.DataFrame,
                      targets: pd.DataFrame) -> pd.DataFrame:
    """paper_cases / comparisons: {convention: frame} of :func:`case_comparisons` and of the
    Table 4 comparisons (column ``source``); noise_summary: :func:`noise_summary` rows."""
    rows = []
    for conv, frame in paper_cases.items():
        for r in frame.itertuples(index=False):
            table = f"Table {'ABC'.index(r.case_paper) + 1}"
            rows.append({"table": table, "source": f"{r.first} vs {r.second}", "quantity": "U test p",
                         "convention": conv, "paper": r.u_p_paper, "ours": r.u_p,
                         "verdict": _verdict(r.u_p, r.u_p_paper, TOL["u_p"])
                         if r.u_p_paper >= 0.01 else ("agrees" if r.u_p < 0.05 else "misses")})
            rows.append({"table": table, "source": f"{r.first} vs {r.second}",
                         "quantity": f"eps of the better ({r.better_paper} in the paper)", "convention": conv,
                         "paper": r.eps_paper, "ours": r.eps if r.aso_better == r.better_paper else float("nan"),
                         "verdict": _verdict(r.eps, r.eps_paper, TOL["eps"]) if r.aso_better == r.better_paper
                         else "misses (other winner)"})
    paper4 = _table4_paper(targets)
    for conv, frame in comparisons.items():
        for source, g in frame.groupby("source", sort=True):
            for case in CASES:
                if case not in paper4:
                    continue
                c = g[g.case == case]
                share = 100 * len(c) / len(g)
                rows.append({"table": "Table 4", "source": source, "quantity": f"case {case} share %",
                             "convention": conv, "paper": paper4[case]["share"], "ours": share,
                             "verdict": _verdict(share, paper4[case]["share"], TOL["share"])})
                mean = c.eps.mean() if len(c) else float("nan")
                sd = c.eps.std(ddof=1) if len(c) > 1 else float("nan")
                rows.append({"table": "Table 4", "source": source, "quantity": f"case {case} eps mean",
                             "convention": conv, "paper": paper4[case]["eps_mean"], "ours": mean,
                             "verdict": _verdict(mean, paper4[case]["eps_mean"], TOL["eps"])})
                rows.append({"table": "Table 4", "source": source, "quantity": f"case {case} eps sd",
                             "convention": conv, "paper": paper4[case]["eps_sd"], "ours": sd,
                             "verdict": _verdict(sd, paper4[case]["eps_sd"], TOL["eps_sd"])})
    stat = {"deepsig": "eps_min", "dror2019": "eps_min_dror2019"}
    for conv, name in stat.items():
        part = noise_summary[noise_summary.statistic == name].set_index("analysis")
        for analysis, values in PAPER_NOISE.items():
            if analysis not in part.index:
                continue
            for key in ("mean", "sd"):
                if key not in values or pd.isna(values[key]):
                    continue
                ours = float(part.loc[analysis, key])
                rows.append({"table": "Section 6", "source": "synthetic population",
                             "quantity": f"{analysis} eps_min {key}", "convention": conv, "paper": values[key],
                             "ours": ours, "verdict": _verdict(ours, values[key], TOL["eps_sd" if key == "sd"
                                                                                    else "eps"])})
    return pd.DataFrame(rows)


def conventions_markdown(table: pd.DataFrame) -> str:
    from simstats.io import markdown_table

    wide = table.pivot_table(index=["table", "source", "quantity", "paper"], columns="convention",
                             values=["ours", "verdict"], aggfunc="first", sort=False)
    wide.columns = [f"{conv} {what}" for what, conv in wide.columns]
    wide = wide.reset_index()
    cols = ["table", "source", "quantity", "paper"] + [f"{c} {w}" for c in ("deepsig", "dror2019")
                                                       for w in ("ours", "verdict") if f"{c} {w}" in wide]
    counts = table.groupby(["convention", "verdict"]).size().unstack(fill_value=0)
    return "\n".join([
        "# Dror et al. (2019) under both ASO conventions",
        "",
        "deepsig: eps_min with deepsig's margin at the data's own sizes and the two-sided U test (p < 0.05). "
        "dror2019: the paper's own computation - 1,000 draws per bootstrap replicate, margin "
        "Phi^-1(1 - alpha) sigma / sqrt(500) (about 0.1 sigma at alpha = 0.01), one-sided U tests with p = 1 "
        "below 20 scores. Tolerances: eps +-0.05, eps sd +-0.03, shares +-10 points, U p +-0.05 (same side of "
        "0.05 where the paper's p < 0.01). Table 4 here is computed on the UKP runs and IBM seeds and on a "
        "synthetic population, not on the paper's 510 setups.",
        "",
        markdown_table(wide[cols]),
        "",
        "## Verdicts per convention",
        "",
        markdown_table(counts.reset_index()),
    ])
