"""Yeh (2000) study: correlated pairs, kind-level resampling, sizes, sd ratios, clusters, SQuAD pairs."""
import math

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import get_metric
from functools import partial

from simstats.stats.randomization import randomization_test

approximate_randomization = partial(randomization_test, method="approximate")
exact_randomization = partial(randomization_test, method="exact")
exact_stratified_randomization = partial(randomization_test, method="exact-stratified")
from simstats.studies.yeh2000.simulate import (CLUSTER_TESTS, INDEPENDENCE_TESTS, KIND_STATS, TESTS, _stats_of, clustered_pair,
                                draw_clustered, joint_probabilities, kind_pvalues, leaderboard_pairs,
                                make_population, max_r12, rejection_rates, sd_ratio, simulate_cell,
                                simulate_cluster_cell)

ALPHA = 0.05


@pytest.mark.parametrize("p1, p2, r", [(0.5, 0.5, 0.38), (0.7, 0.6, 0.5), (0.3, 0.35, 0.9)])
def test_joint_probabilities_have_the_marginals_and_phi(p1, p2, r):
    r = min(r, max_r12(p1, p2) - 1e-9)
    both, only1, only2, neither = joint_probabilities(p1, p2, r)
    assert both + only1 == pytest.approx(p1) and both + only2 == pytest.approx(p2)
    assert both + only1 + only2 + neither == pytest.approx(1)
    phi = (both * neither - only1 * only2) / math.sqrt(p1 * (1 - p1) * p2 * (1 - p2))
    assert phi == pytest.approx(r)


@pytest.mark.parametrize("metric", ["recall", "precision", "f1"])
def test_populations_have_the_stated_true_difference(metric):
    for diff in (0.0, 0.04):
        pop = make_population(metric, 0.5, diff, recall=0.5, spurious=0.4, gold_share=0.65)
        v = pop.true_values()
        assert v[0] - v[1] == pytest.approx(diff, abs=1e-9)
        assert pop.kind_probs.sum() == pytest.approx(1)


@pytest.mark.parametrize("metric", ["recall", "f1"])
def test_kind_level_resampling_matches_the_item_level_engine(metric):
    counts = np.array([60, 25, 12, 50, 8, 20, 9, 30], float) if metric == "f1" else \
        np.array([60, 25, 12, 50, 0, 0, 0, 0], float)
    B = 20_000
    ours = kind_pvalues(counts, metric, np.random.default_rng(1), n_resamples=B)
    stats = _stats_of(counts)
    m = get_metric(metric)
    boot = paired_bootstrap(stats, m, alternative="two-sided", n_resamples=B, rng=2, confidence_level=None)
    ar = approximate_randomization(stats, m, alternative="two-sided", n_resamples=B, rng=3)
    for mine, theirs in ((ours["paired_bootstrap"], boot.pvalue[0]), (ours["approximate_randomization"],
                                                                       ar.pvalue[0])):
        se = math.sqrt(2 * theirs * (1 - theirs) / B) + 1e-4
        assert abs(mine - theirs) < 4 * se
    # the exact stratified p-value is the limit of approximate randomization
    assert abs(ours["exact_stratified_randomization"] - ar.pvalue[0]) < 4 * math.sqrt(ar.pvalue[0] / B) + 1e-4


@pytest.mark.parametrize("metric", ["recall", "precision", "f1"])
def test_paired_tests_hold_alpha_and_independence_tests_do_not_on_a_reduced_sweep(metric):
    R = 300
    mcse = math.sqrt(ALPHA * (1 - ALPHA) / R)
    for r12 in (0.0, 0.5, 0.8):
        pop = make_population(metric, r12, 0.0, recall=0.5, spurious=0.4, gold_share=0.65)
        rows = simulate_cell(pop, 748, range(R), root_seed=11, key=("test", metric, r12), n_resamples=500)
        for res in rejection_rates(rows, TESTS[metric], ALPHA):
            if res["test"] in INDEPENDENCE_TESTS:
                if r12 == 0.8:
                    assert res["rate"] < ALPHA - 3 * mcse, res
            else:
                assert abs(res["rate"] - ALPHA) <= 3 * mcse, (r12, res)


