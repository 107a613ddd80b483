"""Section 1: paired tests for 1 to 10,000 pairs, simstats vs deepsig and CompStats;
section 5: the resampling kernel (the W @ S products) in GFLOP/s beside numpy's SGEMM.

Inputs: n = 5,000 binary test items, pairs of classifiers (A flips 18 % of the gold labels, B 20 %),
accuracy and binary F1 (positive label 1), B = 10,000 resamples, one-sided "A is better" tests:

* simstats ``paired_bootstrap(alternative="greater")`` (shift convention, CompStats' too) against
  CompStats (``Perf(...).difference().p_value()``) and deepsig's ``bootstrap_test`` (which
  resamples the two systems' scores independently);
* simstats ``randomization_test(alternative="greater")`` against deepsig's
  ``permutation_test`` (both swap each item's pair of outputs with probability 1/2).

deepsig's tests compare means of per-item scores, so they run on accuracy only.  simstats is timed
for real; the peers on one pair at ``peer_resamples`` resamples, scaled linearly to B and to the
number of pairs (their cost is linear in both: one Python-level statistic per resample and pair).
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

import simstats.stats.engine as sim_engine
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import get_metric
from simstats.stats.randomization import randomization_test
from simstats.stats.resample import ItemCounts, RowCounts, RowSwaps, Swaps

from .common import (TOLERANCE_RULE, PValueCheck, Report, Settings, best_of, fmt_s, fmt_x, repeat_rule, timed)
from .inputs import PAIR_FLIP_RATES, label_stats, label_systems

SEED = 2026
METRIC_LABEL = {"accuracy": "accuracy", "f1": "binary F1"}
BOOTSTRAP, RANDOMIZATION = "paired bootstrap", "approximate randomization"
#: (metric, simstats test, peer) compared; the peer's label is also its key in the timings.
COMPARISONS = [("accuracy", BOOTSTRAP, "deepsig bootstrap_test"),
               ("accuracy", RANDOMIZATION, "deepsig permutation_test"),
               ("accuracy", BOOTSTRAP, "CompStats"),
               ("f1", BOOTSTRAP, "CompStats")]
#: Acceptance for one pair, n = 5,000, B = 10,000 (the brief of this benchmark).
ACCEPT = {"deepsig": 500, "CompStats": 1_000}


class KernelRecorder:
    """Accumulates the time and flops of ColumnPack.sums (the W @ S product) while active, and keeps
    the last pack with one full block of weights for :meth:`interleaved`."""

    def __init__(self):
        self.seconds = self.flops = 0.0
        self.rows = self.columns = self.calls = 0
        self.pack = self.weights = None
        self.statistic_major = False
        self.kernel_s = self.sgemm_s = float("nan")
        self._original = None

    def __enter__(self):
        original = self._original = sim_engine.ColumnPack.sums
        record = self

        def sums(pack, weights, statistic_major=False):
            t = time.perf_counter()
            out = original(pack, weights, statistic_major)
            seconds = time.perf_counter() - t
            flops = 2.0 * weights.shape[0] * weights.shape[1] * pack.matrix.shape[1]
            record.seconds += seconds
            record.flops += flops
            record.calls += 1
            record.rows, record.columns = pack.matrix.shape
            if record.weights is None or weights.shape[0] >= record.weights.shape[0]:
                record.pack, record.weights, record.statistic_major = pack, weights, statistic_major
            return out

        sim_engine.ColumnPack.sums = sums
        return self

    def __exit__(self, *exc):
        sim_engine.ColumnPack.sums = self._original

    @property
    def gflops(self) -> float:
        """Mean rate over all calls."""
        return self.flops / self.seconds / 1e9 if self.seconds else float("nan")

    def interleaved(self, repeat: int) -> None:
        """Time the kept block ``repeat`` times each, alternating ColumnPack.sums(W) (the product and its
        unpacking into per-system sums) with numpy's plain W @ S (SGEMM) on the same arrays: alternating
        calls see the same machine load.  Keeps the fastest of each; then drops the arrays."""
        pack, w = self.pack, self.weights.astype(self.pack.dtype, copy=False)
        kernel, sgemm = [], []
        for _ in range(repeat):
            kernel.append(timed(lambda: pack.sums(w, self.statistic_major))[0])
            sgemm.append(timed(lambda: w @ pack.matrix)[0])
        self.kernel_s, self.sgemm_s = min(kernel), min(sgemm)
        self.block_flops = 2.0 * w.shape[0] * w.shape[1] * pack.matrix.shape[1]
        self.block_rows = w.shape[0]
        self.repeat = repeat
        self.pack = self.weights = None


def simstats_test(test: str, stats: np.ndarray, metric_name: str, n_pairs: int, n_resamples: int):
    """simstats' one-sided test of pairs (2k, 2k + 1), k < n_pairs, in one call."""
    metric = get_metric(metric_name)
    pairs = np.arange(2 * n_pairs).reshape(-1, 2)
    if test == BOOTSTRAP:
        return paired_bootstrap(stats[:2 * n_pairs], metric, pairs, alternative="greater", n_resamples=n_resamples,
                                confidence_level=None, rng=SEED)
    return randomization_test(stats[:2 * n_pairs], metric, pairs, alternative="greater",
                              n_resamples=n_resamples, rng=SEED)


