"""The approach t-test over seeds x items (simstats.stats.crossed, simstats.approach_t_test): the mean
squares against statsmodels' ANOVA, the Welch, paired and over-items limits against scipy, the
fitted-components reference against numerical integration, the estimate's bias and the test's size by
simulation (MCSE-based tolerances)."""
import functools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, special, stats as sps

import simstats
from simstats.stats.crossed import (MeanSquare, StudentisedReference, chi2_draws, cluster_values, crossed_variance,
                                    linearised_item_values, two_way_mean_squares)


def _as_stats(values: np.ndarray) -> np.ndarray:
    """(runs, items) float values -> accuracy statistics (value, 1) whose metric is the mean value."""
    return np.stack([values, np.ones_like(values)], axis=2)


def test_mean_squares_match_statsmodels_two_way_anova():
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    rng = np.random.default_rng(3)
    table = rng.normal(size=(4, 9)) + rng.normal(size=(4, 1)) + rng.normal(size=(1, 9))
    frame = pd.DataFrame({"y": table.ravel(), "run": np.repeat(np.arange(4), 9), "item": np.tile(np.arange(9), 4)})
    anova = sm.stats.anova_lm(ols("y ~ C(run) + C(item)", frame).fit())
    expected = (anova.loc["C(run)", "mean_sq"], anova.loc["C(item)", "mean_sq"], anova.loc["Residual", "mean_sq"])
    np.testing.assert_allclose(two_way_mean_squares(table), expected, rtol=1e-10)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_runs_constant_over_items_give_welchs_t_test(alternative):
    rng = np.random.default_rng(5)
    score_a, score_b = rng.normal(0.80, 0.02, 3), rng.normal(0.78, 0.05, 4)
    values = np.repeat(np.r_[score_a, score_b][:, None], 50, axis=1)
    res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 3 + ["B"] * 4,
                                   alternative=alternative, reference="satterthwaite")
    ref = sps.ttest_ind(score_a, score_b, equal_var=False, alternative=alternative)
    assert res.statistic == pytest.approx(score_a.mean() - score_b.mean(), rel=1e-12)
    assert res.t_statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.df == pytest.approx(ref.df, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    ci = sps.ttest_ind(score_a, score_b, equal_var=False).confidence_interval(0.95)   # two-sided, whatever H1
    np.testing.assert_allclose(res.confidence_interval, (ci.low, ci.high), rtol=1e-9)


@functools.lru_cache(maxsize=8)
def _behrens_fisher_sf(t, weights, dfs):
    """P(Z / sqrt(w1 X1 / df1 + w2 X2 / df2) > t), X_j ~ chi-square(df_j), w1 + w2 = 1: numerical
    integration over the two chi-square densities (an independent reference of the fitted-components
    reference with two mean squares)."""
    (w1, w2), (d1, d2) = weights, dfs
    f = lambda y, x: (special.ndtr(-t * math.sqrt(w1 * x / d1 + w2 * y / d2))
                      * sps.chi2.pdf(x, d1) * sps.chi2.pdf(y, d2))
    return integrate.dblquad(f, 0, np.inf, 0, np.inf, epsabs=1e-9, epsrel=1e-7)[0]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_default_reference_with_runs_constant_over_items_is_welchs_statistic_exact_distribution(alternative):
    """Runs constant over items: two mean squares (each approach's runs).  The default reference is
    the distribution of Welch's statistic with the variances at their estimates, computed here by
    numerical integration; the midpoint-rule Latin hypercube of 8,000 draws errs by less than 0.2 %."""
    rng = np.random.default_rng(5)
    score_a, score_b = rng.normal(0.80, 0.02, 3), rng.normal(0.78, 0.05, 4)
    values = np.repeat(np.r_[score_a, score_b][:, None], 50, axis=1)
    res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 3 + ["B"] * 4,
                                   alternative=alternative)
    welch = sps.ttest_ind(score_a, score_b, equal_var=False, alternative=alternative)
    va, vb = score_a.var(ddof=1) / 3, score_b.var(ddof=1) / 4
    weights = (va / (va + vb), vb / (va + vb))
    upper = _behrens_fisher_sf(abs(welch.statistic), weights, (2, 3))
    expected = {"two-sided": 2 * upper, "greater": upper if welch.statistic > 0 else 1 - upper,
                "less": 1 - upper if welch.statistic > 0 else upper}[alternative]
    assert res.t_statistic == pytest.approx(welch.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(expected, rel=2e-3)
    assert res.reference == "parametric" and "fitted-components reference" in res.method


def test_studentised_reference_quantiles_and_floor():
    """One mean square: scipy's t quantiles; a negative term: the draws are floored at the residual part
    as the estimate is, so every draw of the estimate is positive."""
    for df in (1, 3, 30):
        ref = StudentisedReference([MeanSquare("runs", 2.0, df, 0.5)])
        assert ref.isf(0.025) == pytest.approx(sps.t.isf(0.025, df), rel=1e-4)
        assert float(ref.sf(1.3)) == pytest.approx(sps.t.sf(1.3, df), rel=1e-4)
    terms = [MeanSquare("runs", 1.0, 1, 1.0), MeanSquare("residual", 0.9, 50, -1.0), MeanSquare("units", 1.0, 50, 1.0)]
    ref = StudentisedReference(terms)
    draws = [t.coefficient * t.value * chi2_draws(i, t.df) for i, t in enumerate(terms)]
    total, residual = sum(draws), -draws[1]
    assert (total <= 0).sum() > 100                       # the floor is exercised
    np.testing.assert_allclose(ref.ratio[total <= 0] ** 2, residual[total <= 0] / 1.1, rtol=1e-12)
    np.testing.assert_allclose(ref.ratio[total > 0] ** 2, total[total > 0] / 1.1, rtol=1e-12)
    with pytest.raises(ValueError, match="must be positive"):
        StudentisedReference([MeanSquare("runs", 1.0, 3, 1.0), MeanSquare("residual", 2.0, 50, -1.0)])
    with pytest.raises(ValueError, match="reference must be one of"):
        simstats.approach_t_test(_as_stats(np.random.default_rng(0).random((6, 20))), simstats.accuracy,
                                 ["A"] * 3 + ["B"] * 3, reference="normal")


def test_paired_seeds_constant_over_items_give_the_paired_t_test():
    rng = np.random.default_rng(6)
    shared = rng.normal(0, 0.05, 5)                   # what a seed does to both approaches
    score_a, score_b = 0.80 + shared + rng.normal(0, 0.01, 5), 0.79 + shared + rng.normal(0, 0.01, 5)
    values = np.repeat(np.r_[score_a, score_b][:, None], 40, axis=1)
    res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 5 + ["B"] * 5,
                                   seed_id=list(range(5)) * 2)
    ref = sps.ttest_rel(score_a, score_b)
    assert res.paired_seeds and res.df == pytest.approx(4)
    # one mean square: the fitted-components reference is the t distribution (midpoint-rule error only)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-3)
    ci = ref.confidence_interval()
    np.testing.assert_allclose(res.confidence_interval, (ci.low, ci.high), rtol=1e-5)
    unpaired = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 5 + ["B"] * 5,
                                        seed_id=list(range(5)) * 2, paired_seeds=False)
    assert unpaired.pvalue > 10 * res.pvalue          # the shared seed effect hides the difference


