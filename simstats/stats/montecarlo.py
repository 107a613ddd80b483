"""Monte Carlo summaries: rates and means over simulation replicates with their standard errors.

* :func:`proportion_with_se` - a rate of events (rejections, claims, coverage) over R
  independent replicates with its binomial Monte Carlo standard error sqrt(p (1 - p) / R);
* :func:`mean_with_se` - the mean of a non-binary quantity per replicate (e.g. the false
  discovery proportion) with the standard error sd / sqrt(R) (sample sd, ddof = 1);
* :func:`rejection_rate` - the share of p-values below ``alpha`` (strictly: p < alpha);
* :func:`size_verdict` - a test's size against its nominal level: ``holds alpha`` when the rate
  lies within 3 binomial standard errors of alpha (computed at alpha), else
  ``liberal`` / ``conservative``.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["proportion_with_se", "mean_with_se", "rejection_rate", "size_verdict", "coverage_verdict"]


def proportion_with_se(hits) -> tuple[float, float, int]:
    """Rate of events over simulation replicates, with its Monte Carlo standard error.

    The share of replicates in which an event happened (a rejection, a claim, an interval
    covering the truth), with the binomial standard error sqrt(p (1 - p) / R) that says how
    precisely R replicates estimate the rate.

    Parameters
    ----------
    hits : array_like of bool
        One entry per independent replicate: whether the event happened (flattened).

    Returns
    -------
    rate : float
        The share of True entries.
    se : float
        Its binomial Monte Carlo standard error sqrt(rate (1 - rate) / R).
    replicates : int
        R, the number of entries.  With no entries the rate and standard error are NaN.

    See Also
    --------
    rejection_rate : the rate of p-values below a level.
    mean_with_se : the mean of a non-binary quantity.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.montecarlo import proportion_with_se
    >>> rng = np.random.default_rng(0)
    >>> covered = rng.random(1000) < 0.95        # e.g. did the interval cover the truth?
    >>> rate, se, r = proportion_with_se(covered)
    >>> print(f"{rate:.3f} +- {se:.4f} over {r} replicates")
    0.952 +- 0.0068 over 1000 replicates
    >>> print(f"{np.sqrt(rate * (1 - rate) / r):.4f}")
    0.0068
    """
    hits = np.asarray(hits, dtype=bool).ravel()
    n = hits.size
    if n == 0:
        return math.nan, math.nan, 0
    p = float(hits.mean())
    return p, math.sqrt(p * (1 - p) / n), n


def mean_with_se(values) -> tuple[float, float, int]:
    """Mean of a quantity over simulation replicates, with its Monte Carlo standard error.

    For a non-binary quantity per replicate, e.g. the false discovery proportion of each
    simulated competition: the mean and its standard error sd / sqrt(R), with the sample
    standard deviation (ddof = 1).

    Parameters
    ----------
    values : array_like of float
        One value per independent replicate (flattened).

    Returns
    -------
    mean : float
        The mean over the replicates (NaN for no replicates).
    se : float
        Its standard error sd / sqrt(R); NaN for fewer than 2 replicates.
    replicates : int
        R, the number of values.

    See Also
    --------
    proportion_with_se : the same for 0/1 outcomes.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.montecarlo import mean_with_se
    >>> rng = np.random.default_rng(0)
    >>> fdp = rng.beta(1, 9, 400)                # one false discovery proportion per replicate
    >>> mean, se, r = mean_with_se(fdp)
    >>> print(f"{mean:.4f} {se:.4f} {r}")
    0.1036 0.0046 400
    >>> print(f"{float(stats.sem(fdp)):.4f}")
    0.0046
    """
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        return math.nan, math.nan, 0
    se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
    return float(x.mean()), se, int(x.size)


def rejection_rate(pvalues, alpha: float) -> tuple[float, float, int]:
    """Rejection rate of a test over simulation replicates, with its Monte Carlo standard error.

    The share of p-values strictly below ``alpha``: under a true null hypothesis the test's
    estimated size, otherwise its estimated power.  NaN p-values (replicates where the test
    could not be computed) are left out.

    Parameters
    ----------
    pvalues : array_like of float
        One p-value per replicate (flattened); NaN entries are ignored.
    alpha : float
        The significance level; a replicate rejects when p < alpha.

    Returns
    -------
    rate : float
        The share of non-NaN p-values below ``alpha``.
    se : float
        Its binomial Monte Carlo standard error.
    replicates : int
        The number of non-NaN p-values.

    See Also
    --------
    size_verdict : judge an estimated size against the nominal level.

    Examples
    --------
    Uniform p-values, as a valid test gives under the null hypothesis:

    >>> import numpy as np
    >>> from simstats.stats.montecarlo import rejection_rate
    >>> rng = np.random.default_rng(0)
    >>> rate, se, r = rejection_rate(rng.random(1000), alpha=0.05)
    >>> print(f"{rate:.3f} {se:.4f} {r}")
    0.045 0.0066 1000
    >>> rejection_rate([0.01, np.nan, 0.2, 0.04], 0.05)[::2]
    (0.6666666666666666, 3)
    """
    p = np.asarray(pvalues, dtype=float).ravel()
    p = p[~np.isnan(p)]
    return proportion_with_se(p < alpha)


def size_verdict(rate: float, alpha: float, replicates: int) -> str:
    """Judge a test's estimated size against its nominal level.

    The estimated size (the rejection rate under a true null hypothesis) is compared with the
    band alpha +- 3 sqrt(alpha (1 - alpha) / R), three binomial Monte Carlo standard errors
    computed at alpha.

    Parameters
    ----------
    rate : float
        The estimated size, e.g. from :func:`rejection_rate`.
    alpha : float
        The nominal significance level.
    replicates : int
        R, the number of replicates the rate was estimated from.

    Returns
    -------
    str
        ``'holds alpha'`` when the rate lies within the band, ``'liberal'`` above it,
        ``'conservative'`` below it.  ``'undetermined'`` when no rate was computed (R < 1 or
        a NaN rate) or when the band reaches 0, i.e. R < 9 (1 - alpha) / alpha (171
        replicates at alpha = 0.05): a test that never rejects would then "hold alpha", so the
        replicates cannot tell a conservative test from one that holds its level.

    Examples
    --------
    With 1,000 replicates at alpha = 0.05 the band is 0.05 +- 0.0207:

    >>> from simstats.stats.montecarlo import size_verdict
    >>> [size_verdict(rate, 0.05, 1000) for rate in (0.05, 0.068, 0.08, 0.02)]
    ['holds alpha', 'holds alpha', 'liberal', 'conservative']
    >>> size_verdict(0.0, 0.05, 100)             # too few replicates to call it conservative
    'undetermined'
    """
    if replicates < 1 or math.isnan(rate):
        return "undetermined"
    band = 3 * math.sqrt(alpha * (1 - alpha) / replicates)
    if band >= alpha:
        return "undetermined"
    if rate > alpha + band:
        return "liberal"
    if rate < alpha - band:
        return "conservative"
    return "holds alpha"


def coverage_verdict(rate: float, level: float, replicates: int, *, width: float = 3.0) -> str:
    """Judge an interval's estimated coverage against its nominal level.

    The coverage (the share of replicates whose interval contains the truth) is compared with the
    band level +- 3 sqrt(level (1 - level) / R), three binomial Monte Carlo standard errors computed
    at the level, as :func:`size_verdict` judges a size.

    Parameters
    ----------
    rate : float
        The estimated coverage.
    level : float
        The interval's nominal level, e.g. 0.95.
    replicates : int
        R, the number of replicates the coverage was estimated from.
    width : float
        The band's half-width in Monte Carlo standard errors (default 3; wider to judge the worst of several
        intervals' coverages, which is low by selection).

    Returns
    -------
    str
        ``'covers'`` within the band, ``'undercovers'`` below it, ``'overcovers'`` above it;
        ``'undetermined'`` when no rate was computed (R < 1 or a NaN rate) or when the band reaches 1
        (R < 9 level / (1 - level), 171 replicates at 0.95): an interval that always covers would
        then "cover", so the replicates cannot tell an over-wide interval from a right one.

    Examples
    --------
    With 1,000 replicates at 0.95 the band is 0.95 +- 0.0207:

    >>> from simstats.stats.montecarlo import coverage_verdict
    >>> [coverage_verdict(rate, 0.95, 1000) for rate in (0.95, 0.932, 0.92, 0.99)]
    ['covers', 'covers', 'undercovers', 'overcovers']
    """
    if replicates < 1 or math.isnan(rate):
        return "undetermined"
    band = width * math.sqrt(level * (1 - level) / replicates)
    if level + band >= 1:
        return "undetermined"
    if rate < level - band:
        return "undercovers"
    if rate > level + band:
        return "overcovers"
    return "covers"
