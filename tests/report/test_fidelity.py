"""The fidelity ledger: the symmetric verdict rule, rounding, roles, coverage of every published number,
identities recomputed from the papers' own inputs, and systematic findings."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.report.fidelity import LEDGER_COLUMNS, fidelity_ledger, systematic_findings
from simstats.report.fidelity import check_ledger
from simstats.studies.reference import ROLES, Z95, judge, ledger_row, paper_targets, rounding


# --------------------------------------------------------------------------- the verdict rule
@pytest.mark.parametrize("ours, mcse, published, tol, verdict", [
    (1.00, 0.01, 1.0, 0.1, "agrees"),        # interval [0.98, 1.02] inside [0.9, 1.1]
    (1.09, 0.01, 1.0, 0.1, "undetermined"),  # in tolerance, but the interval leaves the band
    (1.11, 0.01, 1.0, 0.1, "undetermined"),  # out of tolerance, but the interval reaches the band
    (1.20, 0.01, 1.0, 0.1, "misses"),        # entirely outside
    (0.80, 0.01, 1.0, 0.1, "misses"),
    (1.10, float("nan"), 1.0, 0.1, "agrees"),  # no Monte Carlo error: the point is judged
    (1.1001, 0.0, 1.0, 0.1, "misses"),
    (float("nan"), 0.01, 1.0, 0.1, "undetermined"),
])
def test_verdict_rule_is_symmetric_in_the_monte_carlo_interval(ours, mcse, published, tol, verdict):
    assert judge(ours, mcse, published, tol) == verdict


def test_verdict_rule_boundaries_use_the_95_percent_interval():
    # interval edge exactly on the band edge agrees; a hair beyond is undetermined
    assert judge(1.0 + 0.1 - Z95 * 0.01, 0.01, 1.0, 0.1) == "agrees"
    assert judge(1.0 + 0.1 - Z95 * 0.01 + 1e-9, 0.01, 1.0, 0.1) == "undetermined"
    assert judge(1.0 + 0.1 + Z95 * 0.01 + 1e-9, 0.01, 1.0, 0.1) == "misses"
    with pytest.raises(ValueError, match="tolerance"):
        judge(1.0, 0.0, 1.0, -0.1)


def test_log_scale_verdict_judges_ratios_by_their_factor():
    # p = 4.4e-07 against a published 0.00025: three orders of magnitude apart, a miss on any sane log band
    assert judge(4.4e-07, 0.0, 0.00025, 0.05) == "agrees"               # the absolute band the audit found
    assert judge(4.4e-07, 0.0, 0.00025, math.log10(2), scale="log10") == "misses"
    # within a factor of 2 with a small error: agrees; the interval is the delta method on log10
    assert judge(0.011, 0.0005, 0.010, math.log10(2), scale="log10") == "agrees"
    # ours whose upper log10 edge, log10(ours) + 1.96 mcse / (ours ln 10), sits on the band's edge log10(0.02)
    mcse = 0.001
    ours = 0.02 / 10 ** (Z95 * mcse / (0.0185 * math.log(10)))      # a first guess, then a fixed point
    for _ in range(50):
        ours = 0.02 / 10 ** (Z95 * mcse / (ours * math.log(10)))
    assert judge(ours * (1 - 1e-9), mcse, 0.010, math.log10(2), scale="log10") == "agrees"
    assert judge(ours * (1 + 1e-6), mcse, 0.010, math.log10(2), scale="log10") == "undetermined"
    assert judge(0.0199, 0.002, 0.010, math.log10(2), scale="log10") == "undetermined"
    # numpy scalars are numbers
    assert judge(np.float32(0.011), np.float64(0.0005), 0.010, math.log10(2), scale="log10") == "agrees"
    # an explicit interval is taken on the log scale as given
    assert judge(0.015, 0.0, 0.010, math.log10(2), scale="log10", interval=(0.004, 0.03)) == "undetermined"
    # 0 lies at minus infinity: a miss of any positive band; a published 0 cannot be judged on this scale
    assert judge(0.0, 0.0, 0.010, 1.0, scale="log10") == "misses"
    assert judge(0.0, 0.001, 0.010, 1.0, scale="log10") == "undetermined"
    assert judge(0.010, 0.0, 0.0, 1.0, scale="log10") == "undetermined"
    with pytest.raises(ValueError, match="scale"):
        judge(1.0, 0.0, 1.0, 0.1, scale="ln")


def test_ledger_rows_and_ledger_refuse_what_breaks_the_contract():
    with pytest.raises(ValueError, match="unknown ledger role 'guess'"):
        ledger_row(paper="p", role="guess")
    with pytest.raises(ValueError, match="unknown ledger columns"):
        ledger_row(paper="p", role="prediction", colour="red")
    base = dict(paper="p", table="t", row="r", column="c", item="", published=1.0, ours=1.0, tolerance=0.1)
    good = ledger_row(**base, mcse=0.0, role="identity", verdict="agrees")
    check_ledger(pd.DataFrame([good]))
    with pytest.raises(ValueError, match="rows for one published number: p / t / r / c"):
        check_ledger(pd.DataFrame([good, good]))
    with pytest.raises(ValueError, match="p / t / r / c: a judged number needs a Monte Carlo standard error"):
        check_ledger(pd.DataFrame([{**good, "mcse": math.nan, "role": "prediction"}]))
    with pytest.raises(ValueError, match="an input is not judged"):
        check_ledger(pd.DataFrame([{**good, "role": "input"}]))
    with pytest.raises(ValueError, match="a row without a value is 'not compared', not 'undetermined'"):
        check_ledger(pd.DataFrame([{**good, "ours": math.nan, "verdict": "undetermined"}]))
    check_ledger(pd.DataFrame([{**good, "role": "input", "verdict": "not compared", "mcse": math.nan}]))


@pytest.mark.parametrize("printed, half", [("0.42", 0.005), ("31.02", 0.005), ("96", 0.5), ("0.0472", 0.00005),
                                           ("19.680", 0.0005), ("1e-3", 0.0005)])
def test_rounding_is_half_a_unit_of_the_last_printed_digit(printed, half):
    assert rounding(printed) == pytest.approx(half)


def test_rounding_rejects_text():
    with pytest.raises(ValueError, match="not a number"):
        rounding("high")


# --------------------------------------------------------------------------- a minimal results tree
def _reimers_tables(tmp):
    from simstats.studies.reimers2018.tables import side_by_side

    rows = []
    for task in ("CoNLL 2003 - NER-En", "CoNLL 2003 - NER-De", "GermEval 2014 - NER-De"):
        for table, quantity, n, est, se in (("T1_eval1", "tau", 1, 0.5, 0.001),
                                            ("T1_eval1", "pct_significant", 1, 40.0, 0.2),
                                            ("T2_eval2", "tau", 50, 0.5, 0.001),
                                            ("T3_prediction_interval", "two_zeta", 0, 1.0, 0.01)):
            rows.append({"scenario": task, "reference": task, "table": table, "quantity": quantity, "n": n,
                         "estimate": est, "se": se, "ci_low": est - 2 * se, "ci_high": est + 2 * se, "count": 1000})
    tables = side_by_side(pd.DataFrame(rows))
    (tmp / "reimers").mkdir(parents=True)
    tables.to_csv(tmp / "reimers/tables.csv", index=False)
    return tables


@pytest.fixture
def results(tmp_path):
    _reimers_tables(tmp_path)
    return tmp_path


def test_ledger_covers_every_published_number(results):
    ledger = fidelity_ledger(results)
    assert list(ledger.columns) == LEDGER_COLUMNS
    targets = paper_targets()
    keys = set(zip(ledger.paper, ledger.table, ledger.row, ledger.column))
    missing = [k for k in zip(targets.paper, targets.table, targets.row, targets.column) if k not in keys]
    assert missing == []
    assert set(ledger.role) <= set(ROLES)
    assert set(ledger.verdict) <= {"agrees", "misses", "undetermined", "not compared"}
    assert ledger[ledger.role == "input"].verdict.eq("not compared").all()
    # one row per published number; every judged number carries a Monte Carlo error (0 for a computation)
    assert not ledger.duplicated(["paper", "table", "row", "column", "item"]).any()
    judged = ledger[ledger.verdict != "not compared"]
    assert np.isfinite(judged.mcse).all() and (judged.mcse >= 0).all()
    # a row without a value is not compared, never undetermined
    assert ledger[ledger.ours.isna() | ledger.published.isna()].verdict.eq("not compared").all()
    # every miss carries a note or "unexplained"
    missed = ledger[ledger.verdict == "misses"]
    assert (missed.explanation.str.match(r"note \d+$") | missed.explanation.eq("unexplained")).all()
    assert ledger[ledger.verdict != "misses"].explanation.eq("").all()


def test_ledger_roles_of_reimers_cells(results):
    ledger = fidelity_ledger(results)
    r = ledger[(ledger.paper == "reimers2018") & ledger.source.eq("reimers/tables.csv")]
    role = {(t, c): g.role.iloc[0] for (t, c), g in r.groupby(["table", "column"])}
    assert role[("T1_eval1", "tau")] == "fitted"
    assert role[("T2_eval2", "tau")] == "identity" and role[("T3_prediction_interval", "two_zeta")] == "identity"
    assert role[("T1_eval1", "pct_significant")] == "prediction"
    # a task not simulated keeps its role and says why it is not compared
    ace = ledger[(ledger.row == "ACE 2005 - Entities") & (ledger.column == "pct_significant")]
    assert ace.verdict.iloc[0] == "not compared" and ace.note.iloc[0] == "not simulated at this scale"
    # ours 40 % with MCSE 0.2 vs NER-En's published 31.02: a miss by the symmetric rule
    ner = r[(r.row == "CoNLL 2003 - NER-En") & (r.column == "pct_significant")].iloc[0]
    # the tolerance is 3 se of the paper's own rate over its 50,000 pairs plus rounding
    assert ner.verdict == "misses" and ner.tolerance == pytest.approx(300 * math.sqrt(.3102 * .6898 / 50_000) + 0.005)


def test_systematic_finding_when_every_task_deviates_one_way(results):
    ledger = fidelity_ledger(results)
    found = systematic_findings(ledger)
    pct = found[(found.table == "T1_eval1") & (found.column == "pct_significant")]
    assert len(pct) == 1 and pct.direction.iloc[0] == "above" and pct.tasks.iloc[0] == 3
    # flip one task below the paper: no longer one sign across the table
    mixed = ledger.copy()
    idx = mixed[(mixed.table == "T1_eval1") & (mixed.column == "pct_significant") & mixed.ours.notna()].index
    mixed.loc[idx[0], "ours"] = mixed.loc[idx[0], "published"] - 10
    mixed.loc[idx[1:], "ours"] = mixed.loc[idx[1:], "published"] + 0.001   # within 3 MCSE: not beyond
    mixed.loc[idx[1:], "verdict"] = "agrees"
    mixed.loc[idx[0], "verdict"] = "misses"
    found = systematic_findings(mixed)
    assert found[(found.table == "T1_eval1") & (found.column == "pct_significant")].empty
    # two misses below, one task beyond 3 MCSE above: misses of one sign, 2 (not 3) beyond on its side
    mixed.loc[idx[:2], "ours"] = mixed.loc[idx[:2], "published"] - 10
    mixed.loc[idx[:2], "verdict"] = "misses"
    mixed.loc[idx[2], "ours"] = mixed.loc[idx[2], "published"] + 1
    found = systematic_findings(mixed)
    row = found[(found.table == "T1_eval1") & (found.column == "pct_significant")].iloc[0]
    assert (row.finding, row.direction, row.beyond_3_mcse, row.misses) == ("misses of one sign", "below", 2, 2)


# --------------------------------------------------------------------------- identities from the papers' inputs
def _yeh_precision_two_sided_by_enumeration() -> float:
    """Exact two-sided randomization p of Yeh's precision comparison, enumerated over how many items of each
    discordant kind are swapped (binomial weights), independently of simstats."""
    k1, k2, k3, k4 = (np.arange(n + 1) for n in (28, 6, 43, 9))
    w = [stats.binom.pmf(k, n, 0.5) for k, n in zip((k1, k2, k3, k4), (28, 6, 43, 9))]
    a, b, c, d = np.meshgrid(k1, k2, k3, k4, indexing="ij")
    rec_1, sp_1 = 19 + (28 - a) + b, 5 + (43 - c) + d
    rec_2, sp_2 = 19 + a + (6 - b), 5 + c + (9 - d)
    delta = rec_1 / (rec_1 + sp_1) - rec_2 / (rec_2 + sp_2)
    observed = 47 / 95 - 25 / 39
    weight = w[0][:, None, None, None] * w[1][None, :, None, None] * w[2][None, None, :, None] * w[3][None, None, None, :]
    return float(weight[np.abs(delta) >= abs(observed) - 1e-12].sum())


def test_yeh_two_sided_value_and_worked_example_identities(results):
    ledger = fidelity_ledger(results)
    yeh = ledger[ledger.paper == "yeh2000"].set_index(["row", "column", "item"])
    # section 2.2's "below 4 %" is judged against Yeh's own section 3.3 count (the paper against itself); the
    # exact two-sided p of his stated counts, which agrees with the bound, is its sensitivity
    row = yeh.loc[("randomization precision two-sided (section 2.2)", "p_two_sided", "")]
    p2 = _yeh_precision_two_sided_by_enumeration()
    assert round(p2 * 2**20) == 41_931 and p2 < 0.04
    assert f"{p2:.5f} = 41,931/2^20 (agrees" in row.sensitivity
    assert row.role == "self-consistency" and row.ours == pytest.approx(2 * 25_770 / 2**20, rel=1e-3)
    for method, item, value in (("method I", "precision", 100 * 47 / 95), ("method II", "recall", 100 * 25 / 103)):
        row = yeh.loc[(method, "recall_precision_f", item)]
        assert row.ours == pytest.approx(value) and row.verdict == "agrees"
    assert yeh.loc[("chi2 precision 2x2", "chi2", ""), "verdict"] == "agrees"
    assert yeh.loc[("recall correlation", "r", ""), "ours"] == pytest.approx(0.345, abs=1e-3)


def test_navamunoz_table8_measures_follow_from_published_scores(results):
    ledger = fidelity_ledger(results)
    t8 = ledger[(ledger.paper == "navamunoz2024") & (ledger.source == "nava_munoz_2024_summaries.csv")]
    assert len(t8) == 6 and (t8.verdict == "agrees").all() and (t8.role == "identity").all()
    spanish_ppi = t8[t8.row.str.endswith("Spanish") & (t8.column == "ppi_percent")].iloc[0]
    # 19.084 published from unrounded scores; ours 100 (1 - 0.8092) = 19.08 from the rounded ones
    assert spanish_ppi.ours == pytest.approx(19.08) and spanish_ppi.tolerance == pytest.approx(0.0005 + 0.005)
    basque_cv = t8[t8.row.str.endswith("Basque") & (t8.column == "cv_percent")].iloc[0]
    scores = np.array([0.5734, 0.5465, 0.5024, 0.4256, 0.3428])     # Table 1, Basque Textual
    assert basque_cv.ours == pytest.approx(100 * scores.std(ddof=1) / scores.mean(), rel=1e-12)
    assert abs(basque_cv.ours - 19.680) <= basque_cv.tolerance
    # Figure 3 p-values against Table 5's raw ones: within the paper's own B = 10,000 bootstrap error, on log10
    fig3 = ledger[(ledger.paper == "navamunoz2024") & (ledger.table == "pvalue")]
    assert len(fig3) == 2 and (fig3.role == "self-consistency").all() and (fig3.scale == "log10").all()
    assert not (fig3.verdict == "misses").any()     # differences of 0.39 and 0.60 se of B = 10,000 estimates


def test_empty_results_are_an_error(tmp_path):
    with pytest.raises(ValueError, match="no study results found"):
        fidelity_ledger(tmp_path)


def test_implied_significance_check_reproduces_hand_computation():
    from simstats.studies.reimers2018.checks import TAU_Z, implied_significance

    rows = pd.DataFrame({"row": ["CoNLL 2003 - NER-En"], "ours": [33.77]})
    out = implied_significance(None, rows, None)
    se, sd = 0.42 / TAU_Z, 0.83 / 1.959964
    expected = 100 * 2 * (1 - stats.norm.cdf(1.644854 * se / sd))
    assert f"implied {expected:.1f} %" in out["shown"] and math.isclose(TAU_Z, 1.696, abs_tol=2e-3)
    assert 33.0 < expected < 34.0    # above the published 31.02


def test_every_explanation_names_a_known_check_and_fills_its_text():
    import string

    import simstats.studies as registry
    from simstats.report.fidelity import explanations

    counted = 0
    for study in registry.papers():
        for entry in explanations(study.paper):
            assert entry["match"]["paper"] == study.paper and entry["check"] in study.part("checks").CHECKS
            fields = {f for _, f, _, _ in string.Formatter().parse(entry["text"]) if f}
            assert "shown" not in fields
            counted += 1
    assert counted >= 4


def test_tables7_11_possible_comparisons_are_self_consistency(results):
    ledger = fidelity_ledger(results)
    t = ledger[ledger.source == "nava_munoz_2024_tables7_11.csv"]
    pairs = t[t.column == "possible_comparisons"]
    assert len(pairs) == 24 and (pairs.verdict == "agrees").all() and (pairs.role == "self-consistency").all()
    # Table 11, MEX-A3T aggressiveness: 70 ties without a correction but 63 after BH breaks the ordering
    bad = t[(t.verdict == "misses") & (t.column == "ties")]
    assert set(bad.row) == {"MEX-A3T 2019 Aggressiveness"} and set(bad.published) == {70.0, 63.0}


def test_adjusted_pvalues_are_ordered_as_the_consistency_check_assumes():
    """raw <= BH <= Holm <= Bonferroni for every p-value (statsmodels), so ties can only grow in that order."""
    from statsmodels.stats.multitest import multipletests

    from simstats.stats.multitest import quick_gc

    rng = np.random.default_rng(11)
    with quick_gc():        # statsmodels' Holm runs gc.collect() on every call: about 0.1 s each in a full session
        for _ in range(200):
            p = rng.uniform(0, 0.2, rng.integers(2, 40)) ** rng.uniform(0.5, 3)
            bh, holm, bonf = (multipletests(p, method=m)[1] for m in ("fdr_bh", "holm", "bonferroni"))
            assert np.all(p <= bh + 1e-15) and np.all(bh <= holm + 1e-15) and np.all(holm <= bonf + 1e-15)


def _reimers_check_results(tmp_path):
    (tmp_path / "reimers").mkdir()
    pd.DataFrame([{"scenario": "ner_en", "reference": "CoNLL 2003 - NER-En", "kind": "target",
                   "quantity": "pct_significant_eval2", "value": 21.72, "fit": 21.72, "difference": 0.0,
                   "note": "fit exact"}]).to_csv(tmp_path / "reimers/calibration_fit.csv", index=False)
    pd.DataFrame([{"scenario": "ner_en", "reference": "CoNLL 2003 - NER-En", "n": 50, "pct_significant": 21.7}]
                 ).to_csv(tmp_path / "reimers/closed_form_curves.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("ours, mcse, verdict", [
    (33.0, 0.2, "misses"),        # 56 MCSE from a closed form that agrees: not Monte Carlo error
    (22.2, 0.2, "agrees"),        # within 3 MCSE of the closed form (21.7), which agrees with 21.72
])
def test_mixture_reach_explains_a_miss_only_as_monte_carlo_error_of_a_closed_form_that_agrees(tmp_path, ours, mcse,
                                                                                              verdict):
    from simstats.studies.reimers2018.checks import mixture_reach

    rows = pd.DataFrame([{"row": "CoNLL 2003 - NER-En", "column": "pct_significant", "ours": ours, "mcse": mcse,
                          "published": 21.72, "tolerance": 3 * 100 * math.sqrt(.2172 * .7828 / 1000) + 0.005}],
                        index=[7])
    out = mixture_reach(None, rows, _reimers_check_results(tmp_path))
    assert out["verdicts"] == {7: verdict}
    assert f"z = {(ours - 21.7) / mcse:.1f} from the closed form" in out["shown"]


def test_implied_significance_needs_the_published_count_to_be_inconsistent(tmp_path):
    from simstats.studies.reimers2018.checks import implied_rate, implied_significance

    implied = [implied_rate(0.42, 0.83, k) for k in ("one-sided", "two-sided")]      # NER-En's tau, Delta95
    centre, half = sum(implied) / 2, abs(implied[0] - implied[1]) / 2
    rows = pd.DataFrame([{"row": "CoNLL 2003 - NER-En", "ours": centre, "mcse": 0.01, "tolerance": 0.5}], index=[3])
    # 31.02 lies more than the tolerance below the implied range: the cause applies and ours agrees with it
    assert centre - half - 0.5 > 31.02
    assert implied_significance(None, rows, tmp_path)["verdicts"] == {3: "agrees"}
    # a tolerance wide enough to hold the published count: it is not inconsistent, so nothing is explained
    wide = rows.assign(tolerance=centre + half - 31.02)
    assert implied_significance(None, wide, tmp_path)["verdicts"] == {3: "misses"}
