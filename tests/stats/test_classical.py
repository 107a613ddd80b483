import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportions_ztest

from simstats.stats import classical as c


@pytest.fixture
def data():
    rng = np.random.default_rng(8)
    return rng.normal(0.2, 1, 40), rng.normal(0, 1.3, 40), rng.random(200) < 0.7, rng.random(200) < 0.6


def test_tests_equal_scipy_and_statsmodels(data):
    x, y, a, b = data
    # the default alternative is two-sided, as in scipy
    assert c.paired_t_test(x, y).pvalue == stats.ttest_rel(x, y).pvalue
    assert c.paired_t_test(x, y, alternative="greater").pvalue == stats.ttest_rel(x, y, alternative="greater").pvalue
    assert c.wilcoxon_test(x, y, alternative="two-sided").pvalue == stats.wilcoxon(x, y).pvalue
    assert c.welch_t_test(x, y, alternative="greater").pvalue == stats.ttest_ind(x, y, equal_var=False, alternative="greater").pvalue
    assert c.two_sample_t_test(x, y, alternative="less").pvalue == stats.ttest_ind(x, y, alternative="less").pvalue
    assert c.mann_whitney_test(x, y, alternative="greater").pvalue == stats.mannwhitneyu(x, y, alternative="greater").pvalue
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    assert c.mcnemar_test(a, b).pvalue == mcnemar(table, exact=True).pvalue
    wins, losses = np.sum(a & ~b), np.sum(~a & b)
    assert c.sign_test(a, b, alternative="greater").pvalue == stats.binomtest(wins, wins + losses,
                                                                            alternative="greater").pvalue
    assert c.sign_test(a, b).pvalue == stats.binomtest(wins, wins + losses).pvalue
    z, p = proportions_ztest([a.sum(), b.sum()], [200, 200], alternative="larger")
    assert c.two_proportion_z_test(a.sum(), 200, b.sum(), 200, alternative="greater").pvalue == p
    res = c.welch_t_test(x, y)
    assert res.df == pytest.approx(stats.ttest_ind(x, y, equal_var=False).df) and res.alternative == "two-sided"


def test_yeh_precision_chi2():
    # Yeh 2000: precision 47/95 (method I) vs 25/39 (method II): chi2 = 2.38, 1 df, 0.10 < p < 0.20
    res = c.precision_chi2_test(47, 48, 25, 14)
    assert res.statistic == pytest.approx(2.38, abs=0.005)
    assert 0.10 < res.pvalue < 0.20 and res.df == 1


def test_degenerate_and_bad_inputs():
    same = np.array([0.5, 0.6, 0.7])
    assert c.wilcoxon_test(same, same).pvalue == 1.0
    assert c.paired_t_test(same, same).pvalue == 1.0
    assert c.sign_test(same, same).pvalue == 1.0
    with pytest.raises(ValueError, match="equal length"):
        c.paired_t_test([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        c.welch_t_test([1, np.nan, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="at least 2"):
        c.welch_t_test([1], [1, 2, 3])


def test_mcnemar_without_discordant_items_is_p_one_in_both_versions():
    from simstats.stats.classical import mcnemar_counts, mcnemar_test

    for exact in (True, False):
        assert mcnemar_counts(0, 0, exact=exact).pvalue == 1.0
        same = np.array([1, 0, 1, 1])
        assert mcnemar_test(same, same, exact=exact).pvalue == 1.0


def test_count_tests_reject_impossible_counts():
    from simstats.stats.classical import precision_chi2_test, two_proportion_z_test

    with pytest.raises(ValueError, match="count_a must be between 0 and n_a = 10, got 12"):
        two_proportion_z_test(12, 10, 3, 10)
    with pytest.raises(ValueError, match="counts must be >= 0"):
        precision_chi2_test(-1, 2, 3, 4)
    with pytest.raises(ValueError, match="sums to 0"):
        precision_chi2_test(0, 0, 3, 4)
