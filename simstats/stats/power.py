"""Planning a comparison of approaches: how many seeds and test items does it need?

From pilot runs (per-item statistics of a few seeds per approach on one test set) the planner
estimates the variance components of the approach-level difference and predicts, for k seeds
per approach and n test items, the standard error, the power against a true difference and
the minimum detectable difference of :func:`simstats.approach_t_test` — the default test of
``simstats compare`` with several seeds per system.

Model of a run r of approach j on item i (per-item values y whose mean over items is the run's
score, linearised for ratio metrics; :mod:`simstats.stats.crossed`):

    y_ri = mu_j + u_r + a_i + c_ji + e_ri,

seed effects u ~ (0, sigma_seed^2), item effects a (shared by both approaches: they cancel),
approach x item effects with Var(c_Ai - c_Bi) = sigma_interaction^2 and run x item noise
e ~ (0, sigma_residual^2), the same in both approaches.  With paired seeds (both approaches run
with the same seed ids) sigma_seed^2 and sigma_residual^2 are half the variances of the seed-by-seed
differences, so what a seed shares between the approaches is left out.  For k seeds per approach
and n items the difference of the approaches' mean scores has variance

    V(k, n) = 2 sigma_seed^2 / k + sigma_interaction^2 / n + 2 sigma_residual^2 / (k n).

The estimates are the method of moments of :mod:`simstats.stats.crossed` on the pilot, pooled over
the approaches; a component estimated below 0 is floored at 0 (``floored`` names it).  The planned
test rejects two-sided when |T| exceeds the critical value of its reference distribution at the
planned expected mean squares (:func:`power`); ``df`` in :func:`plan` is their Satterthwaite degrees
of freedom (:meth:`VarianceComponents.degrees_of_freedom`), a summary of how precisely the planned
study estimates its variance.

A pilot of a few seeds estimates the seed component on few degrees of freedom, so a prediction
from it is uncertain.  Each V(k, n) is a linear combination of the pilot's independent mean
squares; the modified large-sample interval of such a combination gives an interval for V(k, n)
(:meth:`VarianceComponents.variance_interval`) and, through it, an interval for the power and
for the minimum detectable difference (:func:`plan`, ``confidence=``).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.stats.renamed import Renamed, renamed
from simstats.stats.approaches import checked_runs, oriented_unit_values
from simstats.stats.crossed import (REFERENCE_DRAWS, MeanSquare, chi2_draws, fitted_values, floored_estimates, satterthwaite_df,
                                    two_way_mean_squares)
from simstats.stats.lazy import lazy_module
from simstats.stats.metrics import Metric

optimize = lazy_module("scipy.optimize")
special = lazy_module("scipy.special")
distributions = lazy_module("scipy.stats")

__all__ = ["VarianceComponents", "variance_components", "components_from_mean_squares", "power",
           "minimum_detectable_difference", "items_needed", "plan", "seeds_items_grid", "MIN_DISCORDANT",
           "PairedItemVariance", "paired_item_variance", "paired_item_variance_from_rates", "paired_power",
           "paired_plan"]

#: Components the planner estimates, in :class:`VarianceComponents`' order.
COMPONENTS = ("seed", "interaction", "residual")


@dataclass(frozen=True)
class VarianceComponents:
    """Variance components of an approach comparison, in metric units squared.

    The planner's description of a comparison of two approaches over seeds and test items
    (the model is in the module docstring); its methods predict the variance of a planned
    study with k seeds per approach and n items.  Usually estimated from a pilot by
    :func:`variance_components`.

    Attributes
    ----------
    seed : float
        sigma_seed^2, floored at 0.
    interaction : float
        sigma_interaction^2 = Var(c_Ai - c_Bi), floored at 0.
    residual : float
        sigma_residual^2, floored at 0.
    difference : float
        The pilot's observed difference of mean scores (A - B; A's improvement for a
        lower-is-better metric).
    runs : tuple of int
        Pilot runs per approach.
    items : int
        Pilot test items (or clusters).
    paired : bool
        Whether the pilot's seeds were paired.  Default False.
    floored : tuple of str
        The components that were estimated below 0.
    terms : tuple of MeanSquare
        The pilot's mean squares, for the uncertainty of a prediction (empty: no intervals).

    See Also
    --------
    variance_components, components_from_mean_squares, plan

    Examples
    --------
    >>> from simstats.stats.power import VarianceComponents
    >>> comp = VarianceComponents(seed=0.0004, interaction=0.01, residual=0.18, difference=0.03,
    ...                           runs=(4, 4), items=500)
    >>> print(f"{float(comp.variance(10, 2000)):.6f}")
    0.000103

    That is V(k, n) = 2 sigma_seed^2 / k + sigma_interaction^2 / n + 2 sigma_residual^2 / (k n):

    >>> print(f"{2 * 0.0004 / 10 + 0.01 / 2000 + 2 * 0.18 / (10 * 2000):.6f}")
    0.000103
    """

    seed: float
    interaction: float
    residual: float
    difference: float
    runs: tuple
    items: int
    paired: bool = False
    floored: tuple = ()
    terms: tuple = ()

    def variance(self, seeds, items) -> np.ndarray:
        """V(k, n): variance of the estimated difference over new seeds and new items."""
        k, n = np.asarray(seeds, float), np.asarray(items, float)
        return 2 * self.seed / k + self.interaction / n + 2 * self.residual / (k * n)

    def expected_mean_squares(self, seeds: int, items: int) -> tuple:
        """The planned study's mean squares (:class:`MeanSquare`, values = expectations) whose
        combination is its variance estimate (:func:`simstats.stats.crossed.crossed_variance`)."""
        k, n = int(seeds), int(items)
        s, c, e = self.seed, self.interaction, self.residual
        q = 1.0 / (k * n)
        if self.paired:
            return (MeanSquare("seeds", n * 2 * s + 2 * e, k - 1, q), MeanSquare("units", k * c + 2 * e, n - 1, q),
                    MeanSquare("residual", 2 * e, (k - 1) * (n - 1), -q))
        return (MeanSquare("runs A", n * s + e, k - 1, q), MeanSquare("runs B", n * s + e, k - 1, q),
                MeanSquare("units", c + 2 * e / k, n - 1, 1.0 / n),
                MeanSquare("residual A", e, (k - 1) * (n - 1), -q), MeanSquare("residual B", e, (k - 1) * (n - 1), -q))

    def degrees_of_freedom(self, seeds: int, items: int) -> float:
        """Satterthwaite degrees of freedom of the planned t-test, from its expected mean squares."""
        terms = self.expected_mean_squares(seeds, items)
        return satterthwaite_df(terms, float(self.variance(seeds, items)))

    def pilot_coefficients(self, seeds: int, items: int) -> np.ndarray:
        """a with V(k, n) = sum_t a_t M_t over the pilot's mean squares ``terms`` (before flooring)."""
        k, n = float(seeds), float(items)
        n_p = float(self.items)
        if self.paired:
            k_p = float(self.runs[0])
            return np.array([1 / (k * n_p), 1 / (k_p * n), -1 / (k * n_p) - 1 / (k_p * n) + 1 / (k * n)])
        h = 1 / self.runs[0] + 1 / self.runs[1]
        return np.array([2 / (k * n_p), 1 / n, -2 / (k * n_p) - h / n + 2 / (k * n)])

    def variance_interval(self, seeds: int, items: int, confidence_level: float = 0.95, *, confidence=Renamed("confidence_level")) -> tuple[float, float]:
        """Interval for V(k, n) from the pilot's uncertainty: the modified large-sample interval of a
        combination sum_t a_t M_t of independent mean squares with coefficients of either sign
        (Graybill & Wang 1980; Burdick & Graybill 1992, ch. 3), exact for a single mean square.  The
        lower end is at least the lower end for the residual part alone (V cannot be smaller than the
        run x item noise the pilot measures on many degrees of freedom)."""
        confidence = renamed("variance_interval", "confidence", "confidence_level", confidence, confidence_level, 0.95)
        if not self.terms:
            v = float(self.variance(seeds, items))
            return v, v
        a = self.pilot_coefficients(seeds, items)
        m = np.array([t.value for t in self.terms])
        df = np.array([float(t.df) for t in self.terms])
        tail = (1 - confidence) / 2
        chi2 = distributions.chi2
        g = 1 - df / chi2.isf(tail, df)          # shrinks a positive term for the lower end
        h = df / chi2.ppf(tail, df) - 1          # grows it for the upper end
        term = a * m
        lower_spread = np.where(a > 0, g * term, h * term)
        upper_spread = np.where(a > 0, h * term, g * term)
        centre = float(term.sum())
        low = centre - float(np.sqrt(np.sum(lower_spread**2)))
        high = centre + float(np.sqrt(np.sum(upper_spread**2)))
        residual_part = 2 * self.residual / (float(seeds) * float(items))      # the residual term of V(k, n)
        low = max(low, residual_part * (1 - g[-1]))
        v = float(self.variance(seeds, items))
        return min(low, v), max(high, v)


