"""The resampling seam: the resamplers (simstats.stats.resample) and the engine's replicate loop.

Contract tests, written once for every resampling test: a resampler's replicates do not depend on
the blocks they are asked for in, are reproducible from a seed, and have the documented
distribution (counts summing to n, swaps with probability 1/2, whole clusters); the engine's sums
are the exact sums of integer statistics, so a replicate's value does not depend on its block.
"""
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from simstats.stats import resample
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.engine import ColumnPack, orient_by_winner, replicates, system_totals
from simstats.stats.metrics import get_metric, label_statistics
from simstats.stats.resample import (ClusterCounts, ItemCounts, ItemIndices, Joint, RowCounts, RowSwaps, SeedCounts,
                                     StratifiedIndices, Swaps, aggregate_clusters)

SIZES = np.array([5, 1, 12, 3, 40, 2, 7])
CLUSTERS = np.repeat(np.arange(23), 3)[np.random.default_rng(0).permutation(69)]


def make(kind, seed, n_resamples):
    rng = np.random.default_rng(seed)
    return {"items": lambda: ItemCounts(rng, n_resamples, 37),
            "kept items": lambda: ItemCounts(rng, n_resamples, 37, columns=[0, 3, 4, 36]),
            "many items": lambda: ItemCounts(rng, n_resamples, 5003),
            "clusters": lambda: ClusterCounts(rng, n_resamples, CLUSTERS),
            "rows": lambda: RowCounts(rng, n_resamples, SIZES),
            "swaps": lambda: Swaps(rng, n_resamples, 37),
            "odd swaps": lambda: Swaps(rng, n_resamples, 3),
            "row swaps": lambda: RowSwaps(rng, n_resamples, SIZES),
            "seeds": lambda: SeedCounts(rng, n_resamples, 4, 6),
            "paired seeds": lambda: SeedCounts(rng, n_resamples, 5, 5, paired=True)}[kind]()


KINDS = ("items", "kept items", "many items", "clusters", "rows", "swaps", "odd swaps", "row swaps", "seeds",
         "paired seeds")


@pytest.mark.parametrize("dtype, n", [(np.int64, 37), (np.int32, 5003), (np.int16, 37), (np.int16, 30_000)])
def test_item_indices_are_one_integers_call_in_any_blocks(dtype, n):
    n_resamples = 4500
    reference = np.random.default_rng(7).integers(0, n, size=(n_resamples, 11), dtype=dtype)
    whole = ItemIndices(np.random.default_rng(7), n_resamples, n, 11, dtype=dtype).draw(n_resamples)
    assert whole.dtype == dtype and np.array_equal(whole, reference)
    blocks = draw_in_blocks(ItemIndices(np.random.default_rng(7), n_resamples, n, 11, dtype=dtype), [1, 7, 4000, 492])
    assert np.array_equal(blocks, reference)


def test_item_indices_of_several_samples_share_one_generator_replicate_by_replicate():
    rng = np.random.default_rng(3)
    reference = [(rng.integers(0, 4, size=8), rng.integers(0, 6, size=12)) for _ in range(50)]
    shared = np.random.default_rng(3)
    a, b = ItemIndices(shared, 50, 4, 8, chunk=1), ItemIndices(shared, 50, 6, 12, chunk=1)
    for x, y in reference:
        assert np.array_equal(a.draw(1)[0], x) and np.array_equal(b.draw(1)[0], y)
    with pytest.raises(ValueError, match="do not fit"):
        ItemIndices(shared, 5, 40_000, dtype=np.int16)


def test_stratified_indices_resample_each_stratum_within_itself():
    sizes = np.array([3, 1, 5, 2])
    source = np.random.default_rng(6)
    starts, size = np.repeat([0, 3, 4, 9], sizes), np.repeat(sizes, sizes)
    reference = np.stack([starts + np.floor(source.random(11) * size).astype(np.int64) for _ in range(3000)])
    blocks = draw_in_blocks(StratifiedIndices(np.random.default_rng(6), 3000, sizes), [1, 2000, 999])
    assert blocks.dtype == np.int64 and np.array_equal(blocks, reference)
    stratum = np.repeat(np.arange(4), sizes)
    assert np.array_equal(stratum[blocks], np.broadcast_to(stratum, blocks.shape))     # never leaves its stratum
    assert set(blocks[:, 4:9].ravel()) == set(range(4, 9))                              # reaches all of it
    with pytest.raises(ValueError, match="at least one item"):
        StratifiedIndices(source, 5, [2, 0])


def draw_in_blocks(resampler, blocks):
    return np.concatenate([resampler.draw(b) for b in blocks])


