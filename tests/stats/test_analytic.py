"""Analytic standard errors and intervals: against statsmodels and scipy, exact coverage by enumeration,
and coverage / size by simulation with clustered items (tolerances from the Monte Carlo standard error)."""
import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from simstats.stats.analytic import item_means, mean_interval, paired_difference, proportion_interval


@pytest.mark.parametrize("method, sm_method", [("wilson", "wilson"), ("clopper-pearson", "beta")])
def test_proportion_intervals_are_statsmodels(method, sm_method):
    for nobs in (1, 7, 50, 1000):
        for count in sorted({0, 1, nobs // 3, nobs - 1, nobs}):
            for level in (0.9, 0.95):
                res = proportion_interval(count, nobs, method=method, confidence_level=level)
                low, high = proportion_confint(count, nobs, alpha=1 - level, method=sm_method)
                assert res.confidence_interval == pytest.approx((low, high), abs=1e-12)
                assert res.estimate == count / nobs


def _exact_coverage(method: str, n: int, p: float, level: float = 0.95) -> float:
    """P(interval covers p) summed exactly over the binomial outcomes."""
    x = np.arange(n + 1)
    covers = [proportion_interval(int(k), n, method=method, confidence_level=level).confidence_interval
              for k in x]
    hit = np.array([lo <= p <= hi for lo, hi in covers])
    return float(stats.binom.pmf(x, n, p)[hit].sum())


def test_clopper_pearson_never_undercovers_and_wilson_is_near_nominal_even_at_0_and_100_percent():
    """Exact enumeration, n = 30 items: Clopper-Pearson's coverage is at least 95 % for every true
    proportion (its defining property); Wilson's averages close to 95 % over the range, and both cover
    proportions near 0 and 1, where the percentile bootstrap's [0, 0] or [1, 1] covers nothing."""
    n = 30
    grid = np.linspace(0.001, 0.999, 199)
    cp = [_exact_coverage("clopper-pearson", n, p) for p in grid]
    wilson = [_exact_coverage("wilson", n, p) for p in grid]
    assert min(cp) >= 0.95 - 1e-12
    assert 0.935 <= float(np.mean(wilson)) <= 0.965
    for p in (0.001, 0.999):
        assert _exact_coverage("wilson", n, p) > 0.95 and _exact_coverage("clopper-pearson", n, p) > 0.95
        # the percentile bootstrap of an observed 0 % (100 %) is the point [0, 0] ([1, 1]), which misses p:
        # it can cover only on the other outcomes, which have probability below 5 %
        assert 1 - stats.binom.pmf([0, n], n, p).sum() < 0.05
    assert proportion_interval(0, n).confidence_interval.high > 0.05          # at 0 % the interval has width


def test_plain_interval_is_scipys_one_sample_t_interval():
    x = np.random.default_rng(3).normal(0.6, 0.2, 40)
    res = mean_interval(x, confidence_level=0.9)
    ci = stats.ttest_1samp(x, 0).confidence_interval(0.9)
    assert res.confidence_interval == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert res.standard_error == pytest.approx(stats.sem(x)) and res.df == 39 and res.clusters is None


def test_cluster_robust_interval_is_statsmodels_with_unequal_clusters():
    rng = np.random.default_rng(4)
    sizes = rng.integers(1, 30, 17)
    groups = np.repeat(np.arange(17), sizes)
    x = rng.normal(0.5, 0.3, groups.size) + rng.normal(0, 0.2, 17)[groups]
    res = mean_interval(x, clusters=[f"doc{g}" for g in groups])
    fit = sm.OLS(x, np.ones(x.size)).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    assert res.standard_error == pytest.approx(float(fit.bse[0]), rel=1e-10)
    assert res.confidence_interval == pytest.approx(tuple(fit.conf_int()[0]), rel=1e-10)
    assert res.df == 16 and res.clusters == 17 and "C / (C - 1)" in res.method


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_difference_is_scipys_paired_t_test(alternative):
    rng = np.random.default_rng(5)
    a = rng.random(120)
    b = a - 0.03 + rng.normal(0, 0.1, 120)
    res = paired_difference(a, b, alternative=alternative)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10) and res.statistic == pytest.approx(ref.statistic)
    ci = stats.ttest_rel(a, b).confidence_interval(0.95)
    assert res.confidence_interval == pytest.approx((ci.low, ci.high), rel=1e-10)


def test_clustered_paired_difference_is_statsmodels_on_the_differences():
    rng = np.random.default_rng(6)
    groups = np.repeat(np.arange(12), 15)
    a = (rng.random(180) < 0.7).astype(float)
    b = np.where(rng.random(180) < 0.8, a, 1 - a)
    res = paired_difference(a, b, clusters=groups)
    fit = sm.OLS(a - b, np.ones(180)).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    assert res.pvalue == pytest.approx(float(fit.pvalues[0]), rel=1e-10)
    assert res.confidence_interval == pytest.approx(tuple(fit.conf_int()[0]), rel=1e-10)


R = 400
MCSE = math.sqrt(0.05 * 0.95 / R)


def _clustered_items(rng, clusters=30, size=20):
    """Binary scores of two equally good models on items in clusters: a cluster effect shared by both
    models, so the items of a cluster are correlated and so are the per-item differences."""
    group = np.repeat(np.arange(clusters), size)
    base = 0.7 + rng.normal(0, 0.15, clusters)[group]
    shift = rng.normal(0, 0.08, clusters)[group]                  # the models differ per cluster, not overall
    a = (rng.random(group.size) < np.clip(base + shift, 0, 1)).astype(float)
    b = (rng.random(group.size) < np.clip(base - shift, 0, 1)).astype(float)
    return group, a, b


def test_cluster_robust_inference_holds_where_the_plain_one_fails():
    """30 clusters of 20 items, null true: the cluster-robust interval of a mean covers and the
    clustered paired test holds alpha within 3 MCSE; the plain ones, ignoring the clusters, do not."""
    rng = np.random.default_rng(20261127)
    cover = {"plain": [], "robust": []}
    reject = {"plain": [], "robust": []}
    for _ in range(R):
        group, a, b = _clustered_items(rng)
        truth = 0.7                                            # E(score) of model a (cluster effects mean 0)
        for name, clusters in (("plain", None), ("robust", group)):
            lo, hi = mean_interval(a, clusters=clusters).confidence_interval
            cover[name].append(lo <= truth <= hi)
            reject[name].append(paired_difference(a, b, clusters=clusters).pvalue < 0.05)
    coverage = {k: float(np.mean(v)) for k, v in cover.items()}
    size = {k: float(np.mean(v)) for k, v in reject.items()}
    print(f"coverage {coverage}, size {size} (MCSE at 0.95/0.05: {MCSE:.4f}, R = {R})")
    assert abs(coverage["robust"] - 0.95) <= 3 * MCSE and abs(size["robust"] - 0.05) <= 3 * MCSE
    assert coverage["plain"] < 0.95 - 3 * MCSE and size["plain"] > 0.05 + 3 * MCSE


def test_item_means_recover_the_variance_parts():
    """K = 4 samples per item: between = Var(p_i) and within = E p_i (1 - p_i), unbiased over 300 draws."""
    rng = np.random.default_rng(8)
    n, k, draws = 200, 4, 300
    p = rng.uniform(0.1, 0.9, n)                                   # fixed items: their true probabilities
    between_true, within_true = float(p.var(ddof=1)), float(np.mean(p * (1 - p)))
    item = np.repeat(np.arange(n), k)
    parts = np.array([(r.between, r.within) for r in
                      (item_means(item, (rng.random(n * k) < p[item]).astype(float)) for _ in range(draws))])
    se = parts.std(axis=0, ddof=1) / math.sqrt(draws)
    assert abs(parts[:, 0].mean() - between_true) < 4 * se[0]
    assert abs(parts[:, 1].mean() - within_true) < 4 * se[1]
    one = item_means([3, 1, 3, 1, 2], [1.0, 0.0, 0.0, 1.0, 1.0])
    assert one.items.tolist() == [1, 2, 3] and one.means.tolist() == [0.5, 1.0, 0.5]
    assert one.samples.tolist() == [2, 1, 2] and one.within == 0.5


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="need 0 <= count <= nobs"):
        proportion_interval(5, 4)
    with pytest.raises(ValueError, match="whole numbers"):
        proportion_interval(2.5, 4)
    with pytest.raises(ValueError, match="method must be one of"):
        proportion_interval(1, 4, method="agresti")
    with pytest.raises(ValueError, match=r"scores: item 2 is nan"):
        mean_interval([0.1, 0.2, float("nan")])
    with pytest.raises(ValueError, match="at least 2 clusters"):
        mean_interval([0.1, 0.2, 0.3], clusters=["d", "d", "d"])
    with pytest.raises(ValueError, match="same items: 3 and 2"):
        paired_difference([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match="every item differs by the same amount"):
        paired_difference([1, 1, 1], [0, 0, 0])
    assert paired_difference([1, 0, 1], [1, 0, 1]).pvalue == 1.0


def test_no_variation_between_clusters_is_no_standard_error():
    """Every cluster's mean difference equal: the cluster-robust standard error is 0 (not rounding noise giving
    p = 1e-65), so the test refuses; the plain paired t-test of the same items still has one (scipy's)."""
    clusters = np.repeat(np.arange(5), 10)
    a, b = np.zeros(50), np.zeros(50)
    b[::10] = 1.0
    with pytest.raises(ValueError, match="every cluster's mean difference is the same"):
        paired_difference(b, a, clusters=clusters)
    assert paired_difference(b, a).pvalue == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-12)
    same = np.full(8, 0.1)
    assert mean_interval(same).standard_error == 0.0


