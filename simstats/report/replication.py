"""The replication report: every study's side-by-side comparisons with the papers in one Markdown file.

`replication_report(results_dir, figures_dir, ...)` reads the fidelity ledger (`fidelity.csv`,
built by :mod:`simstats.report.fidelity` if absent) and the studies' tables.  Its overview counts
the predictions only (agree / miss / undetermined); fitted numbers and identities (numbers that
follow from fitted or published ones by arithmetic) are counted apart, and checks that are not
published numbers (sizes against nominal alpha, the noise model's closed forms, CompStats'
documented values) sit in a separate validation section.  Every miss is listed under its paper's
*Discrepancies* with the explanation stored in `simstats/data/explanations.yaml`, its numbers filled
in by a computed check (:mod:`simstats.report.checks`) printed beside it; a miss no explanation
covers is listed as **Unexplained**, never dropped.
"""
from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path

import pandas as pd
import yaml

from simstats.io import markdown_table
from simstats.report.checks import run_check
from simstats.report.fidelity import (NOT_COMPARED, example_checks, read_if_present, fidelity_ledger, systematic_findings,
                                      verdict_counts)

@functools.lru_cache(maxsize=1)
def explanations() -> list[dict]:
    """The shipped explanations (`simstats/data/explanations.yaml`), validated."""
    path = Path(__file__).resolve().parents[1] / "data" / "explanations.yaml"
    entries = yaml.safe_load(path.read_text())
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != {"match", "check", "text"} or not {"paper", "table"} <= set(e["match"]):
            raise ValueError(f"explanations.yaml entry {i + 1}: needs match (paper, table), check and text")
    return entries


def _matches(entry: dict, key: dict) -> bool:
    m = entry["match"]
    return (m["paper"] == key["paper"] and m["table"] == key["table"]
            and ("column" not in m or m["column"] == key["column"])
            and ("item" not in m or str(key["item"]).startswith(m["item"]))
            and ("variant" not in m or str(key["variant"]).startswith(m["variant"])))


def explain(ledger: pd.DataFrame, rows: pd.DataFrame, results) -> tuple[str, str] | None:
    """(explanation, computed check) of a group of ledger rows, or None when none applies."""
    first = rows.iloc[0]
    for entry in explanations():
        if _matches(entry, first):
            values = run_check(entry["check"], ledger, rows, results)
            if values is None:
                return None
            text = " ".join(str(entry["text"]).split()).format(**values)
            return text[0].upper() + text[1:], values["shown"]
    return None


def _num(value, digits: int = 3) -> str:
    """A number for a table cell: up to ``digits`` decimals, trailing zeros dropped; tiny values in g."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    value = float(value)
    if value != 0 and abs(value) < 10 ** -digits:
        return f"{value:.2g}"
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _figures(figures: Path, rel: str, names: list[tuple[str, str]]) -> list[str]:
    lines = []
    for stem, caption in names:
        if (figures / f"{stem}.png").exists():
            lines += [f"![{caption}]({rel}/{stem}.png)", "", f"*{caption}* ([PDF]({rel}/{stem}.pdf))", ""]
    return lines


def _mcse_text(mcse) -> str:
    return f" ± {_num(mcse)}" if mcse is not None and math.isfinite(mcse) and mcse > 0 else ""


def _cell(r) -> str:
    """One ledger row in a discrepancy line: what (row and the quantity), ours ± MCSE, the paper's value."""
    item = str(r["item"]).removesuffix(" (note)")
    what = f"{r.row}, {item or r.column}"
    return (f"{what}: ours {_num(r.ours)}{_mcse_text(r.mcse)}, paper {_num(r.published)} "
            f"(tolerance ±{_num(r.tolerance, 4)})")


def _explained_lines(ledger: pd.DataFrame, groups, results: Path) -> tuple[list[str], int]:
    lines, unexplained = [], 0
    for title, rows in groups:
        found = explain(ledger, rows, results)
        cells = "; ".join(_cell(r) for _, r in rows.iterrows())
        if found is None:
            unexplained += 1
            lines.append(f"- {title}: {cells}. **Unexplained.**")
        else:
            why, shown = found
            lines.append(f"- {title}: {cells}. **Why:** {why} *Computed check:* {shown}.")
    return lines, unexplained


