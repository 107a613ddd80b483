"""Compressed resampling (items grouped into distinct joint-statistic rows) against the item-level draw.

A resampler that draws one count per distinct row (Multinomial(n; sizes / n) for the bootstrap,
Binomial(size, 1/2) for randomization) has the distribution of the item-level draw summed
within rows, so p-values agree within Monte Carlo error; on small cases both agree with the exact
distribution obtained by enumeration.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from simstats.stats.approaches import approach_bootstrap
from simstats.stats.bootstrap import bootstrap_score_matrix, paired_bootstrap
from simstats.stats.engine import BOOTSTRAP_COMPRESS_FACTOR, item_groups
from simstats.stats.metrics import accuracy, get_metric, label_statistics
from functools import partial

from simstats.stats.randomization import randomization_test

approximate_randomization = partial(randomization_test, method="approximate")
exact_randomization = partial(randomization_test, method="exact")
exact_stratified_randomization = partial(randomization_test, method="exact-stratified")


def acc_stats(*correct):
    return np.stack([np.stack([np.asarray(c, float), np.ones(len(c))], axis=1) for c in correct])


def mc_tolerance(p, n_resamples, z=4.0):
    """z standard errors of the difference of two independent Monte Carlo p-values."""
    return z * np.sqrt(2 * max(p * (1 - p), 1.0 / n_resamples) / n_resamples)


def test_item_groups_are_the_distinct_rows_with_their_sizes():
    rng = np.random.default_rng(0)
    stats = acc_stats(rng.random(200) < 0.7, rng.random(200) < 0.6)
    first, sizes = item_groups(stats, [0, 1], BOOTSTRAP_COMPRESS_FACTOR)
    joint = stats.transpose(1, 0, 2).reshape(200, -1)
    assert sizes.sum() == 200 and len(sizes) == 4
    for f, s in zip(first, sizes):
        assert np.count_nonzero(np.all(joint == joint[f], axis=1)) == s
    # lexicographic order of the rows (the order the counts are drawn in)
    rows = joint[first]
    assert [tuple(r) for r in rows] == sorted(tuple(r) for r in rows)
    # too many distinct rows: no compression
    assert item_groups(acc_stats(np.arange(8) % 2, np.arange(8) // 4), [0, 1], 4) is None


def exact_shift_pvalue(stats, metric, alternative):
    """Exact shift-convention p-value of the item bootstrap: every multiset of n draws from n items,
    with its multinomial probability n! / (prod c_i!) / n^n."""
    n = stats.shape[1]
    sums = stats.sum(axis=1)
    delta = metric(sums[0]) - metric(sums[1])
    total = 0.0
    for draw in itertools.combinations_with_replacement(range(n), n):
        counts = np.bincount(draw, minlength=n)
        prob = np.exp(sps.multinomial.logpmf(counts, n, np.full(n, 1 / n)))
        s = np.einsum("i,sik->sk", counts, stats)
        d = metric(s[0]) - metric(s[1])
        hit = d >= 2 * delta - 1e-12 if alternative == "greater" else abs(d - delta) >= abs(delta) - 1e-12
        total += prob * hit
    return total


def _item_groups_by_sorting(stats, systems, factor):
    """item_groups as the sorted unique rows of the systems' columns side by side (the reference)."""
    joint = np.concatenate([stats[s] for s in systems], axis=1)
    _, first, inverse, sizes = np.unique(joint, axis=0, return_index=True, return_inverse=True, return_counts=True)
    return None if sizes.size > stats.shape[1] // factor else (first, sizes)


@pytest.mark.parametrize("case", range(8))
def test_item_groups_are_the_sorted_distinct_rows(case):
    rng = np.random.default_rng(case)
    n = int(rng.integers(20, 3000))
    levels = [2, 3, 2, 50, 2, 5, 1000, 2][case]             # 1000 levels: the sorting fallback for the codes
    stats = rng.integers(0, levels, size=(int(rng.integers(2, 9)), n, 2)).astype(float) * 0.5
    stats[:, :, 1] = stats[0, :, 1]                           # a column shared by every system
    for factor in (1, 8):
        ours = item_groups(stats, np.arange(stats.shape[0]), factor)
        ref = _item_groups_by_sorting(stats, np.arange(stats.shape[0]), factor)
        assert (ours is None) == (ref is None)
        if ref is not None:
            assert np.array_equal(ours[0], ref[0]) and np.array_equal(ours[1], ref[1])



