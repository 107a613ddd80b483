"""Yeh (2000) in the fidelity ledger.

Every number Yeh publishes is arithmetic on his inputs: the sd ratio 1/sqrt(1 - r12), the worked example's
scores, correlation and chi-square, and the randomization counts and p-value bounds, which the exact
stratified randomization distribution of his stated counts gives without Monte Carlo error (``identity``,
mcse 0).  Where Yeh's number comes from his own 2^20 random shuffles, his Monte Carlo error (3 sd of a
count or rate of 2^20 shuffles at the exact p) is in the tolerance.  His section 2.2 two-sided statement
against his own section 3.3 count is the paper against itself (``self-consistency``).  The simulation
(sd ratio, our own 2^20 shuffles) appears as ``sensitivity`` text.
"""
from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from simstats.stats.classical import precision_chi2_test
from simstats.stats.metrics import get_metric
from simstats.stats.randomization import randomization_test
from simstats.studies.reference import (identity_row, judge, ledger_frame, ledger_row, published_item, published_text,
                                        read_if_present, rounding)
from simstats.studies.yeh2000.example import PUBLISHED, SHUFFLES, yeh_example_statistics

#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {
    "setup": "a setting of the simulation",
    "observed_r12": "Yeh's observed correlations: the r12 grid of the simulation",
    "example": "a count of the worked example: input of the exact computations",
}
#: The worked example's randomization rows by metric.
RANDOMIZATION_ROWS = {"recall": "randomization recall I>II", "f1": "randomization F I>II",
                      "precision": "randomization precision II>I"}
TWO_SIDED_ROW = "randomization precision two-sided (section 2.2)"


@functools.lru_cache(maxsize=1)
def exact_pvalues() -> dict[str, float]:
    """Exact stratified randomization p-values of the worked example's stated counts: one-sided in Yeh's
    direction per metric, and ``precision two-sided``."""
    stats = yeh_example_statistics()
    out = {}
    for name, (_, alternative) in PUBLISHED.items():
        test = randomization_test(stats, get_metric(name), method="exact-stratified", alternative=alternative)
        out[name] = float(test.pvalue[0])
    two = randomization_test(stats, get_metric("precision"), method="exact-stratified", alternative="two-sided")
    out["precision two-sided"] = float(two.pvalue[0])
    return out


def shuffle_sd(p: float) -> float:
    """sd of the count of 2^20 random shuffles at least as extreme when the exact p-value is ``p``."""
    return math.sqrt(SHUFFLES * p * (1 - p))


def log_tolerance(published: float, linear: float) -> float:
    """A linear tolerance around a positive published value in log10 units: the narrower side,
    log10(1 + tolerance / published)."""
    return math.log10(1 + linear / published)


def noreen_bound(count: float) -> float:
    """Yeh's (Noreen's) bound on the significance level from a count of 2^20 shuffles: (nc + 1)/(nt + 1)."""
    return (count + 1) / (SHUFFLES + 1)


def two_sided_from_count(count: float) -> tuple[float, float]:
    """The two-sided precision p implied by a one-sided count of 2^20 shuffles (scaled by the exact ratio of
    two- to one-sided p) and its sd from the count's binomial spread."""
    p = exact_pvalues()
    ratio = p["precision two-sided"] / p["precision"]
    rate = count / SHUFFLES
    return ratio * rate, ratio * math.sqrt(rate * (1 - rate) / SHUFFLES)


def two_sided_band() -> tuple[float, float, float, float]:
    """Yeh's section 2.2 two-sided value: (published, its rounding, linear tolerance, log10 tolerance); the
    tolerance is its rounding plus 3 sd of a 2^20-shuffle rate at the published value."""
    printed = published_text("yeh2000", "example", TWO_SIDED_ROW, "p_two_sided")
    published = float(printed)
    linear = rounding(printed) + 3 * math.sqrt(published * (1 - published) / SHUFFLES)
    return published, rounding(printed), linear, log_tolerance(published, linear)


def _source(table, path: str) -> str:
    """Ours is computed; a study output that adds sensitivity text is named beside it."""
    return "computed" if table is None else f"computed (sensitivity: {path})"


