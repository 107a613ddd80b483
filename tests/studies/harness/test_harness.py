"""The harness study: its truth, its generators, its seeding and its rates (simstats.studies.harness)."""
import math

import numpy as np
import pandas as pd
import pytest
import scipy.integrate as integrate
import scipy.special as special
import scipy.stats as sps
from statsmodels.stats.proportion import proportion_confint

from simstats.sim.scenario import ScenarioError
from simstats.studies.harness.settings import parse_settings
from simstats.studies.harness.simulate import (TRUTHS, Variant, evaluate, pair_cells, population_score, simulate_cell,
                                               simulate_items, summarise, true_scores)


@pytest.mark.parametrize("mu, sd", [(0.0, 1.5), (0.85, 1.8), (5.3, 1.1), (-2.0, 0.3)])
def test_population_score_is_the_logistic_normal_integral(mu, sd):
    expected = integrate.quad(lambda z: special.expit(mu + sd * z) * sps.norm.pdf(z), -40, 40, epsabs=1e-13)[0]
    assert population_score(mu, sd) == pytest.approx(expected, abs=1e-11)


def test_pair_cells_reproduce_the_accuracies_and_disagreement():
    both, only_a, only_b, neither = pair_cells(0.8386, 0.8626, 0.1156)
    assert both + only_a == pytest.approx(0.8386) and both + only_b == pytest.approx(0.8626)
    assert only_a + only_b == pytest.approx(0.1156) and both + only_a + only_b + neither == pytest.approx(1)
    with pytest.raises(ValueError, match="not a 2 x 2 table"):
        pair_cells(0.9, 0.5, 0.1)            # a difference of 0.4 needs at least 40 % disagreement


@pytest.mark.parametrize("variant", [
    Variant("v", scores="binary", samples=3, cluster_sd=0.8, cluster_interaction_sd=0.6, cluster_size=4),
    Variant("g", scores="graded", samples=2),
    Variant("p", generator="pair", accuracy=0.7, difference=0.05, disagreement=0.2),
])
@pytest.mark.parametrize("truth", TRUTHS)
def test_the_generators_have_the_stated_truth(variant, truth):
    """Mean sample score over 40,000 items (one evaluation) against the closed-form truth: within 4 SE."""
    rng = np.random.default_rng(11)
    a, b, clusters = simulate_items(variant, truth, 40_000, rng)
    truth_a, truth_b = true_scores(variant, truth)
    for samples, expected in ((a, truth_a), (b, truth_b)):
        item_means = samples.mean(axis=1)
        units = item_means if clusters is None else pd.Series(item_means).groupby(clusters).mean().to_numpy()
        se = units.std(ddof=1) / math.sqrt(units.size)
        assert abs(item_means.mean() - expected) < 4 * se
    if truth == "identical":
        assert truth_a == truth_b
    else:
        assert truth_b > truth_a
    if clusters is not None:
        assert np.bincount(clusters).tolist() == [variant.cluster_size] * (40_000 // variant.cluster_size)


def test_correctness_is_correlated_as_the_pair_table_says():
    variant = Variant("p", generator="pair", accuracy=0.7, difference=0.05, disagreement=0.2)
    a, b, _ = simulate_items(variant, "difference", 100_000, np.random.default_rng(2))
    disagree = float(np.mean(a[:, 0] != b[:, 0]))
    assert abs(disagree - 0.2) < 4 * math.sqrt(0.2 * 0.8 / 100_000)


def test_replicates_do_not_depend_on_the_chunks():
    variant = Variant("c", cluster_sd=1.0, cluster_size=5, samples=2)
    whole = simulate_cell(variant, 30, "identical", range(6), 7, 99)
    parts = pd.concat([simulate_cell(variant, 30, "identical", range(0, 2), 7, 99),
                       simulate_cell(variant, 30, "identical", range(2, 6), 7, 99)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)


def test_evaluate_reports_the_library_results():
    """The default's p-value and interval are Bonett-Price's adjusted Wald (0/1 items, no clusters), from the 2 x 2
    counts by hand; paired_t is scipy's paired t-test; the unpaired z uses the two plain standard errors."""
    rng = np.random.default_rng(4)
    a = (rng.random((60, 1)) < 0.7).astype(float)
    b = np.where(rng.random((60, 1)) < 0.8, a, 1 - a)
    paired = sps.ttest_rel(b[:, 0], a[:, 0])
    ci = paired.confidence_interval(0.95)
    n12, n21 = int(((b == 1) & (a == 0)).sum()), int(((b == 0) & (a == 1)).sum())
    p12, p21 = (n12 + 1) / 62, (n21 + 1) / 62
    se = math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 62)
    high = p12 - p21 + sps.norm.ppf(0.975) * se
    for truth_b, hit in ((0.7 + ci.high + 0.002, 0.0), (0.7 + ci.high - 0.002, 1.0)):   # just outside, inside
        out = evaluate(a, b, None, binary=True, truth_a=0.7, truth_b=truth_b, n_resamples=199,
                       rng=np.random.default_rng(5))
        assert out["ci:paired_t"] == hit
    for truth_b, hit in ((0.7 + high + 0.002, 0.0), (0.7 + high - 0.002, 1.0)):
        out = evaluate(a, b, None, binary=True, truth_a=0.7, truth_b=truth_b, n_resamples=199,
                       rng=np.random.default_rng(5))
        assert out["ci:default"] == hit
    assert out["p:default"] == pytest.approx(2 * sps.norm.sf(abs(p12 - p21) / se), rel=1e-10)
    assert out["p:paired_t"] == pytest.approx(paired.pvalue, rel=1e-10)
    low, high = proportion_confint(int(a.sum()), 60, method="wilson")
    assert out["score:default"] == float(low <= 0.7 <= high) == 1.0
    se = math.hypot(a.std(ddof=1), b.std(ddof=1)) / math.sqrt(60)
    z = (b.mean() - a.mean()) / se
    assert out["p:unpaired_z"] == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-12)
    low, high = sps.binomtest(int(a.sum()), 60).proportion_ci(0.95, method="exact")
    assert out["score:clopper_pearson"] == float(low <= 0.7 <= high)