def test_runs_that_agree_within_each_approach_give_the_paired_t_test_over_items():
    rng = np.random.default_rng(7)
    item_a, item_b = rng.random(60), rng.random(60)
    values = np.vstack([np.tile(item_a, (3, 1)), np.tile(item_b, (2, 1))])
    with pytest.warns(UserWarning, match="2 runs per approach: .* validated from 3 runs"):
        res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 3 + ["B"] * 2)
    ref = sps.ttest_rel(item_a, item_b)
    assert res.df == pytest.approx(59) and res.pvalue == pytest.approx(ref.pvalue, rel=1e-4)
    assert res.variance["seeds"] == pytest.approx(0, abs=1e-15)


def test_lower_is_better_reports_the_improvement_of_a():
    rng = np.random.default_rng(8)
    errors = np.abs(rng.normal(0, 1, (6, 80))) + np.r_[0.0, 0, 0, 0.3, 0.3, 0.3][:, None]
    up = simstats.approach_t_test(_as_stats(-errors), simstats.accuracy, ["A"] * 3 + ["B"] * 3)
    down = simstats.approach_t_test(np.stack([errors, np.ones_like(errors)], axis=2), simstats.mae,
                                    ["A"] * 3 + ["B"] * 3)
    assert down.statistic == pytest.approx(up.statistic) and down.statistic > 0
    assert down.pvalue == pytest.approx(up.pvalue) and down.df == pytest.approx(up.df)