def test_score_interval_is_clopper_pearson_for_proportions_else_t():
    """compare --test t's interval of a score: the exact binomial interval (statsmodels' beta) for 0/1 items
    without clusters, at 100 % too; the t interval (cluster-robust with clusters) otherwise."""
    from simstats.stats.analytic import score_interval

    right = np.r_[np.ones(48), np.zeros(2)]
    for values in (right, np.ones(50)):
        low, high = proportion_confint(int(values.sum()), values.size, alpha=0.05, method="beta")
        assert score_interval(values).confidence_interval == pytest.approx((low, high), abs=1e-15)
    assert score_interval(np.ones(50)).confidence_interval.low < 1       # not a point at 100 %
    graded = np.linspace(0, 1, 40) ** 2
    assert score_interval(graded).confidence_interval == mean_interval(graded).confidence_interval
    clusters = np.arange(50) // 10
    assert (score_interval(right, clusters=clusters).confidence_interval
            == mean_interval(right, clusters=clusters).confidence_interval)


def test_adjusted_paired_difference_is_bonett_price_published_example():
    """Bonett-Price's adjusted Wald on the paired 2 x 2 table [[59, 6], [16, 80]] (Fagerland, Lydersen & Laake's
    example, Cavo 2012): -0.1195 to -0.0032 as their R package contingencytables prints it (4 decimals)."""
    from simstats.stats.analytic import adjusted_paired_difference

    a = np.repeat([1, 1, 0, 0], [59, 6, 16, 80]).astype(float)
    b = np.repeat([1, 0, 1, 0], [59, 6, 16, 80]).astype(float)
    res = adjusted_paired_difference(a, b)
    assert round(res.confidence_interval.low, 4) == -0.1195 and round(res.confidence_interval.high, 4) == -0.0032
    assert res.difference == pytest.approx(-10 / 161, rel=1e-12)
    assert res.pvalue < 0.05                                  # the interval excludes 0: the test rejects


