"""Closed forms of Evaluations 1 and 2 (Reimers & Gurevych 2018) under the noise model.

One training run's (dev score, test score) is a mixture of bivariate normals, one per component
of the seed distribution (``simstats.studies.noise.simulate.component_moments``: a single
component except for the ``test_shift_mixture``).  Evaluation 2 picks, per approach, the run
with the best dev score among n; its test score T has density

    g(t) = n  sum_c w_c  integral f_c(d) F(d)^(n - 1) phi_c(t | d) dd,

with F the mixture cdf of the dev score and phi_c(t | d) the component's conditional normal
density.  The difference of the two approaches' picked runs has density g * g(-.) (independent
approaches); n = 1 is Evaluation 1.  A pair is significant when its paired bootstrap's
one-sided p (shift convention) is below alpha, tau is the mean |Delta| of the pairs with
0.04 < p < 0.05, and Delta95 the 95th percentile of |Delta|.  Computed on a grid (quadrature
error far below Monte Carlo error at paper scale).

The p of a pair with |Delta| = x: without a bootstrap shape, 1 - Phi(x / se) with se = sqrt(2) s_x,
the two runs' within-set standard error.  With a :class:`~simstats.sim.noise.BootstrapShape` of the
realised test set (small test sets: ACE Events' 424 triggers), the pair's realised bootstrap variance V
is gamma distributed with mean se^2 (1 - a) + (a + b) x^2 + c E[(Delta psi)^2 | Delta = x] and variance
2 a se^4, and its p has the one-term Edgeworth correction

    p = 1 - Phi(z) + phi(z) gamma (z^2 - 1) / 6,   z = x / sqrt(V),  gamma = k x / V^(3/2);

tau and % significant integrate P(p < level | |Delta| = x) (:func:`significance_probability`) over the
density of |Delta|.  E[(Delta psi)^2 | Delta = x] comes from Tweedie's formula (Delta = Delta psi +
N(0, se^2)): (x + se^2 l'(x))^2 + se^2 + se^4 l''(x), l the log density of Delta.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.sim.noise import BootstrapShape, realised_item_sets
from simstats.sim.closed_forms import components_and_shape
from simstats.stats.lazy import lazy_module

optimize = lazy_module("scipy.optimize")
special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

#: Band of one-sided p-values whose pairs define tau (Table 1).
TAU_BAND = (0.04, 0.05)


def _edgeworth_z(level: float, x: np.ndarray, skew_slope: float) -> np.ndarray:
    """z with 1 - Phi(z) + phi(z) gamma (z^2 - 1) / 6 = level for gamma = k z^3 / x^2 (the skewness of a
    pair with |Delta| = x and bootstrap variance x^2 / z^2); fixed-point iteration from z_(1-level)."""
    z = np.full(x.shape, float(stats.norm.isf(level)))
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(8):
            term = stats.norm.pdf(z) * skew_slope * z**3 * (z * z - 1.0) / (6.0 * x * x)
            z = stats.norm.isf(level - np.clip(np.nan_to_num(term), -0.5 * level, 0.5 * level))
    return z


def significance_probability(x, level: float, se0: float, shape: BootstrapShape, true_square) -> np.ndarray:
    """P(p < level | |Delta| = x) of the paired bootstrap with a :class:`BootstrapShape`: the pair's
    realised bootstrap variance V is gamma distributed with mean
    se0^2 (1 - a) + (a + b) x^2 + c E[(Delta psi)^2 | x] and variance 2 a se0^4, and p < level exactly
    when V < x^2 / z^2 with z from the Edgeworth term of skewness k x / V^(3/2)."""
    x = np.asarray(x, dtype=float)
    a = shape.variance_dispersion
    mean = (se0**2 * (1.0 - a) + (a + shape.centring_slope) * x * x
            + shape.spread_curvature * np.maximum(true_square(x), 0.0))
    mean = np.maximum(mean, 1e-3 * se0**2)
    bound = x * x / _edgeworth_z(level, x, shape.skew_slope) ** 2
    if a <= 0:
        return (bound > mean).astype(float)
    var = 2.0 * a * se0**4
    return special.gammainc(mean * mean / var, bound * mean / var)


def _shaped_values(x: np.ndarray, f_abs: np.ndarray, tail: float, se0: float, shape: BootstrapShape,
                   true_square, alpha: float) -> tuple[float, float]:
    """(% significant, tau) from the density ``f_abs`` of |Delta| on the grid ``x`` (and the mass
    ``tail`` beyond it, all significant) with the shaped bootstrap p (:func:`significance_probability`)."""
    sig = significance_probability(x, alpha, se0, shape, true_square)
    below, above = (significance_probability(x, p, se0, shape, true_square) for p in TAU_BAND)
    band = above - below                                  # P(0.04 < p < 0.05 | |Delta| = x)
    pct = 100.0 * (tail + float(np.trapezoid(f_abs * sig, x)))
    tau = float(np.trapezoid(x * f_abs * band, x) / np.trapezoid(f_abs * band, x))
    return pct, tau


def _tweedie_true_square(noise_var: float, d_log, d2_log):
    """E[(Delta psi)^2 | Delta = x] for Delta = Delta psi + N(0, noise_var), from the derivatives of the
    log density of Delta (Tweedie's formula)."""
    def true_square(x):
        mean = x + noise_var * d_log(x)
        return mean**2 + noise_var + noise_var**2 * d2_log(x)
    return true_square


def mixture_difference_values(components: list[dict], *, alpha: float = 0.05,
                              shape: BootstrapShape | None = None) -> dict[str, float]:
    """Evaluation 1 exactly: the test-score difference of two independent runs is a mixture of
    normals (one per pair of components); % significant, Delta95, tau and sd of Delta (the pairs' p
    from ``shape``, see the module text)."""
    w = np.array([c["weight"] for c in components])
    m = np.array([c["mean_test"] for c in components])
    v = np.array([c["var_test"] for c in components])
    weights = (w[:, None] * w[None, :]).ravel()
    means = (m[:, None] - m[None, :]).ravel()
    sds = np.sqrt(v[:, None] + v[None, :]).ravel()
    se = math.sqrt(2.0 * sum(c["weight"] * c["var_x_test"] for c in components))

    def abs_cdf(x: float) -> float:
        return float(np.sum(weights * (special.ndtr((x - means) / sds) - special.ndtr((-x - means) / sds))))

    def abs_partial_mean(lo: float, hi: float) -> float:   # integral of |Delta| f over lo <= |Delta| <= hi
        out = 0.0
        for sign in (1.0, -1.0):        # Delta in [lo, hi] and -Delta in [lo, hi]
            mu = sign * means
            a, b = (lo - mu) / sds, (hi - mu) / sds
            out += np.sum(weights * (mu * (special.ndtr(b) - special.ndtr(a)) + sds * (stats.norm.pdf(a)
                                                                                      - stats.norm.pdf(b))))
        return float(out)

    total_sd = math.sqrt(float(np.sum(weights * (sds**2 + means**2))))
    delta95 = optimize.brentq(lambda x: abs_cdf(x) - 0.95, 0.0, 20 * total_sd, xtol=1e-15, rtol=1e-13)
    if shape is None:
        lo, hi = (stats.norm.isf(p) * se for p in reversed(TAU_BAND))
        tau = abs_partial_mean(lo, hi) / (abs_cdf(hi) - abs_cdf(lo))
        pct = 100.0 * (1.0 - abs_cdf(stats.norm.isf(alpha) * se))
    else:
        def log_derivatives(x):         # (l', l'') of the mixture density at each x
            u = (x[:, None] - means) / sds
            f = weights * stats.norm.pdf(u) / sds
            total = f.sum(axis=1)
            d1 = np.sum(f * -u / sds, axis=1) / total
            d2 = np.sum(f * (u * u - 1.0) / sds**2, axis=1) / total
            return d1, d2 - d1 * d1

        x = np.linspace(0.0, 8.0 * se, 4001)
        f_abs = np.sum(weights * (stats.norm.pdf((x[:, None] - means) / sds)
                                  + stats.norm.pdf((-x[:, None] - means) / sds)) / sds, axis=1)
        d1, d2 = log_derivatives(x)
        true_square = _tweedie_true_square(se**2, lambda v: np.interp(v, x, d1), lambda v: np.interp(v, x, d2))
        pct, tau = _shaped_values(x, f_abs, 1.0 - abs_cdf(x[-1]), se, shape, true_square, alpha)
    return {"pct_significant": pct, "delta95_test": 100 * delta95, "tau": 100 * tau, "se_pair": 100 * se,
            "sigma_delta": 100 * total_sd}


def _normal_pdf(x, mean, sd):
    z = (x - mean) / sd
    return np.exp(-0.5 * z * z) / (sd * math.sqrt(2 * math.pi))


def _grid_size(means: np.ndarray, sds: np.ndarray, base: int) -> int:
    """Grid points for a span of all components +-9 sd: at least ``base``, and at least 60 per smallest sd
    (components far apart need more points to resolve each), at most 20 times ``base``."""
    span = float((means + 9 * sds).max() - (means - 9 * sds).min())
    return int(min(max(base, 60 * span / float(sds.min())), 20 * base))


def selected_test_density(components: list[dict], n: int, *, n_dev: int = 601, n_test: int = 1001,
                          with_weights: bool = False):
    """(t grid, density of the test score of the best-by-dev run of n); with ``with_weights`` also the
    probability that the picked run comes from each component."""
    w = np.array([c["weight"] for c in components])
    m_d = np.array([c["mean_dev"] for c in components])
    m_t = np.array([c["mean_test"] for c in components])
    s_d = np.sqrt([c["var_dev"] for c in components])
    s_t = np.sqrt([c["var_test"] for c in components])
    cov = np.array([c["cov"] for c in components])
    d = np.linspace((m_d - 9 * s_d).min(), (m_d + 9 * s_d).max(), _grid_size(m_d, s_d, n_dev))
    t = np.linspace((m_t - 9 * s_t).min(), (m_t + 9 * s_t).max(), _grid_size(m_t, s_t, n_test))
    pdf_c = w[:, None] * _normal_pdf(d[None, :], m_d[:, None], s_d[:, None])         # (C, D)
    cdf = np.sum(w[:, None] * special.ndtr((d[None, :] - m_d[:, None]) / s_d[:, None]), axis=0)
    select = n * cdf ** (n - 1)                                                       # (D,)
    dens = np.zeros_like(t)
    dd = d[1] - d[0]
    picked = np.sum(pdf_c * select[None, :], axis=1) * dd                             # (C,)
    for c in range(w.size):
        slope = cov[c] / s_d[c] ** 2
        cond_sd = math.sqrt(max(s_t[c] ** 2 - slope * cov[c], 1e-300))
        mean = m_t[c] + slope * (d - m_d[c])                                          # (D,)
        kernel = _normal_pdf(t[None, :], mean[:, None], cond_sd)                       # (D, T)
        dens += (pdf_c[c] * select * dd) @ kernel
    if with_weights:
        return t, dens, picked / picked.sum()
    return t, dens


def difference_density(t: np.ndarray, density: np.ndarray):
    """(Delta grid, density) of the difference of two independent draws from ``density``."""
    dt = t[1] - t[0]
    diff = np.convolve(density, density[::-1]) * dt
    grid = (np.arange(diff.size) - (density.size - 1)) * dt
    return grid, diff


def _abs_cdf(grid: np.ndarray, dens: np.ndarray):
    """(x >= 0, P(|Delta| <= x)) from a symmetric-or-not density on a uniform grid."""
    dx = grid[1] - grid[0]
    cum = np.cumsum(dens) * dx
    centre = np.searchsorted(grid, 0.0)
    x = grid[centre:]
    upper = np.interp(x, grid, cum)
    lower = np.interp(-x, grid, cum)
    return x, np.clip(upper - lower, 0.0, 1.0)


def evaluation_values(components: list[dict], n: int, *, alpha: float = 0.05,
                      shape: BootstrapShape | None = None) -> dict[str, float]:
    """% significant, Delta95, tau of the best-by-dev runs of n per approach (n = 1: Evaluation 1),
    in F1 points / percent.  The pair's bootstrap se uses the within-set variance of the picked runs
    (their mix of components); its p, ``shape`` (see the module text)."""
    t, g, picked = selected_test_density(components, n, with_weights=True)
    se = math.sqrt(2.0 * sum(p * c["var_x_test"] for p, c in zip(picked, components)))
    grid, dens = difference_density(t, g)
    x, cdf = _abs_cdf(grid, dens)
    delta95 = float(np.interp(0.95, cdf, x))
    if shape is not None:
        log_dens = np.log(np.maximum(dens, 1e-300))
        d1 = np.gradient(log_dens, grid)
        d2 = np.gradient(d1, grid)
        true_square = _tweedie_true_square(se**2, lambda v: np.interp(v, grid, d1), lambda v: np.interp(v, grid, d2))
        f_abs = np.interp(x, grid, dens) + np.interp(-x, grid, dens)
        pct, tau = _shaped_values(x, f_abs, 0.0, se, shape, true_square, alpha)
        return {"pct_significant": pct, "delta95_test": 100 * delta95, "tau": 100 * tau, "se_pair": 100 * se}
    pct = 100.0 * (1.0 - float(np.interp(stats.norm.isf(alpha) * se, x, cdf)))
    lo, hi = (stats.norm.isf(p) * se for p in reversed(TAU_BAND))
    x_band = np.linspace(lo, hi, 401)                  # the narrow band, on the interpolated density
    f_band = np.interp(x_band, grid, dens) + np.interp(-x_band, grid, dens)
    tau = float(np.trapezoid(x_band * f_band, x_band) / np.trapezoid(f_band, x_band))
    return {"pct_significant": pct, "delta95_test": 100 * delta95, "tau": 100 * tau, "se_pair": 100 * se}


def closed_form_curves(scenarios, ns, *, alpha: float = 0.05, root_seed: int | None = None,
                       progress=None) -> pd.DataFrame:
    """Figure 4 and Table 2 in closed form: per task scenario and group size n, the % significant,
    Delta95 and tau of the best-by-dev runs (on the realised dev/test sets of ``root_seed``, else the
    expectation over sets of the configured sizes)."""
    rows = []
    for sc in scenarios:
        if sc.seed_distribution.family not in ("normal", "test_shift_mixture"):
            if progress is not None:
                progress(f"{sc.name}: no closed form for a {sc.seed_distribution.family} seed distribution")
            continue
        item_sets = None if root_seed is None else realised_item_sets(sc, root_seed)
        _, parts, shape = components_and_shape(sc, sc.approaches[0].name, item_sets)
        for n in sorted(set(ns)):
            values = evaluation_values(parts, n, alpha=alpha, shape=shape)
            rows.append({"scenario": sc.name, "reference": sc.reference, "n": n, **values})
        if progress is not None:
            progress(f"{sc.name}: closed-form curve over {len(set(ns))} group sizes")
    return pd.DataFrame(rows)