def deepsig_test(peer: str, gold, pred_a, pred_b, n_resamples: int, timing: Settings):
    """(seconds, runs, p) of deepsig's test that A's per-item correctness has the larger mean."""
    from deepsig import bootstrap_test, permutation_test

    a, b = (pred_a == gold).astype(float), (pred_b == gold).astype(float)
    fn = bootstrap_test if peer.endswith("bootstrap_test") else permutation_test
    return best_of(lambda: fn(a, b, num_samples=n_resamples, seed=1), timing)


def compstats_test(metric_name: str, gold, pred_a, pred_b, n_resamples: int, timing: Settings):
    """(seconds, runs, p, observed scores) of CompStats: bootstrap of both systems, p-value of B against
    the best (A), right-tailed shift convention."""
    from CompStats.interface import Perf
    from sklearn.metrics import accuracy_score, f1_score

    func = accuracy_score if metric_name == "accuracy" else f1_score

    def run():
        perf = Perf(gold, pred_a, pred_b, name=["A", "B"], score_func=func, num_samples=n_resamples, n_jobs=1,
                    use_tqdm=False)
        diff = perf.difference()
        return perf, diff, diff.p_value()

    seconds, runs, (perf, diff, pvalues) = best_of(run, timing)
    if diff.best != "A":
        raise SystemExit(f"CompStats ranks B above A on {metric_name}: the inputs are not the intended ones")
    return seconds, runs, float(pvalues["B"]), perf.statistic