def components_from_mean_squares(first: float, units: float, residual: float, *, runs: tuple, items: int,
                                 paired: bool = False, difference: float = 0.0) -> VarianceComponents:
    """Variance components (floored at 0) from a pilot's three mean squares.

    For planning from summary statistics when the pilot's per-item data are not at hand, or
    from mean squares computed elsewhere.

    Parameters
    ----------
    first : float
        Paired seeds: MS_seeds of the seed-by-seed differences; else MS_runs pooled over the
        approaches.
    units : float
        Paired seeds: MS_units of the differences; else V_d, the variance over units of the
        difference of the approaches' unit means.
    residual : float
        Paired seeds: MS_residual of the differences; else MS_residual pooled over the
        approaches (:func:`simstats.stats.crossed.crossed_variance` defines them).
    runs : tuple of int
        Pilot runs per approach (k_A, k_B).
    items : int
        Pilot test units (items or clusters).
    paired : bool, optional
        The seeds were paired.  Default False.
    difference : float, optional
        The pilot's observed difference.  Default 0.

    Returns
    -------
    VarianceComponents
        With ``terms`` set, so that predictions get intervals.

    Examples
    --------
    Unpaired: seed = (MS_runs - MS_residual) / n, interaction = V_d - MS_residual (1 / k_A + 1 / k_B):

    >>> from simstats.stats.power import components_from_mean_squares
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500, difference=0.03)
    >>> round(comp.seed, 6), round(comp.interaction, 6), comp.residual
    (0.0004, 0.01, 0.18)
    >>> [(t.name, t.df) for t in comp.terms]
    [('runs', 6), ('units', 499), ('residual', 2994)]
    >>> components_from_mean_squares(0.38, 0.05, 0.18, runs=(4, 4), items=500).floored
    ('interaction',)
    """
    ka, kb = runs
    n = int(items)
    if paired:
        dfs = (ka - 1, n - 1, (ka - 1) * (n - 1))
        raw = {"seed": (first - residual) / (2 * n), "interaction": (units - residual) / ka, "residual": residual / 2}
    else:
        dfs = (ka + kb - 2, n - 1, (ka + kb - 2) * (n - 1))
        raw = {"seed": (first - residual) / n, "interaction": units - residual * (1 / ka + 1 / kb),
               "residual": residual}
    names = ("seeds" if paired else "runs", "units", "residual")
    terms = tuple(MeanSquare(name, float(m), df, 1.0) for name, m, df in zip(names, (first, units, residual), dfs))
    return VarianceComponents(*(max(0.0, float(raw[c])) for c in COMPONENTS), difference=float(difference),
                              runs=(int(ka), int(kb)), items=n, paired=paired,
                              floored=tuple(c for c in COMPONENTS if raw[c] < 0), terms=terms)