def test_clusters_are_the_units():
    rng = np.random.default_rng(9)
    clusters = np.repeat(np.arange(12), rng.integers(1, 6, 12))
    values = rng.random((6, clusters.size))
    units = cluster_values(values, clusters)
    np.testing.assert_allclose(units.mean(axis=1), values.mean(axis=1))
    res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, ["A"] * 3 + ["B"] * 3, clusters=clusters)
    direct = crossed_variance(units[:3], units[3:])
    assert res.n_units == 12 and res.variance["total"] == pytest.approx(direct.variance)


def test_ratio_metrics_enter_through_their_linearisation():
    rng = np.random.default_rng(10)
    gold = rng.random(300) < 0.4
    preds = [rng.random(300) < np.where(gold, p, 0.2) for p in (0.8, 0.78, 0.82, 0.7, 0.72, 0.69)]
    stats = np.stack([simstats.label_statistics(simstats.f1, gold, p, positive=True) for p in preds])
    res = simstats.approach_t_test(stats, simstats.f1, ["A"] * 3 + ["B"] * 3)
    f1s = simstats.f1(stats.sum(axis=1))
    assert res.statistic == pytest.approx(f1s[:3].mean() - f1s[3:].mean(), rel=1e-12)
    y = linearised_item_values(stats, simstats.f1)
    assert res.variance["total"] == pytest.approx(crossed_variance(y[:3], y[3:]).variance, rel=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({"approach": ["A", "B", "B", "B"]}, "at least 2 runs per approach"),
    ({"approach": ["A", "A", "B", "C"]}, "exactly two approaches"),
])
def test_invalid_designs_are_refused(kwargs, message):
    stats = _as_stats(np.random.default_rng(0).random((4, 10)))
    with pytest.raises(ValueError, match=message):
        simstats.approach_t_test(stats, simstats.accuracy, **kwargs)
    with pytest.raises(ValueError, match="at least 2 test units"):
        crossed_variance(np.ones((3, 1)), np.ones((3, 1)))


# --------------------------------------------------------------------------- by simulation
#: A crossed binary generator written for these tests (not simstats.sim): run r of approach j is
#: correct on item i with probability Phi(mu_j + u_r + b_i + c_ji), u ~ N(0, sd_seed^2) (shared by
#: both approaches' runs of a seed when paired), b ~ N(0, sd_item^2), c ~ N(0, sd_inter^2).
REGIMES = {
    # seed sd of accuracy about 0.05 on 2,000 items: seed variance dominates (fine-tuning)
    "seed-dominant, 3 seeds": dict(k=3, n=2000, sd_seed=0.15, sd_item=1.5, sd_inter=0.05, paired=False),
    "seed-dominant, 3 paired seeds": dict(k=3, n=2000, sd_seed=0.15, sd_item=1.5, sd_inter=0.05, paired=True),
    # no seed variance, approach x item interaction and run x item noise dominate
    "item-dominant, 5 seeds": dict(k=5, n=300, sd_seed=0.0, sd_item=1.5, sd_inter=0.6, paired=False),
    "2 seeds, 100 items": dict(k=2, n=100, sd_seed=0.05, sd_item=1.0, sd_inter=0.3, paired=False),
    # little seed variance, no interaction, few items: Satterthwaite's df is random and small exactly
    # when the estimate is, and a t reference on it rejects in about 1 % of studies
    "little variation, 3 seeds, 100 items": dict(k=3, n=100, sd_seed=0.02, sd_item=1.0, sd_inter=0.0, paired=False),
}
STUDIES = 2000
ALPHA = 0.05