def _paper_discrepancies(ledger: pd.DataFrame, findings: pd.DataFrame, paper: str, results: Path):
    """The paper's systematic findings and misses, grouped by table, quantity and variant."""
    lines, unexplained = [], 0
    found = findings[findings.paper == paper]
    if len(found):
        groups = []
        for f in found.itertuples(index=False):
            rows = ledger[(ledger.paper == paper) & (ledger.table == f.table) & (ledger.column == f.column)
                          & (ledger["item"] == f.item) & (ledger.variant == f.variant)
                          & ledger.verdict.isin(["agrees", "misses", "undetermined"])]
            title = (f"**Systematic** ({f.finding}, ours {f.direction} the paper in {f.beyond_3_mcse} of "
                     f"{f.tasks} {'tasks' if f.tasks > 1 else 'task'}, {f.misses} misses): {f.table} {f.column}"
                     + (f" {f.item}" if f.item else "") + (f" [{f.variant}]" if f.variant else ""))
            groups.append((title, rows))
        more, n = _explained_lines(ledger, groups, results)
        lines += ["Systematic findings (one per table and quantity):", ""] + more + [""]
        unexplained += n
    misses = ledger[(ledger.paper == paper) & (ledger.verdict == "misses")]
    covered = set(zip(found.table, found.column, found["item"], found.variant))
    misses = misses[[k not in covered for k in zip(misses.table, misses.column, misses["item"], misses.variant)]]
    if misses.empty and len(found):
        return lines, unexplained
    if misses.empty:
        return lines + ["No published number misses its tolerance.", ""], unexplained
    groups = [(f"{table} {column}" + (f" {item.removesuffix(' (note)')}" if item else "")
               + (f" [{variant}]" if variant else "") + f" ({rows.role.iloc[0]})", rows)
              for (table, column, item, variant), rows in misses.groupby(["table", "column", "item", "variant"],
                                                                         sort=False)]
    more, n = _explained_lines(ledger, groups, results)
    return lines + more + [""], unexplained + n


def _table_of(ledger: pd.DataFrame) -> str:
    return markdown_table(pd.DataFrame({
        "table": ledger.table, "row": ledger.row, "quantity": [" ".join(x for x in (c, i) if x)
                                                              for c, i in zip(ledger.column, ledger["item"])],
        "variant": ledger.variant, "paper": ledger.published.map(_num),
        "ours": [f"{_num(o)}{_mcse_text(m)}" for o, m in zip(ledger.ours, ledger.mcse)],
        "tolerance": ledger.tolerance.map(lambda v: f"±{_num(v, 4)}"), "role": ledger.role,
        "verdict": ledger.verdict}))


# --------------------------------------------------------------------------- Reimers & Gurevych
REIMERS_TITLES = {
    "T1_eval1": "Table 1 (Evaluation 1: single runs)",
    "T2_eval2": "Table 2 (Evaluation 2: best of 50 on dev)",
    "T3_prediction_interval": "Table 3 (prediction interval 2 zeta)",
    "T4_eval3_eval4": "Table 4 (Evaluations 3 and 4: 25 vs 25 runs)",
    "T5_delta95_means": "Table 5 (Delta95 of means of n runs)",
    "F4_eval2_vs_n": "Figure 4 (% significant vs n)",
}


