"""Computed checks behind the notes on Dror et al. (2019)'s misses (explanations.yaml).

Each check returns the note's fields, ``shown`` (the computation in one line) and ``verdicts``
({ledger index: verdict of that row under the stated cause}, by :func:`judge`); a miss whose verdict
under the cause is still "misses" stays unexplained.
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.studies.reference import judge, rate_interval, read_if_present


def u_test_readings(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The U p-values of the paper's own runs behind Tables 2 and 3 (UKP 2017) in every sidedness and order
    (dror/so_readings_examples.csv); each published p judged against the reading closest to it."""
    examples = read_if_present(results / "dror" / "so_readings_examples.csv")
    if examples is None or examples.empty:
        return None
    cases = {"T2_caseB": "B", "T3_caseC": "C"}
    verdicts, shown = {}, []
    for i, r in rows.iterrows():
        hit = examples[examples.case == cases.get(str(r.table), "")]
        if hit.empty:
            continue
        e = hit.iloc[0]
        readings = {"two-sided": e.p_two_sided, f"{e['first']} less": e.p_first_less,
                    f"{e['second']} less": e.p_second_less}
        name, p = min(readings.items(), key=lambda kv: abs(math.log10(max(kv[1], 1e-300)) - math.log10(r.published)))
        verdicts[i] = judge(float(p), 0.0, float(r.published), float(r.tolerance), scale="log10")
        shown.append(f"case {e.case} ({int(e.n_first)} / {int(e.n_second)} runs): "
                     + ", ".join(f"{k} {v:.3g}" for k, v in readings.items()) + f"; paper {e.p_paper:g}")
    if not verdicts:
        return None
    return {"shown": "; ".join(shown), "verdicts": verdicts}


def _ukp_comparisons(results: Path) -> pd.DataFrame | None:
    path = results / "dror" / "real_data_dror2019.parquet"
    if not path.exists():
        return None
    frame = pd.read_parquet(path)
    return frame[frame.source == "UKP BiLSTM 2017"]