@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_compressed_bootstrap_matches_exact_enumeration(alternative, monkeypatch):
    stats = acc_stats([1] * 8, [1, 0, 1, 1, 0, 1, 1, 1])                    # 8 items, 2 distinct rows
    # enumeration needs few items, so compress from 4 items per row (the default threshold is higher
    # for speed only; the compressed draw is exact at any size)
    monkeypatch.setattr("simstats.stats.bootstrap.BOOTSTRAP_COMPRESS_FACTOR", 4)
    assert item_groups(stats, [0, 1], 4) is not None
    exact = exact_shift_pvalue(stats, accuracy, alternative)                 # 6,435 multisets
    B = 200_000
    res = paired_bootstrap(stats, accuracy, alternative=alternative, n_resamples=B, confidence_level=None, rng=1)
    assert abs(res.pvalue[0] - exact) <= 4 * np.sqrt(exact * (1 - exact) / B)


def test_compressed_randomization_matches_exact_enumeration():
    rng = np.random.default_rng(3)
    a, b = rng.random(400) < 0.72, rng.random(400) < 0.66
    b[:380] = a[:380]                      # 20 or fewer discordant items: enumeration is feasible
    stats = acc_stats(a, b)
    exact = exact_randomization(stats, accuracy).pvalue[0]
    B = 100_000
    res = approximate_randomization(stats, accuracy, n_resamples=B, rng=2)
    assert abs(res.pvalue[0] - exact) <= 4 * np.sqrt(exact * (1 - exact) / B) + 1 / B


def random_case(rng):
    """Two to four systems on 300-3,000 items with few distinct rows: accuracy or binary F1."""
    m, n = rng.integers(2, 5), int(rng.integers(300, 3001))
    gold = (rng.random(n) < rng.uniform(0.2, 0.6)).astype(int)
    preds = [np.where(rng.random(n) < rng.uniform(0.1, 0.3), 1 - gold, gold) for _ in range(m)]
    name = ["accuracy", "f1"][int(rng.integers(0, 2))]
    metric = get_metric(name)
    kw = {"positive": 1} if name == "f1" else {}
    return metric, np.stack([label_statistics(metric, gold, p, **kw) for p in preds])


@pytest.mark.parametrize("case", range(12))
def test_compressed_and_item_level_pvalues_agree_within_mcse(case):
    rng = np.random.default_rng(100 + case)
    metric, stats = random_case(rng)
    pairs = [(i, j) for i in range(stats.shape[0]) for j in range(stats.shape[0]) if i < j]
    alternative = ["two-sided", "greater", "less"][case % 3]
    B = 20_000
    kw = dict(alternative=alternative, n_resamples=B, confidence_level=None)
    assert item_groups(stats, np.arange(stats.shape[0]), BOOTSTRAP_COMPRESS_FACTOR) is not None
    fast = paired_bootstrap(stats, metric, pairs, rng=case, **kw)
    slow = paired_bootstrap(stats, metric, pairs, rng=case, compress_items=False, **kw)
    np.testing.assert_array_equal(fast.statistic, slow.statistic)
    for p, q in zip(fast.pvalue, slow.pvalue):
        assert abs(p - q) <= mc_tolerance(q, B)
    fast_ar = approximate_randomization(stats, metric, pairs, alternative=alternative, n_resamples=B, rng=case)
    slow_ar = approximate_randomization(stats, metric, pairs, alternative=alternative, n_resamples=B, rng=case,
                                        compress_items=False)
    for p, q in zip(fast_ar.pvalue, slow_ar.pvalue):
        assert abs(p - q) <= mc_tolerance(q, B)