def _study(rng, k, n, sd_seed, sd_item, sd_inter, paired, mu=(1.0, 1.0)):
    b = rng.normal(0, sd_item, n)
    c = rng.normal(0, sd_inter, (2, n))
    u = rng.normal(0, sd_seed, (2, k))
    if paired:
        u[1] = u[0]
    p = special.ndtr(np.asarray(mu)[:, None, None] + u[:, :, None] + b + c[:, None, :])    # (2, k, n)
    return (rng.random(p.shape) < p).astype(float).reshape(2 * k, n)


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")   # scipy on identical run scores
@pytest.mark.filterwarnings("ignore:2 runs per approach:UserWarning")
@pytest.mark.parametrize("regime", list(REGIMES))
def test_size_and_unbiased_variance_at_the_null(regime):
    """Identical approaches: the variance estimate is unbiased (its mean against the variance of the
    difference over the studies, both standard errors combined) and the test never rejects more
    often than alpha + 3 MCSE; from 3 seeds (the validated minimum) its size is alpha within 3 MCSE,
    where seed variance dominates (Welch's t-test on the run scores is conservative there) and where
    there is little variation (the t reference on Satterthwaite's df is far too conservative there)."""
    cfg = REGIMES[regime]
    rng = np.random.default_rng([20261126, list(REGIMES).index(regime)])
    k = cfg["k"]
    labels, seeds = ["A"] * k + ["B"] * k, list(range(k)) * 2
    deltas, variances, rejections, welch, satterthwaite = [], [], [], [], []
    for _ in range(STUDIES):
        values = _study(rng, **cfg)
        res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, labels, seeds,
                                       paired_seeds=cfg["paired"], confidence_level=None)
        deltas.append(res.statistic)
        variances.append(res.variance["total"])
        rejections.append(res.pvalue < ALPHA)
        if regime.startswith("little variation"):
            satterthwaite.append(simstats.approach_t_test(_as_stats(values), simstats.accuracy, labels, seeds,
                                                          paired_seeds=cfg["paired"], reference="satterthwaite",
                                                          confidence_level=None).pvalue < ALPHA)
        scores = values.mean(axis=1)
        welch.append(sps.ttest_ind(scores[:k], scores[k:], equal_var=False).pvalue < ALPHA)
    rate = float(np.mean(rejections))
    mcse = math.sqrt(ALPHA * (1 - ALPHA) / STUDIES)
    deltas, variances = np.asarray(deltas), np.asarray(variances)
    true_var = deltas.var(ddof=1)
    se_true = true_var * math.sqrt((sps.kurtosis(deltas, fisher=False) - 1) / STUDIES)
    se_mean = variances.std(ddof=1) / math.sqrt(STUDIES)
    print(f"{regime}: size {rate:.4f} (MCSE {mcse:.4f}), Welch on run scores {np.mean(welch):.4f}; mean estimate "
          f"{variances.mean():.3g} vs {true_var:.3g}")
    assert abs(variances.mean() - true_var) < 3 * math.hypot(se_true, se_mean)
    assert rate < ALPHA + 3 * mcse, (rate, mcse)
    if k >= 3:
        assert abs(rate - ALPHA) < 3 * mcse, (rate, mcse)
    if regime.startswith("little variation"):
        assert np.mean(satterthwaite) < ALPHA - 3 * mcse