def test_power_of_paired_tests_exceeds_independence_tests_when_correlated():
    pop = make_population("recall", 0.6, 0.04, recall=0.5, spurious=0.0, gold_share=1.0)
    rows = simulate_cell(pop, 748, range(200), root_seed=5, key=("power",), n_resamples=300)
    rates = {r["test"]: r["rate"] for r in rejection_rates(rows, TESTS["recall"], ALPHA)}
    assert rates["paired_t"] > rates["two_sample_t"] + 0.2
    assert rates["sign_mcnemar"] > rates["two_proportion_z"] + 0.2


@pytest.mark.parametrize("r12, published", [(0.38, 1.27), (0.50, 1.41), (0.80, 2.24)])
def test_sd_ratio_matches_the_analytic_column_within_3_percent(r12, published):
    res = sd_ratio(r12, replicates=20_000, root_seed=3)
    assert res["analytic"] == pytest.approx(published, abs=0.005)
    assert abs(res["simulated"] / res["analytic"] - 1) < 0.03
    assert abs(res["simulated"] - res["analytic"]) < 4 * res["se"]


def test_design_effect_closed_form_matches_simulated_variance():
    rng = np.random.default_rng(0)
    R = 4000
    for de in (1.0, 3.0):
        pair = clustered_pair(de)
        assert pair.design_effect() == pytest.approx(de, rel=1e-9)
        d = [np.subtract(*[y.mean() for y in draw_clustered(pair, 40, rng)]) for _ in range(R)]
        assert np.mean(d) == pytest.approx(0, abs=4 * math.sqrt(pair.delta_variance(40) / R))
        assert np.var(d, ddof=1) == pytest.approx(pair.delta_variance(40), rel=4 * math.sqrt(2 / R))


def test_cluster_level_tests_hold_alpha_item_level_do_not():
    R = 200
    mcse = math.sqrt(ALPHA * (1 - ALPHA) / R)
    rows = simulate_cluster_cell(clustered_pair(3.0), 60, range(R), root_seed=2, key=("t",), n_resamples=400)
    rates = {r["test"]: r["rate"] for r in rejection_rates(rows, CLUSTER_TESTS, ALPHA)}
    for test in ("cluster_bootstrap", "cluster_randomization"):
        assert abs(rates[test] - ALPHA) <= 3 * mcse, rates
    for test in ("item_bootstrap", "item_randomization", "sign_mcnemar"):
        assert rates[test] > ALPHA + 3 * mcse, rates


def test_leaderboard_pairs_against_direct_computation():
    rng = np.random.default_rng(4)
    n = 500
    y = rng.random((3, n)) < np.array([[0.6], [0.65], [0.7]])
    models = pd.DataFrame({"index": [0, 1, 2], "dev_em": 100 * y.mean(axis=1)})
    pairs = pd.DataFrame([(i, j, int(y[j].sum() - y[i].sum()), int((y[i] != y[j]).sum()))
                          for i in range(3) for j in range(i + 1, 3)], columns=["i", "j", "dev_delta", "dev_disagree"])
    out = leaderboard_pairs(models, pairs, n)
    for row in out.itertuples():
        a, b = y[row.i], y[row.j]
        table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
        assert row.pvalue_mcnemar == pytest.approx(mcnemar(table, exact=True).pvalue)
        assert row.r12 == pytest.approx(np.corrcoef(a, b)[0, 1])
        assert row.delta_mismatch == 0
    bad = pairs.assign(dev_disagree=pairs.dev_disagree + 1)
    with pytest.raises(ValueError, match="inconsistent"):
        leaderboard_pairs(models, bad, n)


def test_kind_statistics_layout():
    assert KIND_STATS.shape == (2, 8, 3)
    # system 1 recalls gold kinds 11 and 10; system 2 kinds 11 and 01
    assert KIND_STATS[0, :4, 0].tolist() == [1, 1, 0, 0] and KIND_STATS[1, :4, 0].tolist() == [1, 0, 1, 0]