@pytest.mark.parametrize("kind", KINDS)
def test_replicates_do_not_depend_on_the_blocks_they_are_drawn_in(kind, monkeypatch):
    n_resamples = 4500                                   # more than one of SeedCounts' chunks
    whole = make(kind, 7, n_resamples).draw(n_resamples)
    assert whole.dtype == np.float32 and whole.shape[0] == n_resamples
    rng = np.random.default_rng(1)
    cuts = np.sort(rng.choice(np.arange(1, n_resamples), size=40, replace=False))
    for blocks in ([1] * 20 + [n_resamples - 20], np.diff(np.r_[0, cuts, n_resamples]), [4096, 404]):
        assert np.array_equal(draw_in_blocks(make(kind, 7, n_resamples), blocks), whole)
    # nor on the resampler's own chunk size, except SeedCounts' (its draws alternate A and B per chunk)
    if "seeds" not in kind:
        monkeypatch.setattr(resample, "COUNT_BLOCK", 1)
        monkeypatch.setattr(resample, "SWAP_BLOCK", 1)
        assert np.array_equal(make(kind, 7, n_resamples).draw(n_resamples), whole)


@pytest.mark.parametrize("kind", KINDS)
def test_replicates_are_reproducible_from_the_seed_and_limited_to_n_resamples(kind):
    a, b, c = make(kind, 3, 300), make(kind, 3, 300), make(kind, 4, 300)
    first = a.draw(300)
    assert np.array_equal(first, b.draw(300))
    assert not np.array_equal(first, c.draw(300))
    with pytest.raises(ValueError, match="cannot draw"):
        a.draw(1)


def test_item_counts_are_the_resamples_of_numpy_choice():
    # sacrebleu resamples rng.choice(n, size=(B, n)); with the same seed the counts are those resamples'
    for n_resamples, n in ((1, 1), (3, 2), (1000, 7), (257, 312), (9, 40_000)):
        counts = ItemCounts(np.random.default_rng(11), n_resamples, n).draw(n_resamples)
        idx = np.random.default_rng(11).choice(n, size=(n_resamples, n))
        assert np.array_equal(counts, np.stack([np.bincount(row, minlength=n) for row in idx]))


@pytest.mark.parametrize("kind, n", [("items", 37), ("many items", 5003), ("clusters", 23), ("rows", SIZES.sum())])
def test_bootstrap_counts_sum_to_n_with_multinomial_moments(kind, n):
    b = 20_000 if kind != "many items" else 200
    counts = make(kind, 5, b).draw(b).astype(np.float64)
    assert (counts >= 0).all() and (counts == np.rint(counts)).all()
    assert (counts.sum(axis=1) == n).all()
    p = SIZES / SIZES.sum() if kind == "rows" else np.full(counts.shape[1], 1 / counts.shape[1])
    # Multinomial(n; p): mean n p, variance n p (1 - p); 5 standard errors of the estimates
    np.testing.assert_allclose(counts.mean(axis=0), n * p, atol=5 * np.sqrt(n * p * (1 - p) / b).max())
    if kind != "many items":
        var = n * p * (1 - p)
        np.testing.assert_allclose(counts.var(axis=0, ddof=1), var, rtol=5 * np.sqrt(2 / b) * 2)
        cov = np.cov(counts[:, :2].T)[0, 1]                  # -n p_0 p_1
        assert abs(cov + n * p[0] * p[1]) < 5 * np.sqrt(var[0] * var[1] / b) * 1.5


def test_item_counts_are_uniform_over_items():
    counts = make("items", 6, 4000).draw(4000).sum(axis=0)             # 4,000 x 37 draws over 37 items
    assert sps.chisquare(counts).pvalue > 1e-4


def test_kept_item_columns_are_those_of_the_whole_draw():
    for kind, whole_kind in (("kept items", "items"),):
        part, whole = make(kind, 9, 700).draw(700), make(whole_kind, 9, 700).draw(700)
        assert np.array_equal(part, whole[:, [0, 3, 4, 36]])
    columns = np.array([1, 2, 30])
    swaps = Swaps(np.random.default_rng(9), 700, 37, columns=columns).draw(700)
    assert np.array_equal(swaps, make("swaps", 9, 700).draw(700)[:, columns])