# --------------------------------------------------------------------------- margins
def test_margin_tests_in_the_welch_limit_are_scipys_and_statsmodels_tost():
    from statsmodels.stats.weightstats import ttost_ind

    rng = np.random.default_rng(13)
    score_a, score_b = rng.normal(0.80, 0.01, 4), rng.normal(0.805, 0.02, 5)
    values = np.repeat(np.r_[score_a, score_b][:, None], 30, axis=1)
    labels = ["A"] * 4 + ["B"] * 5
    m = 0.03
    ni = simstats.approach_margin_test(_as_stats(values), simstats.accuracy, labels, margin=m,
                                       reference="satterthwaite")
    ref = sps.ttest_ind(score_a + m, score_b, equal_var=False, alternative="greater")
    assert ni.pvalue == pytest.approx(ref.pvalue, rel=1e-9) and ni.df == pytest.approx(ref.df, rel=1e-9)
    eq = simstats.approach_margin_test(_as_stats(values), simstats.accuracy, labels, margin=m,
                                       hypothesis="equivalence", reference="satterthwaite")
    assert eq.pvalue == pytest.approx(ttost_ind(score_a, score_b, -m, m, usevar="unequal")[0], rel=1e-9)
    assert ni.shown == (ni.pvalue < 0.05)
    assert ni.verdict.startswith("A is non-inferior to B (margin 0.03)" if ni.shown else
                                 "A is not shown non-inferior to B (margin 0.03)")
    # the 1 - 2 alpha interval decides as the test does
    assert ni.shown == (ni.confidence_interval.low > -m)
    assert eq.shown == (-m < eq.confidence_interval.low and eq.confidence_interval.high < m)
    with pytest.raises(ValueError, match="margin must be a positive number"):
        simstats.approach_margin_test(_as_stats(values), simstats.accuracy, labels, margin=0)
    with pytest.raises(ValueError, match="hypothesis must be one of"):
        simstats.approach_margin_test(_as_stats(values), simstats.accuracy, labels, margin=m, hypothesis="superior")


#: Gaussian runs x items regimes of the margin tests: (seeds per approach, items, seed sd, approach x item sd).
MARGIN_REGIMES = {"item-dominant, 5 seeds, 400 items": (5, 400, 0.01, 0.1),
                  "seed-dominant, 3 seeds, 2,000 items": (3, 2000, 0.03, 0.02),
                  "small n, 10 seeds, 60 items": (10, 60, 0.005, 0.1)}


@pytest.mark.parametrize("regime", list(MARGIN_REGIMES))
@pytest.mark.parametrize("hypothesis", ["non-inferiority", "equivalence"])
def test_margin_tests_hold_alpha_at_the_margin(hypothesis, regime):
    """True difference exactly at the margin (-m; +m for the upper test of equivalence): the claim is
    false and is shown in at most alpha + 3 MCSE of 2,000 studies (Gaussian runs x items, run x item sd
    0.4).  Non-inferiority is within 3 MCSE of alpha in every regime (seed variance dominant at 3 seeds
    included); equivalence, which needs both one-sided tests to reject, is below alpha."""
    k, n, seed_sd, inter_sd = MARGIN_REGIMES[regime]
    rng = np.random.default_rng([20261127, len(hypothesis), list(MARGIN_REGIMES).index(regime)])
    margin = 0.02
    labels = ["A"] * k + ["B"] * k
    shown = []
    for r in range(STUDIES):
        truth = -margin if hypothesis == "non-inferiority" or r % 2 else margin
        item = rng.normal(0, 1, n)
        a = truth + rng.normal(0, seed_sd, (k, 1)) + item + rng.normal(0, inter_sd, n) + rng.normal(0, 0.4, (k, n))
        b = rng.normal(0, seed_sd, (k, 1)) + item + rng.normal(0, inter_sd, n) + rng.normal(0, 0.4, (k, n))
        res = simstats.approach_margin_test(_as_stats(np.vstack([a, b])), simstats.accuracy, labels,
                                            margin=margin, hypothesis=hypothesis)
        shown.append(res.shown)
    rate = float(np.mean(shown))
    mcse = math.sqrt(ALPHA * (1 - ALPHA) / STUDIES)
    print(f"{hypothesis}, {regime}: shown at the margin in {rate:.4f} (MCSE {mcse:.4f})")
    assert rate < ALPHA + 3 * mcse
    if hypothesis == "non-inferiority":
        assert abs(rate - ALPHA) < 3 * mcse


