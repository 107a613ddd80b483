import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.stats.aso import MIN_SCORES, SmallSampleWarning, aso, cos_verdict, multi_aso, violation_ratio


def brute_force_ratio(a, b, points=400_000):
    """Midpoint rule on a fine grid with the empirical quantile functions x_(ceil(n t))."""
    t = (np.arange(points) + 0.5) / points
    fa = np.sort(a)[np.ceil(len(a) * t).astype(int) - 1]
    gb = np.sort(b)[np.ceil(len(b) * t).astype(int) - 1]
    d = gb - fa
    return np.sum(np.where(d > 0, d * d, 0)) / np.sum(d * d)


@pytest.mark.parametrize("n, m", [(7, 7), (13, 29), (50, 41), (120, 87)])
def test_exact_violation_ratio_matches_fine_grid_and_is_symmetric(n, m):
    rng = np.random.default_rng(n * 1000 + m)
    a = rng.normal(0.90, 0.010, n)
    b = rng.normal(0.899, 0.014, m)
    exact = violation_ratio(a, b)
    assert exact == pytest.approx(brute_force_ratio(a, b), abs=2e-4)
    assert exact + violation_ratio(b, a) == pytest.approx(1.0, abs=1e-12)


def test_stochastic_order_and_identical_samples():
    rng = np.random.default_rng(1)
    b = rng.normal(0.8, 0.02, 60)
    a = b + 0.05                                   # A stochastically larger than B
    res = aso(a, b, rng=2)
    assert res.violation_ratio == 0 and res.statistic == 0 and res.almost_stochastically_larger(0.5)
    assert aso(b, a, rng=2).statistic == 1
    same = aso(b, b.copy(), rng=3)
    assert same.violation_ratio == 0.5 and same.statistic >= 0.5 and not same.almost_stochastically_larger(0.5)


def test_eps_min_is_approximately_symmetric_for_large_samples():
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.902, 0.01, 3000), rng.normal(0.9, 0.01, 3000)
    ab, ba = aso(a, b, rng=5), aso(b, a, rng=6)
    assert ab.violation_ratio + ba.violation_ratio == pytest.approx(1, abs=1e-12)
    assert abs(ab.statistic - (1 - ba.statistic)) < 2 * (ab.statistic - ab.violation_ratio) + 0.01


def test_deepsig_grid_drops_the_first_point_from_the_violation_integral():
    a = np.array([0.5, 0.90, 0.91, 0.92, 0.93])   # one failed run of A at the bottom
    b = np.array([0.89, 0.90, 0.905, 0.91, 0.92])
    grid, deep = violation_ratio(a, b, method="grid"), violation_ratio(a, b, method="deepsig")
    assert grid > 0.9 and deep < grid


def test_grid_method_approaches_exact_and_bonferroni_raises_eps():
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.9, 0.01, 200), rng.normal(0.898, 0.01, 150)
    assert violation_ratio(a, b, method="grid", dt=0.0005) == pytest.approx(violation_ratio(a, b), abs=5e-3)
    one = aso(a, b, rng=8).statistic
    six = aso(a, b, rng=8, num_comparisons=6).statistic
    assert six > one


def test_minimum_sample_size_guard():
    with pytest.raises(ValueError, match=f"at least {MIN_SCORES} scores"):
        aso([0.9, 0.91], [0.8, 0.85, 0.86], rng=1)
    with pytest.warns(SmallSampleWarning, match="fewer than"):
        aso([0.9, 0.91, 0.92, 0.93], [0.8, 0.85, 0.86, 0.84], rng=1)
    with pytest.raises(ValueError, match="NaN"):
        aso([0.9, np.nan, 0.92, 0.93], [0.8, 0.85, 0.86, 0.84], rng=1)


