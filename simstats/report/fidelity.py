"""The fidelity ledger: every published number of the four papers beside ours, with one verdict rule.

`fidelity_ledger(results_dir)` reads the tables the studies wrote and returns one row per
published number we compare (every row of `simstats/data/paper_targets.csv`, split into its
numbers where a cell holds several, plus the shipped Nava-Muñoz tables): the paper's key
(paper, table, row, column), the `item` within a cell holding several numbers, the `variant`
(convention or data source where one published number is compared more than once), the published
value, ours with its Monte Carlo standard error, the tolerance (including half a unit of the
published value's last digit) and its basis, the role and the verdict.

Roles:
* ``fitted``     - a number the noise parameters were fitted to;
* ``identity``   - follows from fitted or published input numbers by arithmetic (or, for the
  model's own closed forms, from fitted numbers alone), so agreement is nearly automatic;
* ``prediction`` - everything else: the replication's real tests;
* ``input``      - a number the simulation takes as given (or a setting), not judged.

Verdicts follow :func:`simstats.studies.reference.judge` (95 % Monte Carlo interval inside the
band: agrees; entirely outside: misses; else undetermined); ``not compared`` marks a published
number we have no counterpart for, with the reason in `note`.

`systematic_findings(ledger)` reports, per table and quantity across its tasks, a deviation of
one sign in every task beyond 3 MCSE (plus rounding), or two or more misses all of one sign.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.studies.reference import judge, paper_targets, paper_text, rate_interval, rounding

LEDGER_COLUMNS = ["paper", "table", "row", "column", "item", "variant", "published", "ours", "mcse",
                  "tolerance", "rounding", "tolerance_basis", "role", "verdict", "source", "note"]
ROLES = ("fitted", "identity", "prediction", "input")
NOT_COMPARED = "not compared"

#: Reimers & Gurevych cells that follow from the fitted numbers (tau, Delta95 of Table 1; rho of Table 2).
REIMERS_IDENTITY = {
    ("T2_eval2", "tau"): "tau depends only on the per-pair bootstrap se, which selection on dev does not change "
                         "in the model: it repeats the fitted Table 1 tau",
    ("T3_prediction_interval", "two_zeta"): "2 zeta follows from the test sd (fitted via Delta95) and the fitted "
                                            "rho under the model's bivariate normal dev/test scores",
    ("T5_delta95_means", "n1"): "Delta95 of means of one run is Table 1's fitted Delta95",
}


def _row(**values) -> dict:
    row = dict.fromkeys(LEDGER_COLUMNS, "")
    row.update({"ours": math.nan, "mcse": math.nan, "tolerance": math.nan, "published": math.nan, "rounding": 0.0})
    row.update(values)
    return row


def read_if_present(path: Path) -> pd.DataFrame | None:
    """A study table (CSV) if the study wrote it, else None."""
    return pd.read_csv(path) if path.exists() else None


# --------------------------------------------------------------------------- Reimers & Gurevych
def _reimers_rows(results: Path) -> list[dict]:
    tables = read_if_present(results / "reimers/tables.csv")
    if tables is None:
        return []
    rows = []
    for r in tables[tables.paper.notna()].itertuples(index=False):
        column = f"pct_significant_n{int(r.n)}" if r.table == "F4_eval2_vs_n" else r.quantity
        identity = REIMERS_IDENTITY.get((r.table, r.quantity))
        role = "fitted" if r.role == "calibrated" else "identity" if identity else "prediction"
        verdict = r.verdict if r.verdict in ("agrees", "misses", "undetermined") else NOT_COMPARED
        note = identity or ("" if verdict != NOT_COMPARED else r.verdict)
        if r.table == "T4_eval3_eval4":
            note = "about 5 % for any model of i.i.d. runs"
        if r.quantity == "deltamax_test" and verdict != NOT_COMPARED:
            note = "a maximum: no Monte Carlo error attached, the point value is judged"
        rows.append(_row(paper="reimers2018", table=r.table, row=r.reference, column=column, item="",
                         variant="", published=float(r.paper), ours=float(r.estimate), mcse=float(r.se),
                         tolerance=float(r.tolerance_value) if verdict != NOT_COMPARED else math.nan,
                         rounding=rounding(paper_text("reimers2018", r.table, r.reference, column)),
                         tolerance_basis=r.tolerance, role=role, verdict=verdict, source="reimers/tables.csv",
                         note=note))
    return rows


# --------------------------------------------------------------------------- Yeh
def _yeh_rows(results: Path) -> list[dict]:
    from simstats.stats.classical import precision_chi2_test
    from simstats.stats.metrics import get_metric
    from simstats.stats.randomization import exact_stratified_randomization
    from simstats.studies.yeh2000.example import SHUFFLES, yeh_example_statistics

    rows = []
    sd = read_if_present(results / "yeh/sd_ratio.csv")
    if sd is not None:
        for r in sd[sd.yeh_2000.notna()].itertuples(index=False):
            printed = f"{r.yeh_2000:.2f}"
            rows.append(_row(paper="yeh2000", table="sd_ratio", row=f"r12={r.r12:.2f}", column="sd_ind_over_sd",
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
            rows.append(_row(paper="yeh2000", table="example", row=labels[r.metric], column="trials_meeting",
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
            printed = _published_item("yeh2000", "example", method, "recall_precision_f",
                                      ("recall", "precision", "f").index(name))
            rows.append(_identity("yeh2000", "example", method, "recall_precision_f", name, printed, 100 * value,
                                  "percent from the counts"))
    recalled = stats[:, :103, 0]
    r = float(np.corrcoef(recalled[0], recalled[1])[0, 1])
    rows.append(_identity("yeh2000", "example", "recall correlation", "r", "", "0.35", r,
                          "Pearson r of the two methods' recall indicators over the 103 relations"))
    chi2 = precision_chi2_test(47, 48, 25, 14).statistic
    rows.append(_identity("yeh2000", "example", "chi2 precision 2x2", "chi2", "", "2.38", chi2,
                          "chi-square without continuity correction of correct vs spurious responses"))
    two_sided = exact_stratified_randomization(stats, get_metric("precision"), alternative="two-sided")
    p2 = float(two_sided.pvalue[0])
    trials = round(p2 * SHUFFLES)
    bound = float(_published_value("yeh2000", "example", "randomization precision two-sided (section 2.2)",
                                   "p_two_sided"))
    rows.append(_row(paper="yeh2000", table="example", row="randomization precision two-sided (section 2.2)",
                     column="p_two_sided", published=bound, ours=p2, mcse=0.0, tolerance=0.0,
                     tolerance_basis="an upper bound: 'less than a 4 % chance'", role="identity",
                     verdict="agrees" if p2 < bound else "misses", source="computed",
                     note=f"exact two-sided p = {trials:,}/2^20 = {p2:.4f}; Yeh's own one-sided section 3.3 count "
                          f"(25,770) doubled would give {2 * 25_770 / SHUFFLES:.4f}, above his section 2.2 bound"))
    return rows


def _published_item(paper, table, row, column, index) -> str:
    """One number of a published cell that holds several ("45.6; 49.5; 47.5"), as printed."""
    return _published_value(paper, table, row, column).split(";")[index].strip()


def _identity(paper, table, row, column, item, printed: str, ours: float, note: str, source="computed",
              input_error: float = 0.0) -> dict:
    """An identity row: tolerance = the published rounding plus ``input_error``, the largest change of
    ours that the rounding of the published inputs it is computed from can cause."""
    half = rounding(printed)
    tol = half + input_error
    published = float(printed)
    basis = "rounding" if not input_error else f"rounding + {input_error:.2g} from the inputs' rounding"
    return _row(paper=paper, table=table, row=row, column=column, item=item, published=published, ours=float(ours),
                mcse=0.0, tolerance=tol, rounding=half, tolerance_basis=basis, role="identity",
                verdict=judge(float(ours), 0.0, published, tol), source=source, note=note)


# --------------------------------------------------------------------------- Nava-Muñoz
def _competition_rows(results: Path) -> list[dict]:
    from simstats.stats.competition import summary_measures
    from simstats.studies.reference import reference_table

    rows = []
    t5 = read_if_present(results / "competition/table5_check.csv")
    if t5 is not None:
        for r in t5.itertuples(index=False):
            rows.append(_row(paper="navamunoz2024", table="T5_corrections", row=f"{r.reference} vs {r.system}",
                             column=r.correction, published=float(r.paper), ours=float(r.ours), mcse=0.0,
                             tolerance=0.5e-4, rounding=0.5e-4, tolerance_basis="rounding (4 decimals)",
                             role="identity",
                             verdict=r.verdict, source="competition/table5_check.csv",
                             note="statsmodels' correction of the paper's raw p-values"))
    for path in example_checks(results):
        check = pd.read_csv(path)
        source = path.relative_to(results).as_posix()
        for r in check.itertuples(index=False):
            table = "T2_ci" if r.table == "T2" else "T3_diff_ci"
            row = f"{r.language} {r.system}" if r.table == "T2" else f"{r.language} {r.reference} - {r.system}"
            rows.append(_row(paper="navamunoz2024", table=table, row=row, column="lci_mean_uci", item="95% CI width",
                             published=float(r.paper), ours=float(r.ours), mcse=math.nan,
                             tolerance=0.15 * float(r.paper) + 1e-4, rounding=1e-4,
                             tolerance_basis="±15 % + rounding",
                             role="prediction", verdict=r.verdict, source=source,
                             note="one simulated test set of the paper's class counts and true scores, "
                                  "ranked as in the paper"))
    # Table 8's summary measures follow from the published scores (and, for Basque, Table 5's raw p-values)
    summaries = reference_table("nava_munoz_2024_summaries")
    t5_paper = reference_table("nava_munoz_2024_table5")
    for s in summaries.itertuples(index=False):
        scores = [float(x) for x in str(s.scores).split(";")]
        basque = "Basque" in s.competition
        pairs = t5_paper.rename(columns={"pvalue": "pvalue"})[["reference", "system", "pvalue"]] if basque else None
        names = ["WordUp.01", "WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02"] if basque else None
        measures = summary_measures(names, scores, pairs, n_items=int(s.n)) if basque else _score_measures(scores)
        language = "Basque" if basque else "Spanish"
        errors = _score_rounding_effects(scores, 0.5e-4)
        for column in ("win_minus_median", "cv_percent", "ppi_percent"):
            printed = f"{getattr(s, column):.3f}"
            rows.append(_identity("navamunoz2024", "T8_summary", language, column, "", printed, measures[column],
                                  "from the published scores (Table 1, 4 decimals)",
                                  source="nava_munoz_2024_summaries.csv", input_error=errors[column]))
        for column in ("ties_with_winner", "ties"):
            for label, printed in zip(("none", "bonferroni", "holm", "bh"), str(getattr(s, column)).split("/")):
                if basque:
                    rows.append(_identity("navamunoz2024", "T8_summary", language, column, label, printed,
                                          measures[f"{column}_{label}"],
                                          "p >= 0.05 after the correction within each reference system's group, "
                                          "from Table 5's raw p-values", source="nava_munoz_2024_summaries.csv"))
                else:
                    rows.append(_row(paper="navamunoz2024", table="T8_summary", row=language, column=column,
                                     item=label, published=float(printed), role="identity", verdict=NOT_COMPARED,
                                     source="nava_munoz_2024_summaries.csv",
                                     note="the paper publishes no Spanish p-values to recompute the ties from"))
    rows += _tables7_11_rows()
    t5_raw = dict(zip(zip(t5_paper.reference, t5_paper.system), t5_paper.pvalue))
    for row, raw in (("Basque WordUp.01 vs SQYQP.01", t5_raw[("WordUp.01", "SQYQP.01")]),
                     ("Basque WordUp.01 vs WordUp.02", t5_raw[("WordUp.01", "WordUp.02")])):
        published = float(_published_value("navamunoz2024", "pvalue", row, "p"))
        rows.append(_row(paper="navamunoz2024", table="pvalue", row=row, column="p", published=published,
                         ours=float(raw), mcse=0.0, tolerance=1e-4, rounding=1e-4,
                         tolerance_basis="rounding of both (4 decimals)",
                         role="identity", verdict=judge(float(raw), 0.0, published, 1e-4),
                         source="nava_munoz_2024_table5.csv",
                         note="Figure 3's p-value against the paper's own Table 5 raw p-value of the same pair"))
    return rows


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


CORRECTION_ORDER = ("none", "bh", "holm", "bonferroni")


def _tables7_11_rows() -> list[dict]:
    """Tables 7-11 of Nava-Muñoz et al. (24 task columns): the numbers that follow from other published
    numbers are checked (possible comparisons = m (m - 1) / 2; ties can only grow from no correction
    to BH, Holm and Bonferroni, since their adjusted p-values are ordered so; ties with the winner
    are a subset of all ties and at most m - 1); |win - med|, CV and PPI need the systems' scores,
    which the paper publishes only for VaxxStance Close Track-Textual (Table 1: checked above)."""
    from simstats.studies.reference import reference_table

    rows = []
    table = reference_table("nava_munoz_2024_tables7_11")
    for r in table.itertuples(index=False):
        label = " ".join(str(x) for x in (r.competition, r.task, r.language) if isinstance(x, str) and x)
        base = {"paper": "navamunoz2024", "table": f"{r.table}_summary", "row": label, "role": "identity",
                "source": "nava_munoz_2024_tables7_11.csv"}
        pairs = r.m * (r.m - 1) // 2
        rows.append(_row(**base, column="possible_comparisons", published=float(r.possible_comparisons),
                         ours=float(pairs), mcse=0.0, tolerance=0.0, tolerance_basis="exact (integers)",
                         verdict=judge(float(pairs), 0.0, float(r.possible_comparisons), 0.0),
                         note=f"m (m - 1) / 2 with m = {r.m}"))
        winner = dict(zip(("none", "bonferroni", "holm", "bh"), (int(x) for x in str(r.ties_with_winner).split("/"))))
        ties = dict(zip(("none", "bonferroni", "holm", "bh"), (int(x) for x in str(r.ties).split("/"))))
        for column, values in (("ties_with_winner", winner), ("ties", ties)):
            ordered = all(values[a] <= values[b] for a, b in zip(CORRECTION_ORDER, CORRECTION_ORDER[1:]))
            bound = r.m - 1 if column == "ties_with_winner" else r.possible_comparisons
            nested = all(values[c] <= bound for c in values) and (
                column == "ties" or all(winner[c] <= ties[c] for c in ties))
            problems = ([] if ordered else ["not ordered none <= BH <= Holm <= Bonferroni"]) + \
                ([] if nested else [f"above {bound} or not a subset of all ties"])
            rows.append(_row(**base, column=column, item="none <= BH <= Holm <= Bonferroni; subsets",
                             published=float("nan"), verdict="misses" if problems else "agrees",
                             tolerance_basis="consistency of the published counts",
                             note="none/BH/Holm/Bonferroni = " + "/".join(str(values[c]) for c in CORRECTION_ORDER)
                                  + "".join(f"; {p}" for p in problems)))
        if not (r.table == "T8" and r.task == "Close Track-Textual"):
            for column in ("win_minus_median", "cv_percent", "ppi_percent"):
                value = getattr(r, column)
                rows.append(_row(**{**base, "role": "identity"}, column=column, published=float(value),
                                 verdict=NOT_COMPARED,
                                 note="the paper publishes no per-system scores for this task"))
    return rows


def example_checks(results: Path) -> list[Path]:
    """The CI-width checks of the simulated example competitions compared with a paper column."""
    out = []
    for path in sorted((results / "competition").glob("*/check.csv")):
        head = pd.read_csv(path, nrows=1)
        if "language" in head.columns:
            out.append(path)
    return out


def _published_value(paper, table, row, column) -> str:
    text = paper_text(paper, table, row, column)
    if text is None:
        raise ValueError(f"paper_targets.csv has no cell {paper}/{table}/{row}/{column}")
    return text


# --------------------------------------------------------------------------- Dror
DROR_TABLES = {"Table 1": ("T1_caseA", "Lample et al. (41 scores) vs Ma&Hovy (87 scores)", "mean"),
               "Table 2": ("T2_caseB", "Adam (3898) vs RMSProp (1822)", "mean_std"),
               "Table 3": ("T3_caseC", "Variational (2599) vs No dropout (225)", "mean_std")}


def _dror_rows(results: Path) -> list[dict]:
    from simstats.studies.dror2019.conventions import printed_rounding

    rows = []
    conv = read_if_present(results / "dror/conventions.csv")
    if conv is not None:
        for r in conv.itertuples(index=False):
            if r.table in DROR_TABLES:
                table, row, column = DROR_TABLES[r.table]
                item = "U test p (note)" if r.quantity == "U test p" else "ASO eps_min (note)"
                variant = f"{r.convention} convention" + ("; UKP runs" if str(r.source).endswith("(UKP runs)")
                                                          else "; reconstructed shapes")
            elif r.table == "Table 4":
                case, what = r.quantity.split(" ", 2)[1], r.quantity.split(" ", 2)[2]
                table, row, column = "T4_summary", f"Case {case}", "pct_avg_eps_std"
                item = {"share %": "share %", "eps mean": "eps mean", "eps sd": "eps sd"}[what]
                variant = f"{r.convention} convention; {r.source}"
            else:
                analysis, _, key = r.quantity.split(" ")
                table = "false_negative" if analysis == "false_negative" else "false_positive"
                row = {"false_positive": "255 distributions x 100 comparisons vs +N(0;0.001) noise",
                       "half_split": "random half splits x 100",
                       "false_negative": "1/4 of scores minus phi^2 and 3/4 plus phi^2; phi~N(0;0.01)"}[analysis]
                column = "eps_mean" if analysis == "half_split" else "eps_mean_sd"
                item = f"eps_min {key}"
                variant = f"{r.convention} convention"
            verdict = "misses" if str(r.verdict).startswith("misses") else r.verdict
            rows.append(_row(paper="dror2019", table=table, row=row, column=column, item=item, variant=variant,
                             published=float(r.paper), ours=float(r.ours), mcse=float(r.mcse),
                             tolerance=float(r.tolerance), rounding=printed_rounding(float(r.paper)),
                             tolerance_basis=r.tolerance_basis, role="prediction",
                             verdict=verdict, source="dror/conventions.csv",
                             note="ASO found the other system better" if r.verdict == "misses (other winner)" else ""))
    population = read_if_present(results / "dror/population.csv")
    if population is not None:
        published = float(_published_value("dror2019", "setup", "255 distributions", "avg_std"))
        ours, mcse = float(population.sd.mean()), float(population.sd.std(ddof=1) / math.sqrt(len(population)))
        tol = 0.01 + printed_rounding(published)
        rows.append(_row(paper="dror2019", table="setup", row="255 distributions", column="avg_std",
                         item="mean sd of the distributions", variant="synthetic population", published=published,
                         ours=ours, mcse=mcse, tolerance=tol, rounding=printed_rounding(published),
                         tolerance_basis="±0.01 + rounding", role="fitted", verdict=judge(ours, mcse, published, tol),
                         source="dror/population.csv",
                         note=f"our population's spreads were set by hand to resemble the paper's (a calibration): body sd "
                              f"0.003-0.03, failed runs in about half the distributions (median sd "
                              f"{population.sd.median():.3f}); {len(population)} distributions"))
    noise = read_if_present(results / "dror/noise_analyses.csv")
    if noise is not None:
        from simstats.studies.dror2019.simulate import PAPER_NOISE

        vr = noise[noise.statistic == "violation_ratio"].set_index("analysis")
        rows_of = {"false_positive": ("255 distributions x 100 comparisons vs +N(0;0.001) noise", "eps_mean_sd"),
                   "half_split": ("random half splits x 100", "eps_mean"),
                   "false_negative": ("1/4 of scores minus phi^2 and 3/4 plus phi^2; phi~N(0;0.01)", "eps_mean_sd")}
        for analysis, values in PAPER_NOISE.items():
            if analysis not in vr.index:
                continue
            count, spread = float(vr.loc[analysis, "comparisons"]), float(vr.loc[analysis, "sd"])
            row, column = rows_of[analysis]
            table = "false_negative" if analysis == "false_negative" else "false_positive"
            for key, published in values.items():
                ours = float(vr.loc[analysis, key])
                if key.startswith("cos"):
                    mcse, tol, item, variant = math.sqrt(ours * (1 - ours) / count), 0.05, key, "COS"
                else:
                    mcse = spread / math.sqrt(count) if key == "mean" else spread / math.sqrt(2 * (count - 1)) \
                        if key == "sd" else math.nan
                    tol = 0.02 if key == "sd" else 0.05
                    item, variant = f"eps {key}", "violation ratio eps_W2"
                tol += printed_rounding(float(published))
                rows.append(_row(paper="dror2019", table=table, row=row, column=column, item=item,
                                 variant=variant, published=float(published), ours=ours, mcse=mcse, tolerance=tol,
                                 rounding=printed_rounding(float(published)),
                                 tolerance_basis=f"±{tol:.4g} incl. rounding", role="prediction",
                                 verdict=judge(ours, mcse, float(published), tol,
                                               interval=rate_interval(ours, int(count)) if key.startswith("cos")
                                               else None),
                                 source="dror/noise_analyses.csv",
                                 note="quantiles carry no Monte Carlo error here" if key.startswith("q") else ""))
    return rows


# --------------------------------------------------------------------------- the ledger
def fidelity_ledger(results_dir) -> pd.DataFrame:
    """One row per published number (see the module docstring); raises if no study output exists."""
    results = Path(results_dir)
    rows = _reimers_rows(results) + _yeh_rows(results) + _competition_rows(results) + _dror_rows(results)
    studied = {r["paper"] for r in rows if r["source"] not in ("computed",) and "/" in r["source"]}
    if not studied:
        raise ValueError(f"no study results found under {results}")
    ledger = pd.DataFrame(rows, columns=LEDGER_COLUMNS)
    # every published cell of paper_targets.csv appears: inputs as such, the rest as not compared
    targets = paper_targets()
    judged_keys = {k for k, item in zip(zip(ledger.paper, ledger.table, ledger.row, ledger.column), ledger.item)
                   if not str(item).endswith("(note)")}
    noted_keys = set(zip(ledger.paper, ledger.table, ledger.row, ledger.column)) - judged_keys
    papers_run = {r["paper"] for r in rows if "/" in r["source"]}
    extra = []
    for t in targets.itertuples(index=False):
        key = (t.paper, t.table, t.row, t.column)
        value = float(pd.to_numeric(pd.Series([t.value]), errors="coerce").iloc[0])
        if (t.paper, t.table) in _INPUT_NOTES and key not in judged_keys:
            extra.append(_row(paper=t.paper, table=t.table, row=t.row, column=t.column, published=value,
                              role="input", verdict=NOT_COMPARED, source="paper_targets.csv",
                              note=f"{_INPUT_NOTES[(t.paper, t.table)]}; published as {t.value!r}"))
        elif key not in judged_keys and key not in noted_keys:
            role = "fitted" if (t.table, t.column) in {("T1_eval1", "tau"), ("T1_eval1", "delta95_test"),
                                                      ("T2_eval2", "spearman_rho"), ("setup", "avg_std")} else \
                "identity" if (t.table, t.column) in REIMERS_IDENTITY else "prediction"
            note = "study not run" if t.paper not in papers_run else "not simulated at this scale"
            extra.append(_row(paper=t.paper, table=t.table, row=t.row, column=t.column, published=value,
                              role=role, verdict=NOT_COMPARED, source="paper_targets.csv", note=note))
    ledger = pd.concat([ledger, pd.DataFrame(extra, columns=LEDGER_COLUMNS)], ignore_index=True)
    order = {p: i for i, p in enumerate(["reimers2018", "yeh2000", "navamunoz2024", "dror2019"])}
    ledger = ledger.sort_values(["paper", "table"], key=lambda c: c.map(order) if c.name == "paper" else c,
                                kind="stable").reset_index(drop=True)
    return ledger


_INPUT_NOTES = {
    ("reimers2018", "setup"): "a setting of the simulation",
    ("yeh2000", "setup"): "a setting of the simulation",
    ("yeh2000", "observed_r12"): "Yeh's observed correlations: the r12 grid of the simulation",
    ("yeh2000", "example"): "a count of the worked example: input of the exact computations",
    ("dror2019", "T1_caseA"): "summary statistics the Table 1-3 distributions are reconstructed from",
    ("dror2019", "T2_caseB"): "summary statistics the Table 1-3 distributions are reconstructed from",
    ("dror2019", "T3_caseC"): "summary statistics the Table 1-3 distributions are reconstructed from",
    ("navamunoz2024", "T1_scores"): "the true scores of the simulated competition",
    ("navamunoz2024", "T6_metrics"): "definitions, not numbers",
}


def systematic_findings(ledger: pd.DataFrame, *, min_rows: int = 3) -> pd.DataFrame:
    """Per (paper, table, column, item, variant) over its tasks: one sign of deviation in every task,
    each beyond 3 MCSE plus the published rounding ("all beyond 3 MCSE"), or at least two misses
    all of one sign ("misses of one sign").  ``beyond_3_mcse`` counts the tasks beyond 3 MCSE on the
    finding's side."""
    judged = ledger[ledger.role.isin(["prediction", "identity", "fitted"])
                    & ledger.verdict.isin(["agrees", "misses", "undetermined"])]
    out = []
    for key, g in judged.groupby(["paper", "table", "column", "item", "variant"], sort=False):
        if len(g) < min_rows and (g.verdict == "misses").sum() < 2:
            continue
        dev = g.ours - g.published
        mcse = g.mcse.fillna(0.0)
        beyond = dev.abs() > 3 * mcse + g.rounding
        signs = np.sign(dev[beyond])
        misses = g[g.verdict == "misses"]
        miss_signs = np.sign(misses.ours - misses.published)
        finding = ""
        if len(g) >= min_rows and beyond.all() and (signs == signs.iloc[0]).all():
            finding = "all beyond 3 MCSE"
        elif len(misses) >= 2 and (miss_signs == miss_signs.iloc[0]).all():
            finding = "misses of one sign"
        if not finding:
            continue
        positive = (dev[beyond] if finding.startswith("all") else misses.ours - misses.published).iloc[0] > 0
        sign = "above" if positive else "below"
        # tasks beyond 3 MCSE on the finding's side (the others may lie beyond it on the other side)
        same_side = int((beyond & ((dev > 0) if positive else (dev < 0))).sum())
        out.append({"paper": key[0], "table": key[1], "column": key[2], "item": key[3], "variant": key[4],
                    "role": "/".join(sorted(g.role.unique())), "finding": finding, "direction": sign,
                    "tasks": len(g), "beyond_3_mcse": same_side, "misses": len(misses),
                    "deviation_min": float(dev.min()), "deviation_max": float(dev.max())})
    return pd.DataFrame(out, columns=["paper", "table", "column", "item", "variant", "role", "finding",
                                      "direction", "tasks", "beyond_3_mcse", "misses", "deviation_min",
                                      "deviation_max"])