def test_runs_without_any_variation():
    """Identical approaches whose runs do not vary: no evidence of a difference (p = 1) and no variance for an
    interval (NaN, not a width-0 interval; the margin claim not tested); a difference with no variation at all
    cannot be tested and is an error naming it."""
    same = np.tile((np.arange(50) % 3 == 0).astype(float), (6, 1))
    res = simstats.approach_t_test(_as_stats(same), simstats.accuracy, ["A"] * 3 + ["B"] * 3)
    assert res.pvalue == 1.0 and res.statistic == 0.0 and np.isnan(res.df)
    assert all(np.isnan(v) for v in res.confidence_interval)
    margin = simstats.approach_margin_test(_as_stats(same), simstats.accuracy, ["A"] * 3 + ["B"] * 3, margin=0.01)
    assert np.isnan(margin.pvalue) and not margin.shown and "not tested" in margin.verdict
    shifted = np.vstack([np.full((3, 50), 0.5), np.full((3, 50), 0.6)])   # B 0.1 better on every item and run
    with pytest.raises(ValueError, match="differ by -0.1 but nothing varies over seeds or items"):
        simstats.approach_t_test(_as_stats(shifted), simstats.accuracy, ["A"] * 3 + ["B"] * 3)


@pytest.mark.parametrize("paired", [False, True])
def test_corrected_bootstrap_variance_is_the_method_of_moments_estimate(paired):
    """The multi-bootstrap's three variances combined for the crossed design estimate what the method
    of moments does: over 8 bootstraps of 4,000 resamples of one runs x items table, the mean of the
    corrected variance is the moments estimate within 3 SE of that mean, and the uncorrected seeds x
    items bootstrap variance exceeds it (it counts the run x item noise again)."""
    rng = np.random.default_rng(21)
    k, n = 4, 200
    item = rng.normal(0, 1, n)
    seed_effect = rng.normal(0, 0.15, (2, k, 1))
    if paired:
        seed_effect[1] = seed_effect[0] + rng.normal(0, 0.05, (k, 1))
    latent = item + seed_effect.reshape(2 * k, 1) + rng.normal(0, 0.3, (2, 1, n)).repeat(k, 0).reshape(2 * k, n) \
        + rng.normal(0, 0.8, (2 * k, n))
    values = (latent > -0.5).astype(float)
    labels, seeds = ["A"] * k + ["B"] * k, list(range(k)) * 2
    moments = simstats.approach_t_test(_as_stats(values), simstats.accuracy, labels, seeds, paired_seeds=paired)
    corrected, raw = [], []
    for r in range(8):
        res = simstats.approach_t_test(_as_stats(values), simstats.accuracy, labels, seeds, paired_seeds=paired,
                                       variance="bootstrap", n_resamples=4000, rng=r)
        corrected.append(res.variance["total"])
        raw.append(simstats.approach_bootstrap(_as_stats(values), simstats.accuracy, labels, seeds, rng=r,
                                               paired_seeds=paired, n_resamples=4000,
                                               confidence_level=None).variance["both"])
    corrected = np.asarray(corrected)
    assert abs(corrected.mean() - moments.variance["total"]) < 3 * corrected.std(ddof=1) / math.sqrt(8)
    assert np.mean(raw) > moments.variance["total"]
    with pytest.raises(ValueError, match="needs a seeded generator"):
        simstats.approach_t_test(_as_stats(values), simstats.accuracy, labels, variance="bootstrap")