def test_multi_aso_matrix_and_cos():
    rng = np.random.default_rng(9)
    scores = {"good": rng.normal(0.91, 0.005, 40), "mid": rng.normal(0.90, 0.01, 40), "bad": rng.normal(0.88, 0.02, 40)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mat = multi_aso(scores, rng=10)
    assert np.isnan(mat.loc["good", "good"])
    assert mat.loc["good", "bad"] < 0.5 < mat.loc["bad", "good"]
    assert cos_verdict(scores["good"], scores["bad"]) == 1 and cos_verdict(scores["bad"], scores["good"]) == -1


def deepsig_reference():
    """The 20 pairs of tests/data/deepsig_aso_pairs.py and deepsig's eps_min on them (stored)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "data" / "deepsig_aso_pairs.py"
    spec = importlib.util.spec_from_file_location("deepsig_aso_pairs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stored = pd.read_csv(path.with_suffix(".csv"), comment="#")
    return module, stored


def test_agrees_with_deepsig_on_fixed_pairs():
    """simstats' ASO (deepsig convention) within 0.02 of deepsig's eps_min on 20 pairs (stored values)."""
    module, stored = deepsig_reference()
    pairs = list(module.pairs())
    assert [k for k, *_ in pairs] == list(stored["k"])
    worst = 0.0
    for (k, a, b), theirs in zip(pairs, stored["eps_min"]):
        assert (len(a), len(b)) == (stored["n"][k], stored["m"][k])
        ours = aso(a, b, rng=k, method="deepsig", dt=0.005).statistic
        worst = max(worst, abs(ours - theirs))
    assert worst <= 0.02


@pytest.mark.parametrize("k", [0, 5])
def test_stored_deepsig_values_are_what_the_installed_deepsig_gives(k):
    """Two of the stored pairs recomputed live (one with a failure tail): the reference is deepsig's."""
    pytest.importorskip("deepsig", reason="deepsig (in the [test] and [bench] extras) is not installed")
    module, stored = deepsig_reference()
    _, a, b = next(pair for pair in module.pairs() if pair[0] == k)
    assert module.deepsig_aso(k, a, b) == pytest.approx(stored["eps_min"][k], abs=1e-12)


def test_the_resample_draw_alternatives_give_the_order_statistics():
    """bench/aso_draws.py times other ways to get a resample's order statistics at the grid points: the
    counting sort and the split raw draws give the sort's values from the same seed; all give order
    statistics of n uniform indices (the middle grid point's mean within 3 standard errors of its exact
    value)."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "bench" / "aso_draws.py"     # bench/ is not installed
    spec = importlib.util.spec_from_file_location("aso_draws", path)
    aso_draws = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(aso_draws)

    def generator(seed):
        return np.random.Generator(np.random.PCG64(seed))

    assert np.array_equal(aso_draws.sort(generator(3)), aso_draws.counting(generator(3)))
    assert np.array_equal(aso_draws.sort(generator(3)), aso_draws.raw_split(generator(3)))
    middle = int(np.searchsorted(aso_draws.POINTS, aso_draws.N // 2))
    k = aso_draws.POINTS[middle]
    # exact mean of the (k+1)-th smallest of N uniform indices on 0..N-1: sum over x of P(X > x), where
    # X > x when fewer than k + 1 of the N draws are <= x
    from scipy import stats

    n = aso_draws.N
    expected = float(np.sum(stats.binom.cdf(k, n, (np.arange(n) + 1) / n)))
    for way in (aso_draws.sort, aso_draws.gamma_spacings, aso_draws.raw_split):
        values = np.concatenate([way(generator(s))[:, middle] for s in range(4)]).astype(float)
        assert values.min() >= 0 and values.max() < aso_draws.N
        assert abs(values.mean() - expected) < 3 * values.std() / np.sqrt(values.size), way.__name__


def test_cos_needs_two_scores_per_algorithm():
    from simstats.stats.aso import cos_verdict

    with pytest.raises(ValueError, match="at least 2 scores per algorithm"):
        cos_verdict([0.8], [0.7, 0.75])