def test_swaps_exchange_each_item_with_probability_one_half_independently():
    b = 40_000
    swaps = make("swaps", 8, b).draw(b).astype(np.float64)
    assert set(np.unique(swaps)) == {0.0, 1.0}
    se = np.sqrt(0.25 / b)
    np.testing.assert_allclose(swaps.mean(axis=0), 0.5, atol=5 * se)
    corr = np.corrcoef(swaps[:, :6].T)[np.triu_indices(6, 1)]
    assert np.abs(corr).max() < 5 / np.sqrt(b)
    # items swapped per replicate: Binomial(37, 1/2)
    per_replicate = swaps.sum(axis=1).astype(int)
    observed = np.bincount(per_replicate, minlength=38)
    expected = b * sps.binom.pmf(np.arange(38), 37, 0.5)
    keep = expected > 5
    assert sps.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum()).pvalue > 1e-4


def test_row_swaps_are_binomial_half_of_each_rows_items():
    b = 40_000
    swapped = make("row swaps", 2, b).draw(b).astype(np.float64)
    assert ((swapped >= 0) & (swapped <= SIZES)).all()
    np.testing.assert_allclose(swapped.mean(axis=0), SIZES / 2, atol=5 * np.sqrt(SIZES.max() / 4 / b))
    np.testing.assert_allclose(swapped.var(axis=0, ddof=1), SIZES / 4, rtol=5 * np.sqrt(2 / b) * 2)


def test_cluster_counts_resample_whole_clusters():
    res = ClusterCounts(np.random.default_rng(4), 500, CLUSTERS)
    counts = res.draw(500)
    assert counts.shape == (500, 23) and (counts.sum(axis=1) == 23).all()
    weights = res.item_weights(counts)                   # (500, 69): an item counts as often as its cluster
    for c in range(23):
        members = weights[:, CLUSTERS == c]
        assert (members == counts[:, [c]]).all()
    # a replicate's sums over the aggregated clusters are its item-weighted sums over the items
    stats = np.random.default_rng(5).integers(0, 3, size=(2, 69, 2)).astype(np.float64)
    assert np.array_equal(np.einsum("bc,sck->bsk", counts, res.aggregate(stats)),
                          np.einsum("bi,sik->bsk", weights, stats))
    assert np.array_equal(res.aggregate(stats), aggregate_clusters(stats, CLUSTERS))


def test_seed_counts_resample_each_approachs_runs_and_pair_them_when_asked():
    unpaired = make("seeds", 1, 5000).draw(5000)
    assert (unpaired[:, :4].sum(axis=1) == 4).all() and (unpaired[:, 4:].sum(axis=1) == 6).all()
    assert abs(np.corrcoef(unpaired[:, 0], unpaired[:, 4])[0, 1]) < 5 / np.sqrt(5000)
    np.testing.assert_allclose(unpaired.mean(axis=0), 1.0, atol=5 * np.sqrt(0.9 / 5000))
    paired = make("paired seeds", 1, 500).draw(500)
    assert np.array_equal(paired[:, :5], paired[:, 5:]) and (paired[:, :5].sum(axis=1) == 5).all()
    with pytest.raises(ValueError, match="paired"):
        SeedCounts(np.random.default_rng(1), 10, 3, 4, paired=True)


# ---------------------------------------------------------------------------------------- the engine
def exact_sums(weights, stats):
    """Integer reference of the resampled sums: (b, systems, k) in int64 arithmetic."""
    return np.einsum("bi,sik->bsk", weights.astype(np.int64), stats.astype(np.int64)).astype(np.float64)


@pytest.mark.parametrize("case", ["float32 range", "beyond float32: the total weight", "all-zero items",
                                  "shared columns", "large counts"])
