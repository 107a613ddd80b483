import math

import numpy as np
import pytest
from scipy import stats

from simstats.sim.noise import simulate_models
from simstats.sim.scenario import ScenarioError
from simstats.sim.score_level import ScoreDistribution, StandardisedNoise, simulate_scores

SEED = 99


@pytest.mark.parametrize("noise", [
    StandardisedNoise("gaussian"),
    StandardisedNoise("student_t", df=5),
    StandardisedNoise("skew_normal", shape=4),
    StandardisedNoise("mixture", weights=(0.9, 0.1), locs=(0.0, -4.0), scales=(1.0, 2.0)),
])
def test_noise_families_are_standardised(noise):
    n = 400_000
    x = noise.sample(np.random.default_rng(1), n)
    assert abs(x.mean()) < 5 / math.sqrt(n) * 1.0
    # sd of the sample variance uses the family's kurtosis
    kurt = stats.kurtosis(x, fisher=False)
    assert abs(x.var() - 1) < 5 * math.sqrt((kurt - 1) / n)


def test_mixture_is_left_skewed_and_invalid_families_are_rejected():
    x = StandardisedNoise("mixture", weights=(0.9, 0.1), locs=(0.0, -4.0), scales=(1.0, 1.0)).sample(
        np.random.default_rng(2), 50_000)
    assert stats.skew(x) < -1
    with pytest.raises(ScenarioError, match="noise.df"):
        StandardisedNoise("student_t", df=2)
    with pytest.raises(ScenarioError, match="noise.weights"):
        StandardisedNoise("mixture", weights=(0.5, 0.2), locs=(0, 1), scales=(1, 1))
    with pytest.raises(ScenarioError, match="noise.family"):
        StandardisedNoise.from_mapping({"family": "cauchy"})


def test_score_distribution_location_and_scale():
    d = ScoreDistribution(0.9, 0.01, StandardisedNoise("student_t", df=4))
    x = d.sample(np.random.default_rng(3), 200_000)
    assert abs(x.mean() - 0.9) < 5 * 0.01 / math.sqrt(200_000)


@pytest.mark.parametrize("metric", ["accuracy", "f1"])
def test_score_level_agrees_with_instance_level(make_scenario, metric):
    split = {"items": 1500} if metric == "accuracy" else {"gold": 1500, "spurious": 1500}
    sc = make_scenario(metric=metric, target=0.85, dev=split, test=split, sigma_seed=0.03, sigma_shift=0.02)
    m = 2500
    inst = simulate_models(sc, "A", 0, m, SEED)
    score = simulate_scores(sc, "A", 0, m, SEED)
    for split_name in ("dev", "test"):
        # same abilities, same closed-form truth
        assert np.array_equal(inst.psi_true[split_name], score.psi_true[split_name])
        # X: same spread across models (instance X also carries a common test-set offset)
        a, b = inst.x(split_name).var(ddof=1), score.x(split_name).var(ddof=1)
        tol = 4 * math.sqrt(2 / (m - 1)) * math.sqrt(2) * max(a, b)
        assert abs(a - b) < tol + 0.08 * b  # expectation over sets vs this set: a few % (see test_noise)
        assert abs(score.x(split_name).mean()) < 4 * math.sqrt(b / m)
    c_inst = np.corrcoef(inst.psi["dev"], inst.psi["test"])[0, 1]
    c_score = np.corrcoef(score.psi["dev"], score.psi["test"])[0, 1]
    assert abs(c_inst - c_score) < 4 * math.sqrt(2) * (1 - c_score**2) / math.sqrt(m)


def test_score_level_is_chunk_invariant(make_scenario):
    sc = make_scenario(sigma_seed=0.02)
    whole = simulate_scores(sc, "A", 0, 50, SEED, noise=StandardisedNoise("skew_normal", shape=3))
    part = simulate_scores(sc, "A", 20, 50, SEED, noise=StandardisedNoise("skew_normal", shape=3))
    assert np.array_equal(whole.psi["test"][20:], part.psi["test"])