def _reimers_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return []
    lines = ["## Reimers & Gurevych (2018): single scores vs score distributions", "",
             "Two approaches identical by construction train many models of each of the paper's seven tasks; every "
             "'significant' difference between them is false. Evaluation 1 compares single runs with a paired "
             "bootstrap over test sentences, Evaluation 2 the best of n runs on dev, Evaluations 3 and 4 groups of "
             "25 runs (Welch, Wilcoxon, Mann-Whitney U). A run is normal or, with an assumed share, \"low\" (its "
             "test score drops more than its dev score: the test_shift_mixture). The noise parameters are fitted "
             "to published numbers per task (tau and Delta95 of Table 1, rho of Table 2, and for mixture tasks "
             "Table 2's % significant); Table 2's tau, Table 3's 2 zeta and Table 5 at n = 1 follow from them "
             "(identities); every other cell is a prediction. Full tables: `reimers/tables.md`; calibration: "
             "`reimers/calibration.md`; UKP real data: `reimers/realdata.md`; identifiability: "
             "`reimers/identifiability.md`.", ""]
    part = ledger[(ledger.paper == "reimers2018") & (ledger.verdict != NOT_COMPARED)]
    counts = part.groupby(["table", "role", "verdict"]).size().unstack(fill_value=0).reset_index()
    counts["table"] = counts.table.map(lambda k: REIMERS_TITLES.get(k, k))
    lines += ["Verdicts per table and role:", "", markdown_table(counts), ""]
    headline = tables[tables.paper.notna() & tables.table.isin(["T1_eval1", "T2_eval2", "T4_eval3_eval4"])
                      & tables.quantity.str.contains("pct")]
    show = pd.DataFrame({
        "table": headline.table.map(lambda k: REIMERS_TITLES[k].split(" (")[0]), "task": headline.reference,
        "quantity": headline.quantity, "paper": headline.paper.map(_num),
        "ours": [f"{_num(e)} ± {_num(s)}" for e, s in zip(headline.estimate, headline.se)],
        "verdict": headline.verdict})
    lines += ["% significant between identical approaches (the paper's headline numbers):", "",
              markdown_table(show), ""]
    band = read_if_present(results / "reimers/identifiability.csv")
    if band is not None and len(band):
        from simstats.studies.reimers2018.calibration import identifiability_band

        b = identifiability_band(band)
        shown = pd.DataFrame({"n": b.n, "exact fits": [f"{_num(lo, 1)}-{_num(hi, 1)} %" for lo, hi in
                                                       zip(b.exact_low, b.exact_high)],
                              "all shapes": [f"{_num(lo, 1)}-{_num(hi, 1)} %" for lo, hi in zip(b.all_low, b.all_high)]})
        lines += [f"Identifiability ({band.reference.iloc[0]}): closed-form % significant over "
                  f"{int(b.shapes.iloc[0])} assumed shapes of the low runs ({int(b.exact_shapes.iloc[0])} fit the "
                  "four published numbers exactly); the published numbers pin down what the exact fits agree on:",
                  "", markdown_table(shown), ""]
    lines += _figures(figures, rel, [
        ("reimers/figure4", "Figure 4: % significant when the best of n runs on dev is compared (paper's values marked)"),
        ("reimers/figure4_tasks", "Figure 4's curve for the other six tasks (paper's Table 1 and 2 values marked)"),
        ("reimers/dev_vs_test", "Dev vs test score of every model, with the regression line and the 2 zeta band"),
        ("reimers/calibration", "Calibration residuals of the three fitted numbers per task"),
        ("reimers/power", "Runs per approach needed for 80 % power (Welch and Mann-Whitney U)"),
    ])
    return lines


# --------------------------------------------------------------------------- Yeh
def _yeh_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
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
    lines += [_table_of(part), ""]
    if example is not None:
        shown = pd.DataFrame({"metric": example.metric, "Yeh's trials of 2^20": example.yeh_trials,
                              "expected (exact)": example.expected_trials.map(lambda v: _num(v, 6)),
                              "our 2^20 shuffles": example.our_trials, "z (Yeh vs exact)":
                              example.z_yeh_vs_exact.map(_num)})
        lines += ["Yeh's worked example (103 relations): randomization trials at least as extreme:", "",
                  markdown_table(shown), ""]
    lines += _figures(figures, rel, [
        ("yeh/size", "Size of every test vs r12 (alpha and its Monte Carlo band marked)"),
        ("yeh/power", "Power vs r12 at the smallest true difference"),
        ("yeh/sd_ratio", "sd ratio vs r12, Yeh's three values marked"),
        ("yeh/clusters", "Size of item- and cluster-level tests vs the design effect"),
        ("yeh/squad", "SQuAD 2.0 leaderboard pairs: McNemar vs two-proportion z"),
    ])
    return lines


