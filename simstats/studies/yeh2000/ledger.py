"""Yeh (2000) in the fidelity ledger: the sd ratio and the worked example (identities)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats.classical import precision_chi2_test
from simstats.stats.metrics import get_metric
from simstats.stats.randomization import randomization_test
from simstats.studies.reference import (identity_row, judge, ledger_frame, ledger_row, published_item, published_text,
                                        read_if_present, rounding)
from simstats.studies.yeh2000.example import SHUFFLES, yeh_example_statistics

#: Published cells taken as given (not judged), by table.
INPUT_NOTES = {
    "setup": "a setting of the simulation",
    "observed_r12": "Yeh's observed correlations: the r12 grid of the simulation",
    "example": "a count of the worked example: input of the exact computations",
}


def ledger_rows(results: Path) -> pd.DataFrame:
    """The study's ledger rows: the sd ratio against 1/sqrt(1 - r12) and the worked example's numbers."""
    rows = []
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    if sd is not None:
        for r in sd[sd.yeh_2000.notna()].itertuples(index=False):
            printed = f"{r.yeh_2000:.2f}"
            rows.append(ledger_row(paper="yeh2000", table="sd_ratio", row=f"r12={r.r12:.2f}", column="sd_ind_over_sd",
                             published=float(r.yeh_2000), ours=float(r.analytic), mcse=0.0,
                             tolerance=rounding(printed), rounding=rounding(printed), tolerance_basis="rounding",
                             role="identity",
                             verdict=judge(float(r.analytic), 0.0, float(r.yeh_2000), rounding(printed)),
                             source="yeh/sd_ratio.csv",
                             note=f"1/sqrt(1 - r12); simulated {r.simulated:.3f} ± {r.se:.3f}"))
    example = read_if_present(results / "yeh/example.csv")
    if example is not None:
        labels = {"recall": "randomization recall I>II", "f1": "randomization F I>II",
                  "precision": "randomization precision II>I"}
        for r in example.itertuples(index=False):
            spread = math.sqrt(SHUFFLES * r.exact_p * (1 - r.exact_p))
            tol = 3 * spread + 0.5
            rows.append(ledger_row(paper="yeh2000", table="example", row=labels[r.metric], column="trials_meeting",
                             published=float(r.yeh_trials), ours=float(r.expected_trials), mcse=0.0, tolerance=tol,
                             rounding=0.5,
                             tolerance_basis="3 sd of a count of 2^20 random shuffles at the exact p",
                             role="identity", verdict=judge(float(r.expected_trials), 0.0, float(r.yeh_trials), tol),
                             source="yeh/example.csv",
                             note=f"exact stratified p = {r.exact_p:.6f}; our own 2^20 shuffles: {r.our_trials}"))
    # the worked example's other numbers follow from its counts by arithmetic
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
    two_sided = randomization_test(stats, get_metric("precision"), method="exact-stratified", alternative="two-sided")
    p2 = float(two_sided.pvalue[0])
    trials = round(p2 * SHUFFLES)
    bound = float(published_text("yeh2000", "example", "randomization precision two-sided (section 2.2)",
                                   "p_two_sided"))
    rows.append(ledger_row(paper="yeh2000", table="example", row="randomization precision two-sided (section 2.2)",
                     column="p_two_sided", published=bound, ours=p2, mcse=0.0, tolerance=0.0,
                     tolerance_basis="an upper bound: 'less than a 4 % chance'", role="identity",
                     verdict="agrees" if p2 < bound else "misses", source="computed",
                     note=f"exact two-sided p = {trials:,}/2^20 = {p2:.4f}; Yeh's own one-sided section 3.3 count "
                          f"(25,770) doubled would give {2 * 25_770 / SHUFFLES:.4f}, above his section 2.2 bound"))
    return ledger_frame(rows)
