"""Bootstrap and randomization tests against exhaustive enumeration and closed forms."""
import itertools
import math
import zlib

import numpy as np
import pytest
from conftest import acc_stats, exact_bootstrap_pvalue
from scipy import stats as sps

from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import accuracy, classification_f1, get_metric, label_statistics, mae
from functools import partial

from simstats.stats.randomization import randomization_test

approximate_randomization = partial(randomization_test, method="approximate")
exact_randomization = partial(randomization_test, method="exact")
exact_stratified_randomization = partial(randomization_test, method="exact-stratified")


@pytest.mark.parametrize("convention, alternative", [("shift", "greater"), ("shift", "two-sided"),
                                                     ("shift", "less"), ("percentile", "greater")])
def test_bootstrap_matches_exhaustive_enumeration(convention, alternative):
    s = acc_stats([1, 1, 0, 1, 0, 1], [0, 1, 0, 1, 1, 0])
    exact = exact_bootstrap_pvalue(s, accuracy, convention, alternative)
    B = 200_000
    res = paired_bootstrap(s, accuracy, n_resamples=B, rng=11, pvalue_method=convention,
                           alternative=alternative, confidence_level=None)
    assert abs(res.pvalue[0] - exact) < 4 * math.sqrt(exact * (1 - exact) / B) + 1e-9


def test_bootstrap_f1_matches_enumeration():
    a = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 0, 0]], float)
    b = np.array([[0, 1, 0], [1, 1, 0], [0, 0, 0], [1, 1, 0], [0, 0, 1]], float)
    s = np.stack([a, b])
    exact = exact_bootstrap_pvalue(s, get_metric("f1"), "shift", "greater")
    res = paired_bootstrap(s, get_metric("f1"), n_resamples=200_000, rng=3, confidence_level=None,
                           alternative="greater")
    assert abs(res.pvalue[0] - exact) < 4 * math.sqrt(exact * (1 - exact) / 200_000)


def test_identical_systems_never_significant():
    s = acc_stats([1, 0, 1, 1, 0, 1, 1], [1, 0, 1, 1, 0, 1, 1])
    for conv in ("shift", "percentile"):
        for alt in ("greater", "less", "two-sided"):
            assert paired_bootstrap(s, accuracy, n_resamples=500, rng=1, pvalue_method=conv,
                                    alternative=alt).pvalue[0] == 1.0
    for alt in ("greater", "less", "two-sided"):
        assert approximate_randomization(s, accuracy, n_resamples=500, rng=1, alternative=alt).pvalue[0] == 1
        assert exact_randomization(s, accuracy, alternative=alt).pvalue[0] == 1
        assert exact_stratified_randomization(s, accuracy, alternative=alt).pvalue[0] == 1


def test_bootstrap_is_independent_of_how_pairs_are_grouped():
    rng = np.random.default_rng(0)
    sysstats = acc_stats(*(rng.random(400) < p for p in (0.7, 0.72, 0.69, 0.75)))
    pairs = [(0, 1), (2, 3), (1, 2)]
    together = paired_bootstrap(sysstats, accuracy, pairs, n_resamples=3000, rng=5)
    alone = paired_bootstrap(sysstats, accuracy, [(2, 3)], n_resamples=3000, rng=5)
    assert together.pvalue[1] == alone.pvalue[0]
    assert together.confidence_interval.low[1] == alone.confidence_interval.low[0]


def test_cluster_bootstrap_equals_bootstrap_of_cluster_sums():
    rng = np.random.default_rng(1)
    s = acc_stats(rng.random(60) < 0.7, rng.random(60) < 0.6)
    clusters = np.repeat(np.arange(12), 5)[rng.permutation(60)]
    summed = np.stack([[s[j][clusters == c].sum(0) for c in range(12)] for j in range(2)])
    a = paired_bootstrap(s, accuracy, n_resamples=2000, rng=9, clusters=clusters)
    b = paired_bootstrap(summed, accuracy, n_resamples=2000, rng=9)
    assert a.pvalue[0] == b.pvalue[0] and "clusters" in a.method


def brute_force_randomization(sa, sb, metric, alternative):
    delta = metric(sa.sum(0)) - metric(sb.sum(0))
    hits = 0
    for swaps in itertools.product([0, 1], repeat=sa.shape[0]):
        m = np.array(swaps, bool)[:, None]
        a = np.where(m, sb, sa).sum(0)
        b = np.where(m, sa, sb).sum(0)
        d = metric(a) - metric(b)
        hits += {"greater": d >= delta - 1e-12, "less": d <= delta + 1e-12,
                 "two-sided": abs(d) >= abs(delta) - 1e-12}[alternative]
    return hits / 2 ** sa.shape[0]


@pytest.mark.parametrize("metric_name", ["accuracy", "f1", "precision", "recall", "macro_f1"])
@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_exact_randomization_and_stratified_equal_brute_force(metric_name, alternative):
    rng = np.random.default_rng(zlib.crc32(f"{metric_name}-{alternative}".encode()))
    n = 12
    gold = rng.integers(0, 3, n)
    pa = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 3, n))
    pb = np.where(rng.random(n) < 0.5, gold, rng.integers(0, 3, n))
    if metric_name == "accuracy":
        metric = accuracy
        s = np.stack([label_statistics(metric, gold, p) for p in (pa, pb)])
    elif metric_name == "macro_f1":
        metric = classification_f1([0, 1, 2])
        s = np.stack([label_statistics(metric, gold, p, classes=[0, 1, 2]) for p in (pa, pb)])
    else:
        metric = get_metric(metric_name)
        s = np.stack([label_statistics(metric, gold, p, positive=1) for p in (pa, pb)])
    brute = brute_force_randomization(s[0], s[1], metric, alternative)
    assert exact_randomization(s, metric, alternative=alternative).pvalue[0] == pytest.approx(brute, abs=1e-12)
    assert exact_stratified_randomization(s, metric, alternative=alternative).pvalue[0] == pytest.approx(brute,
                                                                                                       abs=1e-12)
    B = 100_000
    ar = approximate_randomization(s, metric, n_resamples=B, rng=4, alternative=alternative).pvalue[0]
    assert abs(ar - brute) < 4 * math.sqrt(brute * (1 - brute) / B) + 2 / B