def test_engine_sums_are_exact_so_replicates_do_not_depend_on_the_block(case):
    # The engine's numerical contract: for integer statistics the resampled sums are the exact integer
    # sums (float32 while every sum stays below 2**24, else float64 below 2**53; items that are 0 for
    # every system are left out), so any blocking and any BLAS row grouping gives the same numbers.
    rng = np.random.default_rng(3)
    n, b = 300, 257
    stats = rng.integers(0, 4, size=(4, n, 3))
    total = None
    if case == "all-zero items":
        stats *= (rng.random(n) < 0.4)[None, :, None]
    elif case == "shared columns":
        stats[:, :, 1] = stats[0, :, 1]
    elif case == "large counts":
        stats = rng.integers(0, 2**20, size=(4, n, 3))
    if case == "beyond float32: the total weight":
        total = 2**25
        resampler = RowCounts(np.random.default_rng(2), b, np.full(n, total // n))
    else:
        resampler = ItemCounts(np.random.default_rng(2), b, n)
    weights = resampler.draw(b)
    pack = ColumnPack(stats, np.arange(4), total)
    expected = exact_sums(weights, stats)
    assert np.array_equal(pack.sums(weights), expected)
    assert np.array_equal(pack.sums(weights, statistic_major=True), expected)
    if pack.rows is not None:
        assert case == "all-zero items"
        assert np.array_equal(pack.sums(weights[:, pack.rows]), expected)
    assert pack.dtype == (np.float64 if case in ("beyond float32: the total weight", "large counts") else np.float32)
    # the loop: every block size gives the same replicates, and its running counts are the kept ones'
    f1 = get_metric("f1")
    kept = []
    for block in (1, 7, 100, b):
        fresh = (RowCounts(np.random.default_rng(2), b, np.full(n, total // n)) if total
                 else ItemCounts(np.random.default_rng(2), b, n))
        values, counts = replicates(fresh, pack, f1, elementwise=True, block=block,
                                    count=lambda v: (v > 0.5).sum(axis=0))
        kept.append(values)
        assert np.array_equal(counts, (values > 0.5).sum(axis=0))
    assert all(np.array_equal(k, kept[0]) for k in kept)
    assert np.array_equal(kept[0], f1(expected))


def test_the_loop_passes_joint_draws_to_the_statistic():
    rng = np.random.default_rng(1)
    stats = rng.integers(0, 2, size=(2, 50, 1)).astype(np.float64)
    pack = ColumnPack(stats, np.arange(2))
    joint = Joint(ItemCounts(np.random.default_rng(4), 30, 50), SeedCounts(np.random.default_rng(5), 30, 2, 3))
    seen = []

    def statistic(sums, seeds):
        seen.append(seeds)
        return sums[:, :, 0] * seeds[:, :2]
    values, _ = replicates(joint, pack, statistic, block=8)
    seeds = SeedCounts(np.random.default_rng(5), 30, 2, 3).draw(30)
    counts = ItemCounts(np.random.default_rng(4), 30, 50).draw(30)
    assert [s.shape[0] for s in seen] == [8, 8, 8, 6]
    assert np.array_equal(values, exact_sums(counts, stats)[:, :, 0] * seeds[:, :2])


def test_system_totals_are_the_float64_sums():
    rng = np.random.default_rng(1)
    for dtype in (np.int8, np.uint16, np.int32, np.uint32, np.int64, np.float64):
        stats = (rng.integers(-100, 2**31 - 1, size=(3, 501, 2)) if dtype != np.float64
                 else rng.standard_normal((3, 501, 2)) * 1e3).astype(dtype)
        assert np.array_equal(system_totals(stats), stats.sum(axis=1, dtype=np.float64))
    big = np.full((2, 40, 1), 2**60 + 1, dtype=np.int64)               # beyond 2^53: the float64 sum, not int64
    big[:, ::2] = 3
    assert np.array_equal(system_totals(big), big.sum(axis=1, dtype=np.float64))


def test_orient_by_winner_orders_pairs_by_the_observed_metric():
    rng = np.random.default_rng(2)
    stats = rng.integers(0, 3, size=(6, 200, 3)).astype(np.int32)
    f1 = get_metric("f1")
    pairs = np.array([[0, 1], [2, 3], [4, 5], [1, 4]])
    oriented, flipped = orient_by_winner(stats, f1, pairs)
    values = f1(stats.astype(np.float64).sum(axis=1))
    expected = values[pairs[:, 0]] < values[pairs[:, 1]]
    assert np.array_equal(flipped, expected)
    assert np.array_equal(oriented, np.where(expected[:, None], pairs[:, ::-1], pairs))


def test_the_benchmarks_kernel_timer_keeps_the_engines_results(monkeypatch):
    # bench/ wraps ColumnPack.sums to time the W @ S kernel (python -m bench); it must keep the engine's results
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    from bench.engine import KernelRecorder

    rng = np.random.default_rng(6)
    gold = rng.random(300) < 0.4
    f1 = get_metric("f1")
    stats = np.stack([label_statistics(f1, gold, np.where(rng.random(300) < 0.8, gold, ~gold), positive=True)
                      for _ in range(4)])
    plain = paired_bootstrap(stats, f1, [(0, 1), (2, 3)], n_resamples=200, compress_items=False, rng=11)
    with KernelRecorder() as record:
        timed = paired_bootstrap(stats, f1, [(0, 1), (2, 3)], n_resamples=200, compress_items=False, rng=11)
    assert record.calls >= 1 and record.flops > 0 and record.statistic_major
    assert np.array_equal(timed.pvalue, plain.pvalue) and np.array_equal(timed.statistic, plain.statistic)
    record.interleaved(2)
    assert np.isfinite(record.kernel_s) and np.isfinite(record.sgemm_s)
