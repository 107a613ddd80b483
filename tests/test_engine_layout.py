"""The engine's faster paths give the values of the plain expressions bit for bit.

* ``system_totals``: integer statistics are summed per statistic in int64 instead of one float64
  reduction over the middle axis of (systems, items, k);
* ``ColumnPack.sums(..., statistic_major=True)``: each statistic's sums are stored contiguously, for
  metrics whose arithmetic is elementwise (``Metric.elementwise``);
and the tests built on them return the same results either way.
"""
import numpy as np
import pytest

from simstats.stats.approaches import compare_approaches
from simstats.stats.bootstrap import bootstrap_score_matrix, paired_bootstrap
from simstats.stats.engine import EXACT_INTEGER_ITEMS, ColumnPack, orient_by_winner, system_totals
from simstats.stats.metrics import (Metric, bleu, classification_f1, custom_metric, get_metric, label_statistics)
from simstats.stats.randomization import approximate_randomization

ELEMENTWISE = ("accuracy", "recall", "precision", "f1", "mae")


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.bool_,
                                   np.int64, np.float32, np.float64])
def test_system_totals_are_the_float64_sums(dtype):
    rng = np.random.default_rng(1)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        stats = rng.integers(info.min, info.max, size=(7, 3001, 3), dtype=dtype, endpoint=True)
        stats[0, :5] = info.max                                     # the extremes are summed exactly
        stats[1, :5] = info.min
    elif dtype is np.bool_:
        stats = rng.random((7, 3001, 3)) < 0.3
    else:
        stats = (rng.standard_normal((7, 3001, 3)) * 1e3).astype(dtype)
    totals = system_totals(stats)
    assert totals.dtype == np.float64 and totals.shape == (7, 3)
    assert np.array_equal(totals, stats.sum(axis=1, dtype=np.float64))


def test_system_totals_round_as_float64_does_where_int64_sums_would_not():
    # int64 statistics beyond 2^53 are not summed in int64: the result stays the float64 sum
    stats = np.full((2, 40, 1), 2**60 + 1, dtype=np.int64)
    stats[:, ::2] = 3
    exact = stats.sum(axis=1, dtype=np.int64).astype(np.float64)
    expected = stats.sum(axis=1, dtype=np.float64)
    assert not np.array_equal(exact, expected)                      # the two sums differ here
    assert np.array_equal(system_totals(stats), expected)


def test_system_totals_keep_the_float64_sum_beyond_the_exact_item_count():
    # 32-bit statistics over more than EXACT_INTEGER_ITEMS items can sum beyond 2^53, where float64 rounds
    stats = np.random.default_rng(2).integers(2**31, 2**32, size=(1, 2 * EXACT_INTEGER_ITEMS, 1), dtype=np.uint32)
    exact = stats.sum(axis=1, dtype=np.int64).astype(np.float64)
    expected = stats.sum(axis=1, dtype=np.float64)
    assert not np.array_equal(exact, expected)                      # the two sums differ here
    assert np.array_equal(system_totals(stats), expected)


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


@pytest.mark.parametrize("layout", ["shared and own", "own only", "shared only"])
def test_statistic_major_sums_are_the_same_values_stored_per_statistic(layout):
    rng = np.random.default_rng(3)
    stats = rng.integers(0, 4, size=(5, 300, 3)).astype(np.float64)
    if layout == "shared and own":
        stats[:, :, 1] = stats[0, :, 1]                            # a gold column, stored once
    elif layout == "shared only":
        stats[:] = stats[0]
    pack = ColumnPack(stats, np.arange(5))
    assert bool(pack.shared) == (layout != "own only") and bool(pack.own) == (layout != "shared only")
    weights = rng.integers(0, 3, size=(40, 300)).astype(np.float32)
    plain = pack.sums(weights)
    major = pack.sums(weights, statistic_major=True)
    assert major.shape == plain.shape == (40, 5, 3)
    assert np.array_equal(major, plain)
    assert np.array_equal(plain, np.einsum("bi,sik->bsk", weights.astype(np.float64), stats))
    for j in range(3):
        assert major[..., j].flags.c_contiguous