def variance_components(stats, metric: Metric, approach, seed_id=None, *, approaches=None, paired_seeds=None,
                        clusters=None, seed=Renamed("seed_id")) -> VarianceComponents:
    """Estimate the variance components of an approach comparison from pilot runs.

    The first step of planning a study: a few seeds per approach on one test set give the
    seed, interaction and residual variance that :func:`plan` and :func:`power` extrapolate
    to other numbers of seeds and items (method of moments, module docstring).

    Parameters
    ----------
    stats : array_like, shape (runs, items, k)
        Per-item statistics of every pilot run (at least 2 runs per approach, 2 items).
    metric : Metric
        The metric of summed statistics (ratio metrics are linearised).
    approach : array_like, shape (runs,)
        Approach label of every run; exactly two approaches.
    seed_id : array_like, shape (runs,), optional
        Seed id of every run, as in :func:`simstats.approach_t_test`.
    approaches : sequence, optional
        The two approach labels in the order (A, B); default the labels in the order they
        first appear in ``approach``.
    paired_seeds : bool, optional
        Whether the seeds are paired; by default they are when both approaches have the same
        seed ids.
    clusters : array_like, shape (items,), optional
        Cluster id of every item; the clusters are then the units.

    Returns
    -------
    VarianceComponents

    Raises
    ------
    ValueError
        If an approach has fewer than 2 runs or the pilot fewer than 2 items, or the inputs do
        not fit each other.

    Examples
    --------
    A simulated pilot: 4 seeds of two approaches on 500 items.

    >>> import numpy as np
    >>> from simstats.stats.metrics import accuracy
    >>> from simstats.stats.power import variance_components
    >>> rng = np.random.default_rng(1)
    >>> easy = rng.beta(4, 2, 500)                                    # item effects
    >>> runs, labels = [], []
    >>> for name, shift in (("A", 0.03), ("B", 0.0)):
    ...     p_approach = easy + shift + rng.normal(0, 0.05, 500)       # approach x item effects
    ...     for seed in range(4):
    ...         p_run = np.clip(p_approach + rng.normal(0, 0.01), 0, 1)   # seed effect
    ...         correct = rng.random(500) < p_run
    ...         runs.append(np.stack([correct, np.ones(500)], axis=1))
    ...         labels.append(name)
    >>> comp = variance_components(np.stack(runs), accuracy, labels)
    >>> print(f"{comp.seed:.5f} {comp.interaction:.5f} {comp.residual:.4f} {comp.difference:.4f}")
    0.00039 0.00712 0.1825 0.0345
    >>> comp.runs, comp.items, comp.paired, comp.floored
    ((4, 4), 500, False, ())
    """
    seed_id = renamed("variance_components", "seed", "seed_id", seed, seed_id, None)
    stats, names, runs, pairing = checked_runs(stats, metric, approach, seed_id, approaches, paired_seeds)
    if pairing is not None:
        runs = list(pairing)
    if min(r.size for r in runs) < 2:
        raise ValueError("the planner needs at least 2 pilot runs per approach")
    y = oriented_unit_values(stats, metric, clusters)
    n = y.shape[1]
    if n < 2:
        raise ValueError("the planner needs at least 2 test items")
    a, b = y[runs[0]], y[runs[1]]
    ka, kb = a.shape[0], b.shape[0]
    if pairing is not None:
        mean_squares = two_way_mean_squares(a - b)
    else:
        ms = [two_way_mean_squares(t) for t in (a, b)]
        mean_squares = (((ka - 1) * ms[0][0] + (kb - 1) * ms[1][0]) / (ka + kb - 2),
                        float(np.var(a.mean(axis=0) - b.mean(axis=0), ddof=1)),
                        ((ka - 1) * ms[0][2] + (kb - 1) * ms[1][2]) / (ka + kb - 2))
    return components_from_mean_squares(*mean_squares, runs=(ka, kb), items=n, paired=pairing is not None,
                                        difference=float(a.mean() - b.mean()))


#: Draws of the planned study's mean squares behind :func:`power` (fixed seed: the same prediction every time).
#: Draws of the planned study's mean squares (outer) and of each draw's reference (inner) in :func:`power`.
OUTER_DRAWS, INNER_DRAWS = 1000, 100