# --------------------------------------------------------------------------- one run per system
def test_paired_margin_test_is_scipys_and_statsmodels_paired_tests():
    """Two runs on the same items: non-inferiority is scipy's one-sample t-test of d + margin > 0,
    equivalence statsmodels' paired TOST; the 1 - 2 alpha interval decides as the test does."""
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(31)
    a, b = (rng.random(800) < 0.81).astype(float), (rng.random(800) < 0.80).astype(float)
    stats = np.stack([_as_stats(a[None])[0], _as_stats(b[None])[0]])
    for m in (0.01, 0.04):
        ni = simstats.paired_margin_test(stats, simstats.accuracy, margin=m)
        ref = sps.ttest_1samp(a - b + m, 0.0, alternative="greater")
        assert ni.pvalue == pytest.approx(ref.pvalue, rel=1e-10) and ni.df == 799
        eq = simstats.paired_margin_test(stats, simstats.accuracy, margin=m, hypothesis="equivalence")
        assert eq.pvalue == pytest.approx(ttost_paired(a, b, -m, m)[0], rel=1e-10)
        assert ni.shown == (ni.confidence_interval.low > -m)
        assert eq.shown == (-m < eq.confidence_interval.low and eq.confidence_interval.high < m)


@pytest.mark.parametrize("regime", ["2,000 items", "small n, 120 items", "clustered, 100 documents of 20"])
def test_paired_margin_test_holds_alpha_at_the_margin(regime):
    """Two runs whose true difference is exactly -margin, 4,000 simulated test sets: non-inferiority is
    shown in alpha within 3 MCSE.  Binary correctness (0.78 vs 0.80, disagreement 0.15) on 2,000 items
    and (disagreement 0.3) on 120; continuous per-item scores whose difference shares a document effect,
    tested over documents (``clusters``) - over items, ignoring the documents, it is liberal."""
    rng = np.random.default_rng([32, len(regime)])
    m, shown, ignored = 0.02, [], []
    for _ in range(4000):
        if regime.startswith("clustered"):
            docs = np.repeat(np.arange(100), 20)
            b = rng.normal(0.8, 0.1, 2000)
            a = b - m + rng.normal(0, 0.1, 100)[docs] + rng.normal(0, 0.3, 2000)
            clusters = docs
        else:
            n, q = (2000, 0.15) if regime.startswith("2,000") else (120, 0.30)
            p10, p01 = (q - m) / 2, (q + m) / 2
            p11 = 0.78 - p10
            cell = rng.choice(4, size=n, p=[p11, p10, p01, 1 - p11 - p10 - p01])
            a, b = np.isin(cell, (0, 1)).astype(float), np.isin(cell, (0, 2)).astype(float)
            clusters = None
        stats = np.stack([_as_stats(a[None])[0], _as_stats(b[None])[0]])
        shown.append(simstats.paired_margin_test(stats, simstats.accuracy, margin=m, clusters=clusters).shown)
        if clusters is not None:
            ignored.append(simstats.paired_margin_test(stats, simstats.accuracy, margin=m).shown)
    rate, mcse = float(np.mean(shown)), math.sqrt(ALPHA * (1 - ALPHA) / 4000)
    print(f"{regime}: non-inferiority shown at the margin in {rate:.4f} (MCSE {mcse:.4f})"
          + (f"; over items, ignoring the documents: {np.mean(ignored):.4f}" if ignored else ""))
    assert abs(rate - ALPHA) < 3 * mcse
    if ignored:
        assert np.mean(ignored) > ALPHA + 3 * mcse