# --------------------------------------------------------------------------- Nava-Muñoz
def _competition_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    if read_if_present(results / "competition/table5_check.csv") is None:
        return []
    cases = [p.parent.name for p in example_checks(results)]
    lines = ["## Nava-Muñoz et al. (2024): competitions", "",
             "Bootstrap CIs of every system's score and of the differences to the winner, one-sided bootstrap "
             "p-values and multiple-comparison corrections, on simulated VaxxStance competitions (Basque and "
             "Spanish: the paper's true scores and class counts, on a test set that ranks the systems as the paper "
             "did), on CompStats' own data, and in competitions with known truth. Table 5's corrections and "
             "Table 8's summary measures follow from the paper's published p-values and scores (identities); the "
             "CI widths of Tables 2 and 3 are predictions. Tables: `competition/table5_check.md`, "
             + ", ".join(f"`competition/{c}/{c}_report.md`" for c in cases + ["compstats"])
             + ", `competition/study/summary.md`.", ""]
    part = ledger[(ledger.paper == "navamunoz2024") & (ledger.role == "prediction")]
    if len(part):
        lines += ["CI widths of the simulated VaxxStance competitions beside the paper's Tables 2 and 3:", "",
                  _table_of(part), ""]
    for case in cases:
        lines += _figures(figures, rel, [
            (f"competition/{case}_intervals", f"Figure 1 ({case}): ordered bootstrap CIs of the simulated systems"),
            (f"competition/{case}_differences",
             f"Figure 2 ({case}): CIs of the differences to the winner (red: contains 0)"),
            (f"competition/{case}_bootstrap",
             f"Figure 3 ({case}): bootstrap distribution of a difference, 0, delta and 2 delta"),
        ])
    lines += _figures(figures, rel, [
        ("competition/study_fwer", "Family-wise error under the null by correction and scope"),
        ("competition/study_truth", "How often the declared winner is truly best"),
    ])
    return lines


# --------------------------------------------------------------------------- Dror
def _dror_section(results: Path, figures: Path, rel: str, ledger: pd.DataFrame) -> list[str]:
    if read_if_present(results / "dror/noise_analyses.csv") is None:
        return []
    lines = ["## Dror et al. (2019): Almost Stochastic Order", "",
             "ASO (eps_min at alpha = 0.01, with the violation ratio eps_W2) beside COS (larger mean and smaller sd) "
             "and SO (Mann-Whitney U): the paper's three cases, Table 4 on real runs (UKP, IBM) and a synthetic "
             "population, the section 6 false-positive and false-negative analyses, and size and power. Each "
             "published number is judged under two ASO conventions: deepsig's (margin at the data's own sample "
             "sizes, two-sided U) and the paper's released code (1,000 draws per replicate, margin sigma / "
             "sqrt(500) x Phi^-1(1 - alpha), one-sided U, p = 1 below 20 runs). Tables: `dror/conventions.md`, "
             "`dror/paper_cases.md`, `dror/synthetic_cases.md`, `dror/real_data_cases.md`, "
             "`dror/noise_analyses.md`, `dror/size_power.md`, and `dror/so_readings.md` (the U test read every "
             "way the paper could have: Table 4's SO shares and Tables 2-3's p-values).", ""]
    part = ledger[(ledger.paper == "dror2019") & (ledger.role == "prediction")]
    lines += ["Verdicts per convention:", "",
              markdown_table(verdict_counts(part).drop(columns=["paper", NOT_COMPARED])), ""]
    cases = read_if_present(results / "dror/synthetic_cases.csv")
    real = read_if_present(results / "dror/real_data_cases.csv")
    if cases is not None:
        shown = []
        for source, group in pd.concat([cases, real]).groupby("source", sort=False):
            for r in group[group.case != "all"].itertuples(index=False):
                shown.append({"source": source, "case": r.case, "share % (ours, deepsig)": _num(r.share_percent, 1),
                              "eps_min mean": _num(r.eps_mean)})
        lines += ["Cases A (COS and SO decide), B (COS only), C (neither), D (SO only), deepsig convention "
                  "(both conventions beside the paper: `dror/conventions.md`):", "",
                  markdown_table(pd.DataFrame(shown)), ""]
    lines += _figures(figures, rel, [
        ("dror/noise_eps", "Figure 2 analogue: eps of the false-positive and false-negative analyses"),
        ("dror/synthetic_eps", "Figure 1 analogue: eps_min per case, synthetic population"),
        ("dror/real_data_eps", "eps_min per case on real data (UKP, IBM)"),
        ("dror/size_power", "Size and power of ASO, Welch and Mann-Whitney U vs runs per approach"),
    ])
    return lines


