"""Nava-Muñoz et al. (2024) in the fidelity ledger: one row per published number, roles, the log10 judgement of
p-values, the tie-count consistency rows, the CI-width band and the checks behind the explanations.

References: hand formulas (binomial se of a bootstrap p-value, the CI width of a difference at correlation r),
statsmodels' multipletests and proportion_confint, the paper's printed numbers."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from simstats.studies.navamunoz2024 import checks
from simstats.studies.navamunoz2024.ledger import (INPUT_NOTES, allowed_range, ledger_rows, mark_band_verdict,
                                                   parmex_ties_with_winner, tie_counts)
from simstats.studies.navamunoz2024.population import parse_competition
from simstats.studies.navamunoz2024.widths import (implied_correlation, widths_per_test_set, width_at_correlation,
                                                   width_band)
from simstats.studies.reference import judge, paper_targets

ROOT = Path(__file__).resolve().parents[3]
KEY = ["paper", "table", "row", "column", "item"]


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    return ledger_rows(tmp_path_factory.mktemp("empty"))


def test_one_row_per_published_number_and_every_judged_row_has_an_mcse(ledger):
    assert not ledger.duplicated(KEY).any()
    judged = ledger[ledger.verdict != "not compared"]
    assert judged.mcse.map(math.isfinite).all() and judged.published.map(math.isfinite).all()
    assert set(ledger.role) <= {"prediction", "fitted", "identity", "self-consistency"}
    # sigma_item was set to the Basque widths of differences between teams: those are fitted, the rest predicted
    widths = ledger[ledger.table.isin(["T2_ci", "T3_diff_ci"])]
    assert sorted(widths[widths.role == "fitted"].row) == [f"Basque WordUp.01 - {s}" for s in
                                                           ("MultiAztertest.01", "MultiAztertest.02", "SQYQP.01")]
    assert (widths.role != "fitted").sum() == 15
    # every published cell of the paper in paper_targets.csv is a ledger row or an input
    covered = set(zip(ledger.table, ledger.row, ledger.column))
    for t in paper_targets()[lambda d: d.paper == "navamunoz2024"].itertuples():
        assert (t.table, t.row, t.column) in covered or t.table in INPUT_NOTES, (t.table, t.row, t.column)


def test_figure3_pvalues_are_self_consistent_within_the_papers_bootstrap_error(ledger):
    fig3 = ledger[ledger.table == "pvalue"].set_index("row")
    assert (fig3.role == "self-consistency").all() and (fig3.scale == "log10").all()
    for row, (fig, table5, z_expected, verdict) in {
            "Basque WordUp.01 vs SQYQP.01": (0.0014, 0.0012, 0.39, "undetermined"),
            "Basque WordUp.01 vs WordUp.02": (0.2064, 0.2030, 0.60, "agrees")}.items():
        se = [math.sqrt(p * (1 - p) / 10_000) for p in (fig, table5)]
        assert fig3.loc[row, "mcse"] == pytest.approx(se[1])
        z = abs(fig - table5) / math.hypot(*se)
        assert z == pytest.approx(z_expected, abs=0.01) and f"{z:.2f} se" in fig3.loc[row, "note"]
        # tolerance: 3 se of Figure 3's estimate plus its rounding, as log10 units on the narrower (upper) side,
        # so the log band ends where the linear band does and reaches less far below
        linear = 3 * se[0] + 5e-5
        tol = fig3.loc[row, "tolerance"]
        assert tol == pytest.approx(math.log10((fig + linear) / fig))
        assert 10 ** (math.log10(fig) + tol) == pytest.approx(fig + linear)
        assert 10 ** (math.log10(fig) - tol) > fig - linear
        # ours' 95 % interval on log10 (delta method) against the band, by hand
        half = 1.959964 * se[1] / (table5 * math.log(10))
        low, high = math.log10(table5) - half, math.log10(table5) + half
        inside = math.log10(fig) - tol <= low and high <= math.log10(fig) + tol
        assert fig3.loc[row, "verdict"] == verdict == ("agrees" if inside else "undetermined")
    # WordUp.01 vs SQYQP.01: ours' interval reaches down to 0.00068, below the band's 0.00076
    sqyqp = fig3.loc["Basque WordUp.01 vs SQYQP.01"]
    assert 0.00076 < 10 ** (math.log10(0.0014) - sqyqp.tolerance) < 0.00077
    assert 0.00068 < 10 ** (math.log10(0.0012) - 1.959964 * sqyqp.mcse / (0.0012 * math.log(10))) < 0.00069


def test_possible_comparisons_and_tie_counts_are_self_consistency_rows_with_published_values(ledger):
    t = ledger[ledger.source == "nava_munoz_2024_tables7_11.csv"]
    pairs = t[t.column == "possible_comparisons"]
    assert len(pairs) == 24 and (pairs.role == "self-consistency").all() and (pairs.verdict == "agrees").all()
    ties = t[t.column.isin(["ties", "ties_with_winner"])]
    assert len(ties) == 24 * 8 and ties.published.notna().all()
    # Table 8 Basque Textual from Table 5's p-values, PAR-MEX's ties with the winner from Appendix A: identities
    assert set(ties[ties.role == "identity"].row) == {"VaxxStance 2021 Close Track-Textual Basque",
                                                      "PAR-MEX 2022 Paraphrase Identification"}
    bad = ties[ties.verdict == "misses"]
    assert bad.row.tolist() == ["MEX-A3T 2019 Aggressiveness"] * 2 and sorted(bad["item"]) == ["bh", "none"]


def test_allowed_range_of_the_mex_a3t_counts():
    table = pd.read_csv(ROOT / "simstats/data/nava_munoz_2024_tables7_11.csv")
    r = next(r for r in table.itertuples() if r.task == "Aggressiveness")
    counts = tie_counts(r)      # ties none/Bonf/Holm/BH = 70/91/80/63
    assert allowed_range(counts, "ties", "none", r.m, r.possible_comparisons) == (3, 63)
    assert allowed_range(counts, "ties", "bh", r.m, r.possible_comparisons) == (70, 80)
    assert allowed_range(counts, "ties", "holm", r.m, r.possible_comparisons) == (70, 91)
    assert allowed_range(counts, "ties_with_winner", "none", r.m, r.possible_comparisons) == (0, 3)


def test_table4_marks_against_table5_raw_pvalues(ledger):
    marks = ledger[(ledger.table == "T4_differences") & (ledger.column == "mark")]
    assert len(marks) == 10 and (marks.role == "self-consistency").all()
    assert marks[marks.verdict == "misses"].row.tolist() == ["Basque WordUp.01 - SQYQP.01"]
    diffs = ledger[ledger.column == "difference"]
    assert len(diffs) == 20 and (diffs.role == "identity").all() and (diffs.verdict == "agrees").all()


def test_mark_band_verdict_uses_the_wilson_interval_of_a_b_10000_estimate():
    low, high = proportion_confint(12, 10_000, alpha=0.05, method="wilson")
    assert low < 0.001 < high
    assert mark_band_verdict(0.0012, 4) == "undetermined"      # *** needs p < 0.001: either mark is possible
    assert mark_band_verdict(0.0012, 3) == "undetermined"
    assert mark_band_verdict(0.0039, 3) == "agrees"            # ** : 0.001 <= p < 0.01
    assert mark_band_verdict(0.2030, 2) == "misses"


def test_table5_corrections_are_identities_on_log10_except_printed_zeros(ledger):
    t5 = ledger[(ledger.table == "T5_corrections") & (ledger.column != "difference")]
    assert len(t5) == 40 and (t5.verdict == "agrees").all() and (t5.role == "identity").all()
    assert set(t5[t5.published == 0].scale) == {"linear"} and set(t5[t5.published > 0].scale) == {"log10"}
    bonf = t5[(t5.row == "WordUp.01 vs MultiAztertest.01") & (t5.column == "bonferroni")].iloc[0]
    assert bonf.ours == pytest.approx(multipletests([0.2030, 0.0551, 0.0012, 0.0], method="bonferroni")[1][1])


def test_appendix_pvalues_give_parmex_ties_with_the_winner():
    p = [0.0] * 6 + [0.254]
    for label, method in (("none", None), ("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")):
        adjusted = p if method is None else multipletests(p, method=method)[1]
        assert parmex_ties_with_winner()[label] == int(np.sum(np.asarray(adjusted) >= 0.05)) == 1


def test_section5_text_numbers(ledger):
    s5 = ledger[ledger.table == "S5_text"].set_index(["row", "column"])
    assert s5.loc[("EXIST 2021 Sexism Identification English", "win_minus_median"), "verdict"] == "misses"
    assert s5.loc[("EXIST 2021 Sexism Identification English", "cv_percent"), "verdict"] == "agrees"
    assert s5.loc[("VaxxStance 2021 Close Track-Contextual Basque", "cv_percent"), "verdict"] == "misses"  # 64.766
    assert (s5.role == "self-consistency").all()


def test_checks_return_a_verdict_under_the_cause_for_every_miss(ledger, tmp_path):
    misses = ledger[ledger.verdict == "misses"]
    entries = yaml.safe_load((ROOT / "simstats/studies/navamunoz2024/explanations.yaml").read_text())
    for entry in entries:
        m = entry["match"]
        rows = misses[(misses.table == m["table"]) & (misses.column == m.get("column", misses.column))]
        out = checks.CHECKS[entry["check"]](ledger, rows, tmp_path)
        assert set(out["verdicts"]) == set(rows.index) and len(rows)
        expected = "undetermined" if entry["check"] == "mark_from_another_run" else "agrees"
        assert set(out["verdicts"].values()) == {expected}, entry["check"]
        entry["text"].format(**{k: v for k, v in out.items() if k != "verdicts"})


def test_width_at_correlation_inverts_the_implied_correlation():
    wa, wb, wd = 0.137, 0.1387, 0.1281       # the paper's Basque WordUp.01, WordUp.02 and their difference
    r = float(implied_correlation(wa, wb, wd))
    assert r == pytest.approx((wa ** 2 + wb ** 2 - wd ** 2) / (2 * wa * wb)) and 0.55 < r < 0.6
    assert float(width_at_correlation(wa, wb, r)) == pytest.approx(wd)
    assert float(width_at_correlation(wa, wb, 0.0)) == pytest.approx(math.hypot(wa, wb))


@pytest.fixture(scope="module")
def basque():
    settings = parse_competition(yaml.safe_load((ROOT / "config/config.yaml").read_text())["competition"])
    example = settings.examples["basque"]
    return settings.populations[example.population], example


def test_width_band_is_reproducible_and_its_mcse_is_sd_over_root_k(basque, tmp_path):
    population, example = basque
    per_set = widths_per_test_set(population, example, root_seed=5, n_resamples=400, test_sets=6, name="basque")
    again = widths_per_test_set(population, example, root_seed=5, n_resamples=400, test_sets=6, name="basque")
    pd.testing.assert_frame_equal(per_set, again)
    assert len(per_set) == 6 * 9 and per_set.test_set.nunique() == 6
    band = width_band(per_set, "Basque")
    w = per_set[(per_set.table == "T2") & (per_set.system == "WordUp.01")].width.to_numpy()
    row = band[(band.table == "T2") & (band.system == "WordUp.01")].iloc[0]
    assert row["mean"] == pytest.approx(w.mean()) and row["mcse"] == pytest.approx(w.std(ddof=1) / math.sqrt(6))
    # a macro-F1 CI width on 312 items is about 2 x 1.96 x its se: between 0.08 and 0.2
    assert ((band["mean"] > 0.08) & (band["mean"] < 0.2)).all()
    # the ledger judges the published widths with this band: ours = mean, tolerance = 1.96 sd + rounding
    (tmp_path / "competition" / "basque").mkdir(parents=True)
    band.to_csv(tmp_path / "competition" / "basque" / "widths.csv", index=False)
    rows = ledger_rows(tmp_path)
    t2 = rows[(rows.table == "T2_ci") & (rows.row == "Basque WordUp.01")].iloc[0]
    mean, mcse, sd = w.mean(), w.std(ddof=1) / math.sqrt(6), w.std(ddof=1)
    assert t2["ours"] == pytest.approx(mean) and t2.mcse == pytest.approx(mcse)
    assert t2.tolerance == pytest.approx(1.959964 * sd + 1e-4)
    # the verdict from these hand-computed numbers and Table 2's printed limits 0.5031-0.6401
    published = 0.6401 - 0.5031
    assert t2.published == pytest.approx(published)
    low, high, tol = mean - 1.959964 * mcse, mean + 1.959964 * mcse, 1.959964 * sd + 1e-4
    expected = ("agrees" if published - tol <= low and high <= published + tol else
                "misses" if high < published - tol or low > published + tol else "undetermined")
    assert t2.verdict == expected == judge(mean, mcse, published, tol)
    spanish = rows[rows.row.str.startswith("Spanish") & rows.table.isin(["T2_ci", "T3_diff_ci"])]
    assert (spanish.verdict == "not compared").all()
    with pytest.raises(ValueError, match="at least 2"):
        widths_per_test_set(population, example, root_seed=5, n_resamples=400, test_sets=1, name="basque")
