"""Approach x item interaction: each approach's own item offsets. Closed forms against
simulation with tolerances from Monte Carlo errors; the shared draws are unchanged."""
import math

import numpy as np
import pytest

from simstats.sim.noise import Population, make_item_set, simulate_models
from simstats.sim.scenario import ScenarioError, parse_scenario
from simstats.studies.noise.simulate import simulate_chunk, summarise

SEED = 3


def scenario(sigma_ai=0.5, **extra):
    return parse_scenario("ai", {"metric": "accuracy", "target": 0.75, "dev": {"items": 400}, "test": {"items": 400},
                                 "sigma_seed": 0.0, "sigma_e": 0.8, "sigma_approach_item": sigma_ai, **extra})


def test_parse_default_zero_and_negative_is_an_error():
    assert parse_scenario("x", {"metric": "accuracy", "target": 0.7, "dev": {"items": 10},
                                "test": {"items": 10}}).sigma_approach_item == 0.0
    with pytest.raises(ScenarioError, match=r"sigma_approach_item: must be >= 0"):
        scenario(-0.1)


def test_offsets_change_only_the_approachs_thresholds():
    with_ai, without = make_item_set(scenario(0.5), "test", SEED), make_item_set(scenario(0.0), "test", SEED)
    assert np.array_equal(with_ai.threshold, without.threshold)          # the shared draws are unchanged
    assert without.for_approach("A") is without
    a, b = with_ai.for_approach("A"), with_ai.for_approach("B")
    off_a, off_b = a.threshold - with_ai.threshold, b.threshold - with_ai.threshold
    # 400 offsets each: sd 0.5 within 4 se (se of an sd about 0.5 / sqrt(800)), A and B independent
    assert abs(off_a.std() - 0.5) < 4 * 0.5 / math.sqrt(800) and abs(off_b.std() - 0.5) < 4 * 0.5 / math.sqrt(800)
    assert abs(np.corrcoef(off_a, off_b)[0, 1]) < 4 / math.sqrt(400)


def test_population_scale_and_correlations_include_the_interaction():
    pop = Population(scenario(0.5))
    assert pop.s == pytest.approx(math.sqrt(1 + 0.25 + 0.64))
    same, across = pop.pair_correlation(0.0), pop.pair_correlation(0.0, same_approach=False)
    assert same > across > 0
    assert Population(scenario(0.0)).pair_correlation(0.0) == pytest.approx(
        Population(scenario(0.0)).pair_correlation(0.0, same_approach=False))


def test_simulated_within_approach_statistics_agree_with_the_closed_forms():
    sc = scenario(0.5, sigma_seed=0.05)
    scores, pairs = simulate_chunk(sc, SEED, 0, 400)
    summary = summarise(sc, scores, pairs, SEED, n_resamples=200)
    assert summary.z_vs_implied.abs().max() < 4


def test_variance_of_the_approach_difference_over_item_sets_matches_the_closed_form():
    sc = scenario(0.5)
    pop = Population(sc)
    mu = pop.mu("A")
    diffs = []
    for dataset in range(300):
        items = make_item_set(sc, "test", SEED, dataset=dataset)
        e_a, _ = pop.given_items(mu, items.for_approach("A"))
        e_b, _ = pop.given_items(mu, items.for_approach("B"))
        diffs.append(float(e_a[0] - e_b[0]))
    diffs = np.array(diffs)
    closed = pop.approach_item_variance(mu, "test")
    # the variance of 300 draws has relative se about sqrt(2 / 299) = 8 %; 4 se; the mean is 0
    assert diffs.var(ddof=1) == pytest.approx(closed, rel=4 * math.sqrt(2 / 299))
    assert abs(diffs.mean()) < 4 * math.sqrt(closed / 300)
    assert Population(scenario(0.0)).approach_item_variance(mu, "test") == pytest.approx(0.0, abs=1e-15)


def test_simulated_models_follow_their_approachs_expected_score_on_the_set():
    sc = scenario(0.8)
    items = {s: make_item_set(sc, s, SEED) for s in ("dev", "test")}
    pop = Population(sc)
    for name in ("A", "B"):
        batch = simulate_models(sc, name, 0, 300, SEED, item_sets=items)
        expected, var = pop.given_items(pop.mu(name), items["test"].for_approach(name))
        # 300 models with sd sqrt(var) each: 4 se
        assert batch.psi["test"].mean() == pytest.approx(expected[0], abs=4 * math.sqrt(var[0] / 300))


def test_simulated_across_approach_correlation_matches_the_closed_form():
    sc = scenario(0.6)
    items = {s: make_item_set(sc, s, SEED) for s in ("dev", "test")}
    pop = Population(sc)
    a = simulate_models(sc, "A", 0, 60, SEED, item_sets=items, keep_outcomes=("test",)).outcomes["test"]
    b = simulate_models(sc, "B", 0, 60, SEED, item_sets=items, keep_outcomes=("test",)).outcomes["test"]
    within = np.mean([np.corrcoef(a[i], a[i + 30])[0, 1] for i in range(30)])
    across = np.mean([np.corrcoef(a[i], b[i])[0, 1] for i in range(60)])
    # one item set: over 20 sets the per-set means of these averages had sd 0.021 (within) and 0.023 (across)
    # around 0.448 and 0.311 (closed forms 0.451 and 0.308); 0.06 is about 3 of those sd
    assert within == pytest.approx(pop.pair_correlation(pop.mu("A")), abs=0.06)
    assert across == pytest.approx(pop.pair_correlation(pop.mu("A"), same_approach=False), abs=0.06)
    assert within - across > 0.05          # the interaction separates them


def test_for_approach_refuses_another_approachs_view():
    view = make_item_set(scenario(0.5), "test", SEED).for_approach("A")
    assert view.for_approach("A") is view
    with pytest.raises(ValueError, match="already 'A'"):
        view.for_approach("B")
