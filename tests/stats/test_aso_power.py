"""Size and power of ASO, Welch and MWU (simstats.aso_power)."""
import math
import warnings

import numpy as np
import pytest
from scipy import special
from statsmodels.stats.power import TTestIndPower

from simstats.stats.aso import aso
from simstats.studies.dror2019.size_power import compare_once, robust_sd, size_power


def test_robust_sd_is_the_sd_for_normal_scores_and_ignores_a_small_tail():
    rng = np.random.default_rng(0)
    x = rng.normal(0.8, 0.01, 20_000)
    assert robust_sd(x) == pytest.approx(0.01, rel=0.03)
    tailed = np.concatenate([x, np.full(1000, 0.3)])
    assert robust_sd(tailed) == pytest.approx(0.01, rel=0.08)
    assert np.std(tailed) > 10 * 0.01


def test_both_directions_of_aso_come_from_one_bootstrap():
    rng = np.random.default_rng(4)
    a, b = rng.normal(0, 1, 30), rng.normal(0.3, 1, 30)
    res_ba = aso(b, a, confidence_level=1 - 0.01, rng=np.random.default_rng(9))
    # eps_W2(A, B) = 1 - eps_W2(B, A) and the resampled ratios mirror too, so sigma-hat is shared
    res_ab = aso(a, b, confidence_level=1 - 0.01, rng=np.random.default_rng(9))
    assert res_ab.violation_ratio == pytest.approx(1 - res_ba.violation_ratio, abs=1e-12)
    assert res_ab.sigma == pytest.approx(res_ba.sigma, rel=0.15)   # different resample pairing
    claims = compare_once(a, b, np.random.default_rng(9), alpha=0.05, alpha_aso=0.01, n_resamples=1000)
    for t in (0.2, 0.4, 0.5):
        expected = 1 if res_ba.statistic < t else 0
        if expected == 0:
            const = math.sqrt(30 * 30 / 60)
            eps_a = min(1.0, max(0.0, res_ab.violation_ratio + special.ndtri(0.99) * res_ba.sigma / const))
            expected = -1 if eps_a < t else 0
        assert claims[f"aso_{t}"] == expected


def test_welch_and_mwu_hold_size_and_welch_power_matches_normal_theory():
    pool = np.random.default_rng(1).normal(0.8, 0.01, 20_000)
    rows = size_power(pool, "normal", n_runs=[20], shifts=[0.0, 1.0], replicates=400,
                      rng=np.random.default_rng(2), n_resamples=200).set_index(["shift_sd", "method"])
    mcse = math.sqrt(0.05 * 0.95 / 400)
    for method in ("welch", "mannwhitney"):
        assert abs(rows.loc[(0.0, method), "claims_any"] - 0.05) <= 3 * mcse
    theory = TTestIndPower().power(effect_size=1.0 * robust_sd(pool) / pool.std(), nobs1=20, alpha=0.05)
    welch = rows.loc[(1.0, "welch")]
    assert abs(welch.claims_b - theory) <= 3 * welch.claims_b_mcse + 0.01
    assert welch.claims_a == 0.0
    # a looser ASO threshold claims more often, under the null and under the shift
    for shift in (0.0, 1.0):
        key = "claims_any" if shift == 0 else "claims_b"
        vals = [rows.loc[(shift, f"aso_{t}"), key] for t in (0.2, 0.4, 0.5)]
        assert vals == sorted(vals)


def test_bad_pools_are_rejected():
    with pytest.raises(ValueError, match="need >= 10 finite scores"):
        size_power(np.array([0.8, np.nan] * 10), "x", n_runs=[5], shifts=[0.0], replicates=10,
                   rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="do not vary"):
        size_power(np.full(50, 0.8), "x", n_runs=[5], shifts=[0.0], replicates=10, rng=np.random.default_rng(0))


@pytest.mark.parametrize("n", [3, 5, 8, 9, 20])
def test_batched_claims_equal_one_comparison_at_a_time(n):
    """Welch and the U test along axis 1 (ties and exact U tests apart) claim what compare_once claims."""
    from simstats.studies.dror2019.size_power import _claims

    rng = np.random.default_rng(n)
    pool = np.round(rng.normal(0.8, 0.01, 200), 3)          # rounded: ties within many comparisons
    a = pool[rng.integers(0, pool.size, (60, n))]
    b = pool[rng.integers(0, pool.size, (60, n))] + rng.choice([0.0, 0.005, 0.01], (60, 1))
    single = []
    for r in range(60):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # scipy: nearly identical samples
            single.append(compare_once(a[r], b[r], np.random.default_rng(r), alpha=0.05, alpha_aso=0.01,
                                       n_resamples=50))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        batched = _claims(a, b, np.ones(60), np.ones(60), alpha=0.05)     # ASO: claimed per comparison
    for method in ("welch", "mannwhitney"):
        assert list(batched[method]) == [s[method] for s in single], method
