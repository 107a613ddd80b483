"""Yeh (2000)'s ledger rows, the check behind its note and its report section, against independent references
(scipy's binomial and chi-square distributions, direct enumeration of the stratified shuffles)."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.studies.reference import ROLES, paper_targets
from simstats.studies.yeh2000.checks import CHECKS
from simstats.studies.yeh2000.ledger import INPUT_NOTES, ledger_rows
from simstats.studies.yeh2000.report_section import report_section

N = 2**20


def _enumerated_pvalues():
    """One-sided p-values (Yeh's directions) and the two-sided precision p by enumerating the four binomial
    strata of the 86 responses produced by one method only (28 + 6 relations, 43 + 9 spurious)."""
    a, b, c, d = np.ix_(np.arange(29), np.arange(7), np.arange(44), np.arange(10))
    w = (stats.binom.pmf(a, 28, .5) * stats.binom.pmf(b, 6, .5) * stats.binom.pmf(c, 43, .5)
         * stats.binom.pmf(d, 9, .5))
    rec1, sp1 = 19 + (28 - a) + b, 5 + (43 - c) + d
    rec2, sp2 = 19 + a + (6 - b), 5 + c + (9 - d)
    r1, r2, p1, p2 = rec1 / 103, rec2 / 103, rec1 / (rec1 + sp1), rec2 / (rec2 + sp2)
    f = lambda r, p: 2 * r * p / (r + p)  # noqa: E731
    w = np.broadcast_to(w, (29, 7, 44, 10))
    tail = lambda s, obs: float(w[np.broadcast_to(s, w.shape) >= obs - 1e-12].sum())  # noqa: E731
    return {"recall": tail(r1 - r2, 22 / 103), "f1": tail(f(r1, p1) - f(r2, p2), f(47 / 103, 47 / 95) - f(25 / 103, 25 / 39)),
            "precision": tail(p2 - p1, 25 / 39 - 47 / 95), "two": tail(np.abs(p2 - p1), 25 / 39 - 47 / 95)}


@pytest.fixture(scope="module")
def ledger(tmp_path_factory):
    return ledger_rows(Path(tmp_path_factory.mktemp("empty")))


def row(ledger, r, column):
    hit = ledger[(ledger.row == r) & (ledger.column == column)]
    assert len(hit) == 1, (r, column)
    return hit.iloc[0]


def test_rows_are_unique_have_roles_and_finite_mcse(ledger):
    assert not ledger.duplicated(["paper", "table", "row", "column", "item"]).any()
    assert set(ledger.role) <= set(ROLES) and set(ledger.role) == {"identity", "self-consistency"}
    judged = ledger[ledger.verdict != "not compared"]
    assert np.isfinite(judged.mcse).all() and (judged.tolerance >= judged.rounding).all()
    # every yeh2000 published cell is a ledger row or an input
    t = paper_targets()
    keys = set(zip(ledger.table, ledger.row, ledger.column))
    for r in t[t.paper == "yeh2000"].itertuples():
        assert (r.table, r.row, r.column) in keys or r.table in INPUT_NOTES, r


def test_counts_and_bounds_against_enumeration(ledger):
    ref = _enumerated_pvalues()
    assert ref["recall"] == pytest.approx(stats.binom.sf(27, 34, 0.5), rel=1e-12)   # 28+ of 34 discordant recalls
    for metric, label, verdicts in (("recall", "randomization recall I>II", ("agrees", "agrees")),
                                    ("f1", "randomization F I>II", ("misses", "agrees")),
                                    ("precision", "randomization precision II>I", ("misses", "misses"))):
        count, bound = row(ledger, label, "trials_meeting"), row(ledger, label, "p_bound")
        p = ref[metric]
        assert count.ours == pytest.approx(N * p, rel=1e-9) and count.mcse == 0
        assert count.tolerance == pytest.approx(3 * math.sqrt(N * p * (1 - p)) + 0.5)
        assert bound.ours == pytest.approx((N * p + 1) / (N + 1), rel=1e-9) and bound.scale == "log10"
        assert (count.verdict, bound.verdict) == verdicts, metric
    # 0.00009 +- (0.000005 + 3 sd of the rate) on a log scale: log10(1 + tol / 0.00009)
    recall = row(ledger, "randomization recall I>II", "p_bound")
    tol = 0.000005 + 3 * math.sqrt(ref["recall"] * (1 - ref["recall"]) / N)
    assert recall.tolerance == pytest.approx(math.log10(1 + tol / 0.00009))


def test_two_sided_statement_against_yehs_own_count(ledger):
    ref = _enumerated_pvalues()
    two = row(ledger, "randomization precision two-sided (section 2.2)", "p_two_sided")
    assert two.role == "self-consistency" and two.verdict == "misses"
    ratio = ref["two"] / ref["precision"]
    assert two.ours == pytest.approx(25_770 / N * ratio, rel=1e-9) and two.ours > 0.045
    assert two.mcse == pytest.approx(ratio * math.sqrt(25_770 / N * (1 - 25_770 / N) / N), rel=1e-9)
    assert f"{ref['two']:.5f}" in two.sensitivity and "41,931/2^20" in two.sensitivity


def test_text_identities(ledger):
    larger = row(ledger, "r12=0.50", "d_larger_pct")
    assert larger.ours == pytest.approx(100 * (math.sqrt(2) - 1)) and larger.verdict == "agrees"
    assert row(ledger, "r12=0.38", "sd_over_sd_ind").ours == pytest.approx(math.sqrt(0.62))
    chi = row(ledger, "chi2 precision 2x2", "p_range")
    table = np.array([[47, 48], [25, 14]])
    reference = stats.chi2_contingency(table, correction=False)
    assert chi.ours == pytest.approx(reference.pvalue, rel=1e-9) and 0.10 < chi.ours < 0.20
    assert (chi.published, chi.tolerance, chi.verdict) == (pytest.approx(0.15), pytest.approx(0.055), "agrees")


def test_check_removes_only_the_precision_misses(ledger):
    misses = ledger[ledger.verdict == "misses"]
    assert len(misses) == 4
    out = CHECKS["section_22_precision"](ledger, misses, Path("."))
    by_row = {(misses.loc[i, "row"], misses.loc[i, "column"]): v for i, v in out["verdicts"].items()}
    assert set(out["verdicts"]) == set(misses.index)
    assert by_row.pop(("randomization F I>II", "trials_meeting")) == "misses"
    assert set(by_row.values()) == {"agrees"}
    # the section 2.2 one-sided count: 0.04 x (one- over two-sided exact p) x 2^20
    ref = _enumerated_pvalues()
    assert out["count_22"] == f"{0.04 * ref['precision'] / ref['two'] * N:,.0f}" and out["z_f"] == "-5.7"


def test_report_section_is_short(ledger, tmp_path):
    (tmp_path / "yeh").mkdir()
    pd.DataFrame({"r12": [0.5], "analytic": [2**0.5], "simulated": [1.42], "se": [0.007]}).to_csv(
        tmp_path / "yeh/sd_ratio.csv", index=False)
    lines = report_section(tmp_path, tmp_path, "fig", ledger)
    text = "\n".join(lines)
    assert len(text.encode()) < 5000 and "| precision | 25,770 |" in text
    assert all(len(line) <= 200 for line in lines if not line.startswith("|"))
