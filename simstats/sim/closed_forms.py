"""The noise model's closed forms: what a scenario implies exactly, by quadrature over the seed
distribution (and the test shift), for the population of items or for realised item sets.

These are the exact values the noise study checks its simulations against and the numbers the
Reimers & Gurevych calibration fits; :class:`simstats.sim.noise.Population` supplies the per-ability
expectations they integrate.
"""
from __future__ import annotations

import math

import numpy as np

from simstats.sim.noise import BootstrapShape, Population, mixture_spearman, seed_quadrature
from simstats.sim.scenario import Scenario
from simstats.stats.lazy import lazy_module

interpolate = lazy_module("scipy.interpolate")
special = lazy_module("scipy.special")

__all__ = ["bootstrap_shape", "component_moments", "component_spearman", "components_and_shape", "implied_values",
           "logistic_normal_mean", "node_moments", "score_moments"]


def _given_items(pop: Population, items, theta: np.ndarray, n_grid: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Population.given_items on a grid of theta, interpolated by cubic splines (both are smooth in theta).

    41 spline knots put the interpolation error of tau, Delta95, rho and Evaluation 2's % significant
    below 1e-7 on the realised sets of all seven Reimers tasks (9e-8 for ACE Events, 1e-9 or less for
    the others; against 2,561 knots, ``tests/studies/reimers2018/test_reimers.py``), where 161 linearly interpolated points
    left 2e-7 to 2e-5, at a quarter of the item-level work (one normal cdf per item and knot).
    Without model noise (sigma_e = 0) both are step functions: 161 points, linear interpolation.
    """
    n_grid = n_grid or (161 if pop.scenario.sigma_e == 0 else 41)
    lo, hi = float(theta.min()), float(theta.max())
    grid = np.linspace(lo, hi, n_grid) if hi > lo else np.array([lo])
    parts = [pop.given_items(grid[i:i + 16], items) for i in range(0, grid.size, 16)]
    mean = np.concatenate([p[0] for p in parts])
    var = np.concatenate([p[1] for p in parts])
    if grid.size == 1:
        return np.full(theta.shape, mean[0]), np.full(theta.shape, var[0])
    if pop.scenario.sigma_e == 0 or np.any(np.diff(grid) <= 0):   # step functions, or a range of rounding size
        return np.interp(theta, grid, mean), np.interp(theta, grid, var)
    spline = interpolate.CubicSpline(grid, np.stack([mean, var], axis=1))
    values = spline(theta)
    return values[..., 0], values[..., 1]


def node_moments(scenario: Scenario, approach: str, item_sets: dict | None = None, *,
                 with_r12: bool = False) -> dict[str, np.ndarray]:
    """Per quadrature node of (theta, test shift): weights and a model's expected dev / test score
    and its within-set variance, over the population or on the realised ``item_sets`` (and the
    item-level correlation r12 of two such models if ``with_r12``)."""
    pop = Population(scenario)
    nodes, weights, shifts, components = seed_quadrature(scenario, approach)
    gh_x, gh_w = np.polynomial.hermite_e.hermegauss(41)
    gh_w = gh_w / gh_w.sum()
    theta_test = nodes[:, None] + shifts[:, None] + scenario.sigma_shift * gh_x[None, :]
    theta_dev = nodes + scenario.dev_offset
    out = {"weights": weights, "w2": weights[:, None] * gh_w[None, :], "component": components, "theta_test": theta_test,
           "psi_dev": np.asarray(pop.psi_true(theta_dev, "dev")), "psi_test": np.asarray(pop.psi_true(theta_test, "test"))}
    if item_sets is None:
        out["e_dev"], out["e_test"] = out["psi_dev"], out["psi_test"]
        out["v_dev"], out["v_test"] = pop.x_variance(theta_dev, "dev"), pop.x_variance(theta_test, "test")
    else:  # expected scores and their variance on the realised sets, not the population's
        out["e_dev"], out["v_dev"] = _given_items(pop, item_sets["dev"].for_approach(approach), theta_dev)
        out["e_test"], out["v_test"] = _given_items(pop, item_sets["test"].for_approach(approach), theta_test)
    if with_r12:
        out["r12"] = pop.pair_correlation(theta_test, "gold")
    return out


def bootstrap_shape(scenario: Scenario, approach: str, item_sets: dict | None, *,
                    nodes: dict | None = None) -> BootstrapShape | None:
    """The paired bootstrap's departure from normal on the realised test set (:class:`BootstrapShape`),
    at the typical test ability of ``approach``'s runs; None without realised sets or without model noise
    (the closed forms then use the normal approximation exactly)."""
    if item_sets is None or scenario.sigma_e == 0:      # no model noise: no shape, the exact normal formulas
        return None
    nodes = node_moments(scenario, approach, item_sets) if nodes is None else nodes
    typical = float(np.sum(nodes["w2"] * nodes["theta_test"]))
    shape = Population(scenario).bootstrap_shape(typical, item_sets["test"].for_approach(approach))
    return None if shape == BootstrapShape() else shape


def components_and_shape(scenario: Scenario, approach: str, item_sets: dict | None):
    """(nodes, :func:`component_moments`, :func:`bootstrap_shape`) from one quadrature: what the closed
    forms of Evaluations 1 and 2 need."""
    nodes = node_moments(scenario, approach, item_sets)
    return (nodes, component_moments(scenario, approach, nodes=nodes),
            bootstrap_shape(scenario, approach, item_sets, nodes=nodes))


def score_moments(nodes: dict[str, np.ndarray], mask=None) -> dict[str, float]:
    """Mean and covariance of (dev score, test score) of one model over the nodes (``mask``: a subset,
    e.g. one mixture component): expected scores on the set plus their within-set variance."""
    w, w2 = nodes["weights"], nodes["w2"]
    if mask is not None:
        w, w2 = w * mask, w2 * mask[:, None]
    total = w.sum()
    w, w2 = w / total, w2 / total
    e_dev, e_test = nodes["e_dev"], nodes["e_test"]
    m_dev, m_test = np.sum(w * e_dev), np.sum(w2 * e_test)
    return {"weight": float(total), "mean_dev": float(m_dev), "mean_test": float(m_test),
            "var_dev": float(np.sum(w * (e_dev - m_dev) ** 2) + np.sum(w * nodes["v_dev"])),
            "var_test": float(np.sum(w2 * (e_test - m_test) ** 2) + np.sum(w2 * nodes["v_test"])),
            "cov": float(np.sum(w2 * (e_dev[:, None] - m_dev) * (e_test - m_test))),
            "var_x_test": float(np.sum(w2 * nodes["v_test"]))}


def component_moments(scenario: Scenario, approach: str, item_sets: dict | None = None, *,
                      nodes: dict | None = None) -> list[dict[str, float]]:
    """:func:`score_moments` of each component of the seed distribution: one for ``normal``, two for
    ``test_shift_mixture``; each component's scores are then treated as bivariate normal, which the
    other families' are not (ValueError)."""
    family = scenario.seed_distribution.family
    if family not in ("normal", "test_shift_mixture"):
        raise ValueError(f"scenario {scenario.name!r}: component moments need a normal or test_shift_mixture "
                         f"seed distribution, got {family!r}")
    nodes = node_moments(scenario, approach, item_sets) if nodes is None else nodes
    return [score_moments(nodes, (nodes["component"] == c).astype(float))
            for c in range(len(scenario.seed_distribution.components))]


def component_spearman(parts: list[dict[str, float]]) -> float:
    """Spearman's rho of dev and test scores with each component's scores bivariate normal."""
    return mixture_spearman([p["weight"] for p in parts], [[p["mean_dev"], p["mean_test"]] for p in parts],
                            [[[p["var_dev"], p["cov"]], [p["cov"], p["var_test"]]] for p in parts])


def implied_values(scenario: Scenario, approach: str, item_sets: dict | None = None) -> dict[str, float]:
    """What the model implies for each summary statistic (quadrature over theta and delta).

    sd of X is the within-set sd (delta method for ratio metrics).  With ``item_sets`` the
    sd of X and the dev-test correlations are those the realised dev and test sets imply
    (a model's expected score on a fixed set is not exactly Psi_true); without, their
    expectation over item sets.  The correlations treat X_dev and X_test as independent
    of each other and of theta.  Spearman's value is (6/pi) asin(rho/2), exact for bivariate
    normal scores (normal seed distribution); for a ``test_shift_mixture`` it is the
    mixture's Spearman with each component's scores bivariate normal; other families: NaN.
    """
    nodes = node_moments(scenario, approach, item_sets, with_r12=True)
    w, w2 = nodes["weights"], nodes["w2"]
    f_dev, f_test = nodes["psi_dev"], nodes["psi_test"]
    m_dev, m_test = np.sum(w * f_dev), np.sum(w2 * f_test)
    var_dev = np.sum(w * (f_dev - m_dev) ** 2)
    var_test = np.sum(w2 * (f_test - m_test) ** 2)
    whole = score_moments(nodes)
    pearson = whole["cov"] / math.sqrt(whole["var_dev"] * whole["var_test"])
    family = scenario.seed_distribution.family
    if family == "normal":
        spearman = 6 / math.pi * math.asin(pearson / 2)
    elif family == "test_shift_mixture":
        spearman = component_spearman(component_moments(scenario, approach, nodes=nodes))
    else:
        spearman = float("nan")
    return {
        "sd_psi_true_dev": math.sqrt(var_dev), "sd_psi_true_test": math.sqrt(var_test),
        "sd_x_dev": math.sqrt(np.sum(w * nodes["v_dev"])), "sd_x_test": math.sqrt(whole["var_x_test"]),
        "pearson_dev_test": pearson, "spearman_dev_test": spearman,
        "mean_r12": float(np.sum(w2 * nodes["r12"])),
    }


def logistic_normal_mean(mu, sd: float, nodes: int = 120):
    """E[sigmoid(mu + sd Z)], Z standard normal, elementwise in ``mu``, by Gauss-Hermite quadrature (error
    below 1e-11 for |mu| <= 6, sd <= 3): the mean probability of a correct answer when the logits of items
    (or tasks) are normal with mean ``mu`` and sd ``sd``.

    Examples
    --------
    >>> round(float(logistic_normal_mean(0.0, 1.5)), 12)      # symmetric about 0.5
    0.5
    """
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    mu = np.asarray(mu, dtype=float)
    return np.tensordot(special.expit(mu[..., None] + sd * x), w, axes=1) / math.sqrt(2 * math.pi)

