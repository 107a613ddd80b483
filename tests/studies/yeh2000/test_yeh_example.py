import numpy as np
import pytest

from simstats.studies.yeh2000.example import SHUFFLES, yeh_example_statistics, yeh_example_table


@pytest.fixture(scope="module")
def table():
    return yeh_example_table(np.random.default_rng(2000)).set_index("metric")


def test_scores_as_published(table):
    # Yeh 2000: I: R 45.6, P 49.5, F 47.5; II: R 24.3, P 64.1, F 35.2 (percent)
    assert 100 * table.loc["recall", ["method_I", "method_II"]].to_numpy() == pytest.approx([45.6, 24.3], abs=0.05)
    assert 100 * table.loc["precision", ["method_I", "method_II"]].to_numpy() == pytest.approx([49.5, 64.1], abs=0.05)
    assert 100 * table.loc["f1", ["method_I", "method_II"]].to_numpy() == pytest.approx([47.5, 35.2], abs=0.05)
    assert table.attrs["precision_chi2"] == pytest.approx(2.38, abs=0.005)
    assert yeh_example_statistics().shape == (2, 160, 3)


def test_two_to_the_twenty_shuffles_agree_with_the_exact_distribution(table):
    for metric, row in table.iterrows():
        sd = np.sqrt(SHUFFLES * row.exact_p * (1 - row.exact_p))
        assert abs(row.our_trials - row.expected_trials) < 4 * sd, metric


def test_recall_reproduces_yeh_and_exact_values_are_pinned(table):
    # recall: P(Bin(34, 1/2) >= 28) * 2^20 = 102.3 expected trials; Yeh saw 96 (z = -0.6)
    assert table.loc["recall", "expected_trials"] == pytest.approx(102.302, abs=0.01)
    assert abs(table.loc["recall", "z_yeh_vs_exact"]) < 3
    # F and precision: the exact stratified distribution of the stated counts gives 15,493 and
    # 20,966 expected trials; Yeh's 14,794 and 25,770 lie outside sampling error (see README)
    assert table.loc["f1", "expected_trials"] == pytest.approx(15493.4, abs=0.5)
    assert table.loc["precision", "expected_trials"] == pytest.approx(20965.5, abs=0.5)
    assert table.loc["precision", "exact_p"] < 0.025 and table.loc["f1", "exact_p"] < 0.015
