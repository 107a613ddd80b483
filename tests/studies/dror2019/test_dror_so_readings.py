"""Dror et al. (2019) Table 4 / Tables 2-3: the U test read every way the paper could have used.

References: scipy's Mann-Whitney U, exact enumeration of a tiny case, and counts over a constructed
comparison set whose shares are known by construction."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import mannwhitneyu

from simstats.report.fidelity import run_check
from simstats.studies.dror2019.conventions import u_p_tolerance
from simstats.studies.dror2019.so_readings import (PAPER_SO_PERCENT, READINGS, example_readings, one_sided_pvalues,
                                                   reading_pvalues, so_readings, so_readings_markdown)

UKP = Path(__file__).resolve().parents[3] / "resources/realdata/ukp_bilstm_runs_2017.tsv.gz"


def test_pvalues_follow_scipy_and_the_released_scripts_20_score_rule():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 1, 30), rng.normal(0.8, 1, 25)
    p = one_sided_pvalues(a, b)
    for alt in ("two-sided", "less", "greater"):
        assert p[alt] == mannwhitneyu(a, b, alternative=alt).pvalue
    assert p["less"] < 0.01 < 0.99 < p["greater"]
    assert one_sided_pvalues(a[:19], b) == {"two-sided": 1.0, "less": 1.0, "greater": 1.0}


def test_one_sided_p_of_separated_samples_matches_enumeration():
    # 20 vs 20 fully separated: exact P(U = 0) = 1 / C(40, 20); scipy's exact method
    a, b = np.arange(20.0), np.arange(20.0) + 100
    from math import comb
    exact = mannwhitneyu(a, b, alternative="less", method="exact").pvalue
    assert exact == pytest.approx(1 / comb(40, 20), rel=1e-9)
    # scipy's default here is the normal approximation with continuity correction: U = 0
    from scipy.stats import norm
    z = (0 - 20 * 20 / 2 + 0.5) / np.sqrt(20 * 20 * 41 / 12)
    assert one_sided_pvalues(a, b)["less"] == pytest.approx(norm.cdf(z), rel=1e-9)
    assert one_sided_pvalues(a, b)["greater"] == pytest.approx(norm.sf((0 - 200 - 0.5) / np.sqrt(20 * 20 * 41 / 12)),
                                                               rel=1e-12)


def test_readings_orient_the_one_sided_test_by_asos_winner():
    rng = np.random.default_rng(2)
    a, b = rng.normal(1, 1, 40), rng.normal(0, 1, 40)          # A is larger
    won = reading_pvalues(a, b, a_wins=True)
    lost = reading_pvalues(a, b, a_wins=False)
    assert set(won) == set(READINGS)
    assert won["less, ASO winner first"] > 0.99 and won["less, ASO loser first"] < 1e-3
    assert lost["less, ASO winner first"] == won["less, ASO loser first"]
    assert won["less, stored order"] == lost["less, stored order"] == mannwhitneyu(a, b, alternative="less").pvalue


def test_shares_count_significance_with_and_without_cos():
    rng = np.random.default_rng(3)
    comparisons, verdicts = [], []
    # 4 comparisons: A clearly larger (COS decisive / not), no difference, and a small one (< 20 scores)
    for i, (shift, cos, n) in enumerate([(2.0, 1, 40), (2.0, 0, 40), (0.0, 0, 40), (2.0, 1, 10)]):
        b = rng.normal(0, 1, n)
        a = b + shift                                           # shift 0: the same scores, p = 1
        comparisons.append(("set", "task", "f", f"a{i}", "b", a, b))
        verdicts.append({"source": "set", "task": "task", "factor": "f", "a": f"a{i}", "b": "b", "cos": cos,
                         "eps_min_ab": 0.0, "eps_min_ba": 1.0})
    out = so_readings(comparisons, pd.DataFrame(verdicts)).set_index("reading")
    two = out.loc["two-sided"]
    assert two.comparisons == 4 and two.so_percent == 50 and two.case_a_percent == 25 and two.case_d_percent == 25
    assert out.loc["less, ASO winner first"].so_percent == 0          # A is the winner and larger
    assert out.loc["less, ASO loser first"].so_percent == 50
    assert (out.cos_percent == 50).all() and (out.paper_so_percent == PAPER_SO_PERCENT).all()
    with pytest.raises(ValueError, match="no real-data verdict"):
        so_readings(comparisons, pd.DataFrame(verdicts[:2]))


def test_no_reading_gives_the_published_p_of_the_matched_ukp_runs():
    ukp = pd.read_csv(UKP, sep="\t", low_memory=False)
    ex = example_readings(ukp).set_index("case")
    assert ex.loc["B", ["n_first", "n_second"]].tolist() == [3898, 1822]
    assert ex.loc["C", ["n_first", "n_second"]].tolist() == [2599, 225]
    assert ex.p_paper.tolist() == [0.4562, 0.5]
    for case, r in ex.iterrows():
        for col in ("p_two_sided", "p_first_less", "p_second_less"):
            assert abs(r[col] - r.p_paper) > 0.4, (case, col)
    assert "| B | Adam (3898) | RMSProp (1822) |" in so_readings_markdown(pd.DataFrame(), ex.reset_index())


def test_u_test_check_judges_the_published_p_against_the_closest_reading(tmp_path):
    rows = pd.DataFrame([{"paper": "dror2019", "table": "T2_caseB", "row": "r", "item": "U test p (note)",
                          "published": 0.4562, "tolerance": u_p_tolerance(0.4562)}], index=[7])
    assert run_check("dror2019", "u_test_readings", rows, rows, tmp_path) is None       # examples not written
    (tmp_path / "dror").mkdir()
    pd.DataFrame([{"case": "B", "first": "Adam", "second": "RMSProp", "n_first": 3898, "n_second": 1822,
                   "p_two_sided": 0.43, "p_first_less": 0.85, "p_second_less": 0.15, "p_paper": 0.4562}]
                 ).to_csv(tmp_path / "dror/so_readings_examples.csv", index=False)
    out = run_check("dror2019", "u_test_readings", rows, rows, tmp_path)
    assert out["verdicts"] == {7: "agrees"}                  # 0.43 is within 10 % of 0.4562
    pd.DataFrame([{"case": "B", "first": "Adam", "second": "RMSProp", "n_first": 3898, "n_second": 1822,
                   "p_two_sided": 1.9e-5, "p_first_less": 1.0, "p_second_less": 9.7e-6, "p_paper": 0.4562}]
                 ).to_csv(tmp_path / "dror/so_readings_examples.csv", index=False)
    out = run_check("dror2019", "u_test_readings", rows, rows, tmp_path)
    assert out["verdicts"] == {7: "misses"}                  # the closest reading, 1.0, is twice 0.4562
    assert "RMSProp less 9.7e-06" in out["shown"]
