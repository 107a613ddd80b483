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


def proportion_with_se(hits) -> tuple[float, float, int]:
    """(rate, its binomial Monte Carlo standard error, replicates); NaNs for no replicates."""
    hits = np.asarray(hits, dtype=bool).ravel()
    n = hits.size
    if n == 0:
        return math.nan, math.nan, 0
    p = float(hits.mean())
    return p, math.sqrt(p * (1 - p) / n), n


def mean_with_se(values) -> tuple[float, float, int]:
    """(mean, standard error sd/sqrt(R) with ddof = 1, replicates); se NaN for one replicate."""
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        return math.nan, math.nan, 0
    se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else math.nan
    return float(x.mean()), se, int(x.size)


def rejection_rate(pvalues, alpha: float) -> tuple[float, float, int]:
    """Share of (non-NaN) p-values with p < alpha, its binomial MCSE and the number of p-values."""
    p = np.asarray(pvalues, dtype=float).ravel()
    p = p[~np.isnan(p)]
    return proportion_with_se(p < alpha)


def size_verdict(rate: float, alpha: float, replicates: int) -> str:
    """``holds alpha`` | ``liberal`` | ``conservative``: the rate against alpha +- 3 sqrt(alpha (1 - alpha) / R).

    ``undetermined`` when no rate is computed or when the band reaches 0 (R < 9 (1 - alpha) / alpha,
    171 replicates at alpha = 0.05): a test that never rejects would then "hold alpha", so the
    replicates cannot tell a conservative test from one that holds its level."""
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
