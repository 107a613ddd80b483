"""Approach-level comparison over seeds x items: against the paired bootstrap, exact
enumeration of the seed bootstrap, closed forms, and a small size/power simulation."""
import itertools
import math

import numpy as np
import pytest

import simstats
from simstats.stats.approaches import approach_bootstrap


def runs_of(rng, n_items, accuracies):
    gold = rng.integers(0, 3, n_items)
    out = []
    for acc in accuracies:
        pred = np.where(rng.random(n_items) < acc, gold, (gold + 1) % 3)
        out.append(simstats.label_statistics(simstats.accuracy, gold, pred))
    return np.stack(out)


def test_one_run_per_approach_on_items_is_the_paired_bootstrap():
    stats = runs_of(np.random.default_rng(1), 400, [0.8, 0.75])
    ours = approach_bootstrap(stats, simstats.accuracy, ["A", "B"], resample=("items",), n_resamples=3000, rng=5)
    ref = simstats.paired_bootstrap(stats, simstats.accuracy, n_resamples=3000, rng=5)
    assert ours.statistic == pytest.approx(ref.statistic[0], abs=1e-15)
    assert ours.pvalue == ref.pvalue[0]
    assert ours.confidence_interval.low == pytest.approx(ref.confidence_interval.low[0], abs=1e-15)
    assert ours.target == "these trained runs on new test items"


def exact_seed_bootstrap_pvalue(scores_a, scores_b, paired):
    """Shift-convention two-sided p of the seed bootstrap by enumerating every resample."""
    ka, kb = len(scores_a), len(scores_b)
    delta = np.mean(scores_a) - np.mean(scores_b)

    def draws(k):
        for combo in itertools.product(range(k), repeat=k):
            yield np.bincount(combo, minlength=k), 1 / k**k
    total = 0.0
    if paired:
        for c, p in draws(ka):
            d = c @ scores_a / ka - c @ scores_b / kb
            total += p * (abs(d - delta) >= abs(delta) - 1e-12)
    else:
        for (ca, pa), (cb, pb) in itertools.product(list(draws(ka)), list(draws(kb))):
            d = ca @ scores_a / ka - cb @ scores_b / kb
            total += pa * pb * (abs(d - delta) >= abs(delta) - 1e-12)
    return total


@pytest.mark.parametrize("paired", [False, True])
def test_seed_bootstrap_matches_enumeration(paired):
    stats = runs_of(np.random.default_rng(2), 300, [0.80, 0.78, 0.83, 0.77, 0.76, 0.79])
    labels = ["A"] * 3 + ["B"] * 3
    seeds = [0, 1, 2, 0, 1, 2] if paired else [0, 1, 2, 3, 4, 5]
    scores = simstats.accuracy(stats.sum(axis=1))
    exact = exact_seed_bootstrap_pvalue(scores[:3], scores[3:], paired)
    B = 100_000
    res = approach_bootstrap(stats, simstats.accuracy, labels, seeds, resample=("seeds",), n_resamples=B, rng=3)
    assert res.paired_seeds is paired
    assert abs(res.pvalue - exact) < 4 * math.sqrt(exact * (1 - exact) / B) + 1e-9


@pytest.mark.parametrize("paired", [False, True])
def test_one_call_gives_each_sources_pvalue_of_a_call_with_that_resample(paired):
    """result.pvalues[source] is the p-value of a call that resamples only that source from the same
    generator state, to the last bit; with one run per approach the seed-resampling p-values are NaN."""
    stats = runs_of(np.random.default_rng(4), 250, [0.80, 0.78, 0.83, 0.77, 0.76, 0.79, 0.81, 0.75])
    labels = ["A"] * 4 + ["B"] * 4
    seeds = [0, 1, 2, 3] * 2 if paired else list(range(8))
    one = approach_bootstrap(stats, simstats.accuracy, labels, seeds, n_resamples=999, rng=8)
    for source, resample in (("seeds", ("seeds",)), ("items", ("items",)), ("both", ("seeds", "items"))):
        alone = approach_bootstrap(stats, simstats.accuracy, labels, seeds, resample=resample, n_resamples=999,
                                   rng=8)
        assert one.pvalues[source] == alone.pvalue, source
    assert one.pvalue == one.pvalues["both"] and 0 < one.pvalues["items"] < 1
    single = approach_bootstrap(stats[[0, 4]], simstats.accuracy, ["A", "B"], resample=("items",),
                                n_resamples=99, rng=1)
    assert math.isnan(single.pvalues["seeds"]) and math.isnan(single.pvalues["both"])
    assert single.pvalues["items"] == single.pvalue


def test_seed_variance_is_the_plugin_variance_of_the_means():
    stats = runs_of(np.random.default_rng(4), 500, [0.8, 0.7, 0.85, 0.75, 0.9, 0.6, 0.65, 0.7])
    labels = ["A"] * 4 + ["B"] * 4
    scores = simstats.accuracy(stats.sum(axis=1))
    closed = scores[:4].var() / 4 + scores[4:].var() / 4                       # bootstrap var of a mean: s^2_n / k
    B = 40_000
    res = approach_bootstrap(stats, simstats.accuracy, labels, n_resamples=B, rng=1)
    assert res.variance["seeds"] == pytest.approx(closed, rel=4 * math.sqrt(2 / B) * 2)
    assert res.runs == (4, 4) and res.scores[0] == pytest.approx(scores[:4].mean())