@pytest.mark.parametrize("n", [30, 50, 200])
def test_adjusted_paired_difference_without_discordant_items(n):
    """No item differs: p = 1 and the interval +-z sqrt(2)/(n + 2), not [0, 0]."""
    from simstats.stats.analytic import adjusted_paired_difference

    a = (np.arange(n) % 10 != 0).astype(float)
    res = adjusted_paired_difference(a, a.copy())
    half = stats.norm.ppf(0.975) * np.sqrt(2) / (n + 2)
    assert res.pvalue == 1.0 and res.difference == 0.0
    assert tuple(res.confidence_interval) == (pytest.approx(-half, rel=1e-12), pytest.approx(half, rel=1e-12))


def test_adjusted_paired_difference_holds_its_level_near_the_ceiling():
    """30 items at 97 % accuracy, identical models disagreeing on 4 % of items: the size of the two-sided 5 % test
    over 4,000 simulated pairs is at most 0.05 + 3 MCSE, where the paired t-test's interval is [0, 0] whenever
    no item disagrees (in about 30 % of them)."""
    from simstats.stats.analytic import adjusted_paired_difference

    rng = np.random.default_rng(7)
    reps, n = 4000, 30
    rejections, collapsed = 0, 0
    for _ in range(reps):
        both = rng.random(n) < 0.95
        only = rng.random(n)
        a = (both | (only < 0.02)).astype(float)
        b = (both | ((only >= 0.02) & (only < 0.04))).astype(float)
        rejections += adjusted_paired_difference(a, b).pvalue < 0.05
        collapsed += bool(np.all(a == b))
    size = rejections / reps
    assert size <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)
    assert collapsed / reps > 0.2