def resampler_costs(report: Report) -> None:
    """Per-unit cost of the four resamplers (the basis of the engine's compression factors)."""
    rng = np.random.default_rng(SEED)
    b, n, rows = 4096, 5_000, 64
    sizes = np.full(rows, n // rows)

    def per_unit(fn, units):
        return min(timed(fn)[0] for _ in range(3)) / units

    item = per_unit(lambda: ItemCounts(rng, b, n).draw(b), b * n)
    row = per_unit(lambda: RowCounts(rng, b, sizes).draw(b), b * rows)
    swap = per_unit(lambda: Swaps(rng, b, n).draw(b), b * n)
    row_swap = per_unit(lambda: RowSwaps(rng, b, sizes).draw(b), b * rows)
    report.line(f"Resampler costs ({b:,} replicates; {n:,} items or {rows} distinct rows of {n // rows} items): "
                "compressing items into distinct rows pays when rows × (cost per row) < items × (cost per item).")
    report.line()
    report.table(["resampler", "per unit", "row / item cost", "engine's compression factor"], [
        ("bootstrap, per item (ItemCounts)", f"{item * 1e9:.2f} ns", "", ""),
        ("bootstrap, per row (RowCounts, multinomial)", f"{row * 1e9:.2f} ns", f"{row / item:.1f}",
         f"BOOTSTRAP_COMPRESS_FACTOR = {sim_engine.BOOTSTRAP_COMPRESS_FACTOR}"),
        ("randomization, per item (Swaps)", f"{swap * 1e9:.2f} ns", "", ""),
        ("randomization, per row (RowSwaps, binomial)", f"{row_swap * 1e9:.2f} ns", f"{row_swap / swap:.1f}",
         f"RANDOMIZATION_COMPRESS_FACTOR = {sim_engine.RANDOMIZATION_COMPRESS_FACTOR}"),
    ])


def run(settings: Settings, report: Report) -> dict:
    n, big_b, peer_b = settings.n_items, settings.n_resamples, settings.peer_resamples
    largest = max(settings.pairs)
    report.heading("1. Paired tests: simstats vs deepsig 1.2.8 and CompStats 0.1.15")
    report.line(f"n = {n:,} binary items; each pair: A flips {PAIR_FLIP_RATES[0]:.0%} of the gold labels, "
                f"B {PAIR_FLIP_RATES[1]:.0%} (independently); B = {big_b:,} resamples; one-sided tests "
                "\"A is better\". simstats tests all pairs of a batch in one call and is timed for real "
                f"({repeat_rule(settings)}). "
                "deepsig and CompStats are timed on one pair (best of up to "
                f"{settings.peer_repeats} runs, fewer once they took {settings.peer_budget:g} s) at the resamples "
                f"shown and scaled linearly to B = {big_b:,} and to the number of pairs: both compute one statistic "
                "per resample and pair in Python. deepsig's tests take per-item scores (means), so they run on "
                "accuracy only.")
    report.line()
    t0 = time.perf_counter()
    gold, preds = label_systems(largest, n, SEED)
    stats = {m: label_stats(m, gold, preds) for m in METRIC_LABEL}
    report.line(f"Inputs: {2 * largest:,} systems generated in {time.perf_counter() - t0:.1f} s; "
                "the single pair is systems (0, 1), the first pair of every batch.")
    report.line()
    simstats_test(BOOTSTRAP, stats["accuracy"], "accuracy", 2, 500)       # warm-up (imports, BLAS threads)

    # p-values on the single pair, then the peers (timed at their resamples)
    ours = {(m, t): float(simstats_test(t, stats[m], m, 1, big_b).pvalue[0])
            for m, t, _ in COMPARISONS}
    peer_seconds, peer_p, peer_runs, peer_bs = {}, {}, {}, {}
    timing = replace(settings, repeats=settings.peer_repeats, budget=settings.peer_budget)
    for metric_name, test, peer in COMPARISONS:
        b_peer = settings.deepsig_bootstrap_resamples if peer.endswith("bootstrap_test") else peer_b
        if peer.startswith("deepsig"):
            seconds, runs, p = deepsig_test(peer, gold, preds[0], preds[1], b_peer, timing)
        else:
            seconds, runs, p, observed = compstats_test(metric_name, gold, preds[0], preds[1], b_peer, timing)
            metric = get_metric(metric_name)
            mine = metric(stats[metric_name][:2].sum(axis=1, dtype=np.float64))
            if not np.allclose([observed["A"], observed["B"]], mine, rtol=0, atol=1e-12):
                raise SystemExit(f"CompStats' {metric_name} {observed} differs from simstats' {mine}")
        peer_seconds[(metric_name, peer)] = seconds * big_b / b_peer
        peer_p[(metric_name, peer)] = float(p)
        peer_runs[(metric_name, peer)], peer_bs[(metric_name, peer)] = runs, b_peer
    check = PValueCheck()
    for metric_name, test, peer in COMPARISONS:
        check.add(f"{METRIC_LABEL[metric_name]}: {test} vs {peer}", ours[(metric_name, test)],
                  peer_p[(metric_name, peer)], big_b, peer_bs[(metric_name, peer)])
    report.line("p-values of the single pair (checked before simstats is timed; CompStats' observed scores "
                "equal simstats' to 1e-12). " + TOLERANCE_RULE + ".")
    report.line()
    check.report(report)
    check.enforce()

    # simstats, timed for real
    times, kernels = {}, {}
    runs_for = [(m, BOOTSTRAP) for m in METRIC_LABEL] + [("accuracy", RANDOMIZATION)]
    for metric_name, test in runs_for:
        for p in settings.pairs:
            def fn(test=test, metric_name=metric_name, p=p):
                return simstats_test(test, stats[metric_name], metric_name, p, big_b)
            if p == largest:
                with KernelRecorder() as rec:
                    seconds, runs, _ = best_of(fn, settings)
                rec.interleaved(settings.kernel_repeats)
                kernels[(metric_name, test)] = rec
            else:
                seconds, runs, _ = best_of(fn, settings)
            times[(metric_name, test, p)] = (seconds, runs)
    report.line("simstats, measured. One pair's items take a handful of distinct joint rows, resampled as "
                "multinomial counts over those rows; from 2 pairs on there are too many distinct rows, so each call "
                f"draws n × B = {n * big_b:,} item counts, which dominates batches up to a few "
                "hundred pairs:")
    report.line()
    report.table(["metric", "test", "pairs", "time", "runs (best taken)", "tests/s"],
                 [(METRIC_LABEL[m], t, f"{p:,}", fmt_s(times[(m, t, p)][0]), times[(m, t, p)][1],
                   f"{p / times[(m, t, p)][0]:,.0f}") for m, t in runs_for for p in settings.pairs])
    rows = []
    for metric_name, test, peer in COMPARISONS:
        per_test = peer_seconds[(metric_name, peer)]
        for p in settings.pairs:
            ours_s = times[(metric_name, test, p)][0]
            rows.append((METRIC_LABEL[metric_name], f"{p:,}", test, fmt_s(ours_s), peer, fmt_s(per_test * p),
                         fmt_x(per_test * p / ours_s)))
    report.line("Against the peers (peer times measured on one pair at the resamples below, scaled to B = "
                f"{big_b:,} and to the pairs):")
    report.line()
    per_test_label = f"seconds per test at B = {big_b:,}"
    report.table(["peer", "metric", "resamples timed", "runs (best taken)", per_test_label, "how"],
                 [(peer, METRIC_LABEL[m], f"{peer_bs[(m, peer)]:,}", peer_runs[(m, peer)],
                   fmt_s(peer_seconds[(m, peer)]), "measured" if peer_bs[(m, peer)] == big_b else
                   f"scaled ×{big_b / peer_bs[(m, peer)]:g}") for m, _, peer in COMPARISONS])
    report.table(["metric", "pairs", "simstats test", "simstats", "peer", "peer (scaled)", "peer / simstats"], rows)

    single = {}
    report.line(f"**Single pair, n = {n:,}, B = {big_b:,}** (simstats: best of "
                f"{times[('accuracy', BOOTSTRAP, 1)][1]} runs; peers as in the table above):")
    report.line()
    for metric_name, test, peer in COMPARISONS:
        ours_s = times[(metric_name, test, 1)][0]
        theirs = peer_seconds[(metric_name, peer)]
        ratio = theirs / ours_s
        single[(metric_name, peer)] = ratio
        goal = ACCEPT["deepsig" if peer.startswith("deepsig") else "CompStats"]
        verdict = "met" if ratio >= goal else "**not met**"
        report.line(f"- {METRIC_LABEL[metric_name]}, {test}: simstats {fmt_s(ours_s)}, {peer} {fmt_s(theirs)} → "
                    f"**{fmt_x(ratio)}** (acceptance ≥ {goal:,}×: {verdict})")
    report.line()
    return {"times": times, "peer_seconds": peer_seconds, "single": single, "kernels": kernels, "largest": largest}


def kernel_section(settings: Settings, report: Report, result: dict) -> dict:
    report.heading("5. The kernel: GFLOP/s beside numpy's SGEMM")
    largest = result["largest"]
    report.line(f"The resampling kernel, ColumnPack.sums(W) (the W @ S product and its unpacking into per-system "
                f"sums), of the {largest:,}-pair runs of section 1, beside numpy's plain float32 product W @ S on "
                "the same arrays (one full block of replicates W, S the packed statistic columns). Kernel and SGEMM "
                f"calls alternate, {settings.kernel_repeats} of each, fastest kept: alternating calls see the same "
                "machine load. Also the mean rate of the kernel over every call of the timed runs.")
    report.line()
    rows, out = [], {}
    for (metric_name, test), rec in result["kernels"].items():
        kernel, sgemm = rec.block_flops / rec.kernel_s / 1e9, rec.block_flops / rec.sgemm_s / 1e9
        out[(metric_name, test)] = (kernel, sgemm)
        rows.append((METRIC_LABEL[metric_name], test, f"{rec.block_rows:,} × {rec.rows:,} @ {rec.rows:,} × {rec.columns:,}",
                     f"{kernel:.1f}", f"{sgemm:.1f}", f"{100 * kernel / sgemm:.0f} %",
                     f"{rec.gflops:.1f} ({rec.calls:,} calls, {rec.seconds:.1f} s)"))
    report.table(["metric", "test", "W @ S shape", "kernel GFLOP/s", "SGEMM GFLOP/s", "kernel / SGEMM",
                  "kernel GFLOP/s in the timed runs (mean)"], rows)
    resampler_costs(report)
    return out