def cases_without_so(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 4 with the U test taken out: the paper finds SO significant in 0.98 % of its comparisons, ours in
    far more, which moves comparisons from case B to A and from C to D.  Case B read as "COS decisive" (our A
    and B) and case C as "COS undecided" (our C and D) on the same UKP comparisons, each row judged again."""
    comps = _ukp_comparisons(results)
    if comps is None or comps.empty:
        return None
    groups = {"B": comps.cos != 0, "C": comps.cos == 0}
    mcse = comps.eps_mcse if "eps_mcse" in comps else pd.Series(0.0, index=comps.index)
    verdicts, shown = {}, []
    for case, inside in groups.items():
        e, m = comps.eps[inside].to_numpy(float), mcse[inside].to_numpy(float)
        k = e.size
        values = {"share %": (100 * k / len(comps), 0.0),
                  "eps mean": (e.mean() if k else math.nan, math.sqrt(np.sum(m ** 2)) / k if k else math.nan),
                  "eps sd": (e.std(ddof=1) if k > 1 else math.nan, 0.0)}
        if k > 1 and values["eps sd"][0] > 0:
            values["eps sd"] = (values["eps sd"][0],
                                math.sqrt(np.sum(((e - e.mean()) * m) ** 2)) / ((k - 1) * values["eps sd"][0]))
        shown.append(f"case {case} as {'COS decisive' if case == 'B' else 'COS undecided'}: " + ", ".join(
            f"{item} {v:.3g}" for item, (v, _) in values.items()) + f" ({k} of {len(comps)} comparisons)")
        for i, r in rows[(rows.table == "T4_summary") & (rows.row == f"Case {case}")].iterrows():
            ours, se = values.get(str(r["item"]), (math.nan, math.nan))
            if math.isfinite(ours):
                verdicts[i] = judge(float(ours), float(se), float(r.published), float(r.tolerance))
    return {"shown": "; ".join(shown), "verdicts": verdicts}


#: The grid of :func:`cos_false_negative_grid`: sizes and sds of the paper's distributions and beyond.
GRID_SIZES = (20, 41, 100, 300, 1000, 3898)
GRID_SDS = (0.001, 0.003, 0.01, 0.03, 0.1)
GRID_REPLICATES = 400


def cos_noisy_better(scores: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per row of ``scores`` (replicates x runs): whether COS declares the paper's false-negative noisy version
    better (larger mean and smaller sd, ddof 1) than the original.  The noise as the paper states it: phi ~
    N(0, 0.01) per score, -phi^2 for a random quarter of the scores and +phi^2 for the rest."""
    reps, n = scores.shape
    phi2 = rng.normal(0.0, 0.01, scores.shape) ** 2
    minus = rng.random(scores.shape).argsort(axis=1) < n // 4
    noisy = scores + np.where(minus, -phi2, phi2)
    return (noisy.mean(axis=1) > scores.mean(axis=1)) & (noisy.std(axis=1, ddof=1) < scores.std(axis=1, ddof=1))


@functools.lru_cache(maxsize=1)
def cos_grid(replicates: int = GRID_REPLICATES) -> pd.DataFrame:
    """The share of comparisons in which COS deems the noisy version better, per size, sd and tail (normal
    scores around 0.9, with or without 5 % failed runs spread uniformly over [0.1, 0.8]); fixed seeds."""
    out = []
    for i, n in enumerate(GRID_SIZES):
        for j, sd in enumerate(GRID_SDS):
            for tail in (False, True):
                rng = np.random.default_rng([2019, i, j, int(tail)])
                scores = rng.normal(0.9, sd, (replicates, n))
                if tail:
                    failed = rng.random((replicates, n)) < 0.05
                    scores[failed] = rng.uniform(0.1, 0.8, failed.sum())
                out.append({"n": n, "sd": sd, "failed_runs": tail, "replicates": replicates,
                            "cos_noisy_better": float(cos_noisy_better(scores, rng).mean())})
    return pd.DataFrame(out)


def cos_false_negative_grid(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The largest COS rate the paper's stated false-negative procedure reaches over sizes 20-3,898 and sds
    0.001-0.1, with and without failed runs; the published 87.4 % judged against it."""
    grid = cos_grid()
    top = grid.loc[grid.cos_noisy_better.idxmax()]
    interval = rate_interval(float(top.cos_noisy_better), int(top.replicates))
    verdicts = {i: judge(float(top.cos_noisy_better), math.nan, float(r.published), float(r.tolerance),
                         interval=interval) for i, r in rows.iterrows()}
    return {"top": f"{100 * float(top.cos_noisy_better):.0f}", "cells": len(grid),
            "shown": (f"{len(grid)} cells of {int(top.replicates)} comparisons: COS rate "
                      f"{100 * grid.cos_noisy_better.min():.1f}-{100 * grid.cos_noisy_better.max():.1f} %, "
                      f"largest at n = {int(top.n)}, sd {top.sd:g}" + (" with failed runs" if bool(top.failed_runs) else "")
                      + f" (95 % interval {100 * interval[0]:.1f}-{100 * interval[1]:.1f} %)"),
            "verdicts": verdicts}


def _outcome(remaining: int, rows: int) -> str:
    if remaining == rows:
        return f"all {rows} rows still miss there, so the population is not their cause"
    if remaining == 0:
        return f"none of the {rows} rows misses there"
    return f"{remaining} of the {rows} rows still miss there; the others do not"


def ukp_pools_rerun(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Section 6 on the real UKP pools (dror/noise_ukp.csv, rule dror_noise_ukp) instead of the synthetic
    population: each missed row's statistic recomputed there, the paper's computation as in the row, judged
    against the same published value and tolerance."""
    from simstats.studies.dror2019.ledger import CLAIMS_S6, NOISE_PRIMARY, NOISE_ROWS

    summary = read_if_present(results / "dror" / "noise_ukp.csv")
    pools = read_if_present(results / "dror" / "noise_ukp_pools.csv")
    if summary is None or summary.empty or pools is None or pools.empty:
        return None
    stats = summary.set_index(["analysis", "statistic"])
    analyses = {row: analysis for analysis, (row, _) in NOISE_ROWS.items()}
    claims = {spec[0]: spec for spec in CLAIMS_S6}
    verdicts = {}
    for i, r in rows.iterrows():
        if str(r.table) == "claims_s6" and r.row in claims:
            _, _, analysis, stat, key, *_ = claims[r.row]
            scale = 100.0
        elif r.row in analyses:
            analysis, stat, key, scale = analyses[r.row], NOISE_PRIMARY, str(r["item"]).removeprefix("eps "), 1.0
        else:
            continue
        if (analysis, stat) not in stats.index or key not in stats.columns:
            continue
        s = stats.loc[(analysis, stat)]
        verdicts[i] = judge(scale * float(s[key]), scale * float(s[f"{key}_mcse"]), float(r.published),
                            float(r.tolerance))
    if not verdicts:
        return None
    shown = []
    for analysis in ("false_positive", "false_negative"):
        if (analysis, NOISE_PRIMARY) not in stats.index:
            continue
        e, w = stats.loc[(analysis, NOISE_PRIMARY)], stats.loc[(analysis, "violation_ratio_dror2019")]
        shown.append(f"{analysis.replace('_', ' ')}: eps_min mean {e['mean']:.3f} ± {e.mean_mcse:.3f}, sd {e.sd:.3f}, "
                     f"95 % in [{e['q2.5']:.3f}, {e['q97.5']:.3f}] (eps_W2 mean {w['mean']:.3f}, "
                     f"[{w['q2.5']:.3f}, {w['q97.5']:.3f}]), COS first / second better {100 * e.cos_first_better:.1f} / "
                     f"{100 * e.cos_second_better:.1f} %")
    fp = stats.loc[("false_positive", "violation_ratio_dror2019")] if ("false_positive", "violation_ratio_dror2019") \
        in stats.index else None
    return {"pools": len(pools), "runs": f"{int(pools.n.min()):,}-{int(pools.n.max()):,}", "mean_sd": f"{pools.sd.mean():.3f}",
            "range": f"[{fp['q2.5']:.2f}, {fp['q97.5']:.2f}]" if fp is not None else "–",
            "outcome": _outcome(sum(v == "misses" for v in verdicts.values()), len(verdicts)),
            "comparisons": int(summary.comparisons.max()),
            "shown": f"{len(pools)} UKP pools, {int(summary.comparisons.max())} comparisons per analysis: "
                     + "; ".join(shown),
            "verdicts": verdicts}


CHECKS = {f.__name__: f for f in (u_test_readings, cases_without_so, cos_false_negative_grid, ukp_pools_rerun)}
