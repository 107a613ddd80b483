"""Benchmark: simstats' paired bootstrap vs CompStats and deepsig, measured in one run.

    pip install -e ".[bench]" && python bench/bench_engine.py [--peer-resamples 500] [--quick]

Same inputs for everyone: n = 5,000 test items, binary labels, accuracy and binary F1,
B = 10,000 bootstrap resamples.  A single pair's items take a handful of distinct joint rows,
so simstats draws multinomial counts over those rows (``compress_items``); large batches have
as many distinct rows as items and use the item-level W @ S product.  simstats: tests per second for 1, 100 and 10,000 pairs
(distinct systems) in one call, and its kernel (the W @ S products) in GFLOP/s beside
numpy's SGEMM on the same shapes.  Peers are timed at --peer-resamples and scaled
linearly to 10,000 (their cost is linear in the resamples; stated in the output).
deepsig's tests take per-item scores and compare means, so they run on accuracy only.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import simstats.stats.engine as engine
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import accuracy, get_metric, label_statistics

N, B = 5_000, 10_000


def make_systems(rng, n_systems: int):
    gold = (rng.random(N) < 0.4).astype(int)
    flip = rng.random((n_systems, N)) < rng.uniform(0.15, 0.25, size=(n_systems, 1))
    return gold, np.where(flip, 1 - gold, gold)


def timed_kernel():
    """Wrap ColumnPack.sums to accumulate its time and flops."""
    record = {"seconds": 0.0, "flops": 0.0, "columns": 0, "rows": 0}
    original = engine.ColumnPack.sums

    def sums(self, weights):
        t = time.perf_counter()
        out = original(self, weights)
        record["seconds"] += time.perf_counter() - t
        record["flops"] += 2.0 * weights.shape[0] * weights.shape[1] * self.matrix.shape[1]
        record["columns"], record["rows"] = self.matrix.shape[1], self.matrix.shape[0]
        return out

    engine.ColumnPack.sums = sums
    return record, lambda: setattr(engine.ColumnPack, "sums", original)


def sgemm_gflops(rows: int, inner: int, cols: int, repeat: int = 3) -> float:
    rng = np.random.default_rng(0)
    a = rng.random((rows, inner), dtype=np.float32)
    b = rng.random((inner, cols), dtype=np.float32)
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2.0 * rows * inner * cols / best / 1e9


def ours(metric_name: str, n_pairs: int, rng) -> dict:
    metric = accuracy if metric_name == "accuracy" else get_metric("f1")
    gold, preds = make_systems(rng, 2 * n_pairs)
    kwargs = {} if metric_name == "accuracy" else {"positive": 1}
    stats = np.stack([label_statistics(metric, gold, p, **kwargs) for p in preds]).astype(np.uint8)
    pairs = np.arange(2 * n_pairs).reshape(-1, 2)
    record, restore = timed_kernel()
    try:
        t = time.perf_counter()
        res = paired_bootstrap(stats, metric, pairs, n_resamples=B, rng=1, confidence_level=None)
        seconds = time.perf_counter() - t
    finally:
        restore()
    return {"pairs": n_pairs, "seconds": seconds, "tests_per_s": n_pairs / seconds,
            "kernel_gflops": record["flops"] / record["seconds"] / 1e9, "columns": record["columns"],
            "rows": record["rows"],
            "size": float(np.mean(res.pvalue <= 0.05))}


def compstats_seconds(metric_name: str, resamples: int, rng) -> float:
    from CompStats.interface import Perf
    from sklearn.metrics import accuracy_score, f1_score

    gold, preds = make_systems(rng, 2)
    func = accuracy_score if metric_name == "accuracy" else f1_score
    t = time.perf_counter()
    perf = Perf(gold, preds[0], preds[1], score_func=func, num_samples=resamples, n_jobs=1, use_tqdm=False)
    perf.difference().p_value()
    return (time.perf_counter() - t) * B / resamples


def deepsig_seconds(kind: str, resamples: int, rng) -> float:
    from deepsig import bootstrap_test, permutation_test

    gold, preds = make_systems(rng, 2)
    a, b = (preds[0] == gold).astype(float), (preds[1] == gold).astype(float)
    fn = bootstrap_test if kind == "bootstrap" else permutation_test
    t = time.perf_counter()
    fn(a, b, num_samples=resamples, seed=1)
    return (time.perf_counter() - t) * B / resamples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer-resamples", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="100 instead of 10,000 pairs in the batch")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    batches = (1, 100) if args.quick else (1, 100, 10_000)
    print(f"n = {N} items, B = {B} resamples; peers timed at B = {args.peer_resamples} and scaled x"
          f"{B / args.peer_resamples:g}\n")
    ours("accuracy", 2, np.random.default_rng(0))  # warm-up: BLAS threads, imports
    rows = {}
    for metric in ("accuracy", "f1"):
        for p in batches:
            r = ours(metric, p, rng)
            rows[(metric, p)] = r
            print(f"simstats {metric:8s} {p:>6d} pairs: {r['seconds']:8.2f} s, {r['tests_per_s']:10.1f} tests/s, "
                  f"kernel {r['kernel_gflops']:6.1f} GFLOP/s ({r['rows']} rows x {r['columns']} columns)")
    peers = {}
    for metric in ("accuracy", "f1"):
        peers[("CompStats 0.1.15", metric)] = compstats_seconds(metric, args.peer_resamples, rng)
    peers[("deepsig 1.2.8 bootstrap_test", "accuracy")] = deepsig_seconds("bootstrap", args.peer_resamples, rng)
    peers[("deepsig 1.2.8 permutation_test", "accuracy")] = deepsig_seconds("permutation", args.peer_resamples, rng)
    print()
    big = max(batches)
    for (name, metric), seconds in peers.items():
        ours_batch = 1.0 / rows[(metric, big)]["tests_per_s"]
        ours_single = rows[(metric, 1)]["seconds"]
        print(f"{name:32s} {metric:8s}: {seconds:8.2f} s per test at B={B} | simstats per test "
              f"(batch of {big}) {ours_batch * 1e3:8.3f} ms -> x{seconds / ours_batch:,.0f}; "
              f"single pair {ours_single:6.3f} s -> x{seconds / ours_single:,.0f}")
    print()
    for metric in ("accuracy", "f1"):
        r = rows[(metric, big)]
        rows_per_block = engine.replicate_block(r["rows"], r["columns"])
        ref = sgemm_gflops(rows_per_block, r["rows"], r["columns"])
        print(f"kernel {metric:8s} batch {big}: {r['kernel_gflops']:.1f} GFLOP/s vs numpy SGEMM "
              f"({rows_per_block}x{r['rows']} @ {r['rows']}x{r['columns']}) {ref:.1f} GFLOP/s "
              f"= {100 * r['kernel_gflops'] / ref:.0f} %")


if __name__ == "__main__":
    main()