# --------------------------------------------------------------------------- validation (not published numbers)
DISCRETE_TESTS = {"sign_mcnemar", "approximate_randomization", "exact_stratified_randomization"}
INDEPENDENT_TESTS = {"two_sample_t", "two_proportion_z", "chi2_2x2"}


def _validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    lines = ["## Validation against known truth (not published numbers)", "",
             "Checks of the simulation and the tests against their own ground truth: the noise model's closed "
             "forms, the size of every test under the null (alpha ± 3 MCSE), the simulated sd ratio against "
             "1/sqrt(1 - r12), and our p-values on CompStats' data beside its documented ones.", ""]
    overview = []
    noise = read_if_present(results / "noise/summary.csv")
    if noise is not None:
        checked = noise[noise.verdict.isin(["agrees", "disagrees", "differs"])]
        ok = int((checked.verdict == "agrees").sum())
        overview.append({"check": "noise model vs its closed forms (|z| <= 3)", "agrees": ok,
                         "misses": len(checked) - ok, "checked": len(checked)})
        lines += [f"Noise model: {ok} of {len(checked)} simulated statistics agree with their closed forms "
                  f"(|z| <= 3); scenarios {', '.join(sorted(noise.scenario.unique()))}. Table: `noise/summary.md`.",
                  ""]
        lines += _figures(figures, rel, [("noise/conll2003_ner_en_dev_vs_test",
                                          "Dev vs test F1 of simulated CoNLL 2003 NER-En models")])
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
    which = read_if_present(results / "approaches/which_test.csv")
    cells = read_if_present(results / "approaches/validation.csv")
    if which is not None and cells is not None:
        # the overview checks the test built for the claim about approaches on the population of items; the
        # other tests' excess false positives under an interaction are the study's finding, listed below
        null = cells[(cells.truth == "identical") & (cells.test == "approach_both")]
        ok = int((null.holds_alpha.astype(str) == "True").sum())
        overview.append({"check": "approach-level test over seeds x items: size under the null (alpha + 3 MCSE)",
                         "agrees": ok, "misses": len(null) - ok, "checked": len(null)})
        lines += ["Comparing approaches over seeds and test items (`approaches/validation.md`): per variant of the "
                  "base scenario and test, the largest false-positive rate over its null cells (± MCSE), whether "
                  "every null cell holds alpha + 3 MCSE, and the power range:", "",
                  markdown_table(_which_test_rows(which), digits=3), "",
                  _which_test_finding(which), ""]
        lines += _figures(figures, rel, [("approaches/validation",
                                          "Size and power of each test against the number of runs per approach")])
    comp = read_if_present(results / "competition/compstats/check.csv")
    if comp is not None:
        ok = int((comp.verdict == "agrees").sum())
        overview.append({"check": "CompStats' documented p-values on its data", "agrees": ok,
                         "misses": len(comp) - ok, "checked": len(comp)})
        lines += ["One-sided p-values against the winner on CompStats' data, beside CompStats' documented ones "
                  "(its own 1,000-resample estimates):", "", markdown_table(comp), ""]
    return lines, overview


def _which_test_rows(which: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "variant": which.variant, "test": which.label,
        "largest false-positive rate": [f"{r:.3f} ± {se:.3f} ({at})" for r, se, at in
                                        zip(which.max_false_positive, which.max_false_positive_mcse, which.worst_cell)],
        "holds alpha": which.holds_alpha_everywhere.astype(str).map({"True": "yes", "False": "no"}),
        "power": [f"{lo:.2f}–{hi:.2f}" for lo, hi in zip(which.power_min, which.power_max)]})


def _which_test_finding(which: pd.DataFrame) -> str:
    """The finding, from the table: which tests hold alpha in every null cell of every variant."""
    holds = which.assign(ok=which.holds_alpha_everywhere.astype(str) == "True").groupby("label", sort=False).ok
    always = [label for label, ok in holds.all().items() if ok]
    never = [label for label, ok in holds.any().items() if not ok]
    some = [label for label in which.label.drop_duplicates() if label not in always and label not in never]
    parts = [f"Hold alpha in every null cell of every variant: {'; '.join(always) or 'none'}."]
    if some:
        parts.append(f"Hold it in some variants only: {'; '.join(some)}.")
    if never:
        parts.append(f"In no variant: {'; '.join(never)}.")
    return " ".join(parts)


