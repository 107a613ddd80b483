"""Fit the noise model to a user's own runs: a scenario entry with an interval on every parameter.

Two kinds of data identify different parts of the model (:mod:`simstats.sim.noise`; latent units with
the total noise sd fixed, sigma_item^2 + sigma_c^2 + sigma_e^2 = 1, since a probit model identifies
only ratios):

**Item-level outcomes** (:func:`fit_outcomes`): 0/1 correctness of every run on every item of the test
split and optionally the dev split, optionally with cluster (document) ids.

* Two runs' outcomes on one item share the item's difficulty and its cluster's effect, so the
  tetrachoric correlation of two runs' outcomes over items estimates
  rho_shared = sigma_item^2 + sigma_c^2 (every pair of runs, averaged); the tetrachoric correlation
  of one run's outcomes on two items of one cluster estimates sigma_c^2.  sigma_e^2 = 1 - rho_shared.
  Both are bias-corrected by a bootstrap over items (clusters when given; within each split), whose
  draws give the intervals: Student's t with the cluster bootstrap's small-sample correction on
  Fisher's z scale (rho_shared) or the log scale (the cluster and item parts).
* A run's score p on a split maps to its latent ability h = Phi^-1(p).  The variance of h over runs
  is the seed (and, on test, shift) variance plus the run x item noise of a fixed item set,
  w = (p - Phi2(h, h; rho_shared)) / (n phi(h)^2), known from the items.
* Dev and test: the covariance of the runs' dev and test abilities is sigma_seed^2 (the seed effect
  shows on both splits; interval from generalised pivotal quantities of the covariance matrix,
  Weerahandi 1993: inverse-Wishart draws with the runs' degrees of freedom); the variance of the
  runs' test - dev abilities less both sets' noise is sigma_shift^2 (the seed effect cancels;
  chi-square interval, exact for normal runs); the mean of dev - test is the ``dev_offset``.  Test
  only: the variance less w_test is sigma_seed^2 (chi-square), and sigma_shift cannot be told from it
  (set to 0).
* Failed runs: a one-sided generalised ESD test (Rosner 1983) at ``failure_alpha`` flags runs far
  below the others on the latent scale (false flags at most about ``failure_alpha`` per fit of normal
  runs); flagged runs make a ``failure_mixture`` whose probability (Clopper-Pearson interval), shift
  (Student's t on the failed runs - 1 df) and sd (chi-square) come from them; the other parameters
  from the unflagged runs.  One failed run gives the shift without an interval and an sd of 0.
* target: the score at the unflagged runs' mean latent ability on test; its interval adds the runs'
  part (Student's t on runs - 1 df) and the test set's part (crossed runs x items mean squares,
  :mod:`simstats.stats.crossed`) in quadrature.

**Run-level scores** (:func:`fit_scores`): one score per run on test and optionally dev (e.g. the
seeds of a fine-tuning study), with the split sizes, optionally in groups of runs that share a
configuration (variances pooled within groups).  With dev scores the covariance gives sigma_seed^2,
the dev variance minus it the run x item noise of the dev set, hence rho_shared; the test variance
minus the covariance and the test set's noise gives sigma_shift^2.  Without dev scores rho_shared is
an assumption and sigma_shift is 0.  Clusters cannot be identified from scores.  F1/precision/recall
scores are mapped to the latent scale with a spurious-candidate pool equal to the gold items.

Every estimate carries an interval at ``confidence``; :attr:`ScenarioFit.parameters` says for each how
it was obtained or that it was assumed, and :meth:`ScenarioFit.to_yaml` writes the scenario entry
with those statements as comments.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from simstats.sim.noise import Population, _solve_mu
from simstats.stats.renamed import Renamed, renamed
from simstats.sim.scenario import Scenario, SplitSpec, parse_scenario
from simstats.stats.crossed import cluster_values, two_way_mean_squares
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import RowCounts

special = lazy_module("scipy.special")
distributions = lazy_module("scipy.stats")

__all__ = ["FitError", "FittedParameter", "ScenarioFit", "fit_outcomes", "fit_scores", "tetrachoric",
           "bivariate_normal_cdf_array", "generalised_esd_low"]

#: Draws of the generalised pivotal quantities (fixed seed: same data, same intervals).
PIVOT_DRAWS = 4000
#: At most this many pairs of runs enter the tetrachoric estimate of rho_shared (a fixed subset beyond).
MAX_RUN_PAIRS = 190
SPLITS = ("dev", "test")


class FitError(ValueError):
    """The data cannot be fitted (too few runs or items, constant outcomes, malformed input)."""


@dataclass(frozen=True)
class FittedParameter:
    """One scenario parameter: its estimate, interval and how it was obtained.

    ``basis`` is ``"estimated"`` (from the data, with the interval at the fit's confidence) or
    ``"assumed"`` (not identified by the data; low = high = estimate).
    """

    name: str
    estimate: float
    low: float
    high: float
    basis: str
    how: str

    def covers(self, value: float) -> bool:
        return self.low - 1e-12 <= value <= self.high + 1e-12


@dataclass(frozen=True)
class ScenarioFit:
    """A fitted scenario: parameters with intervals, the design they came from and what was assumed."""

    metric: str
    parameters: dict
    family: str
    sizes: dict
    data: dict
    confidence: float
    cluster_size: int | None = None
    notes: tuple = ()

    def value(self, name: str) -> float:
        return self.parameters[name].estimate

    def entry(self, description: str = "") -> dict:
        """The scenario mapping (as in the configuration's ``scenarios:``), values rounded to 4 significant
        digits."""
        def r(x: float) -> float:
            return float(f"{x:.4g}")

        split = (lambda n: {"items": int(n)}) if self.metric == "accuracy" else (lambda n: {"gold": int(n)})
        summary = self.data["summary"]
        out = {"description": description or self.data.get("description") or f"fitted by simstats fit to {summary}",
               "origin": "fitted", "metric": self.metric, "target": r(self.value("target")),
               "dev": split(self.sizes["dev"]), "test": split(self.sizes["test"]),
               "sigma_item": r(self.value("sigma_item")), "sigma_seed": r(self.value("sigma_seed")),
               "sigma_shift": r(self.value("sigma_shift")), "sigma_e": r(self.value("sigma_e"))}
        if "dev_offset" in self.parameters:
            out["dev_offset"] = r(self.value("dev_offset"))
        if self.family == "failure_mixture":
            out["seed_distribution"] = {"family": "failure_mixture", "failure_prob": r(self.value("failure_prob")),
                                        "failure_shift": r(self.value("failure_shift")),
                                        "failure_sd": r(self.value("failure_sd"))}
        if "sigma_c" in self.parameters and self.cluster_size:
            out["clusters"] = {"size": int(self.cluster_size), "sigma_c": r(self.value("sigma_c"))}
        return out

    def scenario(self, name: str = "fitted") -> Scenario:
        """The fitted scenario, parsed and validated like a configuration entry."""
        entry = dict(self.entry())
        return parse_scenario(name, entry)

    def table(self):
        """One row per parameter: estimate, interval, basis and how."""
        import pandas as pd

        return pd.DataFrame([dataclasses.asdict(p) for p in self.parameters.values()])

    def to_yaml(self, name: str, description: str = "") -> str:
        """A configuration fragment ``scenarios: {name: ...}`` with comments saying what was estimated,
        from how much data, and what was assumed."""
        import yaml

        level = f"{100 * self.confidence:g}%"
        lines = [f"# Scenario {name!r} fitted by `simstats fit` ({self.data['kind']}): {self.data['summary']}.",
                 "# Latent units: the total noise sd is 1 (sigma_item^2 + sigma_c^2 + sigma_e^2 = 1).",
                 f"# Each parameter, its {level} interval and how it was obtained:"]
        for p in self.parameters.values():
            if p.basis == "assumed":
                lines.append(f"#   {p.name} = {p.estimate:.4g}  ASSUMED: {p.how}")
            else:
                lines.append(f"#   {p.name} = {p.estimate:.4g}  [{p.low:.4g}, {p.high:.4g}]  {p.how}")
        for note in self.notes:
            lines.append(f"# Note: {note}")
        lines.append("# Add it with: snakemake --cores 8 --configfile config/config.yaml THIS_FILE")
        body = yaml.safe_dump({"scenarios": {name: self.entry(description)}}, sort_keys=False,
                              default_flow_style=None, width=120)
        return "\n".join(lines) + "\n" + body


# --------------------------------------------------------------------------- closed forms, vectorised
def bivariate_normal_cdf_array(h, k, rho):
    """P(Z1 <= h, Z2 <= k) for standard bivariate normals with correlation rho, elementwise (|rho| < 1).

    Owen's (1956) formula with Owen's T from scipy; the scalar version is
    :func:`simstats.sim.noise.bivariate_normal_cdf`.
    """
    h, k, rho = np.broadcast_arrays(np.asarray(h, float), np.asarray(k, float), np.asarray(rho, float))
    r = np.sqrt(1.0 - rho * rho)

    def owen(x, y):
        zero = x == 0
        safe = np.where(zero, 1.0, x)
        value = special.owens_t(x, (y - rho * x) / (safe * r))
        return np.where(zero, np.copysign(0.25, y), value)

    same_sign = ((h > 0) & (k > 0)) | ((h < 0) & (k < 0))
    beta = np.where(same_sign | (((h == 0) | (k == 0)) & (h + k >= 0)), 0.0, 0.5)
    out = 0.5 * special.ndtr(h) + 0.5 * special.ndtr(k) - owen(h, k) - owen(k, h) - beta
    both_zero = (h == 0) & (k == 0)
    return np.where(both_zero, 0.25 + np.arcsin(rho) / (2 * np.pi), out)


def tetrachoric(p1, p2, p11, *, bisections: int = 12, newton_steps: int = 4):
    """Tetrachoric correlation: rho with P(Z1 <= Phi^-1(p1), Z2 <= Phi^-1(p2); rho) = p11, elementwise.

    The probability is increasing in rho with derivative the bivariate normal density at (h, k)
    (Plackett 1954): bisection on [-0.9999, 0.9999] brackets the root, Newton's method polishes it
    (kept inside the bracket).  Values outside the attainable range end at a bound.
    """
    p1, p2, p11 = np.broadcast_arrays(np.asarray(p1, float), np.asarray(p2, float), np.asarray(p11, float))
    h, k = special.ndtri(p1), special.ndtri(p2)
    lo = np.full(p1.shape, -0.9999)
    hi = np.full(p1.shape, 0.9999)
    for _ in range(bisections):
        mid = 0.5 * (lo + hi)
        below = bivariate_normal_cdf_array(h, k, mid) < p11
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    rho = 0.5 * (lo + hi)
    for _ in range(newton_steps):
        r2 = 1.0 - rho * rho
        density = np.exp(-(h * h - 2 * rho * h * k + k * k) / (2 * r2)) / (2 * np.pi * np.sqrt(r2))
        step = (bivariate_normal_cdf_array(h, k, rho) - p11) / np.maximum(density, 1e-300)
        rho = np.clip(rho - step, lo, hi)
    return rho


def generalised_esd_low(values, alpha: float = 0.05, max_outliers: int | None = None) -> np.ndarray:
    """Indices flagged as low outliers by the one-sided generalised ESD test (Rosner 1983).

    Removes the lowest value r = 1..max_outliers times, comparing R_r = (mean - min) / sd of what
    remains with lambda_r = (n - r) t_{p, n-r-1} / sqrt((n - r - 1 + t^2)(n - r + 1)),
    p = 1 - alpha / (m (n - r + 1)); the flagged values are the lowest r* for the largest r with
    R_r > lambda_r.  Each step is tested at alpha / max_outliers, so that under a normal sample the
    chance of flagging any value is at most about alpha (Rosner's p = 1 - alpha / (n - r + 1) alone is
    liberal for small n).
    """
    x = np.asarray(values, dtype=float)
    n = x.size
    if max_outliers is None:
        max_outliers = (n - 3) // 2
    order = np.argsort(x, kind="stable")
    flagged = 0
    remaining = x[order]
    for r in range(1, max(0, max_outliers) + 1):
        part = remaining[r - 1:]
        m = part.size
        sd = part.std(ddof=1)
        if m < 4 or sd == 0:
            break
        stat = (part.mean() - part[0]) / sd
        p = 1 - alpha / (max_outliers * m)      # Bonferroni over the steps: P(any false flag) <= alpha
        t = distributions.t.ppf(p, m - 2)
        critical = (m - 1) * t / math.sqrt((m - 2 + t * t) * m)
        if stat > critical:
            flagged = r
    return np.sort(order[:flagged])


# --------------------------------------------------------------------------- shared run-level part
def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise FitError(f"confidence must be in (0, 1), got {confidence}")


def _quantiles(draws: np.ndarray, confidence: float) -> tuple[float, float]:
    a = (1 - confidence) / 2
    lo, hi = np.quantile(draws, [a, 1 - a])
    return float(lo), float(hi)


def _scatter(latent: np.ndarray, groups: np.ndarray | None) -> tuple[np.ndarray, int]:
    """Within-group scatter matrix and its degrees of freedom (one group without ``groups``)."""
    if groups is None:
        centred = latent - latent.mean(axis=0)
        return centred.T @ centred, latent.shape[0] - 1
    _, inverse = np.unique(groups, return_inverse=True)
    means = np.zeros((inverse.max() + 1, latent.shape[1]))
    np.add.at(means, inverse, latent)
    counts = np.bincount(inverse)
    means /= counts[:, None]
    centred = latent - means[inverse]
    return centred.T @ centred, latent.shape[0] - counts.size


def _covariance_draws(scatter: np.ndarray, df: int, seed: int) -> np.ndarray:
    """Generalised pivotal draws of a covariance matrix from its scatter matrix (inverse Wishart with df
    degrees of freedom and scale = scatter): (PIVOT_DRAWS, p, p)."""
    p = scatter.shape[0]
    rng = np.random.default_rng(seed)
    if df < p:
        raise FitError(f"{df} degrees of freedom between runs are too few to estimate the run-level variances "
                       f"(need at least {p}: {p + 1} runs, or more runs than configurations)")
    if p == 1:
        return (scatter[0, 0] / rng.chisquare(df, PIVOT_DRAWS)).reshape(-1, 1, 1)
    if np.any(np.diag(scatter) <= 0):
        raise FitError(f"every run has the same {SPLITS[int(np.argmin(np.diag(scatter)))]} score: no spread to fit")
    corr = scatter[0, 1] / math.sqrt(scatter[0, 0] * scatter[1, 1])
    if abs(corr) > 1 - 1e-9:
        if df > 2:
            raise FitError(f"the runs' dev and test scores are perfectly correlated ({corr:.6g}): dev and test look "
                           "like one split")
        scatter = scatter + 1e-9 * np.diag(np.diag(scatter))   # 3 runs on a line: no information on the spread
    draws = distributions.invwishart(df=df, scale=scatter).rvs(PIVOT_DRAWS, random_state=rng)
    return np.asarray(draws).reshape(PIVOT_DRAWS, p, p)


def _failure_parameters(level: np.ndarray, flagged: np.ndarray, w_level: float, confidence: float,
                        n_runs: int, noise_known: bool = True) -> dict:
    """failure_prob, failure_shift and failure_sd of the flagged runs (latent ``level`` per run)."""
    k = int(flagged.sum())
    a = 1 - confidence
    low = distributions.beta.ppf(a / 2, k, n_runs - k + 1) if k > 0 else 0.0
    high = distributions.beta.ppf(1 - a / 2, k + 1, n_runs - k) if k < n_runs else 1.0
    out = {"failure_prob": FittedParameter("failure_prob", k / n_runs, float(low), float(high), "estimated",
                                           f"{k} of {n_runs} runs flagged as failed (generalised ESD); "
                                           "Clopper-Pearson interval")}
    fail, ok = level[flagged], level[~flagged]
    shift = float(fail.mean() - ok.mean())
    if k >= 2:
        # the failed runs' mean carries nearly all the uncertainty: Student's t on k - 1 df (Welch's df, estimated
        # from k = 2-4 failed runs, is too large whenever their spread happens to be small: 0.85 coverage at k = 2)
        se = math.sqrt(float(fail.var(ddof=1)) / k + float(ok.var(ddof=1)) / ok.size)
        half = float(distributions.t.ppf(1 - a / 2, k - 1)) * se
        sd2 = max(0.0, float(fail.var(ddof=1)) - w_level)
        chi_hi = distributions.chi2.ppf(1 - a / 2, k - 1)
        chi_lo = distributions.chi2.ppf(a / 2, k - 1)
        s2 = float(fail.var(ddof=1))
        out["failure_shift"] = FittedParameter("failure_shift", shift, shift - half, shift + half, "estimated",
                                               "mean latent ability of the failed runs minus the others'; Student's "
                                               "t on failed runs - 1 df")
        out["failure_sd"] = FittedParameter("failure_sd", math.sqrt(sd2),
                                            math.sqrt(max(0.0, (k - 1) * s2 / chi_hi - w_level)),
                                            math.sqrt(max(0.0, (k - 1) * s2 / chi_lo - w_level)), "estimated",
                                            ("sd of the failed runs' latent abilities less the run x item noise; "
                                             if noise_known else "sd of the failed runs' latent abilities (the run x "
                                             "item noise, unknown from scores, not removed); ") + "chi-square interval")
    else:
        out["failure_shift"] = FittedParameter("failure_shift", shift, shift, shift, "assumed",
                                               "one failed run: its latent ability minus the others' mean, with no "
                                               "interval (one run cannot show the spread of failures)")
        out["failure_sd"] = FittedParameter("failure_sd", 0.0, 0.0, 0.0, "assumed",
                                            "one failed run cannot show the spread of failures; set to 0")
    return out


def _seed_and_shift(latent: np.ndarray, splits: tuple, w: dict, groups, confidence: float, seed: int,
                    noise_from_dev=None) -> dict:
    """sigma_seed and sigma_shift (latent) of a run-level fit from the runs' abilities (runs x splits).

    Test only: ``w`` gives the test set's run x item noise (at the assumed item share).  Dev and test:
    ``noise_from_dev``, a function of the dev set's noise draws (dev variance less the dev-test covariance)
    and estimate, returns (the test set's noise draws, extra parameters with ``_w_test_hat``).
    """
    scatter, df = _scatter(latent, groups)
    cov = scatter / df
    draws = _covariance_draws(scatter, df, seed)
    params, extra = {}, {}
    runs_text = f"{latent.shape[0]} runs" + (f" in {len(np.unique(groups))} groups" if groups is not None else "")
    if "dev" in splits:
        seed2 = draws[:, 0, 1]
        w_test, extra = noise_from_dev(draws[:, 0, 0] - draws[:, 0, 1], cov[0, 0] - cov[0, 1])
        w_test_hat = extra.pop("_w_test_hat")
        shift2 = draws[:, 1, 1] - draws[:, 0, 1] - w_test
        seed_hat = math.sqrt(max(0.0, cov[0, 1]))
        shift_hat = math.sqrt(max(0.0, cov[1, 1] - cov[0, 1] - w_test_hat))
        lo, hi = _quantiles(np.sqrt(np.maximum(seed2, 0)), confidence)
        params["sigma_seed"] = FittedParameter("sigma_seed", seed_hat, lo, hi, "estimated",
                                               f"covariance of the runs' dev and test latent abilities ({runs_text}); "
                                               "inverse-Wishart pivotal interval")
        lo, hi = _quantiles(np.sqrt(np.maximum(shift2, 0)), confidence)
        params["sigma_shift"] = FittedParameter("sigma_shift", shift_hat, lo, hi, "estimated",
                                                "test variance of the latent abilities less the dev-test covariance "
                                                "and the test set's run x item noise; inverse-Wishart pivotal "
                                                "interval")
        params.update(extra)
    else:
        seed2 = draws[:, 0, 0] - w["test"]
        seed_hat = math.sqrt(max(0.0, cov[0, 0] - w["test"]))
        lo, hi = _quantiles(np.sqrt(np.maximum(seed2, 0)), confidence)
        params["sigma_seed"] = FittedParameter("sigma_seed", seed_hat, lo, hi, "estimated",
                                               f"variance of the runs' test latent abilities less the run x item "
                                               f"noise ({runs_text}); chi-square pivotal interval")
        params["sigma_shift"] = FittedParameter("sigma_shift", 0.0, 0.0, 0.0, "assumed",
                                                "without dev scores a test-only shift cannot be told from the seed "
                                                "effect: sigma_seed carries both")
    return params


#: The order of the parameters in a fit's table and comments.
PARAMETER_ORDER = ("target", "dev_offset", "sigma_item", "sigma_c", "sigma_e", "sigma_seed", "sigma_shift",
                   "failure_prob", "failure_shift", "failure_sd")


def _ordered(params: dict) -> dict:
    return {name: params[name] for name in PARAMETER_ORDER if name in params}


def _log_interval(estimate: float, boot: np.ndarray, confidence: float, units: int) -> tuple[float, float]:
    """Interval of a variance-like quantity >= 0 from its bootstrap draws over ``units`` resampled units: normal
    on the log scale (the percentile interval of such estimates undercovers with 100 clusters: 0.91 at 95 %),
    with the small-sample correction of a cluster bootstrap (sd x sqrt(G / (G - 1)), Student's t on G - 1 df);
    from 0 to the upper percentile when the estimate or a draw is 0."""
    a = (1 - confidence) / 2
    if estimate <= 0 or np.any(boot <= 0):
        return 0.0, float(max(estimate, np.quantile(np.maximum(boot, 0.0), 1 - a)))
    spread = float(np.log(boot).std(ddof=1)) * math.sqrt(units / (units - 1))
    t = distributions.t.ppf(1 - a, units - 1)
    return estimate * math.exp(-t * spread), estimate * math.exp(t * spread)


def _variance_parameter(name: str, sample_variance: float, df: int, noise: float, confidence: float,
                        how: str) -> FittedParameter:
    """sqrt(sigma^2) where sample_variance estimates sigma^2 + noise on df degrees of freedom (noise known):
    the chi-square interval of sigma^2 + noise less the noise, floored at 0 (exact for normal runs)."""
    a = (1 - confidence) / 2
    low = df * sample_variance / distributions.chi2.ppf(1 - a, df) - noise
    high = df * sample_variance / distributions.chi2.ppf(a, df) - noise
    return FittedParameter(name, math.sqrt(max(0.0, sample_variance - noise)), math.sqrt(max(0.0, low)),
                           math.sqrt(max(0.0, high)), "estimated", how)


def _target_half_width(runs_part: float, runs_df: int, set_part: float, confidence: float) -> float:
    """Half-width of the target's interval: sqrt(t^2 runs_part + z^2 set_part)."""
    t = distributions.t.ppf(0.5 + confidence / 2, runs_df)
    z = distributions.norm.ppf(0.5 + confidence / 2)
    return math.sqrt(t * t * runs_part + z * z * set_part)


# --------------------------------------------------------------------------- item-level fit
def _resample_weights(n_units: int, n_resamples: int, rng) -> np.ndarray:
    return RowCounts(rng, n_resamples, np.ones(n_units)).draw(n_resamples).astype(float)


def _pair_rho(Y: np.ndarray, pairs: np.ndarray, unit: np.ndarray, weights: np.ndarray | None):
    """Mean tetrachoric correlation over the given pairs of runs' outcomes on the same items; with unit
    ``weights`` (resamples x units) one value per resample."""
    n_units = unit.max() + 1
    Yf = Y.astype(float)
    per_unit = np.zeros((n_units, Y.shape[0]))
    np.add.at(per_unit, unit, Yf.T)                                           # units x runs: correct counts
    both = np.zeros((pairs.shape[0], n_units))
    np.add.at(both.T, unit, (Yf[pairs[:, 0]] * Yf[pairs[:, 1]]).T)            # pairs x units: both correct
    items = np.bincount(unit, minlength=n_units).astype(float)
    W = np.ones((1, n_units)) if weights is None else weights
    total = W @ items                                                          # (B,)
    rate = (W @ per_unit) / total[:, None]                                     # (B, runs)
    p11 = (W @ both.T) / total[:, None]                                        # (B, pairs)
    eps = 0.5 / total[:, None]
    r1 = np.clip(rate[:, pairs[:, 0]], eps, 1 - eps)
    r2 = np.clip(rate[:, pairs[:, 1]], eps, 1 - eps)
    rho = tetrachoric(r1, r2, np.clip(p11, 0, None))
    return rho.mean(axis=1)


def _cluster_rho(Y: np.ndarray, unit: np.ndarray, weights: np.ndarray | None):
    """Mean over runs of the tetrachoric correlation of one run's outcomes on two items of one cluster."""
    n_units = unit.max() + 1
    Yf = Y.astype(float)
    sums = np.zeros((n_units, Y.shape[0]))
    np.add.at(sums, unit, Yf.T)
    size = np.bincount(unit, minlength=n_units).astype(float)
    W = np.ones((1, n_units)) if weights is None else weights
    pairs_total = W @ (size * (size - 1))                                      # (B,)
    both = W @ (sums * (sums - 1))                                             # (B, runs)
    rate = (W @ sums) / (W @ size)[:, None]
    eps = 0.5 / (W @ size)[:, None]
    rate = np.clip(rate, eps, 1 - eps)
    p11 = both / pairs_total[:, None]
    return tetrachoric(rate, rate, np.clip(p11, 0, None)).mean(axis=1)


#: Clusters a split needs for the cluster bootstrap and the within-cluster correlation.
MIN_CLUSTERS = 10


def _units(clusters, n_items: int, split: str = "test") -> tuple[np.ndarray, int | None]:
    if clusters is None:
        return np.arange(n_items), None
    clusters = np.asarray(clusters)
    if clusters.shape != (n_items,):
        raise FitError(f"{split}: clusters must give one id per item ({n_items}), got shape {clusters.shape}")
    _, unit = np.unique(clusters, return_inverse=True)
    sizes = np.bincount(unit)
    if sizes.size < MIN_CLUSTERS:
        raise FitError(f"{split}: {sizes.size} clusters are too few to fit their effect (need {MIN_CLUSTERS})")
    if sizes.max() < 2:
        raise FitError(f"{split}: every cluster has one item: no two items share a cluster to show its effect")
    return unit, int(round(n_items / sizes.size))


def _phi(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _label(runs, index: int) -> str:
    return repr(str(runs[index])) if runs is not None else str(index)


def _check_spread(scores: np.ndarray, split: str) -> None:
    """A FitError when every run has the same score on a split: nothing tells the seed effect from 0."""
    if np.ptp(scores) <= 1e-12 * max(1.0, float(np.abs(scores).max())):
        raise FitError(f"every run has the same {split} score ({float(scores[0]):.6g}): no spread between runs to "
                       "fit")


def _checked_outcomes(outcomes: dict, clusters: dict | None, runs) -> tuple:
    """The input checks of :func:`fit_outcomes`: the splits, each split's (runs, items) outcomes as booleans,
    its resampling units and whether any split is clustered."""
    if "test" not in outcomes:
        raise FitError("the outcomes need a test split")
    splits = tuple(s for s in SPLITS if s in outcomes)
    clusters = clusters or {}
    Ys = {}
    for s in splits:
        Y = np.asarray(outcomes[s])
        if Y.ndim != 2:
            raise FitError(f"{s}: outcomes must be a (runs, items) table, got shape {Y.shape}")
        if not np.isin(Y, (0, 1)).all():
            raise FitError(f"{s}: outcomes must be 0 or 1")
        Ys[s] = Y.astype(bool)
    n_runs = Ys["test"].shape[0]
    if any(Y.shape[0] != n_runs for Y in Ys.values()):
        raise FitError("dev and test must have the same runs")
    if n_runs < 3:
        raise FitError(f"fitting needs at least 3 runs, got {n_runs}")
    for s, Y in Ys.items():
        if Y.shape[1] < 20:
            raise FitError(f"{s}: fitting needs at least 20 items, got {Y.shape[1]}")
        p = Y.mean(axis=1)
        if np.any(p == 0) or np.any(p == 1):
            raise FitError(f"{s}: run {_label(runs, int(np.flatnonzero((p == 0) | (p == 1))[0]))} has all items "
                           "correct or all wrong: no ability to fit")
        _check_spread(p, s)
    units = {s: _units(clusters.get(s), Ys[s].shape[1], s) for s in splits}
    clustered = any(clusters.get(s) is not None for s in splits)
    return splits, Ys, units, clustered


def _failed_runs(Ys: dict, splits: tuple, failure_alpha: float) -> tuple:
    """Each split's latent abilities of the runs, their mean level and the runs flagged as failed (a
    generalised ESD test for low outliers, beyond what one item set's noise can move a run)."""
    n_runs = Ys["test"].shape[0]
    h = {s: special.ndtri(Ys[s].mean(axis=1)) for s in splits}
    level = np.mean([h[s] for s in splits], axis=0)
    flagged = np.zeros(n_runs, bool)
    if failure_alpha > 0 and n_runs >= 6:
        flagged[generalised_esd_low(level, failure_alpha)] = True
        # a failed run lies beyond what one item set's noise can move a run (5 of its sds, at most independent
        # outcomes): among near-identical runs a run one item lower is not a failure
        centre = float(np.median(level))
        noise = math.sqrt(sum(float(special.ndtr(centre) * special.ndtr(-centre)) / Ys[s].shape[1] for s in splits)
                          / len(splits) ** 2) / _phi(centre)
        flagged &= (centre - level) > 5 * noise
    return h, level, flagged


def _correlation_parameters(Ys, splits, units, clusters, keep, n_resamples, rng, seed, confidence) -> tuple:
    """sigma_item, sigma_c and sigma_e from the tetrachoric correlations of the normal runs' outcomes, with
    bootstrap intervals over the units of each split; and the bias-corrected item correlation."""
    clustered = any(clusters.get(s) is not None for s in splits)
    normal_runs = np.flatnonzero(keep)
    pairs = np.array([(a, b) for i, a in enumerate(normal_runs) for b in normal_runs[i + 1:]])
    if pairs.shape[0] > MAX_RUN_PAIRS:
        pairs = pairs[np.sort(np.random.default_rng(seed + 1).choice(pairs.shape[0], MAX_RUN_PAIRS, replace=False))]
    weights_n = {s: Ys[s].shape[1] for s in splits}
    total_n = sum(weights_n.values())
    rho_hat = rho_c_hat = 0.0
    rho_boot = np.zeros(n_resamples)
    rho_c_boot = np.zeros(n_resamples)
    for s in splits:
        unit, _ = units[s]
        W = _resample_weights(unit.max() + 1, n_resamples, rng)
        share = weights_n[s] / total_n
        rho_hat += share * float(_pair_rho(Ys[s], pairs, unit, None)[0])
        rho_boot += share * _pair_rho(Ys[s], pairs, unit, W)
        if clusters.get(s) is not None:
            rho_c_hat += share * float(_cluster_rho(Ys[s][keep], unit, None)[0])
            rho_c_boot += share * _cluster_rho(Ys[s][keep], unit, W)
    # tetrachoric correlations are biased by about 1/units (margins estimated from the same units, extreme margins
    # worse; the within-cluster one is an intraclass correlation): bootstrap bias correction of both, the draws
    # shifted with the estimates
    bias = float(rho_boot.mean()) - rho_hat
    rho_hat -= bias
    rho_boot = rho_boot - bias
    if clustered:
        bias = float(rho_c_boot.mean()) - rho_c_hat
        rho_c_hat -= bias
        rho_c_boot = rho_c_boot - bias
    rho_hat = float(np.clip(rho_hat, 0.0, 0.9999))
    rho_c_hat = float(np.clip(rho_c_hat, 0.0, rho_hat))
    rho_boot = np.clip(rho_boot, 0.0, 0.9999)
    rho_c_boot = np.clip(rho_c_boot, 0.0, rho_boot)
    units_text = "clusters" if clustered else "items"
    params = {}
    units_min = min(int(units[p][0].max()) + 1 for p in splits)     # resampled units of the smaller split
    z = distributions.t.ppf(0.5 + confidence / 2, units_min - 1)
    spread = float(np.arctanh(rho_boot).std(ddof=1)) * math.sqrt(units_min / (units_min - 1))   # Fisher's z scale
    rho_lo = float(np.tanh(np.arctanh(rho_hat) - z * spread))
    rho_hi = float(np.tanh(np.arctanh(rho_hat) + z * spread))
    how = (f"{{}}; bootstrap over {units_text} ({n_resamples} resamples), Student's t interval on the "
           "{} scale")
    if clustered:
        item_lo, item_hi = _log_interval(rho_hat - rho_c_hat, rho_boot - rho_c_boot, confidence, units_min)
        params["sigma_item"] = FittedParameter(
            "sigma_item", math.sqrt(max(0.0, rho_hat - rho_c_hat)), math.sqrt(item_lo), math.sqrt(item_hi),
            "estimated", how.format("tetrachoric correlation of two runs' outcomes over items less the cluster part",
                                    "log"))
        c_lo, c_hi = _log_interval(rho_c_hat, rho_c_boot, confidence, units_min)
        params["sigma_c"] = FittedParameter(
            "sigma_c", math.sqrt(rho_c_hat), math.sqrt(c_lo), math.sqrt(c_hi), "estimated",
            how.format("tetrachoric correlation of one run's outcomes on two items of one cluster", "log"))
    else:
        params["sigma_item"] = FittedParameter(
            "sigma_item", math.sqrt(rho_hat), math.sqrt(max(0.0, rho_lo)), math.sqrt(max(0.0, rho_hi)), "estimated",
            how.format("tetrachoric correlation of two runs' outcomes over items", "Fisher z"))
    params["sigma_e"] = FittedParameter(
        "sigma_e", math.sqrt(1 - rho_hat), math.sqrt(1 - max(0.0, rho_hi)), math.sqrt(1 - max(0.0, rho_lo)),
        "estimated", how.format("1 - the tetrachoric correlation of two runs' outcomes", "Fisher z"))
    return params, rho_hat


def _seed_parameters(Ys, splits, h, keep, rho_hat, seed, confidence) -> tuple:
    """The normal runs' latent abilities (runs, splits) and sigma_seed and sigma_shift, each split's run x
    item noise taken out."""
    params = {}
    w = {}
    for s in splits:
        hs = np.clip(h[s][keep], -8, 8)
        p = special.ndtr(hs)
        p11 = bivariate_normal_cdf_array(hs, hs, rho_hat)
        w[s] = float(np.mean((p - p11) / (Ys[s].shape[1] * (np.exp(-0.5 * hs * hs) / math.sqrt(2 * math.pi)) ** 2)))
    latent = np.column_stack([h[s][keep] for s in splits])
    k = latent.shape[0]
    if "dev" in splits:
        # the seed effect is what dev and test share: their covariance over runs (the run x item noise of the two
        # sets is independent); pivotal draws of the covariance matrix give its interval
        scatter, df = _scatter(latent, None)
        shared = _covariance_draws(scatter, df, seed + 2)[:, 0, 1]
        lo, hi = _quantiles(np.sqrt(np.maximum(shared, 0.0)), confidence)
        params["sigma_seed"] = FittedParameter(
            "sigma_seed", math.sqrt(max(0.0, scatter[0, 1] / df)), lo, hi, "estimated",
            f"covariance of the {k} runs' dev and test latent abilities; inverse-Wishart pivotal interval")
        params["sigma_shift"] = _variance_parameter(
            "sigma_shift", float((latent[:, 1] - latent[:, 0]).var(ddof=1)), k - 1, w["dev"] + w["test"], confidence,
            "variance of the runs' test minus dev latent abilities (the seed effect cancels) less both sets' run x "
            "item noise; chi-square interval")
    else:
        params["sigma_seed"] = _variance_parameter(
            "sigma_seed", float(latent[:, 0].var(ddof=1)), k - 1, w["test"], confidence,
            f"variance of the {k} runs' test latent abilities less the run x item noise; chi-square interval")
        params["sigma_shift"] = FittedParameter("sigma_shift", 0.0, 0.0, 0.0, "assumed",
                                                "without dev outcomes a test-only shift cannot be told from the seed "
                                                "effect: sigma_seed carries both")
    return latent, params


def fit_outcomes(outcomes: dict, clusters: dict | None = None, *, confidence_level: float = 0.95,
                 n_resamples: int = 200, failure_alpha: float = 0.01, rng: int = 0,
                 description: str = "", runs=None, confidence=Renamed("confidence_level"), seed=Renamed("rng")) -> ScenarioFit:
    """Fit the noise model to item-level outcomes of several runs of one approach.

    Parameters
    ----------
    outcomes : dict
        ``{"test": Y_test}`` and optionally ``"dev"``: arrays (runs, items) of 0/1 outcomes (correct or
        not); the rows of both splits are the same runs, in the same order.
    clusters : dict, optional
        Per split, the cluster (document) id of each item; the clusters are the units resampled and
        sigma_c is fitted.
    confidence_level : float
        Level of every interval.
    n_resamples : int
        Bootstrap resamples (over items or clusters) for the intervals of sigma_item, sigma_c, sigma_e.
    failure_alpha : float
        Level of the generalised ESD test that flags failed runs (0 turns the detection off).
    rng : int
        Seed of the bootstrap and of the pivotal draws.
    runs : sequence, optional
        The runs' names (rows), for the messages (default: their positions).

    Returns
    -------
    ScenarioFit

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.sim.fit import fit_outcomes
    >>> rng = np.random.default_rng(1)
    >>> b = rng.normal(0, 0.8, 2000)                       # item difficulties (sd 0.8 of a total 1)
    >>> theta = 0.8 + 0.05 * rng.normal(size=(10, 1))       # 10 runs
    >>> Y = (theta - b + 0.6 * rng.normal(size=(10, 2000)) > 0)
    >>> fit = fit_outcomes({"test": Y}, n_resamples=50)
    >>> round(fit.value("sigma_item"), 1), round(fit.value("sigma_e"), 1)
    (0.8, 0.6)
    """
    confidence = renamed("fit_outcomes", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    seed = renamed("fit_outcomes", "seed", "rng", seed, rng, 0)
    _check_confidence(confidence)
    splits, Ys, units, clustered = _checked_outcomes(outcomes, clusters, runs)
    clusters = clusters or {}
    n_runs = Ys["test"].shape[0]
    rng = np.random.default_rng(seed)

    # --- failed runs: on the latent scale, averaged over the splits
    h, level, flagged = _failed_runs(Ys, splits, failure_alpha)
    keep = ~flagged
    if keep.sum() < 3:
        raise FitError("fewer than 3 runs are left once the failed runs are set apart")

    # --- item and cluster correlation (normal runs), bootstrap over units within each split
    params, rho_hat = _correlation_parameters(Ys, splits, units, clusters, keep, n_resamples, rng, seed, confidence)
    units_text = "clusters" if clustered else "items"

    # --- run x item noise of each split on the latent scale (normal runs), then the seed and shift sds
    latent, seed_parameters = _seed_parameters(Ys, splits, h, keep, rho_hat, seed, confidence)
    params.update(seed_parameters)

    # --- target: the score at the runs' mean latent ability on test; the runs' part of its variance (k - 1 df)
    # with Student's t, the test set's part (many df, from the crossed runs x units mean squares) with the
    # normal quantile, added in quadrature: exact when either part dominates, conservative in between
    def set_part(split: str, level: float) -> float:
        """Variance (latent) of the runs' mean ability on a split from the draw of its items (clusters)."""
        Y = Ys[split][keep].astype(float)
        unit, _ = units[split]
        values = cluster_values(Y, unit) if clusters.get(split) is not None else Y
        _, ms_units, ms_res = two_way_mean_squares(values)
        slope = math.exp(-0.5 * level * level) / math.sqrt(2 * math.pi)
        return max(0.0, ms_units - ms_res) / values.size / slope**2

    k = int(keep.sum())
    n_u = int(units["test"][0].max() + 1)
    mu = float(latent[:, -1].mean())
    test_set = set_part("test", mu)
    half = _target_half_width(float(latent[:, -1].var(ddof=1)) / k, k - 1, test_set, confidence)
    if "dev" in splits:
        gap = latent[:, 0] - latent[:, -1]
        offset = float(gap.mean())
        half_offset = _target_half_width(float(gap.var(ddof=1)) / k, k - 1,
                                         test_set + set_part("dev", float(latent[:, 0].mean())), confidence)
        params["dev_offset"] = FittedParameter("dev_offset", offset, offset - half_offset, offset + half_offset,
                                               "estimated", "mean latent ability on dev minus on test; the runs' "
                                               f"part with Student's t on {k - 1} df, the two item sets' part normal")
    params = {"target": FittedParameter("target", float(special.ndtr(mu)), float(special.ndtr(mu - half)),
                                        float(special.ndtr(mu + half)), "estimated",
                                        f"score at the mean latent ability of {k} runs on {n_u} test {units_text}; "
                                        f"the runs' part with Student's t on {k - 1} df, the test set's part (crossed "
                                        f"runs x {units_text} mean squares) normal, added in quadrature"), **params}
    if flagged.any():
        # the run x item noise of a failed run's level (the mean of its splits' latent abilities), at its ability
        noise = 0.0
        for s in splits:
            hs = np.clip(h[s][flagged], -8, 8)
            p = special.ndtr(hs)
            noise += float(np.mean((p - bivariate_normal_cdf_array(hs, hs, rho_hat))
                                   / (Ys[s].shape[1] * (np.exp(-0.5 * hs * hs) / math.sqrt(2 * math.pi)) ** 2)))
        params.update(_failure_parameters(level, flagged, noise / len(splits) ** 2, confidence, n_runs))
    family = "failure_mixture" if flagged.any() else "normal"
    sizes = {"test": Ys["test"].shape[1], "dev": Ys["dev"].shape[1] if "dev" in Ys else Ys["test"].shape[1]}
    notes = []
    if "dev" not in Ys:
        notes.append("no dev outcomes: the dev split is given the test split's size")
    summary = (f"{n_runs} runs on {sizes['test']} test items" + (f" and {Ys['dev'].shape[1]} dev items" if "dev" in Ys
                                                                 else "")
               + (f", {n_u} test clusters" if clustered else ""))
    data = {"kind": "item-level outcomes", "summary": summary, "runs": n_runs, "splits": splits,
            "flagged_runs": np.flatnonzero(flagged).tolist(), "description": description}
    cluster_size = units["test"][1] if clustered else None
    return ScenarioFit("accuracy", _ordered(params), family, sizes, data, confidence, cluster_size, tuple(notes))


# --------------------------------------------------------------------------- run-level fit
def _latent_of_scores(scores: np.ndarray, base: Scenario, split: str) -> np.ndarray:
    """Latent ability of each score under the scenario's population map (inverse of psi_true)."""
    if base.metric == "accuracy":
        return special.ndtri(np.clip(scores, 1e-9, 1 - 1e-9)) * base.latent_scale
    return np.array([_solve_mu(base, float(x), split) for x in scores])


def _noise_curve(base: Scenario, theta: float, split: str, grid: np.ndarray) -> np.ndarray:
    """Run x item noise of a fixed item set on the latent scale, for each rho_shared of ``grid``."""
    out = np.empty(grid.size)
    step = 1e-4
    for j, rho in enumerate(grid):
        sc = dataclasses.replace(base, sigma_item=math.sqrt(rho), sigma_e=math.sqrt(1 - rho))
        pop = Population(sc)
        slope = (float(pop.psi_true(theta + step, split)) - float(pop.psi_true(theta - step, split))) / (2 * step)
        out[j] = float(pop.x_variance(theta, split, within_set=True)) / slope**2
    return out


def _run_level_target(base: Scenario, latent: np.ndarray, groups, splits: tuple, item_sd_high: float,
                      confidence: float) -> dict:
    """target and dev_offset of :func:`fit_scores` from the normal runs' latent abilities (runs, splits)."""
    params = {}
    # target: the score at the runs' mean latent ability on test; over runs (Student's t) and over test sets
    # (closed form at the fitted item share), added in quadrature
    t_latent = latent[:, -1]
    k = t_latent.size
    # a test set's effect on the mean grows with the item share, which run-level scores pin down poorly (40 runs:
    # a mean estimate of 0.47-0.57 for a true 0.64): the sets' part is taken at the upper end of its interval
    rho_sets = min(0.999, item_sd_high ** 2)
    pop = Population(dataclasses.replace(base, sigma_item=math.sqrt(rho_sets), sigma_e=math.sqrt(1 - rho_sets)))
    mu = float(t_latent.mean())
    step = 1e-4
    slope = (float(pop.psi_true(mu + step, "test")) - float(pop.psi_true(mu - step, "test"))) / (2 * step)
    set_var = max(0.0, float(pop.x_variance(mu, "test", within_set=False))
                  - float(pop.x_variance(mu, "test", within_set=True))) / slope**2   # a test set's effect, latent
    if groups is None:
        run_var, df_runs = float(t_latent.var(ddof=1)), k - 1
    else:
        run_var, df_runs = _pooled_var(t_latent, groups), k - len(np.unique(groups))
    half = _target_half_width(run_var / k, df_runs, set_var, confidence)
    how = (f"score at the mean latent ability of {k} runs" + (" over their groups" if groups is not None else "")
           + f"; the runs' part with Student's t on {df_runs} df, a test set's part (closed form for this size, at "
           + ("the upper end of the item share's interval" if "dev" in splits else "the assumed item share")
           + ") normal, added in quadrature")
    params["target"] = FittedParameter("target", float(pop.psi_true(mu, "test")),
                                       float(pop.psi_true(mu - half, "test")), float(pop.psi_true(mu + half, "test")),
                                       "estimated", how)
    if "dev" in splits:
        gap = latent[:, 0] - latent[:, -1]
        offset = float(gap.mean())
        if groups is None:
            gap_var = float(gap.var(ddof=1))
        else:
            gap_var = _pooled_var(gap, groups)
        level_dev = float(latent[:, 0].mean())
        slope_dev = (float(pop.psi_true(level_dev + step, "dev")) - float(pop.psi_true(level_dev - step, "dev"))) / (2 * step)
        dev_set = max(0.0, float(pop.x_variance(level_dev, "dev", within_set=False))
                      - float(pop.x_variance(level_dev, "dev", within_set=True))) / slope_dev**2
        half_offset = _target_half_width(gap_var / k, df_runs, set_var + dev_set, confidence)
        params["dev_offset"] = FittedParameter("dev_offset", offset, offset - half_offset, offset + half_offset,
                                               "estimated", "mean latent ability on dev minus on test; the runs' part "
                                               f"with Student's t on {df_runs} df, the two item sets' part (closed "
                                               "form) normal")
    return params


def _run_level_notes(metric: str, groups, splits: tuple, item_sd: float, item_share_bound: float) -> list[str]:
    """The notes of :func:`fit_scores`: what run-level scores cannot identify and what was assumed."""
    notes = []
    if metric != "accuracy":
        notes.append(f"{metric} scores are mapped to the latent scale with a spurious-candidate pool of the gold "
                     "items' size")
    notes.append("clusters (documents) cannot be identified from run-level scores: none are assumed")
    if groups is not None:
        notes.append("with groups the seed distribution is fitted as normal (failed runs are not looked for)")
    if "dev" not in splits:
        notes.append("no dev scores: the dev split is given the test split's size")
    elif item_sd ** 2 >= item_share_bound - 1e-9:
        notes.append(f"the dev scores vary no more than the dev-test covariance: the dev set's run x item noise is "
                     f"not seen, and the item share is at its bound {item_share_bound:g}")
    return notes


def fit_scores(scores: dict, *, metric: str = "accuracy", sizes: dict, groups=None, confidence_level: float = 0.95,
               assumed_item_share: float = 0.5, failure_alpha: float = 0.01, rng: int = 0,
               description: str = "", runs=None, confidence=Renamed("confidence_level"), seed=Renamed("rng")) -> ScenarioFit:
    """Fit the noise model to run-level scores (one score per run on test, optionally on dev).

    Parameters
    ----------
    scores : dict
        ``{"test": scores}`` and optionally ``"dev"``: arrays (runs,) of scores in [0, 1]; the same
        runs in the same order.
    metric : str
        accuracy, recall, precision or f1 (how a score maps to the latent scale).
    sizes : dict
        Items (gold items for F1) of the test split and, with dev scores, of the dev split.
    groups : array_like, optional
        A group (configuration) per run: the variances are pooled within groups, whose means may
        differ; target is then the mean over all runs.
    assumed_item_share : float
        sigma_item^2 (of a total 1) when there are no dev scores to identify it.
    failure_alpha : float
        Level of the generalised ESD test for failed runs (not with ``groups``; 0 turns it off).
    runs : sequence, optional
        The runs' names, for the messages (default: their positions).

    Returns
    -------
    ScenarioFit
    """
    confidence = renamed("fit_scores", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    seed = renamed("fit_scores", "seed", "rng", seed, rng, 0)
    _check_confidence(confidence)
    if metric not in ("accuracy", "recall", "precision", "f1"):
        raise FitError(f"metric must be accuracy, recall, precision or f1, got {metric!r}")
    if "test" not in scores:
        raise FitError("the scores need a test split")
    splits = tuple(s for s in SPLITS if s in scores)
    x = {s: np.asarray(scores[s], dtype=float) for s in splits}
    n_runs = x["test"].size
    for s in splits:
        if x[s].ndim != 1 or x[s].size != n_runs:
            raise FitError("dev and test must give one score per run, for the same runs")
        bad = np.flatnonzero(~np.isfinite(x[s]) | (x[s] <= 0) | (x[s] >= 1))
        if bad.size:
            raise FitError(f"{s} score of run {_label(runs, int(bad[0]))} must lie in (0, 1), got "
                           f"{float(x[s][bad[0]])!r}")
        _check_spread(x[s], s)
        if s not in sizes or int(sizes[s]) < 1:
            raise FitError(f"the {s} split's size (items, or gold items for {metric}) is needed")
    if groups is not None:
        groups = np.asarray(groups)
        if groups.shape != (n_runs,):
            raise FitError(f"groups must give one group per run ({n_runs}), got shape {groups.shape}")
        _, counts = np.unique(groups, return_counts=True)
        if n_runs - counts.size < 3:
            raise FitError("the groups leave fewer than 3 degrees of freedom for the run-level variances")
    elif n_runs < 3:
        raise FitError(f"fitting needs at least 3 runs, got {n_runs}")
    if not 0 <= assumed_item_share < 1:
        raise FitError(f"the assumed item share must be in [0, 1), got {assumed_item_share}")
    size = {s: int(sizes.get(s, sizes["test"])) for s in SPLITS}
    split_spec = (lambda n: SplitSpec(items=n)) if metric == "accuracy" else (lambda n: SplitSpec(gold=n, spurious=n))
    base = Scenario(name="fit", metric=metric, target=0.5, dev=split_spec(size["dev"]), test=split_spec(size["test"]),
                    sigma_item=math.sqrt(assumed_item_share), sigma_e=math.sqrt(1 - assumed_item_share))
    latent = np.column_stack([_latent_of_scores(x[s], base, s) for s in splits])
    flagged = np.zeros(n_runs, bool)
    level = latent.mean(axis=1)
    if failure_alpha > 0 and groups is None and n_runs >= 6:
        flagged[generalised_esd_low(level, failure_alpha)] = True
    keep = ~flagged
    if keep.sum() < 3:
        raise FitError("fewer than 3 runs are left once the failed runs are set apart")
    theta_test = float(np.median(latent[keep, -1]))
    theta_dev = float(np.median(latent[keep, 0]))
    grid = np.linspace(0.0, 0.999, 121)
    params = {}
    notes = []
    if "dev" in splits:
        curve_dev = _noise_curve(base, theta_dev, "dev", grid)     # decreasing in rho
        curve_test = _noise_curve(base, theta_test, "test", grid)

        def rho_of(w_dev):
            return np.interp(-np.asarray(w_dev), -curve_dev, grid)

        def noise_from_dev(w_dev_draws, w_dev_hat):
            rho_draws = rho_of(w_dev_draws)
            rho_hat = float(rho_of(w_dev_hat))
            lo, hi = _quantiles(np.sqrt(rho_draws), confidence)
            how = ("from the dev variance of the runs' latent abilities less the dev-test covariance (the dev "
                   "set's run x item noise) and the dev size; inverse-Wishart pivotal interval")
            extra = {"sigma_item": FittedParameter("sigma_item", math.sqrt(rho_hat), lo, hi, "estimated", how)}
            lo, hi = _quantiles(np.sqrt(1 - rho_draws), confidence)
            extra["sigma_e"] = FittedParameter("sigma_e", math.sqrt(1 - rho_hat), lo, hi, "estimated", how)
            extra["_w_test_hat"] = float(np.interp(rho_hat, grid, curve_test))
            return np.interp(rho_draws, grid, curve_test), extra

        run_params = _seed_and_shift(latent[keep], splits, {}, groups[keep] if groups is not None else None,
                                        confidence, seed + 2, noise_from_dev)
    else:
        w = {"test": float(_noise_curve(base, theta_test, "test", np.array([assumed_item_share]))[0])}
        run_params = _seed_and_shift(latent[keep], splits, w, groups[keep] if groups is not None else None,
                                        confidence, seed + 2)
        reason = "without dev scores the run x item noise cannot be told from the seed effect"
        run_params["sigma_item"] = FittedParameter("sigma_item", math.sqrt(assumed_item_share),
                                                   math.sqrt(assumed_item_share), math.sqrt(assumed_item_share),
                                                   "assumed", reason)
        run_params["sigma_e"] = FittedParameter("sigma_e", math.sqrt(1 - assumed_item_share),
                                                math.sqrt(1 - assumed_item_share), math.sqrt(1 - assumed_item_share),
                                                "assumed", reason)
    params.update(_run_level_target(base, latent[keep], groups[keep] if groups is not None else None, splits,
                                    run_params["sigma_item"].high, confidence))
    params.update(run_params)
    if flagged.any():
        params.update(_failure_parameters(level, flagged, 0.0, confidence, n_runs, noise_known=False))
    params = _ordered(params)
    notes += _run_level_notes(metric, groups, splits, run_params["sigma_item"].estimate, grid[-1])
    summary = f"{n_runs} runs' {' and '.join(splits)} scores" + (
        f" in {len(np.unique(groups))} groups" if groups is not None else "")
    data = {"kind": "run-level scores", "summary": summary, "runs": n_runs, "splits": splits,
            "flagged_runs": np.flatnonzero(flagged).tolist(), "description": description}
    return ScenarioFit(metric, params, "failure_mixture" if flagged.any() else "normal", size, data, confidence,
                       None, tuple(notes))


def _pooled_var(values: np.ndarray, groups: np.ndarray) -> float:
    scatter, df = _scatter(values.reshape(-1, 1), groups)
    return float(scatter[0, 0] / df)


# --------------------------------------------------------------------------- does the fit reproduce the data?
def run_statistics(scores: dict, groups=None, outcomes: dict | None = None) -> dict:
    """The statistics a fit should reproduce: per split the runs' mean and sd of scores (sd pooled within
    ``groups``), the dev-test correlation of the runs' scores and, from item-level ``outcomes``, the share of
    items on which two runs agree (correct or wrong alike; mean over pairs of runs and splits)."""
    splits = [s for s in SPLITS if s in scores]
    matrix = np.column_stack([np.asarray(scores[s], float) for s in splits])
    scatter, df = _scatter(matrix, None if groups is None else np.asarray(groups))
    cov = scatter / df
    out = {}
    for j, s in enumerate(splits):
        out[f"{s}_mean"] = float(matrix[:, j].mean())
        out[f"{s}_sd"] = float(math.sqrt(cov[j, j]))
    if len(splits) == 2:
        out["dev_test_correlation"] = float(cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]))
    if outcomes:
        shares = []
        for s in splits:
            Y = np.asarray(outcomes[s], float)
            n = Y.shape[1]
            both = Y @ Y.T
            neither = (1 - Y) @ (1 - Y).T
            agree = (both + neither) / n
            shares.append(agree[np.triu_indices(Y.shape[0], 1)].mean())
        out["run_pair_agreement"] = float(np.mean(shares))
    return out


def reproduction_check(fit: ScenarioFit, observed: dict, *, runs: int, groups=None, item_level: bool,
                       replicates: int = 200, rng: int = 0, seed=Renamed("rng")):
    """Simulate the fitted scenario with the data's design (runs, splits, items, groups) ``replicates`` times
    with the instance-level simulator and place each observed statistic (:func:`run_statistics`) in the
    simulated distribution: its percentile and whether it lies in the central ``fit.confidence`` range.
    """
    seed = renamed("reproduction_check", "seed", "rng", seed, rng, 0)
    import pandas as pd

    from simstats.sim.noise import simulate_models

    sc = fit.scenario("reproduction")
    splits = fit.data["splits"]
    sims = []
    for r in range(replicates):
        root = int(seed) * 1_000_003 + r
        keep = splits if item_level else ()
        batch = simulate_models(sc, sc.approaches[0].name, 0, runs, root, keep_outcomes=keep)
        sims.append(run_statistics({s: batch.psi[s] for s in splits}, groups,
                                   {s: batch.outcomes[s] for s in splits} if item_level else None))
    frame = pd.DataFrame(sims)
    a = (1 - fit.confidence) / 2
    rows = []
    for name, value in observed.items():
        if name not in frame.columns:
            continue
        sim = frame[name].to_numpy()
        low, high = np.quantile(sim, [a, 1 - a])
        rows.append({"statistic": name, "observed": value, "simulated_mean": float(sim.mean()),
                     "simulated_low": float(low), "simulated_high": float(high),
                     "percentile": float(100 * (np.mean(sim < value) + 0.5 * np.mean(sim == value))),
                     "within": bool(low <= value <= high)})
    return pd.DataFrame(rows)
