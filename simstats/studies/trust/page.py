"""A scenario's "what can I trust" page: the simulated comparisons (:mod:`simstats.studies.trust.simulate`), the
Reimers evaluations of the scenario and the runs and items a comparison needs, each with its Monte Carlo error."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simstats.sim.scenario import ORIGIN_LABELS  # noqa: E402
from simstats.studies.trust.simulate import APPROACH_TESTS, RUN_TESTS  # noqa: E402

MARKS = {"liberal": " ▲", "conservative": " ▽", "undetermined": " ?"}
#: One colour per test in the figure (the defaults red).
COLOURS = {"adjusted_wald": "darkred", "paired_bootstrap": "tab:red", "paired_bootstrap_items": "tab:pink", "randomization": "tab:blue",
           "mcnemar": "tab:cyan", "two_proportion_z": "tab:olive", "single_run": "tab:orange", "welch": "tab:purple",
           "mannwhitney": "tab:green", "aso_0.5": "tab:brown", "approach_t": "tab:red"}


def _ordered(summary: pd.DataFrame) -> pd.DataFrame:
    """Rows in the page's order: two runs first, then approaches by seeds, tests in their tables' order."""
    order = {t: i for i, t in enumerate(list(RUN_TESTS) + list(APPROACH_TESTS))}
    key = summary.assign(_f=(summary.family != "runs").astype(int), _t=summary.test.map(order))
    return key.sort_values(["_f", "seeds", "_t"], kind="stable").drop(columns=["_f", "_t"])
DEFAULTS = {("runs", "adjusted_wald"), ("runs", "paired_bootstrap"), ("approaches", "approach_t")}


def origin_label(origin: str) -> str:
    return "calibrated to published numbers" if origin == "calibrated" else ORIGIN_LABELS.get(origin, origin)


def _rate(row) -> str:
    return f"{100 * row.rate:.1f} ± {100 * row.mcse:.1f}{MARKS.get(row.verdict, '')}"


def _pct(value: float, se: float) -> str:
    return f"{value:.1f} ± {se:.1f}" if math.isfinite(value) else "–"


def reimers_rows(tables: pd.DataFrame | None, scenario, row_size: int | None) -> list[tuple[str, str]]:
    """(what, value ± MCSE) of the scenario's Reimers evaluations, in points of its metric (its own approaches: with
    a true difference between them the rates are power, not false positives)."""
    if tables is None:
        return []
    t = tables[tables.scenario == scenario.name]
    if t.empty:
        return []

    def cell(table, quantity, n):
        hit = t[(t.table == table) & (t.quantity == quantity) & (t.n == n)]
        return (float(hit.estimate.iloc[0]), float(hit.se.iloc[0])) if len(hit) else (math.nan, math.nan)

    a, b = scenario.approaches
    gap = b.difference - a.difference
    which = "identical approaches" if gap == 0 else f"approaches {gap:+g} apart (the rates are power)"
    out = [(f"single runs of {which}: % of pairs 'significant' (paired bootstrap)",
            _pct(*cell("T1_eval1", "pct_significant", 1)))]
    if row_size:
        out.append((f"best of {row_size} runs by dev score: % of pairs 'significant'",
                    _pct(*cell("T2_eval2", "pct_significant", row_size))))
    out += [(f"95 % of single-run test-score differences of {which.split(' (')[0]} are below (Δ95, points)",
             _pct(*cell("T1_eval1", "delta95_test", 1))),
            ("prediction interval of a new run's test score, 2ζ (points)",
             _pct(*cell("T3_prediction_interval", "two_zeta", 0)))]
    return out


def scenario_page(scenario, summary: pd.DataFrame, mdd: pd.DataFrame, settings, *, tables=None, needed=None,
                  row_size=None, figure_rel: str = "") -> str:
    """The Markdown page of one scenario."""
    sc = scenario
    test = sc.test
    units = ("documents" if sc.clusters is not None else "sentences" if test.sentences else
             "items" if sc.metric == "accuracy" else "items (gold and candidates)")
    diff = float(summary[summary.truth == "difference"].difference.iloc[0]) if (summary.truth == "difference").any() \
        else math.nan
    description = (sc.description or "A scenario of the configuration").rstrip(".")
    size = (f"{test.items:,} test items" if sc.metric == "accuracy" else
            f"{test.gold:,} gold test items and {test.spurious:,} spurious candidates")
    lines = [f"# What can I trust: `{sc.name}`", "",
             f"{description[0].upper() + description[1:]}. Metric {sc.metric}, a typical run scores "
             f"{sc.target:g}; {size}"
             + (f" in {test.n_units:,} sentences" if test.sentences else "")
             + (f", documents of {sc.clusters.size}" if sc.clusters is not None else "")
             + f". Parameters: {origin_label(sc.origin)}.", "",
             f"Every rate is the share of {settings.replicates:,} simulated studies (each a fresh test set of this "
             f"scenario) ± its Monte Carlo standard error, in %. False positives: approaches (or runs) identical, "
             f"so every rejection at alpha = {settings.alpha:g} is false; ▲ above alpha + 3 MCSE (the test does not "
             f"hold alpha here), ▽ below alpha - 3 MCSE. Power: one approach (or run) better by {diff:g} ({sc.metric}) "
             "on the item population.", ""]
    runs = summary[summary.family == "runs"]
    if len(runs):
        lines += ["## Two runs on one test set", "",
                  "Your run against a baseline's, both equally good on the item population in the false-positive "
                  "column: do the tests hold alpha on this scenario's test set?", "",
                  "| test | false positives (%) | power (%) |", "|---|---|---|"]
        for test_name, label in RUN_TESTS.items():
            size = runs[(runs.test == test_name) & (runs.truth == "identical")]
            power = runs[(runs.test == test_name) & (runs.truth == "difference")]
            if size.empty:
                continue
            lines.append(f"| {label} | {_rate(size.iloc[0])} | {_rate(power.iloc[0]) if len(power) else '–'} |")
        lines.append("")
    approaches = summary[summary.family == "approaches"]
    if len(approaches):
        seeds = sorted(approaches.seeds.unique())
        lines += ["## Is approach B better than A?", "",
                  "k training runs (seeds) per approach on one test set. A one-run comparison answers whether these "
                  "two runs differ, not the approaches: its false positives here are Reimers & Gurevych's point.", "",
                  "| test | " + " | ".join(f"false positives, {k} seeds (%)" for k in seeds) + " | "
                  + " | ".join(f"power, {k} seeds (%)" for k in seeds) + " |",
                  "|---|" + "---|" * (2 * len(seeds))]
        for test_name, label in APPROACH_TESTS.items():
            cells = []
            for truth in ("identical", "difference"):
                for k in seeds:
                    hit = approaches[(approaches.test == test_name) & (approaches.truth == truth)
                                     & (approaches.seeds == k)]
                    cells.append(_rate(hit.iloc[0]) if len(hit) else "–")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    rows = reimers_rows(tables, sc, row_size)
    if rows:
        lines += ["## Reimers & Gurevych's evaluations of this scenario", "",
                  "From `results/reimers/` (its simulated models; ± MCSE).", "", "| quantity | value |", "|---|---|"]
        lines += [f"| {what} | {value} |" for what, value in rows]
        lines.append("")
    if needed is not None and len(needed):
        part = needed[(needed.scenario == sc.name) & (needed.test == "welch")]
        if len(part):
            lines += ["## Runs needed", "",
                      "Runs per approach for 80 % power of Welch's t over run scores, when B's runs are this "
                      "scenario's shifted up by d (points of its metric); from `results/reimers/power_runs_needed.csv`.",
                      "", "| d (points) | runs per approach |", "|---|---|"]
            for _, r in part.iterrows():
                value = f"{int(r.runs_needed)}" if math.isfinite(r.runs_needed) else str(r.note)
                lines.append(f"| {r.d:g} | {value} |")
            lines.append("")
    if len(mdd):
        sizes = sorted(mdd.units.unique())
        lines += ["## Minimum detectable difference", "",
                  "The smallest true difference (metric units) the approach t-test detects with 80 % power at alpha = "
                  f"{settings.alpha:g}, two-sided, for k seeds per approach and a test set of n {units}, predicted from "
                  "the variance components of this scenario's simulated studies (± jackknife MCSE).", "",
                  "| seeds | " + " | ".join(f"{n:,} {units}" for n in sizes) + " |", "|---|" + "---|" * len(sizes)]
        for k, part in mdd.groupby("seeds"):
            by = part.set_index("units")
            lines.append(f"| {k} | " + " | ".join(f"{by.mdd[n]:.4f} ± {by.mcse[n]:.4f}" for n in sizes) + " |")
        lines.append("")
    if figure_rel:
        lines += [f"![False positives and power of each test]({figure_rel}.png)", ""]
    return "\n".join(lines)


def page_figure(summary: pd.DataFrame, scenario, settings):
    """Left: false-positive rate of every test (± 1.96 MCSE) with alpha and its ± 3 MCSE band; right: power of the
    tests of approaches against the seeds per approach."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.3, 1]})
    size = _ordered(summary[summary.truth == "identical"])
    labels, rates, errors, colours = [], [], [], []
    for _, r in size.iterrows():
        name = RUN_TESTS.get(r.test) if r.family == "runs" else APPROACH_TESTS.get(r.test)
        labels.append(f"{'2 runs' if r.family == 'runs' else f'{r.seeds} seeds'}: {name}")
        rates.append(100 * r.rate)
        errors.append(196 * r.mcse)
        colours.append(COLOURS.get(r.test, "0.3"))
    y = np.arange(len(labels))
    band = 300 * math.sqrt(settings.alpha * (1 - settings.alpha) / settings.replicates)
    left.axvspan(100 * settings.alpha - band, 100 * settings.alpha + band, color="0.9", zorder=0,
                 label="alpha ± 3 MCSE")
    left.axvline(100 * settings.alpha, color="black", lw=1)
    left.errorbar(rates, y, xerr=errors, fmt="none", ecolor="0.3", capsize=2)
    left.scatter(rates, y, c=colours, zorder=3, s=18)
    left.set_yticks(y)
    left.set_yticklabels(labels, fontsize=7)
    left.invert_yaxis()
    left.set_xlabel("false-positive rate, identical systems (%)")
    left.set_title("Which tests hold alpha (red: the defaults)", fontsize=9)
    for tick, (_, r) in zip(left.get_yticklabels(), size.iterrows()):
        if (r.family, r.test) in DEFAULTS:
            tick.set_fontweight("bold")
    left.legend(fontsize=7, loc="lower right")
    power = summary[(summary.truth == "difference") & (summary.family == "approaches")]
    for test_name in APPROACH_TESTS:
        part = power[power.test == test_name].sort_values("seeds")
        if part.empty:
            continue
        right.errorbar(part.seeds, 100 * part.rate, yerr=196 * part.mcse, marker="o", capsize=2,
                       label=APPROACH_TESTS[test_name], color=COLOURS[test_name],
                       lw=2 if test_name == "approach_t" else 1)
    right.axhline(80, color="0.5", ls=":", lw=1, label="80 % power")
    right.set_xlabel("training runs (seeds) per approach")
    right.set_ylabel("power (%)")
    diff = float(power.difference.iloc[0]) if len(power) else math.nan
    right.set_title(f"Power when one approach is better by {diff:g}\n({scenario.metric})", fontsize=9)
    right.set_ylim(0, 100)
    right.set_xticks(sorted(power.seeds.unique()))
    right.legend(fontsize=6, loc="best", framealpha=0.8)
    fig.suptitle(f"What can I trust: {scenario.name} (± 1.96 MCSE)", fontsize=10)
    fig.tight_layout()
    return fig
