"""Analytic standard errors and intervals for scores over test items (no resampling).

The estimators an evaluation of language models needs beside the bootstrap, each result naming the
estimator it used:

* :func:`proportion_interval` - a proportion (accuracy) with the Wilson score or Clopper-Pearson
  interval (statsmodels' ``proportion_confint``); both keep a positive width at 0 % and 100 %,
  where a percentile bootstrap interval collapses to a point;
* :func:`mean_interval` - the mean item score (0/1 or continuous: judge scores, partial credit)
  with its standard error: plain sd / sqrt(n) with Student's t on n - 1 degrees of freedom, or
  cluster-robust (items in clusters such as subjects or documents): the variance of the cluster
  totals with the small-sample factor C / (C - 1) and t on C - 1 degrees of freedom (the
  estimator of statsmodels' OLS on a constant with ``cov_type="cluster"`` and ``use_t=True``);
* :func:`paired_difference` - the mean per-item difference of two models scored on the same
  items, with the same standard errors applied to the differences (the paired t-test, or its
  cluster-robust version), a two-sided (or one-sided) p-value and an interval;
* :func:`item_means` - repeated samples per item (epochs, repeats): each item's mean over its
  samples, with the between-item and within-item parts of the variance.  The standard errors
  above applied to the item means are the right ones for new items *and* new samples (the
  within-item variance enters through the item means, divided by the samples per item).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simstats.stats.lazy import lazy_module
from simstats.stats.tolerance import data_scale, negligible
from simstats.stats.results import ConfidenceInterval, TestResult, check_alternative, check_confidence_level

sps = lazy_module("scipy.stats")
_proportion = lazy_module("statsmodels.stats.proportion")

__all__ = ["PROPORTION_METHODS", "IntervalResult", "proportion_interval", "score_interval", "mean_interval",
           "PairedDifferenceResult", "adjusted_paired_difference", "bounded_items", "default_item_test",
           "paired_difference", "ItemMeans", "item_means"]

#: Interval methods of :func:`proportion_interval`: name -> statsmodels' ``proportion_confint`` method.
PROPORTION_METHODS = {"wilson": "wilson", "clopper-pearson": "beta"}


@dataclass(frozen=True)
class IntervalResult:
    """An estimate with its standard error and confidence interval.

    Attributes
    ----------
    estimate : float
        The proportion or mean.
    standard_error : float
        Its estimated standard error (for a proportion: sqrt(p (1 - p) / n), for information only:
        the interval does not use it).
    confidence_interval : ConfidenceInterval
        ``(low, high)``.
    confidence_level : float
        The interval's level.
    n : int
        Items (or, for a proportion, trials).
    clusters : int or None
        Clusters the standard error was computed over (None: items independent).
    df : float
        Degrees of freedom of the t interval (inf for the proportion intervals).
    method : str
        The estimator, in words.

    Examples
    --------
    >>> res = proportion_interval(0, 50)
    >>> res.estimate, round(res.confidence_interval.high, 4), res.method
    (0.0, 0.0713, 'Wilson score interval')
    """

    estimate: float
    standard_error: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n: int
    clusters: int | None
    df: float
    method: str


def proportion_interval(count: int, nobs: int, *, method: str = "wilson",
                        confidence_level: float = 0.95) -> IntervalResult:
    """A proportion (e.g. accuracy: items right out of items) with its confidence interval.

    Parameters
    ----------
    count : int
        Successes, 0 <= count <= nobs.
    nobs : int
        Trials (items), at least 1.
    method : {"wilson", "clopper-pearson"}
        Wilson's score interval (default: close to nominal coverage on average) or the
        Clopper-Pearson interval (exact: coverage at least the level for every true proportion,
        at the price of width).  Both are statsmodels' ``proportion_confint``.
    confidence_level : float
        Level of the two-sided interval.

    Returns
    -------
    IntervalResult
        The proportion, its binomial standard error, the interval and the method.

    Examples
    --------
    >>> res = proportion_interval(18, 20)
    >>> round(res.estimate, 2), [round(x, 4) for x in res.confidence_interval]
    (0.9, [0.699, 0.9721])
    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(float(x), 4) for x in proportion_confint(18, 20, alpha=0.05, method="wilson")]
    [0.699, 0.9721]

    At 100 % the interval keeps a width, where a percentile bootstrap of the items gives [1, 1]:

    >>> [round(x, 4) for x in proportion_interval(20, 20, method="clopper-pearson").confidence_interval]
    [0.8316, 1.0]
    """
    if method not in PROPORTION_METHODS:
        raise ValueError(f"method must be one of {tuple(PROPORTION_METHODS)}, got {method!r}")
    check_confidence_level(confidence_level)
    if not (float(count).is_integer() and float(nobs).is_integer()):
        raise ValueError(f"count and nobs must be whole numbers, got {count} and {nobs}")
    count, nobs = int(count), int(nobs)
    if nobs < 1 or not 0 <= count <= nobs:
        raise ValueError(f"need 0 <= count <= nobs and nobs >= 1, got count {count} and nobs {nobs}")
    low, high = _proportion.proportion_confint(count, nobs, alpha=1 - confidence_level,
                                               method=PROPORTION_METHODS[method])
    p = count / nobs
    name = "Wilson score interval" if method == "wilson" else "Clopper-Pearson (exact binomial) interval"
    return IntervalResult(p, math.sqrt(p * (1 - p) / nobs), ConfidenceInterval(float(low), float(high)),
                          confidence_level, nobs, None, math.inf, name)


def _checked_scores(values, name: str) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        bad = int(np.flatnonzero(~np.isfinite(x))[0])
        raise ValueError(f"{name}: item {bad} is {x[bad]}, not a finite number")
    return x


def _cluster_ids(clusters, n: int) -> np.ndarray:
    ids = np.asarray(clusters)
    if ids.shape != (n,):
        raise ValueError(f"clusters must give one id per item ({n}), got shape {ids.shape}")
    if ids.dtype.kind == "f" and np.isnan(ids).any():
        raise ValueError(f"clusters: item {int(np.flatnonzero(np.isnan(ids))[0])} has no cluster id")
    return np.unique(ids, return_inverse=True)[1].ravel()


def _standard_error(x: np.ndarray, clusters) -> tuple[float, float, int | None, str]:
    """(standard error of the mean of x, df, clusters, method) - plain or cluster-robust."""
    n = x.size
    # a standard error below rounding error of the values is none: the values (or the clusters' totals) do not vary
    negligible = 1e-12 * float(np.max(np.abs(x))) / math.sqrt(n) if n else 0.0
    if clusters is None:
        if n < 2:
            raise ValueError(f"a standard error needs at least 2 items, got {n}")
        se = float(x.std(ddof=1) / math.sqrt(n))
        return (se if se > negligible else 0.0), float(n - 1), None, "sd / sqrt(n), t on n - 1 df"
    ids = _cluster_ids(clusters, n)
    c = int(ids.max()) + 1
    if c < 2:
        raise ValueError("a cluster-robust standard error needs at least 2 clusters, got 1")
    residual_totals = np.bincount(ids, weights=x - x.mean(), minlength=c)
    se = math.sqrt(c / (c - 1) * float(residual_totals @ residual_totals) / n**2)
    return (se if se > negligible else 0.0), float(c - 1), c, "cluster-robust (C / (C - 1)), t on C - 1 df"


def score_interval(scores, *, clusters=None, confidence_level: float = 0.95) -> IntervalResult:
    """The interval of a mean item score as ``simstats compare --test t`` gives it: Clopper-Pearson's
    (:func:`proportion_interval`) when every item scores 0 or 1 and the items are independent (a
    proportion: the exact binomial interval never covers less than its level, keeps a width at 0 %
    and 100 %, and holds near them, where Wilson's undercovers), else the t interval
    (:func:`mean_interval`, cluster-robust over ``clusters``).

    Parameters
    ----------
    scores : array_like
        One score per item.
    clusters : array_like, optional
        Cluster id per item.
    confidence_level : float
        Level of the two-sided interval.

    Returns
    -------
    IntervalResult
        The estimate, its standard error, the interval and the method.

    Examples
    --------
    >>> score_interval([1, 1, 1, 1, 1]).method, score_interval([1, 1, 1, 1, 1]).confidence_interval.low < 1
    ('Clopper-Pearson (exact binomial) interval', True)
    >>> score_interval([0.5, 1, 0.25, 1]).method
    'mean item score: sd / sqrt(n), t on n - 1 df'
    """
    x = _checked_scores(scores, "scores")
    if clusters is None and bool(np.all((x == 0) | (x == 1))):
        return proportion_interval(int(x.sum()), x.size, method="clopper-pearson", confidence_level=confidence_level)
    return mean_interval(x, clusters=clusters, confidence_level=confidence_level)


def mean_interval(scores, *, clusters=None, confidence_level: float = 0.95) -> IntervalResult:
    """The mean item score with its standard error and t interval, plain or cluster-robust.

    Parameters
    ----------
    scores : array_like (items,)
        One score per item (0/1 correctness, a judge's score, partial credit; with several
        samples per item, their means: :func:`item_means`).
    clusters : array_like (items,), optional
        Cluster id per item (subject, document): the standard error is computed over cluster
        totals with the factor C / (C - 1), and the interval uses t on C - 1 degrees of freedom.
    confidence_level : float
        Level of the two-sided interval.

    Returns
    -------
    IntervalResult
        The mean, its standard error, the t interval, the degrees of freedom and the method.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> subject = np.repeat(np.arange(10), 20)                  # 10 subjects of 20 items
    >>> scores = (rng.random(200) < 0.6 + rng.normal(0, 0.15, 10)[subject]).astype(float)
    >>> plain = mean_interval(scores)
    >>> robust = mean_interval(scores, clusters=subject)
    >>> round(plain.standard_error, 4), round(robust.standard_error, 4), robust.df
    (0.0354, 0.0559, 9.0)

    The cluster-robust standard error is statsmodels' OLS on a constant with clustered covariance:

    >>> import statsmodels.api as sm
    >>> fit = sm.OLS(scores, np.ones(200)).fit(cov_type="cluster", cov_kwds={"groups": subject}, use_t=True)
    >>> round(float(fit.bse[0]), 4), [round(float(x), 4) for x in fit.conf_int()[0]]
    (0.0559, [0.4036, 0.6564])
    >>> [round(x, 4) for x in robust.confidence_interval]
    [0.4036, 0.6564]
    """
    check_confidence_level(confidence_level)
    x = _checked_scores(scores, "scores")
    se, df, c, how = _standard_error(x, clusters)
    mean = float(x.mean())
    half = float(sps.t.isf((1 - confidence_level) / 2, df)) * se
    return IntervalResult(mean, se, ConfidenceInterval(mean - half, mean + half), confidence_level, x.size, c, df,
                          f"mean item score: {how}")


@dataclass(frozen=True)
class PairedDifferenceResult(TestResult):
    """The mean per-item difference of two models on the same items (:func:`paired_difference`).

    Attributes
    ----------
    statistic : float
        t = difference / standard error.
    pvalue : float
        Of ``alternative``, from Student's t on ``df`` degrees of freedom.
    alternative : str
        "two-sided", "greater" (A scores higher) or "less".
    method : str
        The estimator, in words.
    difference : float
        Mean score of A minus mean score of B over the items.
    standard_error : float
        Its standard error (plain or cluster-robust).
    df : float
        Degrees of freedom.
    confidence_interval : ConfidenceInterval
        Two-sided t interval of the difference, whatever ``alternative``.
    n : int
        Items.
    clusters : int or None
        Clusters (None: items independent).

    Examples
    --------
    >>> res = paired_difference([1, 1, 0, 1, 1, 0, 1, 1], [1, 0, 0, 1, 0, 0, 1, 0])
    >>> round(res.difference, 3), round(res.pvalue, 4)
    (0.375, 0.0796)
    """

    difference: float = float("nan")
    standard_error: float = float("nan")
    df: float = float("nan")
    confidence_interval: ConfidenceInterval | None = None
    n: int = 0
    clusters: int | None = None


def _paired_scores(scores_a, scores_b, alternative: str, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """The two models' checked item scores (the same number of items) and checked options."""
    check_alternative(alternative)
    check_confidence_level(confidence_level)
    a = _checked_scores(scores_a, "scores_a")
    b = _checked_scores(scores_b, "scores_b")
    if a.size != b.size:
        raise ValueError(f"the two models must be scored on the same items: {a.size} and {b.size} scores")
    return a, b


def paired_difference(scores_a, scores_b, *, clusters=None, alternative: str = "two-sided",
                      confidence_level: float = 0.95) -> PairedDifferenceResult:
    """Paired comparison of two models scored on the same items: mean difference, standard error, t test.

    Parameters
    ----------
    scores_a, scores_b : array_like (items,)
        Each model's score per item, in the same item order (with several samples per item,
        each model's item means: :func:`item_means`).
    clusters : array_like (items,), optional
        Cluster id per item: the cluster-robust standard error of the differences (C / (C - 1),
        t on C - 1 degrees of freedom).  Without it this is the paired t-test.
    alternative : {"two-sided", "greater", "less"}
        "greater": A scores higher than B.
    confidence_level : float
        Level of the two-sided interval of the difference.

    Returns
    -------
    PairedDifferenceResult
        t, p-value, the difference with its standard error, df and interval, and the method.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> a = (rng.random(300) < 0.72).astype(float)
    >>> b = np.where(rng.random(300) < 0.85, a, 1 - a)          # B agrees with A on most items
    >>> res = paired_difference(a, b)
    >>> round(res.difference, 4), round(res.pvalue, 4)
    (0.0767, 0.0004)

    Without clusters it is scipy's paired t-test:

    >>> from scipy import stats
    >>> round(float(stats.ttest_rel(a, b).pvalue), 4)
    0.0004
    """
    a, b = _paired_scores(scores_a, scores_b, alternative, confidence_level)
    d = a - b
    se, df, c, how = _standard_error(d, clusters)
    diff = float(d.mean())
    if negligible(se, data_scale(a, b)):   # rounding residue of differences that do not vary
        se = 0.0
    if se > 0:
        t = diff / se
        p = {"two-sided": 2 * sps.t.sf(abs(t), df), "greater": sps.t.sf(t, df), "less": sps.t.cdf(t, df)}[alternative]
    elif diff == 0:        # the models agree on every item: nothing against the null
        t, p = 0.0, 1.0
    elif c is None:
        raise ValueError(f"every item differs by the same amount ({diff:g}): the differences do not vary, so there "
                         "is no standard error to test against")
    else:
        raise ValueError(f"every cluster's mean difference is the same ({diff:g}): the differences do not vary "
                         f"between the {c} clusters, so there is no cluster-robust standard error to test against")
    # no variance (every item agrees): no interval; adjusted_paired_difference gives one that holds there
    half = float(sps.t.isf((1 - confidence_level) / 2, df)) * se if se > 0 else float("nan")
    return PairedDifferenceResult(float(t), float(p), alternative, f"paired difference: {how}", difference=diff,
                                  standard_error=se, df=df,
                                  confidence_interval=ConfidenceInterval(diff - half, diff + half), n=a.size,
                                  clusters=c)


def adjusted_paired_difference(scores_a, scores_b, *, alternative: str = "two-sided",
                               confidence_level: float = 0.95) -> PairedDifferenceResult:
    """Paired comparison of two models' item scores in [0, 1] that holds its level and coverage with few
    items, near 0 % or 100 % and when no item differs: Bonett and Price's adjusted Wald.

    With 0/1 item scores (n items; n12 where only A is right, n21 where only B is) it is Bonett & Price's
    (2012) adjusted Wald interval for the difference of paired proportions, one of the three that Fagerland,
    Lydersen & Laake (2014) recommend: p12 = (n12 + 1)/(n + 2), p21 = (n21 + 1)/(n + 2), difference
    p12 - p21 with standard error sqrt((p12 + p21 - (p12 - p21)^2)/(n + 2)) and a normal interval.  The
    same estimate is the mean of the item differences with two more items of difference +1 and -1, and so
    it applies unchanged to item scores in [0, 1] (item means over samples, graded scores): the mean of the
    n + 2 differences, the standard error of that mean (variance with divisor n + 2).  The p-value is the
    Wald z-test of the same estimate against 0, so that the interval excludes 0 exactly when the two-sided
    p-value is below 1 - ``confidence_level``.  Where every item agrees the interval is
    +-z sqrt(2)/(n + 2), not [0, 0], and p = 1.  Validated in the harness study at 30 to 500 items and near
    the floor and the ceiling (docs/studies/harness.md).

    Parameters
    ----------
    scores_a, scores_b : array_like (items,)
        Each model's score per item in [0, 1], in the same item order (item means with several samples).
    alternative : {"two-sided", "greater", "less"}
        "greater": A scores higher than B.
    confidence_level : float
        Level of the two-sided interval.

    Returns
    -------
    PairedDifferenceResult
        z (the adjusted difference over its standard error), the p-value, the observed mean difference, the
        adjusted standard error and the interval around the adjusted difference (``df`` infinite: a normal
        reference), the items and the method.

    Examples
    --------
    A model right on 28 of 30 items where the other is right on 26, the first right wherever the second is:

    >>> a = [1] * 28 + [0] * 2
    >>> b = [1] * 26 + [0] * 4
    >>> res = adjusted_paired_difference(a, b)
    >>> round(res.difference, 4), [round(x, 4) for x in res.confidence_interval], round(res.pvalue, 4)
    (0.0667, [-0.0581, 0.1831], 0.3096)

    By hand, Bonett-Price with n12 = 2, n21 = 0:

    >>> import math
    >>> p12, p21 = 3 / 32, 1 / 32
    >>> half = 1.959964 * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 32)
    >>> round(p12 - p21 - half, 4), round(p12 - p21 + half, 4)
    (-0.0581, 0.1831)
    """
    a, b = _paired_scores(scores_a, scores_b, alternative, confidence_level)
    outside = np.flatnonzero((a < 0) | (a > 1) | (b < 0) | (b > 1))
    if outside.size:
        i = int(outside[0])
        raise ValueError(f"item {i}: scores {a[i]:g} and {b[i]:g}; the adjusted difference needs item scores in "
                         "[0, 1] (use paired_difference)")
    d = np.concatenate([a - b, [1.0, -1.0]])          # Bonett & Price's two pseudo-items
    m = d.size
    adjusted = float(d.mean())
    se = float(np.sqrt(max(float(np.mean(d * d)) - adjusted * adjusted, 0.0) / m))
    z = adjusted / se                                   # se >= sqrt(2)/(m sqrt(m)) > 0: the pseudo-items differ
    p = {"two-sided": 2 * sps.norm.sf(abs(z)), "greater": sps.norm.sf(z), "less": sps.norm.cdf(z)}[alternative]
    half = float(sps.norm.isf((1 - confidence_level) / 2)) * se
    low, high = max(adjusted - half, -1.0), min(adjusted + half, 1.0)
    return PairedDifferenceResult(float(z), float(p), alternative,
                                  "paired difference: Bonett-Price adjusted Wald (two pseudo-items of difference "
                                  "+1 and -1), normal reference", difference=float((a - b).mean()), standard_error=se,
                                  df=float("inf"), confidence_interval=ConfidenceInterval(low, high), n=a.size,
                                  clusters=None)


def bounded_items(values) -> bool:
    """Whether every item score lies in [0, 1] (0/1 correctness, item means of such scores, graded scores):
    the scores :func:`adjusted_paired_difference` takes.

    Parameters
    ----------
    values : array_like
        Item scores (any shape).

    Returns
    -------
    bool
        True when there is at least one score and every score is in [0, 1].

    Examples
    --------
    >>> bounded_items([[1, 0, 0.5], [1, 1, 0]]), bounded_items([0.5, 2.0])
    (True, False)
    """
    values = np.asarray(values, dtype=float)
    return bool(values.size) and bool(np.all((values >= 0) & (values <= 1)))


def default_item_test(values, clusters) -> str:
    """The default test of per-item scores (``compare --from``): Bonett-Price's adjusted Wald for independent
    items scored in [0, 1], which holds its level and coverage at 30 items and near 0 % or 100 % in the harness
    study, else the paired t-test (cluster-robust with clusters).

    Parameters
    ----------
    values : array_like
        The models' item scores.
    clusters : array_like or None
        Cluster id per item (None: items independent).

    Returns
    -------
    str
        ``"adjusted"`` (:func:`adjusted_paired_difference`) or ``"t"`` (:func:`paired_difference`).

    Examples
    --------
    >>> default_item_test([[1, 0], [0, 0]], None), default_item_test([[1, 0], [0, 0]], [0, 1])
    ('adjusted', 't')
    """
    return "adjusted" if clusters is None and bounded_items(values) else "t"


@dataclass(frozen=True)
class ItemMeans:
    """Repeated samples per item reduced to item means (:func:`item_means`).

    Attributes
    ----------
    items : numpy.ndarray
        The item ids, sorted.
    means : numpy.ndarray
        Each item's mean over its samples.
    samples : numpy.ndarray
        Samples per item.
    between : float
        Variance of the items' true means, estimated (method of moments, may be below 0 when the
        items hardly differ).
    within : float
        Mean within-item variance of the samples (ddof = 1; NaN with one sample per item).
    method : str
        How the means were formed.

    Examples
    --------
    >>> res = item_means([0, 0, 1, 1], [1.0, 0.0, 1.0, 1.0])
    >>> res.means.tolist(), res.within
    ([0.5, 1.0], 0.25)
    """

    items: np.ndarray
    means: np.ndarray
    samples: np.ndarray
    between: float
    within: float
    method: str


def item_means(item, scores) -> ItemMeans:
    """Each item's mean score over its repeated samples (epochs, repeats), with the variance parts.

    The mean of the item means estimates the model's score over new items and new samples; its
    variance over items, Var(item means) / n, already contains the within-item part (sampling
    noise divided by the samples per item), so :func:`mean_interval` and
    :func:`paired_difference` on the item means resample items with their samples.

    Parameters
    ----------
    item : array_like (samples,)
        Item id of every sample.
    scores : array_like (samples,)
        Score of every sample.

    Returns
    -------
    ItemMeans
        Item ids, item means, samples per item, and the between- and within-item variances:
        Var(item means) = between + within / K for K samples per item.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(2)
    >>> p = rng.uniform(0.2, 0.9, 400)                        # each item's chance of a right answer
    >>> item = np.repeat(np.arange(400), 5)                   # 5 epochs per item
    >>> scores = (rng.random(2000) < p[item]).astype(float)
    >>> res = item_means(item, scores)
    >>> round(res.between, 3), round(res.within, 3)           # true: var(p) = 0.041, E p(1 - p) = 0.207
    (0.036, 0.212)
    >>> round(float(res.means.var(ddof=1)), 4) == round(res.between + res.within / 5, 4)
    True
    """
    ids = np.asarray(item)
    x = _checked_scores(scores, "scores")
    if ids.shape != x.shape:
        raise ValueError(f"item must give one id per score ({x.size}), got shape {ids.shape}")
    if x.size == 0:
        raise ValueError("no scores")
    items, index, samples = np.unique(ids, return_inverse=True, return_counts=True)
    index = index.ravel()
    means = np.bincount(index, weights=x) / samples
    if samples.max() > 1:
        squares = np.bincount(index, weights=(x - means[index]) ** 2)
        several = samples > 1
        within = float(np.mean(squares[several] / (samples[several] - 1)))
    else:
        within = float("nan")
    harmonic = float(len(samples) / np.sum(1.0 / samples))
    spread = float(means.var(ddof=1)) if means.size > 1 else float("nan")
    between = spread - (within / harmonic if samples.max() > 1 else 0.0)
    return ItemMeans(items, means, samples, between, within,
                     f"item means over {int(samples.min())}-{int(samples.max())} samples per item")