def test_exact_stratified_recall_is_a_binomial_tail():
    # 30 items recalled only by A, 10 only by B: recall difference >= observed <=> Bin(40, 1/2) >= 30
    a = np.array([[1, 1, 0]] * 30 + [[0, 1, 0]] * 10 + [[1, 1, 0]] * 5, float)
    b = np.array([[0, 1, 0]] * 30 + [[1, 1, 0]] * 10 + [[1, 1, 0]] * 5, float)
    res = exact_stratified_randomization(np.stack([a, b]), get_metric("recall"), alternative="greater")
    assert res.pvalue[0] == pytest.approx(sps.binom.sf(29, 40, 0.5), rel=1e-10)
    # the default is two-sided: both tails of a symmetric null
    two = exact_stratified_randomization(np.stack([a, b]), get_metric("recall"))
    assert two.pvalue[0] == pytest.approx(2 * sps.binom.sf(29, 40, 0.5), rel=1e-10)
    assert two.alternative == "two-sided" and two.n_kinds[0] == 1


def test_mae_is_lower_is_better():
    gold = np.array([1, 2, 3, 4, 5, 3, 2, 1, 4, 5])
    good = gold.copy()
    bad = np.clip(gold + np.array([1, -1, 2, 0, -2, 1, 1, 2, -1, 0]), 1, 5)
    m = mae
    s = np.stack([label_statistics(m, gold, p) for p in (good, bad)])
    res = paired_bootstrap(s, m, n_resamples=2000, rng=0)
    assert res.statistic[0] == pytest.approx(np.abs(gold - bad).mean())  # improvement of A = good over bad
    assert res.pvalue[0] < 0.05
    assert exact_stratified_randomization(s, m).statistic[0] > 0


def test_bad_inputs_are_rejected():
    s = acc_stats([1, 0, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="NaN"):
        paired_bootstrap(np.where(s == 1, np.nan, s), accuracy, rng=1)
    with pytest.raises(ValueError, match="at least two systems"):
        paired_bootstrap(s[:1], accuracy, rng=1)
    with pytest.raises(TypeError, match="rng"):
        paired_bootstrap(s, accuracy)          # rng is required: no global random state
    with pytest.raises(ValueError, match="Generator"):
        paired_bootstrap(s, accuracy, rng=None)
    with pytest.raises(ValueError, match="alternative"):
        approximate_randomization(s, accuracy, rng=1, alternative="bigger")
    with pytest.raises(ValueError, match="discordant"):
        big = acc_stats(np.ones(25), np.zeros(25))
        exact_randomization(big, accuracy)


def test_shared_denominator_fast_path_equals_general_path():
    from simstats.stats.metrics import Metric, _ratio
    rng = np.random.default_rng(12)
    s = acc_stats(*(rng.random(500) < p for p in (0.7, 0.7, 0.72, 0.65)))
    general = Metric("accuracy (general path)", ("correct", "items"), lambda x: _ratio(x[..., 0], x[..., 1]))
    pairs = [(0, 1), (2, 3), (1, 1)]
    for conv in ("shift", "percentile"):
        fast = paired_bootstrap(s, accuracy, pairs, n_resamples=3000, rng=8, pvalue_method=conv,
                                alternative="two-sided")
        slow = paired_bootstrap(s, general, pairs, n_resamples=3000, rng=8, pvalue_method=conv, alternative="two-sided")
        assert np.array_equal(fast.pvalue, slow.pvalue)
        assert np.allclose(fast.statistic, slow.statistic, atol=1e-15)
        assert np.allclose(fast.confidence_interval.low, slow.confidence_interval.low, atol=1e-12)
    assert fast.pvalue[2] == 1.0


def test_custom_corpus_metric_from_segment_statistics():
    # a corpus-level ratio of summed segment statistics (like BLEU's clipped n-gram precision)
    from simstats.stats.metrics import custom_metric
    rng = np.random.default_rng(21)
    total = rng.integers(5, 30, size=200).astype(float)
    matches_a = np.floor(total * rng.uniform(0.5, 0.8, 200))
    matches_b = np.floor(total * rng.uniform(0.5, 0.8, 200))
    metric = custom_metric("ngram_precision", ("matches", "total"), lambda s: s[..., 0] / s[..., 1])
    s = np.stack([np.stack([matches_a, total], 1), np.stack([matches_b, total], 1)])
    res = paired_bootstrap(s, metric, n_resamples=2000, rng=1)
    assert res.statistic[0] == pytest.approx(matches_a.sum() / total.sum() - matches_b.sum() / total.sum())
    exact_tail = exact_bootstrap_pvalue(s[:, :6], metric, "shift", "greater")
    mc = paired_bootstrap(s[:, :6], metric, n_resamples=100_000, rng=2, confidence_level=None,
                          alternative="greater").pvalue[0]
    assert abs(mc - exact_tail) < 4 * math.sqrt(exact_tail * (1 - exact_tail) / 100_000) + 1e-9