def _sd_ratio_rows(results: Path) -> list[dict]:
    sim = read_if_present(results / "yeh/sd_ratio.csv")
    simulated = {} if sim is None else {round(float(r.r12), 2): (float(r.simulated), float(r.se))
                                        for r in sim.itertuples(index=False)}
    source = _source(sim, "yeh/sd_ratio.csv")

    def sensitivity(r12, transform, digits=3):
        if r12 not in simulated:
            return ""
        value, se = simulated[r12]
        lo, hi = sorted((transform(value - se), transform(value + se)))
        return f"simulated sd ratio: {transform(value):.{digits}f} ± {(hi - lo) / 2:.{digits}f}"

    rows = []
    targets = [("sd_ind_over_sd", r12) for r12 in ("0.38", "0.50", "0.80")]
    targets += [("sd_over_sd_ind", r12) for r12 in ("0.38", "0.80")]
    for column, r12 in targets:
        printed = published_text("yeh2000", "sd_ratio", f"r12={r12}", column)
        ratio = 1 / math.sqrt(1 - float(r12))
        flip = column == "sd_over_sd_ind"
        row = identity_row("yeh2000", "sd_ratio", f"r12={r12}", column, "", printed, 1 / ratio if flip else ratio,
                           "sqrt(1 - r12)" if flip else "1/sqrt(1 - r12)")
        row["sensitivity"] = sensitivity(float(r12), (lambda v: 1 / v) if flip else (lambda v: v))
        row["source"] = source
        rows.append(row)
    printed = published_text("yeh2000", "sd_ratio", "r12=0.50", "d_larger_pct")
    row = identity_row("yeh2000", "sd_ratio", "r12=0.50", "d_larger_pct", "", printed,
                       100 * (1 / math.sqrt(0.5) - 1), "100 (1/sqrt(1 - r12) - 1): how much larger d must be")
    row["sensitivity"] = sensitivity(0.5, lambda v: 100 * (v - 1), 1).replace("sd ratio", "excess (%)")
    row["source"] = source
    rows.append(row)
    return rows


def _randomization_rows(results: Path) -> list[dict]:
    """Yeh's trial counts and p-value bounds against the exact distribution of his stated counts."""
    exact = exact_pvalues()
    example = read_if_present(results / "yeh/example.csv")
    ours_shuffled = {} if example is None else dict(zip(example.metric, example.our_trials))
    source = _source(example, "yeh/example.csv")
    rows = []
    for name, label in RANDOMIZATION_ROWS.items():
        p = exact[name]
        expected, sd = p * SHUFFLES, shuffle_sd(p)
        published = float(published_text("yeh2000", "example", label, "trials_meeting"))
        tol = 3 * sd + 0.5
        z = (published - expected) / sd
        sens = ""
        if name in ours_shuffled:
            n = int(ours_shuffled[name])
            sens = (f"our own 2^20 shuffles: {n:,} (z = {(n - expected) / sd:+.1f}, "
                    f"{judge(float(n), 0.0, expected, 3 * sd)} with the exact expectation)")
        rows.append(ledger_row(
            paper="yeh2000", table="example", row=label, column="trials_meeting", variant="exact stratified",
            published=published, ours=expected, mcse=0.0, tolerance=tol, rounding=0.5,
            tolerance_basis="rounding + 3 sd of a count of 2^20 random shuffles at the exact p (Yeh's own MC error)",
            role="identity", verdict=judge(expected, 0.0, published, tol), sensitivity=sens, source=source,
            note=f"exact p = {p:.6g}; Yeh's count is {z:+.1f} sd from its expectation"))
        printed = published_text("yeh2000", "example", label, "p_bound")
        bound = float(printed)
        linear = rounding(printed) + 3 * sd / SHUFFLES
        tol_log = log_tolerance(bound, linear)
        ours = noreen_bound(expected)
        own = noreen_bound(published)
        rows.append(ledger_row(
            paper="yeh2000", table="example", row=label, column="p_bound", variant="exact stratified",
            published=bound, ours=ours, mcse=0.0, tolerance=tol_log, rounding=rounding(printed),
            tolerance_basis="log10(1 + (rounding + 3 sd of a 2^20-shuffle rate at the exact p) / published)",
            scale="log10", role="identity", verdict=judge(ours, 0.0, bound, tol_log, scale="log10"),
            sensitivity=f"(nc+1)/(nt+1) from Yeh's own count {published:,.0f}: {own:.3g} "
                        f"({judge(own, 0.0, bound, tol_log, scale='log10')})",
            source="computed", note="(2^20 p + 1)/(2^20 + 1): Yeh's bound at the expected count"))
    # section 2.2: the two-sided test of the same precision comparison, against Yeh's own section 3.3 count
    published, half, _, tol_log = two_sided_band()
    count = float(published_text("yeh2000", "example", RANDOMIZATION_ROWS["precision"], "trials_meeting"))
    implied, se = two_sided_from_count(count)
    p2 = exact["precision two-sided"]
    rows.append(ledger_row(
        paper="yeh2000", table="example", row=TWO_SIDED_ROW, column="p_two_sided", variant="from Yeh's count",
        published=published, ours=implied, mcse=se, tolerance=tol_log, rounding=half,
        tolerance_basis="log10(1 + (rounding + 3 sd of a 2^20-shuffle rate) / published)", scale="log10",
        role="self-consistency", verdict=judge(implied, se, published, tol_log, scale="log10"),
        sensitivity=f"exact two-sided p of the stated counts: {p2:.5f} = {round(p2 * SHUFFLES):,}/2^20 "
                    f"({judge(p2, 0.0, published, tol_log, scale='log10')}; below 0.04 as stated: {p2 < published})",
        source="computed",
        note=f"Yeh's section 3.3 one-sided count {count:,.0f} times the exact two- to one-sided ratio "
             f"{p2 / exact['precision']:.4f}, over 2^20"))
    return rows