# --------------------------------------------------------------------------- the whole report
def scale_summary(settings) -> str:
    """The run's scale in a line, from the validated settings (:func:`simstats.config.validate_config`)."""
    parts = [f"results in `{settings.results_dir}`",
             f"noise study {settings.noise.n_models:,} models per approach and scenario"]
    if settings.reimers:
        parts.append(f"Reimers & Gurevych {settings.reimers.n_models:,} models per approach and task, B = "
                     f"{settings.reimers.n_resamples:,}")
    if settings.yeh:
        parts.append(f"Yeh {settings.yeh.replicates:,} test sets per cell")
    if settings.competition:
        parts.append(f"competitions {settings.competition.replicates:,} per design cell")
    if settings.dror:
        parts.append(f"Dror section 6 {settings.dror.population.repetitions} repetitions per distribution")
    return "; ".join(parts)


def replication_report(results_dir, figures_dir, *, scale: str, root_seed: int,
                       ledger: pd.DataFrame | None = None) -> str:
    """The Markdown report of every study found under ``results_dir`` (figures linked relative to it).
    ``ledger``: the fidelity ledger (default: ``results_dir/fidelity.csv``, or built from the results)."""
    results, figures = Path(results_dir), Path(figures_dir)
    if ledger is None:
        path = results / "fidelity.csv"
        ledger = (pd.read_csv(path, keep_default_na=False, na_values=[""]).fillna(
            {"item": "", "variant": "", "note": "", "tolerance_basis": "", "source": ""})
            if path.exists() else fidelity_ledger(results))
    for column in ("item", "variant", "note", "tolerance_basis"):
        ledger[column] = ledger[column].fillna("").astype(str)
    findings = systematic_findings(ledger)
    rel = Path(os.path.relpath(figures, results)).as_posix()
    sections, unexplained = [], 0
    builders = {"reimers2018": _reimers_section, "yeh2000": _yeh_section, "navamunoz2024": _competition_section,
                "dror2019": _dror_section}
    for paper, build in builders.items():
        lines = build(results, figures, rel, ledger)
        if not lines:
            continue
        more, n = _paper_discrepancies(ledger, findings, paper, results)
        sections += lines + ["### Discrepancies", ""] + more
        unexplained += n
    validation, checks = _validation_section(results, figures, rel)
    if not sections and not checks:
        raise ValueError(f"no study results found under {results}")
    sections += validation
    # the studies' own tables, named in backticks, become links relative to the report
    sections = [re.sub(r"`([a-z0-9_]+/[a-z0-9_/]+\.md)`",
                       lambda m: f"[`{m.group(1)}`]({m.group(1)})" if (results / m.group(1)).exists() else m.group(0),
                       line) for line in sections]
    predictions = verdict_counts(ledger, "prediction")
    head = ["# simstats replication report", "",
            f"Scale: {scale}; root seed {root_seed}. Generated by the workflow from the tables under this "
            "directory. Every published number of the four papers is in the fidelity ledger "
            "([`fidelity.md`](fidelity.md)) with its role and the verdict of one rule: **agrees** when ours' 95 % "
            "Monte Carlo interval lies inside published ± tolerance (tolerances include the published value's "
            "rounding), **misses** when it lies entirely outside, **undetermined** otherwise. A miss is listed "
            "under its paper's *Discrepancies* with its explanation and the computed check behind it"
            + (f"; {unexplained} {'is' if unexplained == 1 else 'are'} **unexplained**." if unexplained else "."), "",
            "## Overview", "", "Predictions (published numbers the simulation was not fitted to and that do not "
            "follow from fitted or published numbers by arithmetic):", "", markdown_table(predictions), ""]
    for role, title in (("fitted", "Fitted numbers (the simulation was fitted to them)"),
                        ("identity", "Identities (follow from fitted or published numbers by arithmetic)")):
        counts = verdict_counts(ledger, role)
        if len(counts):
            head += [f"{title}:", "", markdown_table(counts), ""]
    head += [f"Systematic findings (one sign of deviation across a table's tasks): {len(findings)}, listed under "
             "each paper's discrepancies.", ""]
    if checks:
        head += ["Validation against known truth, not published numbers (see the last section):", "",
                 markdown_table(pd.DataFrame(checks)), ""]
    return "\n".join(head + sections)
