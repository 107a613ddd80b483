"""The test_shift_mixture seed distribution: parsing, draws, closed forms against
scipy, exact one-component identities and simulation (tolerances from Monte Carlo errors), and
Evaluations 1-2 in closed form (``simstats.studies.reimers2018.selection``)."""
import math

import numpy as np
import pytest
from scipy import stats

from simstats.sim.noise import bivariate_normal_cdf, draw_abilities, mixture_spearman, seed_quadrature
from simstats.sim.scenario import ScenarioError, parse_scenario
from simstats.sim.closed_forms import component_moments, implied_values
from simstats.studies.noise.simulate import STATISTICS, simulate_chunk, summarise
from simstats.studies.reimers2018.selection import (difference_density, evaluation_values,
                                                    mixture_difference_values, selected_test_density)

SEED = 11
MIX = {"family": "test_shift_mixture", "low_prob": 0.2, "low_theta": 0.05, "low_shift": 0.2}


def mixture_scenario(**extra):
    return parse_scenario("mix", {"metric": "accuracy", "target": 0.8, "dev": {"items": 1000},
                                  "test": {"items": 1000}, "sigma_seed": 0.05, "sigma_shift": 0.04, "sigma_e": 0.6,
                                  "seed_distribution": MIX, **extra})


def test_parse_needs_all_three_parameters_and_only_them():
    sc = mixture_scenario()
    assert sc.seed_distribution.components == ((0.8, 0.0, 0.0), (0.2, 0.05, 0.2))
    with pytest.raises(ScenarioError, match=r"seed_distribution.low_shift: required field is missing"):
        mixture_scenario(seed_distribution={k: v for k, v in MIX.items() if k != "low_shift"})
    with pytest.raises(ScenarioError, match=r"seed_distribution.failure_prob: not a parameter"):
        mixture_scenario(seed_distribution={**MIX, "failure_prob": 0.1})
    with pytest.raises(ScenarioError, match=r"low_shift"):
        mixture_scenario(seed_distribution={**MIX, "low_shift": -0.1})


def test_low_runs_drop_by_exactly_the_configured_amounts():
    mix, plain = mixture_scenario(), mixture_scenario(seed_distribution={"family": "normal"})
    idx = np.arange(4000)
    a, b = draw_abilities(mix, "A", idx, SEED), draw_abilities(plain, "A", idx, SEED)
    low = a.failed
    # share of low runs: binomial, 4 se
    assert abs(low.mean() - 0.2) < 4 * math.sqrt(0.2 * 0.8 / idx.size)
    assert np.allclose(a.theta[low], b.theta[low] - 0.05) and np.array_equal(a.theta[~low], b.theta[~low])
    assert np.allclose(a.delta[low], b.delta[low] - 0.2) and np.array_equal(a.delta[~low], b.delta[~low])


def test_quadrature_carries_each_components_weight_and_shift():
    nodes, weights, shifts, comp = seed_quadrature(mixture_scenario(), "A")
    assert weights.sum() == pytest.approx(1.0, abs=1e-12)
    assert weights[comp == 1].sum() == pytest.approx(0.2, abs=1e-12)
    assert set(shifts[comp == 1]) == {-0.2} and set(shifts[comp == 0]) == {0.0}
    mean0 = np.sum(weights[comp == 0] * nodes[comp == 0]) / 0.8
    mean1 = np.sum(weights[comp == 1] * nodes[comp == 1]) / 0.2
    assert mean0 - mean1 == pytest.approx(0.05, abs=1e-10)


@pytest.mark.parametrize("h, k, rho", [(0.3, -1.2, 0.4), (0.0, 1.0, 0.5), (0.0, -1.0, -0.3), (-0.5, 0.0, 0.2),
                                       (2.0, 3.0, -0.9), (0.0, 0.0, 0.3), (-1.5, -0.7, 0.95)])
def test_bivariate_normal_cdf_matches_scipy(h, k, rho):
    ref = stats.multivariate_normal([0, 0], [[1, rho], [rho, 1]]).cdf([h, k])
    assert bivariate_normal_cdf(h, k, rho) == pytest.approx(ref, abs=1e-7)


def test_mixture_spearman_is_the_closed_form_for_one_component_and_matches_a_large_sample():
    assert mixture_spearman([1.0], [[0, 0]], [[[1, 0.3], [0.3, 1]]]) == pytest.approx(6 / math.pi * math.asin(0.15),
                                                                                       abs=1e-14)
    w, m = [0.8, 0.2], [[0.0, 0.0], [-0.5, -2.5]]
    c = [[[1, 0.25], [0.25, 1]], [[1, 0.25], [0.25, 1.3]]]
    rng = np.random.default_rng(0)
    n = 200_000
    low = rng.random(n) < 0.2
    x = np.empty((n, 2))
    for i, mask in enumerate((~low, low)):
        x[mask] = rng.multivariate_normal(m[i], c[i], mask.sum())
    sample = stats.spearmanr(x[:, 0], x[:, 1]).statistic
    # se of Spearman's rho about 1.06 (1 - rho^2) / sqrt(n) < 0.0025; 4 se
    assert mixture_spearman(w, m, c) == pytest.approx(sample, abs=0.01)