def test_shuffled_run_order_gives_the_same_answer():
    stats = runs_of(np.random.default_rng(6), 200, [0.8, 0.7, 0.85, 0.75, 0.9, 0.6])
    labels = np.array(["A", "A", "A", "B", "B", "B"])
    seeds = np.array([1, 2, 3, 1, 2, 3])
    perm = np.array([4, 0, 5, 2, 1, 3])
    one = approach_bootstrap(stats, simstats.accuracy, labels, seeds, approaches=["A", "B"], n_resamples=500, rng=2)
    two = approach_bootstrap(stats[perm], simstats.accuracy, labels[perm], seeds[perm], approaches=["A", "B"],
                             n_resamples=500, rng=2)
    assert one.statistic == two.statistic and one.pvalue == two.pvalue


def test_bad_inputs_name_the_problem():
    stats = runs_of(np.random.default_rng(7), 50, [0.8, 0.7, 0.85, 0.75])
    with pytest.raises(ValueError, match="exactly two approaches"):
        approach_bootstrap(stats, simstats.accuracy, ["A", "A", "A", "A"], rng=0)
    with pytest.raises(ValueError, match="not compared"):
        approach_bootstrap(stats, simstats.accuracy, ["A", "B", "C", "C"], approaches=["A", "B"], rng=0)
    with pytest.raises(ValueError, match="unmatched"):
        approach_bootstrap(stats, simstats.accuracy, ["A", "A", "B", "B"], [1, 2, 1, 3], paired_seeds=True, rng=0)
    with pytest.raises(ValueError, match="at least 2 runs"):
        approach_bootstrap(stats[:2], simstats.accuracy, ["A", "B"], rng=0)
    with pytest.raises(ValueError, match="same seed id"):
        approach_bootstrap(stats, simstats.accuracy, ["A", "A", "B", "B"], [1, 1, 2, 3], rng=0)


def null_world(rng, n_items=400, k=5, seed_sd=0.03):
    """Identical approaches: each run's accuracy varies by seed; items are a fresh sample."""
    acc = 0.75 + seed_sd * rng.standard_normal(2 * k)
    return runs_of(rng, n_items, np.clip(acc, 0.01, 0.99))


def test_both_sources_hold_alpha_where_items_only_does_not():
    """Under identical approaches with seed variance, the items-only route rejects far more often
    than alpha; resampling seeds and items holds alpha (R = 200 worlds, MCSE of 0.05 is 0.015)."""
    rng = np.random.default_rng(2024)
    labels = ["A"] * 5 + ["B"] * 5
    hits = {("items", "seeds"): 0, ("items",): 0}
    R = 200
    for r in range(R):
        stats = null_world(rng)
        for key in hits:
            res = approach_bootstrap(stats, simstats.accuracy, labels, resample=key, n_resamples=400,
                                     confidence_level=None, rng=r)
            hits[key] += res.pvalue < 0.05
    mcse = math.sqrt(0.05 * 0.95 / R)
    both, items = hits[("items", "seeds")] / R, hits[("items",)] / R
    assert both <= 0.05 + 3 * mcse
    assert items > 0.05 + 3 * mcse


def test_compare_approaches_defaults_to_the_cli_default_the_t_test():
    """The library's entry point tests as ``simstats compare`` does: the approach t-test unless the bootstrap is
    asked for (test="bootstrap" or resample=), which then equals approach_bootstrap with the same generator."""
    from simstats.stats.approaches import approach_bootstrap, approach_t_test, compare_approaches

    rng = np.random.default_rng(11)
    correct = (rng.random((8, 150)) < 0.7).astype(float)
    stats = np.stack([correct, np.ones_like(correct)], axis=2)
    labels = ["A"] * 4 + ["B"] * 4
    accuracy = simstats.accuracy
    default = compare_approaches(stats, accuracy, labels)
    t = approach_t_test(stats, accuracy, labels)
    assert type(default) is type(t) and default.pvalue == t.pvalue and default.df == t.df
    boot = compare_approaches(stats, accuracy, labels, test="bootstrap", n_resamples=300, rng=2)
    assert boot.pvalue == approach_bootstrap(stats, accuracy, labels, n_resamples=300, rng=2).pvalue
    items = compare_approaches(stats, accuracy, labels, resample=("items",), n_resamples=300, rng=2)
    assert items.pvalue == approach_bootstrap(stats, accuracy, labels, resample=("items",), n_resamples=300,
                                              rng=2).pvalue
    with pytest.raises(ValueError, match="seeded generator"):
        compare_approaches(stats, accuracy, labels, test="bootstrap")
    with pytest.raises(ValueError, match="resample= is the bootstrap's claim"):
        compare_approaches(stats, accuracy, labels, test="t", resample=("items",))
