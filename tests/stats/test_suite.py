"""Rank tests over a suite of tasks (simstats.stats.suite) against scipy, scikit-posthocs and autorank."""
import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

from simstats.stats.suite import average_ranks, friedman_test, nemenyi_test, wilcoxon_holm

sp = pytest.importorskip("scikit_posthocs")
autorank = pytest.importorskip("autorank")


def suite(seed: int, models: int = 5, tasks: int = 30, ties: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(models, tasks)) + np.linspace(0, 1, models)[:, None]
    return np.round(scores, 1) if ties else scores


@pytest.mark.parametrize("seed, ties", [(1, False), (2, True), (3, False)])
def test_nemenyi_and_wilcoxon_holm_equal_scikit_posthocs(seed, ties):
    scores = suite(seed, ties=ties)
    nemenyi = nemenyi_test(scores)
    reference = sp.posthoc_nemenyi_friedman(scores.T).to_numpy()
    np.testing.assert_allclose(nemenyi.pvalues, reference, rtol=1e-12, atol=1e-15)
    pairs = wilcoxon_holm(scores)
    reference = sp.posthoc_wilcoxon(list(scores), p_adjust="holm").to_numpy()
    np.testing.assert_allclose(pairs.pvalues_adjusted, reference, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(pairs.pvalues[0, 1], sps.wilcoxon(scores[0], scores[1]).pvalue, rtol=1e-12)


@pytest.mark.parametrize("seed, ties", [(4, False), (5, True)])
def test_ranks_critical_difference_and_friedman_equal_autorank(seed, ties):
    """autorank's mean ranks exactly; its critical difference within 1e-4 relative (it takes the studentized
    range's quantile from statsmodels' qsturng approximation, simstats from scipy's exact distribution)."""
    scores = suite(seed, ties=ties)
    frame = pd.DataFrame(scores.T, columns=[f"m{i}" for i in range(scores.shape[0])])
    result = autorank.autorank(frame, alpha=0.05, verbose=False, force_mode="nonparametric")
    assert result.omnibus == "friedman"
    ranks = dict(zip(frame.columns, average_ranks(scores)))
    for name, row in result.rankdf.iterrows():
        assert ranks[name] == pytest.approx(row.meanrank, rel=1e-12)
    nemenyi = nemenyi_test(scores)
    assert nemenyi.critical_difference == pytest.approx(result.cd, rel=1e-4)
    friedman = friedman_test(scores)
    assert friedman.pvalue == pytest.approx(result.pvalue, rel=1e-12)
    assert friedman.statistic == pytest.approx(sps.friedmanchisquare(*scores).statistic, rel=1e-12)


def test_ranks_follow_the_direction_and_average_ties():
    scores = np.array([[0.9, 0.8, 0.7], [0.8, 0.8, 0.6], [0.5, 0.9, 0.9]])
    np.testing.assert_allclose(average_ranks(scores), [(1 + 2.5 + 2) / 3, (2 + 2.5 + 3) / 3, (3 + 1 + 1) / 3])
    np.testing.assert_allclose(average_ranks(scores, higher_is_better=False), 4 - average_ranks(scores))
    k, n = 3, 3
    assert average_ranks(scores).sum() == pytest.approx(k * (k + 1) / 2)
    res = nemenyi_test(scores, alpha=0.1)
    q = sps.studentized_range.ppf(0.9, k, np.inf) / np.sqrt(2)
    assert res.critical_difference == pytest.approx(q * np.sqrt(k * (k + 1) / (6 * n)), rel=1e-12)
    assert not res.different().any()


def test_bad_suites_are_refused():
    with pytest.raises(ValueError, match="at least 2 models and 2 tasks"):
        average_ranks([[0.5, 0.6]])
    with pytest.raises(ValueError, match="model 1 on task 0 is nan"):
        nemenyi_test([[0.5, 0.6], [np.nan, 0.7]])
    with pytest.raises(ValueError, match="at least 3 models"):
        friedman_test([[0.5, 0.6], [0.4, 0.7]])