def power(components: VarianceComponents, seeds, items, difference, *, alpha: float = 0.05,
          variance=None) -> np.ndarray:
    """Predicted power of the two-sided approach t-test at a true difference.

    The probability that a study with ``seeds`` runs per approach and ``items`` test items
    detects a true difference at level ``alpha`` with :func:`simstats.approach_t_test`.

    Parameters
    ----------
    components : VarianceComponents
        The variance components, e.g. from :func:`variance_components`.
    seeds : int or array_like of int
        Runs per approach of the planned study.
    items : int or array_like of int
        Test items (units) of the planned study; broadcasts with ``seeds`` and ``difference``.
    difference : float or array_like
        The true difference of the approaches' mean scores.
    alpha : float, optional
        Significance level of the two-sided test.  Default 0.05.
    variance : float or array_like, optional
        Replaces V(k, n) with the components scaled in proportion, e.g. an end of
        :meth:`VarianceComponents.variance_interval`.

    Returns
    -------
    float or numpy.ndarray
        The power, in the broadcast shape of the inputs.

    Notes
    -----
    The test refers T = difference / sqrt(estimate) to its null distribution under the components it
    fits (:class:`simstats.stats.crossed.StudentisedReference`), and both the estimate and the fitted
    components vary from study to study.  The prediction follows the test: :data:`OUTER_DRAWS` draws of
    the planned study's mean squares (each its expectation times chi-square(df) / df, a fixed Latin
    hypercube), each giving the estimate, the fitted components and the critical value c of their
    reference (:data:`INNER_DRAWS` draws); the difference is normal with variance V(k, n), so
    P(reject | draw) = Phi(d / sqrt(V) - c r) + Phi(-d / sqrt(V) - c r), r = sqrt(estimate / V),
    averaged over the draws.

    Examples
    --------
    >>> from simstats.stats.power import components_from_mean_squares, power
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500)
    >>> power(comp, 10, 2000, [0.0, 0.02, 0.03]).round(4).tolist()
    [0.0501, 0.4639, 0.7999]

    At no difference the power is the test's size, alpha.
    """
    seeds, items, difference = np.broadcast_arrays(np.asarray(seeds), np.asarray(items),
                                                   np.asarray(difference, float))
    scale = None if variance is None else np.broadcast_to(np.asarray(variance, float), seeds.shape)
    out = np.empty(seeds.shape)
    for idx in np.ndindex(seeds.shape):
        k, n = int(seeds[idx]), int(items[idx])
        v = float(components.variance(k, n))
        if v <= 0:
            out[idx] = 1.0 if abs(float(difference[idx])) > 0 else alpha
            continue
        factor = 1.0 if scale is None else float(scale[idx]) / v
        ratio, critical = _rejection_draws(components.expected_mean_squares(k, n), components.paired, (k, k),
                                           float(alpha))
        z = abs(float(difference[idx])) / math.sqrt(v * factor)
        bound = critical * ratio
        out[idx] = float(np.mean(special.ndtr(z - bound) + special.ndtr(-z - bound)))
    return out if out.ndim else out[()]