def test_summarise_gives_rates_mcse_and_verdicts():
    # 400 identical-cell evaluations: 30 rejections (7.5 %) is within 0.05 + 3 MCSE (0.0827); 40 is not
    rows = pd.DataFrame({"variant": "v", "items": 50, "truth": "identical", "replicate": range(400),
                         "p:default": np.r_[np.full(30, 0.01), np.full(370, 0.5)],
                         "p:paired_t": np.r_[np.full(40, 0.01), np.full(360, 0.5)],
                         "ci:default": np.r_[np.zeros(20), np.ones(380)],
                         "ci:paired_t": np.r_[np.zeros(40), np.ones(360)]})
    out = summarise(rows)
    assert out.method.tolist() == ["default", "default", "paired_t", "paired_t"]      # the order of COLUMNS
    out = out.set_index(["method", "measure"])
    assert out.loc[("default", "size"), "rate"] == 0.075 and out.loc[("default", "size"), "verdict"] == "holds alpha"
    assert out.loc[("default", "size"), "mcse"] == pytest.approx(math.sqrt(0.075 * 0.925 / 400))
    assert out.loc[("paired_t", "size"), "verdict"] == "liberal"
    assert out.loc[("default", "coverage"), "verdict"] == "covers"
    assert out.loc[("paired_t", "coverage"), "verdict"] == "undercovers"
    assert out.loc[("paired_t", "coverage"), "rate"] == 0.9
    # with 10 evaluations the band reaches 0: no verdict
    assert set(summarise(rows.iloc[:10]).verdict) == {"undetermined"}


def test_configuration_errors_name_the_field():
    with pytest.raises(ScenarioError, match=r"harness.variants.p.disagreement"):
        parse_settings({"variants": {"p": {"generator": "pair"}}}, None)
    with pytest.raises(ScenarioError, match=r"harness.variants.c.cluster_size"):
        parse_settings({"variants": {"c": {"cluster_sd": 0.5}}}, None)
    with pytest.raises(ScenarioError, match=r"harness.variants.p: accuracies"):
        parse_settings({"variants": {"p": {"generator": "pair", "accuracy": 0.9, "difference": 0.4,
                                           "disagreement": 0.1}}}, None)
    with pytest.raises(ScenarioError, match=r"harness.variants.p.samples: a pair variant"):
        parse_settings({"variants": {"p": {"generator": "pair", "difference": 0.05, "disagreement": 0.2, "samples": 3}}},
                       None)
    with pytest.raises(ScenarioError, match=r"harness.items: 30 items make fewer than 2 clusters of 20"):
        parse_settings({"variants": {"c": {"cluster_sd": 0.5, "cluster_size": 20}}, "items": [30, 500]}, None)
    settings = parse_settings({"variants": {"a": {}, "b": {"samples": 3}}, "replicates": 10, "chunk_size": 4}, None)
    assert [list(r) for r in settings.chunks()] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert settings.for_variant("b").variants == (Variant("b", samples=3),)


def test_each_models_cluster_effect_clusters_the_differences():
    """With a model x cluster effect the per-cluster mean differences vary more than items alone explain."""
    variant = Variant("c", cluster_sd=1.0, cluster_interaction_sd=0.8, cluster_size=50)
    a, b, clusters = simulate_items(variant, "identical", 20_000, np.random.default_rng(8))
    d = b[:, 0] - a[:, 0]
    between = pd.Series(d).groupby(clusters).mean().var(ddof=1)
    alone = d.var(ddof=1) / variant.cluster_size              # if items were independent
    assert between > 2 * alone
    plain = Variant("c", cluster_sd=1.0, cluster_size=50)
    a, b, clusters = simulate_items(plain, "identical", 20_000, np.random.default_rng(8))
    d = b[:, 0] - a[:, 0]
    assert pd.Series(d).groupby(clusters).mean().var(ddof=1) < 1.5 * d.var(ddof=1) / plain.cluster_size