def _example_rows() -> list[dict]:
    """The worked example's scores, correlation and chi-square: arithmetic on its stated counts."""
    rows = []
    stats = yeh_example_statistics()
    totals = stats.sum(axis=1)
    for name, metric_name in (("recall", "recall"), ("precision", "precision"), ("f", "f1")):
        values = get_metric(metric_name)(totals)
        for method, value in zip(("method I", "method II"), values):
            printed = published_item("yeh2000", "example", method, "recall_precision_f",
                                     ("recall", "precision", "f").index(name))
            rows.append(identity_row("yeh2000", "example", method, "recall_precision_f", name, printed, 100 * value,
                                     "percent from the counts"))
    recalled = stats[:, :103, 0]
    r = float(np.corrcoef(recalled[0], recalled[1])[0, 1])
    rows.append(identity_row("yeh2000", "example", "recall correlation", "r", "", "0.35", r,
                             "Pearson r of the two methods' recall indicators over the 103 relations"))
    chi2 = precision_chi2_test(47, 48, 25, 14).statistic
    rows.append(identity_row("yeh2000", "example", "chi2 precision 2x2", "chi2", "", "2.38", chi2,
                             "chi-square without continuity correction of correct vs spurious responses"))
    low, high = (published_item("yeh2000", "example", "chi2 precision 2x2", "p_range", i) for i in (0, 1))
    p = float(sps.chi2.sf(chi2, 1))
    centre, half = (float(low) + float(high)) / 2, (float(high) - float(low)) / 2
    tol = half + max(rounding(low), rounding(high))
    rows.append(ledger_row(
        paper="yeh2000", table="example", row="chi2 precision 2x2", column="p_range", item=f"{low}-{high}",
        published=centre, ours=p, mcse=0.0, tolerance=tol, rounding=max(rounding(low), rounding(high)),
        tolerance_basis="the stated range plus rounding (the same band on a log scale)", role="identity",
        verdict=judge(p, 0.0, centre, tol), source="computed", note="upper tail of chi-square (1 df) at our statistic"))
    return rows


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows (all computed; the simulation's outputs under ``results`` add sensitivity)."""
    results = Path(results)
    return ledger_frame(_sd_ratio_rows(results) + _randomization_rows(results) + _example_rows())