def test_compressed_score_intervals_agree_with_the_item_level_draw():
    rng = np.random.default_rng(7)
    stats = acc_stats(*(rng.random(2000) < p for p in (0.7, 0.72, 0.75)))
    B = 20_000
    obs_f, fast = bootstrap_score_matrix(stats, accuracy, n_resamples=B, rng=1)
    obs_s, slow = bootstrap_score_matrix(stats, accuracy, n_resamples=B, rng=1, compress_items=False)
    np.testing.assert_array_equal(obs_f, obs_s)
    # each system's bootstrap sd is sqrt(p(1-p)/n); the sample sds agree within 4 of their se
    sd = np.sqrt(obs_s * (1 - obs_s) / 2000)
    np.testing.assert_allclose(fast.std(axis=0), sd, rtol=4 / np.sqrt(2 * B))
    np.testing.assert_allclose(slow.std(axis=0), sd, rtol=4 / np.sqrt(2 * B))
    # and the joint draw keeps the pairs' correlation: paired differences have the same spread
    np.testing.assert_allclose(np.std(fast[:, 0] - fast[:, 1]), np.std(slow[:, 0] - slow[:, 1]),
                               rtol=4 * np.sqrt(2) / np.sqrt(2 * B))


def test_compression_falls_back_to_the_item_draw_when_rows_are_many():
    rng = np.random.default_rng(5)
    stats = rng.integers(0, 50, size=(2, 400, 3)).astype(float)   # F1 counts: nearly every row distinct
    metric = get_metric("f1")
    a = paired_bootstrap(stats, metric, n_resamples=500, rng=4)
    b = paired_bootstrap(stats, metric, n_resamples=500, rng=4, compress_items=False)
    assert a.pvalue[0] == b.pvalue[0] and a.confidence_interval.low[0] == b.confidence_interval.low[0]


def test_sacrebleu_convention_keeps_the_item_level_resamples():
    rng = np.random.default_rng(6)
    stats = acc_stats(rng.random(500) < 0.7, rng.random(500) < 0.65)     # 4 distinct rows
    a = paired_bootstrap(stats, accuracy, n_resamples=1000, pvalue_method="sacrebleu", rng=12345)
    b = paired_bootstrap(stats, accuracy, n_resamples=1000, pvalue_method="sacrebleu", rng=12345, compress_items=False)
    assert a.pvalue[0] == b.pvalue[0]


def test_compressed_cluster_bootstrap_and_approach_test_keep_their_identities():
    rng = np.random.default_rng(8)
    stats = acc_stats(rng.random(600) < 0.7, rng.random(600) < 0.65)
    docs = np.repeat(np.arange(300), 2)                   # 300 two-item clusters: few distinct cluster sums
    a = paired_bootstrap(stats, accuracy, n_resamples=3000, clusters=docs, rng=9)
    summed = np.stack([[stats[j][docs == c].sum(0) for c in range(300)] for j in range(2)])
    b = paired_bootstrap(summed, accuracy, n_resamples=3000, rng=9)
    assert a.pvalue[0] == b.pvalue[0]
    # one run per approach over items is the paired bootstrap, compressed or not
    for compress in (True, False):
        one = approach_bootstrap(stats, accuracy, ["A", "B"], resample=("items",), n_resamples=3000, rng=5,
                                 compress_items=compress)
        ref = paired_bootstrap(stats, accuracy, n_resamples=3000, rng=5, compress_items=compress)
        assert one.pvalue == pytest.approx(ref.pvalue[0])


def test_multinomial_over_rows_is_the_distribution_of_item_counts_summed_in_rows():
    # the identity the compression rests on, by enumeration: 5 items in rows of sizes (3, 2)
    sizes = np.array([3, 2])
    row_of = np.repeat([0, 1], sizes)
    n = sizes.sum()
    freq = {}
    for idx in itertools.product(range(n), repeat=n):
        k = int(np.sum(row_of[list(idx)] == 0))
        freq[k] = freq.get(k, 0) + 1
    for k, count in freq.items():
        assert count / n ** n == pytest.approx(sps.multinomial.pmf([k, n - k], n, sizes / n))