PAPER_TITLES = {"reimers2018": "Reimers & Gurevych (2018)", "yeh2000": "Yeh (2000)",
                "navamunoz2024": "Nava-Muñoz et al. (2024)", "dror2019": "Dror et al. (2019)"}


def verdict_counts(ledger: pd.DataFrame, role: str | None = None) -> pd.DataFrame:
    """Rows per paper (and variant), columns agrees / misses / undetermined / not compared."""
    part = ledger if role is None else ledger[ledger.role == role]
    counts = (part.assign(variant=part.variant.str.split(";").str[0].fillna(""))
              .groupby(["paper", "variant", "verdict"], sort=False).size().unstack(fill_value=0))
    for column in ("agrees", "misses", "undetermined", NOT_COMPARED):
        if column not in counts:
            counts[column] = 0
    counts = counts[["agrees", "misses", "undetermined", NOT_COMPARED]].reset_index()
    counts["paper"] = counts.paper.map(lambda p: PAPER_TITLES.get(p, p))
    return counts


def _fmt(value, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{float(value):.{digits}g}"


def fidelity_markdown(ledger: pd.DataFrame, findings: pd.DataFrame) -> str:
    from simstats.io import markdown_table

    lines = ["# Fidelity ledger: every published number beside ours", "",
             "One row per published number of the four papers (`fidelity.csv`). Verdict rule, one for all "
             "studies: **agrees** when ours' 95 % Monte Carlo interval (ours ± 1.96 MCSE; a computation without "
             "Monte Carlo error is a point) lies inside published ± tolerance, **misses** when it lies entirely "
             "outside, **undetermined** otherwise. Every tolerance includes half a unit of the published value's "
             "last printed digit. Roles: *fitted* (the simulation was fitted to it), *identity* (follows from "
             "fitted or published input numbers by arithmetic, so agreement is nearly automatic), *prediction* "
             "(the replication's real tests), *input* (taken as given, not judged).", ""]
    for role, title in (("prediction", "Predictions"), ("fitted", "Fitted numbers"),
                        ("identity", "Identities (arithmetic from fitted or published numbers)")):
        counts = verdict_counts(ledger, role)
        if len(counts):
            lines += [f"## {title}", "", markdown_table(counts), ""]
    inputs = ledger[ledger.role == "input"]
    lines += [f"Inputs (not judged): {len(inputs)} published numbers.", ""]
    lines += ["## Systematic findings", "",
              "Per table and quantity across its tasks: a deviation of one sign in every task beyond 3 MCSE plus "
              "the published rounding, or two or more misses all of one sign.", ""]
    if len(findings):
        shown = findings.assign(paper=findings.paper.map(lambda p: PAPER_TITLES.get(p, p)),
                                deviation=[f"{_fmt(a)} to {_fmt(b)}" for a, b in
                                           zip(findings.deviation_min, findings.deviation_max)])
        lines += [markdown_table(shown[["paper", "table", "column", "item", "variant", "role", "finding",
                                        "direction", "tasks", "beyond_3_mcse", "misses", "deviation"]]), ""]
    else:
        lines += ["None.", ""]
    for paper, part in ledger.groupby("paper", sort=False):
        shown = pd.DataFrame({
            "table": part.table, "row": part.row, "column": part.column, "item": part["item"],
            "variant": part.variant, "published": part.published.map(_fmt), "ours": part.ours.map(_fmt),
            "MCSE": part.mcse.map(lambda v: _fmt(v, 2)), "tolerance": part.tolerance.map(lambda v: _fmt(v, 3)),
            "basis": part.tolerance_basis, "role": part.role, "verdict": part.verdict, "note": part.note})
        lines += [f"## {PAPER_TITLES.get(paper, paper)}", "", markdown_table(shown), ""]
    return "\n".join(lines)