@functools.lru_cache(maxsize=4096)
def _rejection_draws(terms: tuple, paired: bool, runs: tuple, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Per draw of the planned study's mean squares (expectations ``terms``): r = sqrt(estimate / V) and
    the two-sided critical value at ``alpha`` of the reference at the draw's fitted components (found
    for all draws at once by Newton's method)."""
    coefficients = np.array([t.coefficient for t in terms])
    expected = float(sum(t.coefficient * t.value for t in terms))
    observed = np.stack([t.value * chi2_draws(p, t.df, OUTER_DRAWS) for p, t in enumerate(terms)])   # (T, outer)
    ratio = np.sqrt(floored_estimates(coefficients[:, None] * observed, coefficients) / expected)
    fitted = fitted_values(observed, paired=paired, runs=runs)                                       # (T, outer)
    # each outer draw's reference: its own INNER_DRAWS of the test's reference draws (consecutive blocks
    # of them, wrapping), so that the references' errors average out over the outer draws
    block = (np.arange(OUTER_DRAWS)[:, None] * INNER_DRAWS + np.arange(INNER_DRAWS)) % REFERENCE_DRAWS
    inner = np.stack([chi2_draws(p, t.df)[block] for p, t in enumerate(terms)])                      # (T, outer, inner)
    parts = coefficients[:, None, None] * fitted[:, :, None] * inner
    fitted_total = (coefficients[:, None] * fitted).sum(axis=0)        # summed in term order (no BLAS)
    with np.errstate(divide="ignore", invalid="ignore"):
        inner_ratio = np.sqrt(floored_estimates(parts, coefficients) / fitted_total[:, None])
    # P(T > c) = alpha / 2 per outer draw: Newton's method, which from the t quantile on the fitted
    # components' Satterthwaite df rises monotonically to the root (the tail is convex in c)
    spread = ((coefficients[:, None] * fitted) ** 2 / np.array([float(t.df) for t in terms])[:, None]).sum(axis=0)
    critical = np.maximum(distributions.t.isf(alpha / 2, fitted_total**2 / spread), 0.0)
    for _ in range(12):
        scaled = critical[:, None] * inner_ratio
        gap = special.ndtr(-scaled).mean(axis=1) - alpha / 2
        slope = -(inner_ratio * np.exp(-0.5 * scaled**2)).mean(axis=1) / math.sqrt(2 * math.pi)
        # where the density underflows (c far in the tail) Newton has no slope: halve c if the tail is
        # below alpha / 2, double it (from at least 1) if above
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(slope < 0, gap / slope, np.where(gap < 0, critical / 2, -np.maximum(critical, 1.0)))
        critical = np.maximum(critical - step, 0.0)
        if np.max(np.abs(step)) < 1e-9:
            break
    return ratio, critical


def minimum_detectable_difference(components: VarianceComponents, seeds: int, items: int, *, alpha: float = 0.05,
                                  target: float = 0.8, variance: float | None = None) -> float:
    """Smallest true difference the approach t-test detects with probability ``target``.

    Parameters
    ----------
    components : VarianceComponents
        The variance components.
    seeds : int
        Runs per approach of the planned study.
    items : int
        Test items of the planned study.
    alpha : float, optional
        Significance level of the two-sided test.  Default 0.05.
    target : float, optional
        The power wanted, in (alpha, 1).  Default 0.8.
    variance : float, optional
        As in :func:`power`.

    Returns
    -------
    float
        The minimum detectable difference (0 if the variance is 0).

    Raises
    ------
    ValueError
        If ``target`` is not in (alpha, 1).

    Examples
    --------
    >>> from simstats.stats.power import components_from_mean_squares, minimum_detectable_difference, power
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500)
    >>> mdd = minimum_detectable_difference(comp, 10, 2000)
    >>> round(mdd, 4), round(float(power(comp, 10, 2000, mdd)), 4)
    (0.03, 0.8)
    """
    if not alpha < target < 1:
        raise ValueError(f"target power must lie in (alpha, 1), got {target}")
    v = float(components.variance(seeds, items)) if variance is None else float(variance)
    if v <= 0:
        return 0.0
    def gap(d):
        return float(power(components, seeds, items, d, alpha=alpha, variance=v)) - target

    top = 4 * math.sqrt(v)
    while gap(top) < 0:
        top *= 2
    return float(optimize.brentq(gap, 0.0, top, xtol=1e-12 * top))


def items_needed(components: VarianceComponents, seeds: int, difference: float, *, alpha: float = 0.05,
                 target: float = 0.8, max_items: int = 10**7) -> float:
    """Fewest test items that give ``target`` power against ``difference``.

    Parameters
    ----------
    components : VarianceComponents
        The variance components.
    seeds : int
        Runs per approach of the planned study.
    difference : float
        The true difference to detect.
    alpha : float, optional
        Significance level of the two-sided test.  Default 0.05.
    target : float, optional
        The power wanted.  Default 0.8.
    max_items : int, optional
        The largest number of items considered.  Default 10**7.

    Returns
    -------
    float
        The number of items (at least 2), or NaN when not even ``max_items`` items reach the
        target: the seed variance alone is then too large for this number of seeds.

    Examples
    --------
    >>> from simstats.stats.power import components_from_mean_squares, items_needed
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500)
    >>> items_needed(comp, 10, 0.03, max_items=10_000)
    2004.0
    >>> items_needed(comp, 3, 0.03)                 # 3 seeds are too few for any test set
    nan
    """
    def gap(n):
        return float(power(components, seeds, n, difference, alpha=alpha)) - target

    if gap(max_items) < 0:
        return float("nan")
    low, high = 2, max_items
    if gap(low) >= 0:
        return float(low)
    while high - low > 1:           # power grows with n at fixed k: bisect on integers
        mid = (low + high) // 2
        low, high = (low, mid) if gap(mid) >= 0 else (mid, high)
    return float(high)


def plan(components: VarianceComponents, *, seeds=(3, 5, 10, 20), items=None, difference=None,
         alpha: float = 0.05, target: float = 0.8, confidence_level: float = 0.95, confidence=Renamed("confidence_level")) -> pd.DataFrame:
    """Plan a comparison of approaches: predictions for a grid of seeds and test items.

    Parameters
    ----------
    components : VarianceComponents
        The variance components, e.g. from :func:`variance_components`.
    seeds : sequence of int, optional
        Runs per approach to consider (each at least 2).  Default (3, 5, 10, 20).
    items : sequence of int, optional
        Test-set sizes to consider; default the pilot's test-set size and 2 and 4 times it.
    difference : float, optional
        A true difference to give the power against.
    alpha : float, optional
        Significance level of the two-sided test.  Default 0.05.
    target : float, optional
        The power of the minimum detectable difference.  Default 0.8.
    confidence_level : float, optional
        Confidence level of the intervals from the pilot's uncertainty.  Default 0.95.

    Returns
    -------
    pandas.DataFrame
        One row per (seeds, items): ``se`` (standard error of the difference), ``df``
        (Satterthwaite degrees of freedom of the planned variance estimate), ``mdd`` (minimum
        detectable difference at ``target`` power) with its interval ``mdd_low``/``mdd_high``
        and, with ``difference``, ``power`` with ``power_low``/``power_high``.

    Raises
    ------
    ValueError
        If a number of seeds is below 2.

    Examples
    --------
    >>> from simstats.stats.power import components_from_mean_squares, plan
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500)
    >>> table = plan(comp, seeds=(5, 10), items=(500, 2000), difference=0.03)
    >>> columns = ["seeds", "items", "se", "mdd", "power", "power_low", "power_high"]
    >>> print(table[columns].round(4).to_string(index=False))
     seeds  items     se    mdd  power  power_low  power_high
         5    500 0.0180 0.0573 0.3173     0.1078      0.5971
         5   2000 0.0142 0.0458 0.4537     0.1089      0.9926
        10    500 0.0131 0.0385 0.5894     0.1814      0.8934
        10   2000 0.0101 0.0300 0.7999     0.1922      1.0000
    """
    confidence = renamed("plan", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    items = (components.items, 2 * components.items, 4 * components.items) if items is None else items
    rows = []
    for k in seeds:
        if k < 2:
            raise ValueError(f"seeds per approach must be >= 2, got {k}")
        for n in items:
            lo, hi = components.variance_interval(k, n, confidence)
            row = {"seeds": int(k), "items": int(n), "se": float(np.sqrt(components.variance(k, n))),
                   "df": components.degrees_of_freedom(k, n),
                   "mdd": minimum_detectable_difference(components, k, n, alpha=alpha, target=target),
                   "mdd_low": minimum_detectable_difference(components, k, n, alpha=alpha, target=target,
                                                            variance=lo),
                   "mdd_high": minimum_detectable_difference(components, k, n, alpha=alpha, target=target,
                                                             variance=hi)}
            if difference is not None:
                row["power"] = float(power(components, k, n, difference, alpha=alpha))
                row["power_low"] = float(power(components, k, n, difference, alpha=alpha, variance=hi))
                row["power_high"] = float(power(components, k, n, difference, alpha=alpha, variance=lo))
            rows.append(row)
    return pd.DataFrame(rows)


def seeds_items_grid(components: VarianceComponents, difference: float, *, seeds=(2, 3, 5, 10, 20),
                     alpha: float = 0.05, target: float = 0.8) -> pd.DataFrame:
    """For each number of seeds, the fewest test items that reach ``target`` power.

    Parameters
    ----------
    components : VarianceComponents
        The variance components.
    difference : float
        The true difference to detect.
    seeds : sequence of int, optional
        Runs per approach to consider.  Default (2, 3, 5, 10, 20).
    alpha : float, optional
        Significance level of the two-sided test.  Default 0.05.
    target : float, optional
        The power wanted.  Default 0.8.

    Returns
    -------
    pandas.DataFrame
        Columns ``seeds`` and ``items_needed`` (:func:`items_needed`; NaN: no number of items
        is enough with so few seeds).

    Examples
    --------
    >>> from simstats.stats.power import components_from_mean_squares, seeds_items_grid
    >>> comp = components_from_mean_squares(0.38, 0.1, 0.18, runs=(4, 4), items=500)
    >>> print(seeds_items_grid(comp, 0.03, seeds=(3, 10)).to_string(index=False))
     seeds  items_needed
         3           NaN
        10        2004.0
    """
    return pd.DataFrame({"seeds": [int(k) for k in seeds],
                         "items_needed": [items_needed(components, k, difference, alpha=alpha, target=target)
                                          for k in seeds]})


# --------------------------------------------------------------------------- one run per system
MIN_DISCORDANT = 100
"""Expected items on which the runs differ from which :func:`paired_power` matches the paired bootstrap
within Monte Carlo error (tests/stats/test_power.py); with fewer the bootstrap has less power."""


@dataclass(frozen=True)
class PairedItemVariance:
    """Variance of the per-item difference of two runs: the planner's input with one run per system.

    With one trained run per system the claim is about these two runs on new test items, and
    the comparison is paired over the items; its precision depends on the variance of the
    per-item (or per-cluster) difference of the two runs (:func:`paired_plan`).

    Attributes
    ----------
    variance : float
        Var(d_i) of d_i = y_Ai - y_Bi (metric units squared; linearised for ratio metrics).
    difference : float
        The pilot's observed difference A - B (default NaN, when only the variance is given).
    units : int
        The pilot's items or clusters (0 when the variance is given, not estimated: no
        interval).
    disagreement : float or None
        For accuracy from rates, P(the runs disagree on an item), so that the variance at a
        true difference d is disagreement - d^2.

    See Also
    --------
    paired_item_variance, paired_item_variance_from_rates

    Examples
    --------
    >>> from simstats.stats.power import PairedItemVariance
    >>> given = PairedItemVariance(variance=0.1)
    >>> given.variance_at(0.02), given.variance_interval()
    (0.1, (0.1, 0.1))
    >>> from_rates = PairedItemVariance(variance=0.0996, disagreement=0.1)
    >>> round(from_rates.variance_at(0.05), 4)
    0.0975
    """

    variance: float
    difference: float = float("nan")
    units: int = 0
    disagreement: float | None = None

    def variance_at(self, difference: float) -> float:
        """Var(d_i) when the true difference is ``difference`` (for rates: disagreement - difference^2)."""
        if self.disagreement is None:
            return self.variance
        return max(self.disagreement - float(difference) ** 2, 0.0)

    def variance_interval(self, confidence_level: float = 0.95, *, confidence=Renamed("confidence_level")) -> tuple[float, float]:
        """Chi-square interval of Var(d_i) on units - 1 degrees of freedom (normal-theory: approximate for
        0/1 differences); the variance itself when it was given."""
        confidence = renamed("variance_interval", "confidence", "confidence_level", confidence, confidence_level, 0.95)
        if self.units < 2:
            return self.variance, self.variance
        df = self.units - 1
        tail = (1 - confidence) / 2
        return (df * self.variance / float(distributions.chi2.isf(tail, df)),
                df * self.variance / float(distributions.chi2.ppf(tail, df)))


def paired_item_variance(stats, metric: Metric, *, clusters=None) -> PairedItemVariance:
    """Estimate :class:`PairedItemVariance` from a pilot of one run per system.

    Parameters
    ----------
    stats : array_like, shape (2, items, k)
        Per-item statistics of run A and run B on the same items.
    metric : Metric
        The metric (ratio metrics are linearised; lower-is-better metrics oriented so that
        the difference is A's improvement).
    clusters : array_like, shape (items,), optional
        Cluster id of every item: the variance is then that of the per-cluster differences.

    Returns
    -------
    PairedItemVariance
        The sample variance (ddof = 1) of the differences, their mean and the number of units.

    Raises
    ------
    ValueError
        If ``stats`` is not the statistics of exactly two runs, or has fewer than 2 units.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import accuracy, label_statistics
    >>> from simstats.stats.power import paired_item_variance
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 2, 300)
    >>> pred_a = np.where(rng.random(300) < 0.85, gold, 1 - gold)
    >>> pred_b = np.where(rng.random(300) < 0.80, gold, 1 - gold)
    >>> stats = np.stack([label_statistics(accuracy, gold, pred_a), label_statistics(accuracy, gold, pred_b)])
    >>> pilot = paired_item_variance(stats, accuracy)
    >>> round(pilot.variance, 4), round(pilot.difference, 4), pilot.units
    (0.3008, 0.0133, 300)
    >>> d = (pred_a == gold).astype(float) - (pred_b == gold)
    >>> round(float(d.var(ddof=1)), 4)
    0.3008
    """
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 3 or stats.shape[0] != 2:
        raise ValueError(f"a one-run pilot needs the statistics of exactly two runs, got shape {stats.shape}")
    values = oriented_unit_values(stats, metric, clusters)
    d = values[0] - values[1]
    if d.size < 2:
        raise ValueError(f"the pilot needs at least 2 test {'clusters' if clusters is not None else 'items'}")
    return PairedItemVariance(float(np.var(d, ddof=1)), float(d.mean()), int(d.size))


def paired_item_variance_from_rates(accuracy_a: float, accuracy_b: float, disagreement: float) -> PairedItemVariance:
    """:class:`PairedItemVariance` of two runs' accuracies and their disagreement rate.

    Plans a paired comparison of two classifiers without a pilot: the per-item difference of
    their correctness is -1, 0 or 1, so its variance follows from the accuracies and the share
    of items on which the runs disagree (one right, the other wrong):
    Var(d_i) = disagreement - (accuracy_a - accuracy_b)^2.

    Parameters
    ----------
    accuracy_a, accuracy_b : float
        The two runs' accuracies, in [0, 1].
    disagreement : float
        The share of items on which exactly one of the runs is right; at least
        |accuracy_a - accuracy_b| and at most min(a + b, 2 - a - b).

    Returns
    -------
    PairedItemVariance
        With ``units`` 0 (no interval) and ``disagreement`` set.

    Raises
    ------
    ValueError
        If a rate is outside [0, 1] or the disagreement rate is impossible for the
        accuracies.

    Examples
    --------
    >>> from simstats.stats.power import paired_item_variance_from_rates
    >>> v = paired_item_variance_from_rates(0.82, 0.80, 0.10)
    >>> round(v.variance, 4), round(v.difference, 4)
    (0.0996, 0.02)
    """
    for name, v in (("accuracy_a", accuracy_a), ("accuracy_b", accuracy_b), ("disagreement", disagreement)):
        if not 0 <= v <= 1:
            raise ValueError(f"{name} must lie in [0, 1], got {v}")
    d = float(accuracy_a) - float(accuracy_b)
    most = min(accuracy_a + accuracy_b, 2 - accuracy_a - accuracy_b)
    if not abs(d) <= disagreement <= most:
        raise ValueError(f"with accuracies {accuracy_a:g} and {accuracy_b:g} the disagreement rate must lie in "
                         f"[{abs(d):g}, {most:g}], got {disagreement:g}")
    return PairedItemVariance(float(disagreement) - d * d, d, 0, float(disagreement))


def paired_power(variance: PairedItemVariance, items, difference, *, alpha: float = 0.05, var=None) -> np.ndarray:
    """Power of the two-sided paired test of two runs on ``items`` test items.

    The power of the paired t-test over items on the per-item differences (noncentral t on
    items - 1 degrees of freedom).  The paired bootstrap, ``simstats compare``'s default with
    one run per system, matches it when the runs differ on at least :data:`MIN_DISCORDANT` of
    the items (checked by simulation in the tests; with fewer the bootstrap has less power than
    predicted).

    Parameters
    ----------
    variance : PairedItemVariance
        The variance of the per-item difference.
    items : int or array_like
        Test items of the planned comparison.
    difference : float or array_like
        The true difference; broadcasts with ``items``.
    alpha : float, optional
        Significance level.  Default 0.05.
    var : float, optional
        Overrides Var(d_i), e.g. an end of :meth:`PairedItemVariance.variance_interval`.

    Returns
    -------
    float or numpy.ndarray
        The power, in the broadcast shape of ``items`` and ``difference``.

    Examples
    --------
    >>> from simstats.stats.power import paired_item_variance_from_rates, paired_power
    >>> v = paired_item_variance_from_rates(0.82, 0.80, 0.10)
    >>> paired_power(v, [500, 1000, 2000], 0.02).round(4).tolist()
    [0.293, 0.5168, 0.8086]

    statsmodels' power of the one-sample t-test gives the same:

    >>> from statsmodels.stats.power import TTestPower
    >>> effect = 0.02 / v.variance_at(0.02) ** 0.5
    >>> round(float(TTestPower().power(effect, nobs=2000, alpha=0.05, alternative="two-sided")), 4)
    0.8086
    """
    items, difference = np.broadcast_arrays(np.asarray(items, float), np.asarray(difference, float))
    out = np.empty(items.shape)
    for idx in np.ndindex(items.shape):
        n, d = float(items[idx]), abs(float(difference[idx]))
        v = variance.variance_at(d) if var is None else float(var)
        if v <= 0:
            out[idx] = 1.0 if d > 0 else alpha
            continue
        df = n - 1
        crit = float(distributions.t.isf(alpha / 2, df))
        nc = d / math.sqrt(v / n)
        value = float(distributions.nct.sf(crit, df, nc) + distributions.nct.cdf(-crit, df, nc))
        if not math.isfinite(value):         # scipy's noncentral t fails far in its tail: the normal limit
            value = float(special.ndtr(nc - crit) + special.ndtr(-nc - crit))
        out[idx] = value
    return out if out.ndim else out[()]


def paired_plan(variance: PairedItemVariance, *, items, difference=None, alpha: float = 0.05, target: float = 0.8,
                confidence_level: float = 0.95, confidence=Renamed("confidence_level")) -> pd.DataFrame:
    """Plan a paired comparison of one run per system over numbers of test items.

    Parameters
    ----------
    variance : PairedItemVariance
        The variance of the per-item difference, from a pilot or from rates.
    items : sequence of int
        Test-set sizes to consider (each at least 2).
    difference : float, optional
        A true difference to give the power against.
    alpha : float, optional
        Significance level.  Default 0.05.
    target : float, optional
        The power of the minimum detectable difference.  Default 0.8.
    confidence_level : float, optional
        Confidence level of the intervals from the pilot's uncertainty of Var(d_i) (from rates
        there is none: the ends equal the estimate).  Default 0.95.

    Returns
    -------
    pandas.DataFrame
        One row per number of items: ``se`` (standard error of the difference), ``mdd`` with
        ``mdd_low``/``mdd_high`` and, with ``difference``, ``power`` with
        ``power_low``/``power_high``.  ``attrs['items_needed']``: the fewest items that reach
        ``target`` power against ``difference`` (None without a difference).

    Raises
    ------
    ValueError
        If ``target`` is not in (alpha, 1) or a number of items is below 2.

    Examples
    --------
    >>> from simstats.stats.power import paired_item_variance_from_rates, paired_plan
    >>> v = paired_item_variance_from_rates(0.82, 0.80, 0.10)
    >>> table = paired_plan(v, items=(1000, 2000), difference=0.02)
    >>> print(table[["items", "se", "mdd", "power"]].round(4).to_string(index=False))
     items     se    mdd  power
      1000 0.0100 0.0279 0.5168
      2000 0.0071 0.0198 0.8086
    >>> table.attrs["items_needed"]
    1957
    """
    confidence = renamed("paired_plan", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    if not alpha < target < 1:
        raise ValueError(f"target power must lie in (alpha, 1), got {target}")
    low, high = variance.variance_interval(confidence) if variance.units >= 2 else (None, None)

    def mdd(n, v):
        def gap(d):
            return float(paired_power(variance, n, d, alpha=alpha, var=v)) - target
        top = 4 * math.sqrt(max(variance.variance if v is None else v, 1e-300) / n) + 1e-12
        while gap(top) < 0:
            top *= 2
        return float(optimize.brentq(gap, 0.0, top, xtol=1e-12))

    rows = []
    for n in items:
        if n < 2:
            raise ValueError(f"items must be >= 2, got {n}")
        row = {"items": int(n), "se": math.sqrt(variance.variance_at(difference or 0.0) / n),
               "mdd": mdd(n, None), "mdd_low": mdd(n, low), "mdd_high": mdd(n, high)}
        if difference is not None:
            row["power"] = float(paired_power(variance, n, difference, alpha=alpha))
            row["power_low"] = float(paired_power(variance, n, difference, alpha=alpha, var=high))
            row["power_high"] = float(paired_power(variance, n, difference, alpha=alpha, var=low))
        rows.append(row)
    out = pd.DataFrame(rows)
    needed = None
    if difference:
        if paired_power(variance, 10**8, difference, alpha=alpha) >= target:
            lo_n, hi_n = 2, 10**8
            while hi_n - lo_n > 1:
                mid = (lo_n + hi_n) // 2
                lo_n, hi_n = (lo_n, mid) if paired_power(variance, mid, difference, alpha=alpha) >= target else (mid, hi_n)
            needed = hi_n
    out.attrs["items_needed"] = needed
    return out
