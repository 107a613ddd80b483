"""Yeh (2000)'s section of the replication report and its checks against known truth."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.io import figure_lines, format_number, markdown_table
from simstats.studies.reference import ledger_table, read_if_present

DISCRETE_TESTS = {"sign_mcnemar", "approximate_randomization", "exact_stratified_randomization"}


INDEPENDENT_TESTS = {"two_sample_t", "two_proportion_z", "chi2_2x2"}


def report_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    example = read_if_present(results / "yeh/example.csv")
    if sd is None:
        return []
    lines = ["## Yeh (2000): correlated systems", "",
             "Two systems with item-level correlation r12 are scored on test sets drawn from a population; tests "
             "that assume independent samples are set against paired tests and (stratified) randomization (sizes "
             "and power: see the validation section). Yeh's published numbers are arithmetic on his inputs (the "
             "sd ratio 1/sqrt(1 - r12), the worked example's scores, correlation, chi-square and randomization "
             "counts), so they are identities here. Tables: `yeh/size_power.md`, `yeh/sd_ratio.md`, "
             "`yeh/clusters.md`, `yeh/squad_summary.md`, `yeh/example.md`.", ""]
    part = ledger[(ledger.paper == "yeh2000") & (ledger.role != "input")]
    lines += [ledger_table(part), ""]
    if example is not None:
        shown = pd.DataFrame({"metric": example.metric, "Yeh's trials of 2^20": example.yeh_trials,
                              "expected (exact)": example.expected_trials.map(lambda v: format_number(v, 6)),
                              "our 2^20 shuffles": example.our_trials, "z (Yeh vs exact)":
                              example.z_yeh_vs_exact.map(format_number)})
        lines += ["Yeh's worked example (103 relations): randomization trials at least as extreme:", "",
                  markdown_table(shown), ""]
    lines += figure_lines(figures, rel, [
        ("yeh/size", "Size of every test vs r12 (alpha and its Monte Carlo band marked)"),
        ("yeh/power", "Power vs r12 at the smallest true difference"),
        ("yeh/sd_ratio", "sd ratio vs r12, Yeh's three values marked"),
        ("yeh/clusters", "Size of item- and cluster-level tests vs the design effect"),
        ("yeh/squad", "SQuAD 2.0 leaderboard pairs: McNemar vs two-proportion z"),
    ])
    return lines


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """Sizes of the tests under the null and the sd ratio against its closed form: Markdown lines and rows of the report's validation overview."""
    lines, overview = [], []
    size = read_if_present(results / "yeh/size_power.csv")
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    if size is not None:
        null = size[size.verdict.notna() & (size.verdict != "")]
        by_test = null.groupby("test").verdict.value_counts().unstack(fill_value=0)
        by_test.insert(0, "test", by_test.index)
        ok = int((null.verdict == "holds alpha").sum())
        off = int(null.verdict.isin(["liberal", "conservative"]).sum())
        overview.append({"check": "Yeh: size of each test under the null (undetermined: too few test sets)",
                         "agrees": ok, "misses": off, "checked": len(null)})
        kinds = {"independent": INDEPENDENT_TESTS, "discrete": DISCRETE_TESTS}
        cons = null[null.verdict == "conservative"]
        lines += ["Yeh: size under the null, null cells per verdict (alpha ± 3 MCSE):", "",
                  markdown_table(by_test.reset_index(drop=True)), "",
                  f"Conservative cells: {int(cons.test.isin(kinds['independent']).sum())} of tests that assume "
                  f"independent samples, {int(cons.test.isin(kinds['discrete']).sum())} of discrete tests, "
                  f"{int((~cons.test.isin(kinds['independent'] | kinds['discrete'])).sum())} of the others; "
                  f"liberal cells: {int((null.verdict == 'liberal').sum())}.", ""]
    if sd is not None:
        ok = int((sd.verdict == "agrees").sum())
        overview.append({"check": "Yeh: simulated sd ratio vs 1/sqrt(1 - r12)", "agrees": ok,
                         "misses": len(sd) - ok, "checked": len(sd)})
        lines += [f"Yeh: the simulated sd of a difference assuming independence over its true sd agrees with "
                  f"1/sqrt(1 - r12) in {ok} of {len(sd)} r12 values (`yeh/sd_ratio.md`): tests assuming "
                  "independence overstate the variance of a difference of correlated systems by 1/(1 - r12).", ""]
    return lines, overview