def test_simulated_statistics_agree_with_the_mixtures_implied_values():
    sc = mixture_scenario()
    scores, pairs = simulate_chunk(sc, SEED, 0, 800)
    summary = summarise(sc, scores, pairs, SEED, n_resamples=300)
    assert list(summary.statistic[summary.approach == "A"]) == STATISTICS
    assert np.isfinite(summary.implied).all()             # Spearman too, for this family
    assert summary.z_vs_implied.abs().max() < 4           # 28 z-scores
    v = implied_values(sc, "A")
    # the low runs add to the test spread more than to the dev spread
    assert v["sd_psi_true_test"] > v["sd_psi_true_dev"]


def _parts(rho=0.3, low=None):
    core = {"weight": 1.0 if low is None else 0.8, "mean_dev": 0.0, "mean_test": 0.0, "var_dev": 1.0,
            "var_test": 1.0, "cov": rho, "var_x_test": 0.25}
    if low is None:
        return [core]
    return [core, {**core, "weight": 0.2, "mean_dev": -low[0], "mean_test": -low[1]}]


@pytest.mark.parametrize("parts", [_parts(), _parts(low=(0.5, 2.5))])
def test_evaluation_one_on_the_grid_equals_the_exact_mixture(parts):
    exact, grid = mixture_difference_values(parts), evaluation_values(parts, 1)
    assert grid["pct_significant"] == pytest.approx(exact["pct_significant"], abs=0.01)
    assert grid["delta95_test"] == pytest.approx(exact["delta95_test"], rel=1e-3)
    assert grid["tau"] == pytest.approx(exact["tau"], rel=2e-3)


def test_one_normal_component_gives_the_normal_closed_forms():
    exact = mixture_difference_values(_parts())
    # Delta ~ N(0, 2); significant when |Delta| > 1.645 sqrt(2 x 0.25)
    assert exact["pct_significant"] == pytest.approx(100 * 2 * stats.norm.sf(stats.norm.isf(0.05) * 0.5), abs=1e-9)
    assert exact["delta95_test"] == pytest.approx(100 * stats.norm.isf(0.025) * math.sqrt(2), rel=1e-10)


@pytest.mark.parametrize("n", [1, 5, 50])
def test_best_of_n_selection_matches_simulation(n):
    parts = _parts(rho=0.4, low=(0.5, 2.5))
    t, g = selected_test_density(parts, n)
    assert np.sum(g) * (t[1] - t[0]) == pytest.approx(1.0, abs=1e-6)
    grid, dens = difference_density(t, g)
    assert np.sum(dens) * (grid[1] - grid[0]) == pytest.approx(1.0, abs=1e-6)
    # simulate: 20,000 groups of n runs per approach, the best-by-dev run's test score
    rng = np.random.default_rng(n)
    groups = 20_000

    def picked():
        low = rng.random((groups, n)) < 0.2
        z = rng.multivariate_normal([0, 0], [[1, 0.4], [0.4, 1]], (groups, n))
        dev, test = z[..., 0] - 0.5 * low, z[..., 1] - 2.5 * low
        return test[np.arange(groups), np.argmax(dev, axis=1)]

    a, b = picked(), picked()
    mean = np.sum(t * g) * (t[1] - t[0])
    assert mean == pytest.approx(a.mean(), abs=4 * a.std() / math.sqrt(groups))
    share = np.mean(np.abs(a - b) > stats.norm.isf(0.05) * math.sqrt(0.5))
    pct = evaluation_values(parts, n)["pct_significant"] / 100
    assert pct == pytest.approx(share, abs=4 * math.sqrt(share * (1 - share) / groups))


def test_component_moments_refuse_families_they_cannot_split():
    sc = mixture_scenario(seed_distribution={"family": "failure_mixture", "failure_prob": 0.1, "failure_shift": -1})
    with pytest.raises(ValueError, match="normal or test_shift_mixture"):
        component_moments(sc, "A")


def test_bivariate_normal_cdf_signs_survive_underflow():
    assert bivariate_normal_cdf(-1e-200, -1e-200, 0.3) == pytest.approx(0.25 + math.asin(0.3) / (2 * math.pi))
    assert bivariate_normal_cdf(1e-200, -1e-200, 0.3) == pytest.approx(0.25 + math.asin(0.3) / (2 * math.pi))
