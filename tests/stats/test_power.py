"""The planner: linearised per-item values, variance components, and predicted variance and
power against a simulation of the seeds x items test."""
import math

import numpy as np
import pytest

import simstats
from simstats.stats.approaches import compare_approaches
from simstats.stats.power import linearised_item_values, minimum_detectable_difference, plan, power, \
    variance_components


def world(rng, k, n, difference=0.0, seed_sd=0.01, interaction_sd=0.05):
    """Per-item correctness of k runs per approach: P(correct) = easiness_i + c_ji + u_r (+ difference for A)."""
    easiness = np.clip(rng.beta(4, 1.5, n), 0.02, 0.98)
    runs = []
    for j in range(2):
        c = rng.normal(0, interaction_sd, n)
        for _ in range(k):
            q = np.clip(easiness + c + rng.normal(0, seed_sd) + (difference if j == 0 else 0.0), 0, 1)
            runs.append(np.stack([rng.random(n) < q, np.ones(n, bool)], 1))
    return np.stack(runs).astype(float), ["A"] * k + ["B"] * k


def pilot(*args, **kwargs):
    stats, labels = world(*args, **kwargs)
    return stats, simstats.accuracy, labels


study = pilot


def test_linearised_values_average_to_each_runs_metric():
    rng = np.random.default_rng(0)
    acc, _ = world(rng, 2, 300)
    assert np.allclose(linearised_item_values(acc, simstats.accuracy), acc[:, :, 0], atol=1e-8)
    x = np.stack([np.stack([rng.random(200) < 0.6, np.ones(200), rng.random(200) < 0.1], 1) for _ in range(3)])
    x[:, :, 0] *= x[:, :, 1]
    y = linearised_item_values(x.astype(float), simstats.f1)
    assert np.allclose(y.mean(axis=1), simstats.f1(x.sum(axis=1)), atol=1e-12)
    with pytest.raises(ValueError, match="scale-free"):
        linearised_item_values(x, simstats.custom_metric("sum", ("a", "b", "c"), lambda s: s[..., 0]))


def test_components_of_a_large_pilot_are_close_to_the_truth():
    comp = variance_components(*pilot(np.random.default_rng(1), 20, 5000))
    assert comp.seed == pytest.approx(0.01**2, rel=0.5)               # 20 + 20 seeds: chi-square with 38 df
    assert comp.interaction == pytest.approx(2 * 0.05**2, rel=0.15)   # 5,000 items
    assert 0.1 < comp.residual < 0.25 and comp.runs == (20, 20) and comp.items == 5000


def test_predicted_variance_and_power_match_the_simulated_test():
    """V(k, n) against the variance of the estimated difference over 150 simulated studies
    (rel. SE of a variance from 150 draws: 11.6 %, tolerance 3 SE), V* against the bootstrap's
    mean variance, and the predicted power against the simulated rejection rate within 3 MCSE."""
    comp = variance_components(*pilot(np.random.default_rng(2), 10, 2000))
    rng = np.random.default_rng(3)
    k, n, R, d = 10, 1000, 150, 0.02
    deltas, vstar, hits = [], [], 0
    for r in range(R):
        null = compare_approaches(*study(rng, k, n), n_resamples=300, rng=r)
        deltas.append(null.statistic)
        vstar.append(null.variance["both"])
        alt = compare_approaches(*study(rng, k, n, difference=d), n_resamples=300, rng=R + r)
        hits += alt.pvalue < 0.05
    assert np.var(deltas, ddof=1) == pytest.approx(comp.variance(k, n), rel=3 * math.sqrt(2 / (R - 1)))
    assert np.mean(vstar) == pytest.approx(comp.bootstrap_variance(k, n), rel=0.15)
    simulated = hits / R
    predicted = float(power(comp, k, n, d))
    assert abs(predicted - simulated) < 3 * math.sqrt(predicted * (1 - predicted) / R)


def test_plan_table_and_minimum_detectable_difference():
    comp = variance_components(*pilot(np.random.default_rng(4), 5, 1000))
    table = plan(comp, seeds=(3, 10), items=(1000, 4000), difference=0.02)
    assert list(table.columns) == ["seeds", "items", "se", "mdd", "power"] and len(table) == 4
    assert table.se.is_monotonic_decreasing
    mdd = minimum_detectable_difference(comp, 10, 1000)
    assert float(power(comp, 10, 1000, mdd)) == pytest.approx(0.8, abs=1e-9)
    with pytest.raises(ValueError, match="at least 2 pilot runs"):
        variance_components(*pilot(np.random.default_rng(5), 1, 100))