def test_the_built_in_elementwise_metrics_are_flagged_and_others_are_not():
    assert all(get_metric(name).elementwise for name in ELEMENTWISE)
    assert not bleu.elementwise
    assert not classification_f1(["a", "b", "c"]).elementwise
    assert not classification_f1(["a", "b"], average="weighted").elementwise
    assert not custom_metric("ratio", ("x", "y"), lambda s: s[..., 0] / s[..., 1]).elementwise


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_metrics_give_the_same_values_in_either_layout(name):
    metric = get_metric(name)
    k = len(metric.statistics)
    rng = np.random.default_rng(4)
    sums = rng.integers(0, 50, size=(64, 9, k)).astype(np.float64)
    sums[:3] = 0                                                   # zero denominators
    major = np.ascontiguousarray(sums.transpose(2, 0, 1)).transpose(1, 2, 0)
    assert not major.flags.c_contiguous
    assert np.array_equal(metric(major), metric(sums))


def _as_opaque(metric: Metric) -> Metric:
    """The same metric, not flagged elementwise: the engine then keeps its (replicates, systems, k) sums."""
    return Metric(metric.name, metric.statistics, metric.function, metric.higher_is_better, metric.ratio_of)


def _binary_stats(rng, m, n):
    gold = rng.random(n) < 0.4
    preds = [np.where(rng.random(n) < 0.8, gold, ~gold) for _ in range(m)]
    return np.stack([label_statistics(get_metric("f1"), gold, p, positive=True) for p in preds])


@pytest.mark.parametrize("name", ["f1", "precision", "accuracy"])
def test_tests_give_the_same_results_with_either_layout(name):
    metric = get_metric(name)
    rng = np.random.default_rng(5)
    if name == "accuracy":
        stats = np.stack([np.stack([rng.random(500) < p, np.ones(500)], axis=1) for p in (0.7, 0.72, 0.75, 0.69)])
    else:
        stats = _binary_stats(rng, 4, 500)
    pairs = [(0, 1), (2, 3), (1, 2)]
    for metric_used in (metric, _as_opaque(metric)):
        assert metric_used.elementwise == (metric_used is metric)
    runs = []
    for metric_used in (metric, _as_opaque(metric)):
        boot = paired_bootstrap(stats, metric_used, pairs, n_resamples=300, compress_items=False, rng=7)
        observed, replicates = bootstrap_score_matrix(stats, metric_used, n_resamples=300, compress_items=False,
                                                      rng=8)
        ar = approximate_randomization(stats, metric_used, pairs, n_resamples=300, compress_items=False, rng=9)
        approaches = compare_approaches(stats, metric_used, ["A", "A", "B", "B"], n_resamples=200,
                                        compress_items=False, rng=10)
        runs.append((boot.statistic, boot.pvalue, boot.confidence_interval.low, boot.confidence_interval.high,
                     observed, replicates, ar.statistic, ar.pvalue, approaches.statistic, approaches.pvalue,
                     approaches.confidence_interval.low, approaches.confidence_interval.high))
    for fast, plain in zip(*runs):
        assert np.array_equal(fast, plain)


def test_the_benchmarks_kernel_timer_passes_the_layout_through(monkeypatch):
    # bench/ wraps ColumnPack.sums to time the W @ S kernel (python -m bench); it must keep the engine's results
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1]))
    from bench.engine import KernelRecorder

    stats = _binary_stats(np.random.default_rng(6), 4, 300)
    f1 = get_metric("f1")
    plain = paired_bootstrap(stats, f1, [(0, 1), (2, 3)], n_resamples=200, compress_items=False, rng=11)
    with KernelRecorder() as record:
        timed = paired_bootstrap(stats, f1, [(0, 1), (2, 3)], n_resamples=200, compress_items=False, rng=11)
    assert record.calls >= 1 and record.flops > 0 and record.statistic_major
    assert np.array_equal(timed.pvalue, plain.pvalue) and np.array_equal(timed.statistic, plain.statistic)
    record.interleaved(2)
    assert np.isfinite(record.kernel_s) and np.isfinite(record.sgemm_s)
