"""ASO as Dror et al. (2019) computed it, against outputs of their released script (fixture)."""
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special

import simstats
from simstats.stats.aso import SmallSampleWarning, sorted_resample_indices
from simstats.studies.dror2019.conventions import dror2019_aso, dror2019_u_test, dror2019_violation_ratio

DATA = Path(__file__).resolve().parents[2] / "data" / "dror2019_asd"
INPUTS = pd.read_csv(DATA / "inputs.csv")
OUTPUTS = pd.read_csv(DATA / "outputs.csv")


def samples(case):
    sel = INPUTS[INPUTS.case == case]
    return sel[sel.algorithm == "A"].score.to_numpy(), sel[sel.algorithm == "B"].score.to_numpy()


@pytest.mark.parametrize("row", list(OUTPUTS.itertuples(index=False)), ids=list(OUTPUTS.case))
def test_dror2019_method_reproduces_the_released_script(row):
    a, b = samples(row.case)
    assert (a.size, b.size) == (row.n, row.m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        res = dror2019_aso(a, b, confidence_level=1 - row.alpha, n_resamples=1000, rng=7)
    # the violation ratio on the grid from 0 is deterministic: equal up to summation order
    assert res.violation_ratio == pytest.approx(row.violation_ratio, abs=1e-12)
    # sigma is the sd of 1,000 bootstrap epsilons: the sd of an sd estimate from B = 1,000 is about
    # sigma / sqrt(2 B) = 2.2 % (more for the heavy-tailed near-zero cases), two independent runs
    # differ by 3.2 %: 15 % is 4.7 of those; below 1e-3 the epsilons are rare tiny violations
    if row.sigma > 1e-3:
        assert res.sigma == pytest.approx(row.sigma, rel=0.15)
    else:
        assert res.sigma < 1e-3
    theirs_margin = row.min_epsilon - row.violation_ratio
    assert res.statistic == pytest.approx(row.min_epsilon, abs=max(0.15 * theirs_margin, 1e-5))
    # the released margin: Phi^-1(1 - alpha) sigma / sqrt(500), about 0.1 sigma at alpha = 0.01
    margin = special.ndtri(1 - row.alpha) * res.sigma / math.sqrt(500)
    if 0 < res.statistic < 1:
        assert res.statistic - res.violation_ratio == pytest.approx(margin, rel=1e-9)
    assert dror2019_u_test(a, b) == row.u_pvalue


def test_dror2019_margin_is_far_smaller_than_deepsigs():
    a, b = samples("same_50_50")
    ours = dror2019_aso(a, b, confidence_level=0.99, rng=1)
    deep = simstats.aso(a, b, confidence_level=0.99, method="deepsig", rng=1)
    assert ours.statistic - ours.violation_ratio < 0.2 * (deep.statistic - deep.violation_ratio)


def test_dror2019_coinciding_samples_give_zero_as_released():
    x = np.array([0.5, 0.6, 0.7, 0.8])
    assert dror2019_violation_ratio(x, x.copy()) == 0.0
    assert simstats.violation_ratio(x, x.copy(), method="grid") == 0.5


def test_order_statistics_are_the_sorted_draws_at_the_positions():
    """The dror2019 bootstrap sorts each replicate's draws (as the released script does) and reads the
    order statistics at the grid positions."""
    pos = np.array([0, 100, 500, 999])
    ours = sorted_resample_indices(50, 200, np.random.default_rng(0), 1000)[:, pos]
    draws = np.sort(np.random.default_rng(0).integers(0, 50, (200, 1000), dtype=np.int16), axis=1)
    assert np.array_equal(ours, draws[:, pos])
    assert ours.min() >= 0 and ours.max() <= 49


def test_order_statistics_follow_the_exact_discrete_distribution():
    """P(X_(k) <= v) of draws i.i.d. uniform indices on {0..n-1} is P(Binom(draws, (v + 1) / n) >= k):
    the empirical CDF of 20,000 replicates stays within the 99.9 % Kolmogorov band of it."""
    from scipy import stats

    n, draws, reps = 50, 1000, 20_000
    pos = np.array([0, 100, 500, 999])
    ours = sorted_resample_indices(n, reps, np.random.default_rng(3), draws)[:, pos]
    band = 1.95 / math.sqrt(reps)
    for j, k in enumerate(pos + 1):
        v = np.arange(n)
        exact = stats.binom.sf(k - 1, draws, (v + 1) / n)
        empirical = (ours[:, j][:, None] <= v[None, :]).mean(axis=0)
        assert np.abs(empirical - exact).max() < band, k
