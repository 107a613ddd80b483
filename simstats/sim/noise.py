"""Instance-level noise model (latent-threshold / probit item-response model).

For model m of approach A and item i of a split:

    theta_m = mu_A + sigma_seed * z_m         (z_m from the seed distribution)
    delta_m ~ N(0, sigma_shift^2)             (added on the test split only)
    dev_offset                                (added on the dev split only: a fixed dev-test difficulty gap)
    gold / plain item i : outcome 1[ theta - b_i - g_c(i) + e_mi > 0 ]       (recalled / correct)
    spurious candidate j: outcome 1[ kappa - theta - b_j + g_c(j) + e_mj > 0 ] (produced)

with b ~ N(0, sigma_item^2) per item, g ~ N(0, sigma_c^2) per cluster (document), and, with an
approach x item interaction, each approach's own offset a_Ai ~ N(0, sigma_approach_item^2) added to
every item's threshold (approach A finds item i harder by a_Ai; ``ItemSet.for_approach``),
e ~ N(0, sigma_e^2) i.i.d. per model and item, kappa = ``spurious_offset``.  A hard
document lowers recall and raises false alarms.  With s = sqrt(sigma_item^2 +
sigma_c^2 + sigma_approach_item^2 + sigma_e^2) the population rates are exactly p(theta) = Phi(theta/s) and
q(theta) = Phi((kappa - theta)/s), and Psi_true is the metric of the expected sums.

Randomness: the items of a split are keyed by (stream, scenario, "items", split, dataset);
a model's ability by (stream, scenario, approach, "ability", index); its errors on a split
by (stream, scenario, approach, "errors", split, dataset, index).  Any range of model
indices therefore gives the same values whatever the chunking.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from simstats.stats.metrics import STATISTICS, metric_from_sums
from simstats.sim.scenario import SPLITS, Scenario
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module

optimize = lazy_module("scipy.optimize")
special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

#: Models simulated together in one vectorised block (block x items floats per temporary).  16 keeps a
#: block's arrays near the cache on the large item sets (CoNLL 2000 chunking: 16 x 47,704 floats): a Reimers
#: chunk of 1,200 models ran about 5 % faster than with 128 (the results do not depend on it).
MODEL_BLOCK = 16


# --------------------------------------------------------------------------- closed forms
def bivariate_normal_equal_cdf(h, rho):
    """P(Z1 <= h, Z2 <= h) for standard bivariate normal with correlation rho (Owen's T, exact)."""
    h = np.asarray(h, dtype=float)
    rho = float(rho)
    if rho >= 1.0:
        return special.ndtr(h)
    a = math.sqrt((1.0 - rho) / (1.0 + rho))
    return special.ndtr(h) - 2.0 * special.owens_t(h, a)


def bivariate_normal_cdf(h: float, k: float, rho: float) -> float:
    """P(Z1 <= h, Z2 <= k) for a standard bivariate normal with correlation |rho| < 1 (Owen's T)."""
    if h == 0 and k == 0:
        return 0.25 + math.asin(rho) / (2 * math.pi)
    r = math.sqrt(1.0 - rho * rho)

    def t(x, y):      # Owen's T(x, (y - rho x) / (x r)), the limit +-1/4 at x = 0
        if x == 0:
            return 0.25 * math.copysign(1.0, y)
        return float(special.owens_t(x, (y - rho * x) / (x * r)))

    same_sign = (h > 0 and k > 0) or (h < 0 and k < 0)      # signs, not the product (no underflow)
    beta = 0.0 if same_sign or ((h == 0 or k == 0) and h + k >= 0) else 0.5
    return float(0.5 * special.ndtr(h) + 0.5 * special.ndtr(k) - t(h, k) - t(k, h) - beta)


def mixture_spearman(weights, means, covariances) -> float:
    """Spearman's rho of (X, Y) from a mixture of bivariate normals (weights (K,), means (K, 2),
    covariances (K, 2, 2)): 3 (P[(X1 - X2)(Y1 - Y3) > 0] - P[... < 0]) with (X1, Y1) from the
    mixture and X2, Y3 independent draws of its margins; exact (6 / pi) asin(r / 2) for K = 1."""
    w = np.asarray(weights, float)
    m = np.asarray(means, float)
    c = np.asarray(covariances, float)
    concordant = 0.0
    for i in range(w.size):
        for j in range(w.size):
            for k in range(w.size):
                mu_u, mu_v = m[i, 0] - m[j, 0], m[i, 1] - m[k, 1]
                s_u, s_v = math.sqrt(c[i, 0, 0] + c[j, 0, 0]), math.sqrt(c[i, 1, 1] + c[k, 1, 1])
                rho = c[i, 0, 1] / (s_u * s_v)
                both_pos = bivariate_normal_cdf(mu_u / s_u, mu_v / s_v, rho)     # P(U > 0, V > 0)
                both_neg = bivariate_normal_cdf(-mu_u / s_u, -mu_v / s_v, rho)   # P(U < 0, V < 0)
                concordant += w[i] * w[j] * w[k] * (both_pos + both_neg)
    return float(3.0 * (2.0 * concordant - 1.0))


@dataclass(frozen=True)
class Population:
    """Exact population quantities of a scenario (no sampling)."""

    scenario: Scenario

    @property
    def s(self) -> float:
        return self.scenario.latent_scale

    def rates(self, theta):
        """(p, q): P(gold/plain item outcome = 1), P(spurious candidate produced)."""
        theta = np.asarray(theta, dtype=float)
        return special.ndtr(theta / self.s), special.ndtr((self.scenario.spurious_offset - theta) / self.s)

    def expected_sums(self, theta, split: str) -> dict[str, np.ndarray]:
        spec = self.scenario.split(split)
        p, q = self.rates(theta)
        if self.scenario.metric == "accuracy":
            return {"correct": spec.items * p, "items": np.full_like(p, spec.items)}
        return {"recalled": spec.gold * p, "gold": np.full_like(p, spec.gold), "spurious": spec.spurious * q}

    def psi_true(self, theta, split: str):
        """Population score of a model of ability theta on the split's distribution."""
        return metric_from_sums(self.scenario.metric, self.expected_sums(theta, split))

    def solve_mu(self, target: float, split: str = "test") -> float:
        """Latent mean mu with psi_true(mu) == target (the score of a typical run)."""
        return _solve_mu(self.scenario, float(target), split)

    def mu(self, approach: str) -> float:
        return self.solve_mu(self.scenario.target + self.scenario.approach(approach).difference)

    # -- dependence between outcomes --------------------------------------------------
    def pair_correlation(self, theta, kind: str = "gold", *, same_approach: bool = True):
        """Item-level r12: phi correlation of two models' outcomes (same theta) over random items; two
        models of one approach share its item offsets, two of different approaches do not."""
        p, q = self.rates(theta)
        rate = p if kind == "gold" else q
        sc = self.scenario
        shared = sc.sigma_item**2 + sc.sigma_c**2 + (sc.sigma_approach_item**2 if same_approach else 0.0)
        rho = shared / self.s**2
        h = special.ndtri(rate)
        p11 = bivariate_normal_equal_cdf(h, rho)
        return (p11 - rate**2) / (rate * (1 - rate))

    def cluster_icc(self, theta, kind: str = "gold"):
        """ICC of one model's binary outcomes on two items of the same cluster."""
        p, q = self.rates(theta)
        rate = p if kind == "gold" else q
        rho = self.scenario.sigma_c**2 / self.s**2
        p11 = bivariate_normal_equal_cdf(special.ndtri(rate), rho)
        return (p11 - rate**2) / (rate * (1 - rate))

    def approach_item_variance(self, theta, split: str) -> float:
        """Variance over item sets of the difference between two approaches' expected accuracy (or
        recall) on one set, for models of ability theta: the approach x item interaction's share.
        Per item D = P_A - P_B with P_X = P(outcome = 1 | item, approach X); Var(D) = 2 (E[P_A^2] -
        E[P_A P_B]), both bivariate normal orthant probabilities; the set mean divides by its items."""
        sc = self.scenario
        if sc.clusters is not None:
            raise ValueError("approach_item_variance: closed form without clusters only")
        if sc.metric not in ("accuracy", "recall"):
            raise ValueError(f"approach_item_variance: closed form for accuracy and recall only, got {sc.metric!r}")
        spec = sc.split(split)
        n = spec.items + spec.gold
        h = float(np.asarray(theta, dtype=float)) / self.s
        within = (sc.sigma_item**2 + sc.sigma_approach_item**2) / self.s**2
        across = sc.sigma_item**2 / self.s**2
        per_item = 2.0 * (bivariate_normal_equal_cdf(h, within) - bivariate_normal_equal_cdf(h, across))
        return float(per_item) / n

    def x_variance(self, theta, split: str, *, within_set: bool = True):
        """Variance of X = Psi - Psi_true for a model of ability theta (delta method for ratios).

        within_set=True: expected variance over the model's errors e for a fixed item set
        (what separates two models on one test set); False: also over the draw of the
        items, assuming no clusters (sigma_c enters only through the within-set part).
        """
        sc = self.scenario
        spec = sc.split(split)
        theta = np.asarray(theta, dtype=float)
        p, q = self.rates(theta)
        if within_set:
            var_g = p * (1 - p) * (1 - self.pair_correlation(theta, "gold"))
            var_s = q * (1 - q) * (1 - self.pair_correlation(theta, "spurious"))
        else:
            var_g, var_s = p * (1 - p), q * (1 - q)
        if sc.metric == "accuracy":
            return var_g / spec.items
        G, P = spec.gold, spec.spurious
        return _delta_variance(sc.metric, G, G * p, P * q, G * var_g, P * var_s)

    def given_items(self, theta, items: "ItemSet"):
        """(expected score, variance of the score) of a model of ability theta on this item set.

        Exact over the model's errors e for the counts; the ratio metrics' mean and variance
        come from the expected counts by the delta method (exact for accuracy and recall).
        """
        sc = self.scenario
        theta = np.atleast_1d(np.asarray(theta, dtype=float))
        # items gold first, one column per theta: the transposed (theta, item) arrays are Fortran-ordered like
        # rate[:, gold] of the item-order computation, so the sums below add in its order, bit for bit
        sign, threshold, G = items.gold_first
        latent = sign[:, None] * theta[None, :] - threshold[:, None]
        if sc.sigma_e == 0:
            rate = (latent > 0).astype(float).T
        else:
            rate = special.ndtr(latent / sc.sigma_e).T
        var = rate * (1 - rate)
        R, S = rate[:, :G].sum(1), rate[:, G:].sum(1)
        var_r, var_s = var[:, :G].sum(1), var[:, G:].sum(1)
        if sc.metric == "accuracy":
            return R / G, var_r / G**2
        mean = metric_from_sums(sc.metric, {"recalled": R, "gold": G, "spurious": S})
        return np.asarray(mean, dtype=float), _delta_variance(sc.metric, G, R, S, var_r, var_s)

    def bootstrap_shape(self, theta: float, items: "ItemSet") -> BootstrapShape:
        """:class:`BootstrapShape` of the unit (sentence) bootstrap of two runs of ability near ``theta``.

        The metric is linearised in the unit sums (recalled r_u, spurious s_u, gold g_u): unit u moves
        the score by a_u = f_R r_u + f_S s_u + f_G g_u, so a pair's bootstrap difference is the sum of
        d_u = a_u(A) - a_u(B) over resampled units.  Item outcome differences e_i in {-1, 0, 1} have
        variance v_i = 2 r_i (1 - r_i) (r_i the item's rate) and, given the observed difference Delta,
        mean w_i v_i Delta / se^2 (w_i = f_R or f_S, se^2 = sum w_i^2 v_i; a normal regression), and
        e_i^3 = e_i.  The third cumulant sum_u d_u^3 is then k Delta with

            k = [sum_i w_i^4 v_i + 3 sum_u sum_{i != j in u} x_i x_j] / se^2 + 3 sum_u V_u h_u,

        x_i = w_i^2 v_i, V_u = sum_{i in u} x_i, and h_u the change per unit of Delta of the unit's
        centring term (the runs' gradients differ with their sums R, S).  The extra variance is
        sum_u (m_u(A) - m_u(B))^2 with m_u the expected a_u, about c (Delta psi)^2 with
        c = sum_u (dm_u / dtheta)^2 / (dpsi / dtheta)^2.  Both are checked against simulated bootstraps
        (``tests/sim/test_bootstrap_shape.py``).  The realised variance V = sum_u d_u^2 has
        Var(V) = sum_i w_i^4 v_i (1 - v_i) + 2 sum_u sum_{i != j in u} x_i x_j (= 2 a se^4), and its mean
        given Delta moves by a (Delta^2 - se^2) (second-order regression on Delta) plus
        Delta^2 (2 sum_u h_u V_u / se^2 + sum_u h_u^2) from the centring term.  Without model noise
        (sigma_e = 0) there is no shape.
        """
        sc = self.scenario
        if sc.sigma_e == 0:
            return BootstrapShape()
        latent = (items.sign * float(theta) - items.threshold.astype(float)) / sc.sigma_e
        rate = special.ndtr(latent)
        slope = items.sign * stats.norm.pdf(latent) / sc.sigma_e          # d rate / d theta
        gold = items.is_gold
        G = float(gold.sum())
        R, S = float(rate[gold].sum()), float(rate[~gold].sum())
        (f_r, f_s, f_g), (f_rr, f_rs, f_ss, f_gr, f_gs) = _ratio_derivatives(sc.metric, R, S, G)

        def unit_sum(values):
            csum = np.concatenate([[0.0], np.cumsum(values)])
            return np.diff(csum[items.unit_start])

        rho_u, sigma_u = unit_sum(np.where(gold, rate, 0.0)), unit_sum(np.where(gold, 0.0, rate))
        g_u = unit_sum(gold.astype(float))
        w = np.where(gold, f_r, f_s)
        v = 2.0 * rate * (1.0 - rate)
        x = w**2 * v
        V_u = unit_sum(x)
        se2 = float(x.sum())
        if se2 <= 0:
            return BootstrapShape()
        beta_r, beta_s = f_r * float(v[gold].sum()) / se2, f_s * float(v[~gold].sum()) / se2
        h_u = ((f_rr * beta_r + f_rs * beta_s) * rho_u + (f_rs * beta_r + f_ss * beta_s) * sigma_u
               + (f_gr * beta_r + f_gs * beta_s) * g_u)
        within_units = float(np.sum(V_u**2) - np.sum(x**2))      # pairs of items in one unit
        third = float(np.sum(w**4 * v)) + 3.0 * within_units
        skew = third / se2 + 3.0 * float(np.sum(V_u * h_u))
        dispersion = (float(np.sum(w**4 * v * (1.0 - v))) + 2.0 * within_units) / (2.0 * se2**2)
        centring = 2.0 * float(np.sum(h_u * V_u)) / se2 + float(np.sum(h_u**2))
        # d m_u / d theta: the unit sums move, and so do the gradients
        d_rho, d_sigma = unit_sum(np.where(gold, slope, 0.0)), unit_sum(np.where(gold, 0.0, slope))
        dR, dS = float(d_rho.sum()), float(d_sigma.sum())
        dm_u = (f_r * d_rho + f_s * d_sigma + (f_rr * dR + f_rs * dS) * rho_u + (f_rs * dR + f_ss * dS) * sigma_u
                + (f_gr * dR + f_gs * dS) * g_u)
        dpsi = f_r * dR + f_s * dS
        curvature = float(np.sum(dm_u**2)) / dpsi**2 if dpsi != 0 else 0.0
        return BootstrapShape(skew_slope=skew, spread_curvature=curvature, variance_dispersion=dispersion,
                              centring_slope=centring)

    def x_variance_given_items(self, theta, items: "ItemSet"):
        """Variance over the model's errors e of its score on this item set (see given_items)."""
        return self.given_items(theta, items)[1]


@dataclass(frozen=True)
class BootstrapShape:
    """How the paired bootstrap of two runs of one approach departs from a normal with the within-set
    standard error, on a realised item set (see :meth:`Population.bootstrap_shape`).

    * ``skew_slope`` k: the third cumulant of the winner-oriented bootstrap distribution of the
      difference is about k |Delta| (per-unit outcome differences lean towards the winner);
    * ``spread_curvature`` c: the bootstrap variance exceeds the sum of the two runs' within-set
      variances by about c (Delta psi)^2, Delta psi the difference of their expected scores (units
      differ in how much a higher ability raises their share of the score);
    * ``variance_dispersion`` a: the pair's realised bootstrap variance V varies from pair to pair
      (which items the two runs happen to disagree on) with Var(V) = 2 a se^4, and given the observed
      difference its mean moves by a (Delta^2 - se^2): a large difference comes with more disagreement;
    * ``centring_slope`` b: the mean of V given Delta moves by b Delta^2 more, because the two runs'
      gradients differ with their sums.
    """

    skew_slope: float = 0.0
    spread_curvature: float = 0.0
    variance_dispersion: float = 0.0
    centring_slope: float = 0.0


def _ratio_derivatives(metric: str, R: float, S: float, G: float):
    """Gradient (f_R, f_S, f_G) and the second derivatives (f_RR, f_RS, f_SS, f_GR, f_GS) of the metric
    as a function of recalled R, spurious S and gold (or item) count G."""
    if metric in ("accuracy", "recall"):
        return (1 / G, 0.0, -R / G**2), (0.0, 0.0, 0.0, -1 / G**2, 0.0)
    if metric == "precision":
        P = R + S
        return (S / P**2, -R / P**2, 0.0), (-2 * S / P**3, (R - S) / P**3, 2 * R / P**3, 0.0, 0.0)
    D = G + R + S
    grad = (2 * (G + S) / D**2, -2 * R / D**2, -2 * R / D**2)
    return grad, (-4 * (G + S) / D**3, 2 / D**2 - 4 * (G + S) / D**3, 4 * R / D**3,
                  -2 / D**2 + 4 * R / D**3, 4 * R / D**3)


def _delta_variance(metric: str, G, R, S, var_r, var_s):
    """Delta-method variance of recall/precision/F1 from independent counts R and S."""
    if metric == "recall":
        return var_r / G**2
    if metric == "precision":
        d_r, d_s = S / (R + S) ** 2, -R / (R + S) ** 2
    else:
        D = G + R + S
        d_r, d_s = 2 * (G + S) / D**2, -2 * R / D**2
    return d_r**2 * var_r + d_s**2 * var_s


@functools.lru_cache(maxsize=256)
def _solve_mu(scenario: Scenario, target: float, split: str) -> float:
    pop = Population(scenario)
    s = pop.s

    def gap(theta: float) -> float:
        return float(pop.psi_true(theta, split)) - target

    lo, hi = -40.0 * s, 40.0 * s
    if gap(lo) > 0 or gap(hi) < 0:
        raise ValueError(f"scenario {scenario.name!r}: target {target} is not reachable for metric "
                         f"{scenario.metric!r} on the {split} split")
    return float(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=1e-14, maxiter=500))


# --------------------------------------------------------------------------- seed distribution
def seed_quadrature(scenario: Scenario, approach: str, *, n_nodes: int = 2001):
    """Nodes, weights (summing to 1), mean test-only shift and component (index into
    ``seed_distribution.components``) of a model's ability.

    Point masses (sigma_seed = 0) are single nodes; continuous parts use a fine grid of
    +-9 sd with density weights, so smooth functions of theta integrate to ~1e-8.  The test
    shift of a node is its mean plus N(0, sigma_shift^2); the mean is 0 except for the low
    runs of a ``test_shift_mixture`` (-low_shift), whose theta is lowered by low_theta.
    """
    sc = scenario
    sd = sc.seed_distribution
    mu = Population(sc).mu(approach)
    parts: list[tuple[np.ndarray, np.ndarray, float, int]] = []
    component = 0

    def continuous(pdf, centre, spread, mass, shift=0.0):
        x = np.linspace(centre - 9 * spread, centre + 9 * spread, n_nodes)
        w = pdf(x)
        parts.append((x, mass * w / w.sum(), shift, component))

    for component, (mass, drop_theta, drop_shift) in enumerate(sd.components):
        centre = mu - drop_theta
        main_mass = mass * (1 - sd.failure_prob if sd.family == "failure_mixture" else 1.0)
        if sc.sigma_seed == 0:
            parts.append((np.array([centre]), np.array([main_mass]), -drop_shift, component))
        elif sd.family == "skew_normal":
            d = sd.shape / math.sqrt(1 + sd.shape**2)
            mean, sdev = d * math.sqrt(2 / math.pi), math.sqrt(1 - 2 * d**2 / math.pi)
            scale = sc.sigma_seed / sdev
            continuous(lambda x: stats.skewnorm.pdf(x, sd.shape, loc=mu - mean * scale, scale=scale),
                       mu, sc.sigma_seed, main_mass)
        else:
            continuous(lambda x, c=centre: stats.norm.pdf(x, loc=c, scale=sc.sigma_seed), centre, sc.sigma_seed,
                       main_mass, -drop_shift)
    if sd.family == "failure_mixture":
        centre = mu + sd.failure_shift
        if sd.failure_sd == 0:
            parts.append((np.array([centre]), np.array([sd.failure_prob]), 0.0, component))
        else:
            continuous(lambda x: stats.norm.pdf(x, loc=centre, scale=sd.failure_sd), centre, sd.failure_sd,
                       sd.failure_prob)
    nodes = np.concatenate([p[0] for p in parts])
    weights = np.concatenate([p[1] for p in parts])
    shifts = np.concatenate([np.full(p[0].size, p[2]) for p in parts])
    components = np.concatenate([np.full(p[0].size, p[3]) for p in parts])
    return nodes, weights, shifts, components


def theta_quadrature(scenario: Scenario, approach: str, *, n_nodes: int = 2001):
    """Nodes and weights (summing to 1) representing the distribution of a model's ability
    (see :func:`seed_quadrature`, which also gives each node's mean test shift)."""
    nodes, weights, _, _ = seed_quadrature(scenario, approach, n_nodes=n_nodes)
    return nodes, weights


@dataclass(frozen=True)
class Abilities:
    index: np.ndarray
    theta: np.ndarray
    delta: np.ndarray
    failed: np.ndarray


def draw_abilities(scenario: Scenario, approach: str, indices, root_seed: int, stream: str = "noise") -> Abilities:
    """Ability theta, test shift delta and failure flag of each model index.

    Every model draws the same five numbers in the same order whatever the family, so
    changing the family or a sigma changes no other draw.  With ``seed_sharing`` rho > 0 the
    standardised seed effect is sqrt(rho) z_shared + sqrt(1 - rho) z, z_shared drawn per model index
    whatever the approach (the model index is the seed id).
    """
    sc = scenario
    sd = sc.seed_distribution
    mu = Population(sc).mu(approach)
    indices = np.asarray(indices, dtype=np.int64)
    raw = np.empty((indices.size, 5))
    for row, index in enumerate(indices):
        raw[row] = generator(root_seed, stream, sc.name, approach, "ability", int(index)).standard_normal(5)
    z, z2, u_fail, z_fail, z_shift = raw.T
    if sd.family == "skew_normal":
        d = sd.shape / math.sqrt(1 + sd.shape**2)
        skew = d * np.abs(z) + math.sqrt(1 - d**2) * z2
        z = (skew - d * math.sqrt(2 / math.pi)) / math.sqrt(1 - 2 * d**2 / math.pi)
    if sc.seed_sharing > 0:          # paired seeds: a part of the seed effect is the seed id's, in every approach
        shared = np.array([generator(root_seed, stream, sc.name, "shared seed", int(index)).standard_normal()
                           for index in indices])
        z = math.sqrt(sc.seed_sharing) * shared + math.sqrt(1 - sc.seed_sharing) * z
    theta = mu + sc.sigma_seed * z
    failed = np.zeros(indices.size, dtype=bool)
    delta = sc.sigma_shift * z_shift
    if sd.family == "failure_mixture":
        failed = special.ndtr(u_fail) < sd.failure_prob
        theta = np.where(failed, mu + sd.failure_shift + sd.failure_sd * z_fail, theta)
    elif sd.family == "test_shift_mixture":        # ``failed`` flags the low runs
        failed = special.ndtr(u_fail) < sd.low_prob
        theta = theta - failed * sd.low_theta
        delta = delta - failed * sd.low_shift
    return Abilities(indices, theta, delta, failed)


# --------------------------------------------------------------------------- items
@dataclass(frozen=True)
class ItemSet:
    """The items of one split of one dataset draw, sorted by unit (sentence)."""

    split: str
    dataset: int
    sign: np.ndarray          # +1 gold/plain item, -1 spurious candidate (int8)
    threshold: np.ndarray     # outcome = 1[sign*theta + sigma_e*e > threshold] (float32)
    unit: np.ndarray          # resampling unit (sentence) of each item, sorted (int32)
    cluster: np.ndarray       # cluster (document) of each item (int32); all 0 without clusters
    unit_start: np.ndarray    # first item of each unit; unit_start[-1] == n_items (int64)
    #: per approach, its own threshold offset of every item (approach x item interaction); empty without
    approach_offsets: dict = field(default_factory=dict)
    #: the approach whose offsets the thresholds already include (a set from ``for_approach``)
    approach: str | None = None

    def for_approach(self, approach: str) -> "ItemSet":
        """The set as ``approach`` sees it: thresholds plus its own item offsets (itself without any)."""
        if self.approach is not None:
            if approach != self.approach:
                raise ValueError(f"this item set is already {self.approach!r}'s view, not {approach!r}'s")
            return self
        offsets = self.approach_offsets.get(approach)
        if offsets is None:
            return self
        return ItemSet(self.split, self.dataset, self.sign, (self.threshold + offsets).astype(np.float32), self.unit,
                       self.cluster, self.unit_start, approach=approach)

    @property
    def n_items(self) -> int:
        return int(self.sign.size)

    @property
    def n_units(self) -> int:
        return int(self.unit_start.size - 1)

    @property
    def is_gold(self) -> np.ndarray:
        return self.sign > 0

    @functools.cached_property
    def gold_first(self) -> tuple[np.ndarray, np.ndarray, int]:
        """(sign, float64 threshold, number of gold items) with the gold items first, each part in item
        order (computed once per set: the closed forms evaluate a set at many abilities)."""
        gold = self.is_gold
        order = np.argsort(~gold, kind="stable")
        return self.sign[order], self.threshold[order].astype(float), int(gold.sum())

    def per_unit(self, mask: np.ndarray, *, out: np.ndarray | None = None,
                 counts: np.ndarray | None = None) -> np.ndarray:
        """Count of ``mask`` per unit; mask may be (n_items,) or (models, n_items).

        out: where to write the counts (any integer dtype that holds them); counts: an int64 work array
        of shape mask.shape[:-1] + (n_items + 1,) to reuse (a caller's buffer across blocks).
        """
        mask = np.asarray(mask)
        shape = mask.shape[:-1] + (mask.shape[-1] + 1,)
        if counts is None:
            csum = np.zeros(shape, dtype=np.int64)
        else:
            if counts.shape != shape or counts.dtype != np.int64:
                raise ValueError(f"counts must be int64 of shape {shape}, got {counts.dtype} {counts.shape}")
            csum = counts
            csum[..., 0] = 0
        np.cumsum(mask, axis=-1, out=csum[..., 1:])
        at_starts = csum[..., self.unit_start]
        if out is None:
            return np.diff(at_starts, axis=-1)
        return np.subtract(at_starts[..., 1:], at_starts[..., :-1], out=out, casting="unsafe")


def make_item_set(scenario: Scenario, split: str, root_seed: int, stream: str = "noise", dataset: int = 0) -> ItemSet:
    sc = scenario
    spec = sc.split(split)
    rng = generator(root_seed, stream, sc.name, "items", split, dataset)
    n_pos = spec.items + spec.gold
    sign = np.concatenate([np.ones(n_pos, np.int8), -np.ones(spec.spurious, np.int8)])
    sign = sign[rng.permutation(sign.size)]
    if spec.sentences is not None:
        unit = np.sort(rng.integers(0, spec.sentences, size=sign.size)).astype(np.int32)
        n_units = spec.sentences
    else:
        unit = np.arange(sign.size, dtype=np.int32)
        n_units = sign.size
    b = sc.sigma_item * rng.standard_normal(sign.size)
    if sc.clusters is not None:
        cluster = (unit // sc.clusters.size).astype(np.int32)
        g = sc.clusters.sigma_c * rng.standard_normal(int(cluster.max()) + 1 if cluster.size else 0)
        shared = g[cluster]
    else:
        cluster = np.zeros(sign.size, np.int32)
        shared = 0.0
    threshold = b + sign * shared - np.where(sign < 0, sc.spurious_offset, 0.0)
    unit_start = np.searchsorted(unit, np.arange(n_units + 1)).astype(np.int64)
    offsets = {}
    if sc.sigma_approach_item > 0:     # own keys: the shared draws above do not change
        for spec_a in sc.approaches:
            g_a = generator(root_seed, stream, sc.name, "approach_items", spec_a.name, split, dataset)
            offsets[spec_a.name] = (sc.sigma_approach_item * g_a.standard_normal(sign.size)).astype(np.float32)
    return ItemSet(split, dataset, sign, threshold.astype(np.float32), unit, cluster, unit_start, offsets)


# --------------------------------------------------------------------------- models
def realised_item_sets(scenario: Scenario, root_seed: int, stream: str = "noise") -> dict:
    """The dev and test sets every model of a run of ``root_seed`` is scored on (:func:`make_item_set`)."""
    return {split: make_item_set(scenario, split, root_seed, stream) for split in ("dev", "test")}


@dataclass
class ModelBatch:
    """Simulated models of one approach: scores, truth and (optionally) per-unit statistics."""

    scenario: str
    approach: str
    metric: str
    abilities: Abilities
    psi_true: dict[str, np.ndarray]
    psi: dict[str, np.ndarray]
    unit_stats: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    outcomes: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def index(self) -> np.ndarray:
        return self.abilities.index

    def x(self, split: str) -> np.ndarray:
        return self.psi[split] - self.psi_true[split]

    def engine_statistics(self, split: str) -> np.ndarray:
        """Per-unit statistics (models, units, k) in the test engine's order for the metric
        (accuracy: correct, items; recall/precision/f1: recalled, gold, spurious)."""
        if split not in self.unit_stats:
            raise ValueError("simulate with keep_unit_stats=True to get per-unit statistics")
        st = self.unit_stats[split]
        names = STATISTICS[self.metric]
        m = self.index.size
        return np.stack([np.broadcast_to(st[name], (m, st[name].shape[-1])) for name in names], axis=-1)


def _stat_dtype(max_count: int):
    return np.uint8 if max_count <= np.iinfo(np.uint8).max else (
        np.uint16 if max_count <= np.iinfo(np.uint16).max else np.uint32)


def simulate_models(scenario: Scenario, approach: str, start: int, stop: int, root_seed: int, *,
                    stream: str = "noise", dataset: int = 0, item_sets: dict[str, ItemSet] | None = None,
                    keep_unit_stats: bool | tuple[str, ...] = False, keep_outcomes: tuple[str, ...] = ()) -> ModelBatch:
    """Simulate models ``start .. stop-1`` of ``approach`` on the dev and test splits.

    keep_unit_stats: per-unit sufficient statistics (models x units, compact unsigned
    dtypes; accuracy: ``correct``; F1 family: ``recalled``, ``spurious``) plus the unit
    constants (``items`` or ``gold`` per unit), for the test engine.
    keep_unit_stats may also name the splits to keep them for (e.g. ``("test",)``).
    keep_outcomes: splits for which the item-level 0/1 outcomes (models x items) are kept.
    """
    sc = scenario
    if not 0 <= start <= stop:
        raise ValueError(f"need 0 <= start <= stop, got {start}, {stop}")
    pop = Population(sc)
    abil = draw_abilities(sc, approach, np.arange(start, stop), root_seed, stream)
    item_sets = item_sets or {s: make_item_set(sc, s, root_seed, stream, dataset) for s in SPLITS}
    psi_true = {"dev": pop.psi_true(abil.theta + sc.dev_offset, "dev"),
                "test": pop.psi_true(abil.theta + abil.delta, "test")}
    psi, unit_stats, outcomes = {}, {}, {}
    n_models = stop - start
    unit_splits = SPLITS if keep_unit_stats is True else tuple(keep_unit_stats or ())
    for split in SPLITS:
        keep_units = split in unit_splits
        items = item_sets[split].for_approach(approach)
        theta = abil.theta + (abil.delta if split == "test" else sc.dev_offset)
        gold, spur = np.empty(n_models, np.int64), np.empty(n_models, np.int64)
        max_per_unit = int(np.diff(items.unit_start).max()) if items.n_units else 0
        dtype = _stat_dtype(max_per_unit)
        pos_name = "correct" if sc.metric == "accuracy" else "recalled"
        if keep_units:
            unit_stats[split] = {pos_name: np.empty((n_models, items.n_units), dtype)}
            if sc.metric == "accuracy":
                unit_stats[split]["items"] = items.per_unit(items.is_gold).astype(dtype)
            else:
                unit_stats[split]["spurious"] = np.empty((n_models, items.n_units), dtype)
                unit_stats[split]["gold"] = items.per_unit(items.is_gold).astype(dtype)
        if split in keep_outcomes:
            outcomes[split] = np.empty((n_models, items.n_items), bool)
        sign = items.sign.astype(np.float32)
        is_gold = items.is_gold
        not_gold = ~is_gold
        # one set of block buffers per split: with glibc's default thresholds a fresh array per block of
        # this size comes from the kernel each time and costs page faults (workflow jobs raise the
        # thresholds, common.smk; library calls do not); the elementwise ops are the same
        width = min(MODEL_BLOCK, n_models)
        errors_buf = np.empty((width, items.n_items), np.float32)
        shift_buf = np.empty_like(errors_buf)
        above_buf = np.empty((width, items.n_items), bool)
        pos_buf, neg_buf = np.empty_like(above_buf), np.empty_like(above_buf)
        counts_buf = np.empty((width, items.n_items + 1), np.int64) if keep_units else None
        for lo in range(0, n_models, MODEL_BLOCK):
            hi = min(lo + MODEL_BLOCK, n_models)
            errors = errors_buf[:hi - lo]
            for row in range(lo, hi):
                rng = generator(root_seed, stream, sc.name, approach, "errors", split, dataset, start + row)
                rng.standard_normal(dtype=np.float32, out=errors[row - lo])
            latent = np.multiply(np.float32(sc.sigma_e), errors, out=errors)
            latent += np.multiply(sign[None, :], theta[lo:hi, None].astype(np.float32), out=shift_buf[:hi - lo])
            y = np.greater(latent, items.threshold[None, :], out=above_buf[:hi - lo])
            y_pos = np.bitwise_and(y, is_gold[None, :], out=pos_buf[:hi - lo])
            y_neg = np.bitwise_and(y, not_gold[None, :], out=neg_buf[:hi - lo])
            gold[lo:hi] = y_pos.sum(axis=1)
            spur[lo:hi] = y_neg.sum(axis=1)
            if keep_units:
                items.per_unit(y_pos, out=unit_stats[split][pos_name][lo:hi], counts=counts_buf[:hi - lo])
                if sc.metric != "accuracy":
                    items.per_unit(y_neg, out=unit_stats[split]["spurious"][lo:hi], counts=counts_buf[:hi - lo])
            if split in keep_outcomes:
                outcomes[split][lo:hi] = y
        spec = sc.split(split)
        if sc.metric == "accuracy":
            sums = {"correct": gold, "items": spec.items}
        else:
            sums = {"recalled": gold, "gold": spec.gold, "spurious": spur}
        psi[split] = np.asarray(metric_from_sums(sc.metric, sums), dtype=float)
    return ModelBatch(sc.name, approach, sc.metric, abil, psi_true, psi, unit_stats, outcomes)


def unit_statistics(unit_stats: dict[str, np.ndarray], metric: str, dtype=np.float64) -> np.ndarray:
    """(models, units, k) array of the metric's statistics in their canonical order (counts, in ``dtype``).

    ``unit_stats`` is one split's entry of :attr:`ModelBatch.unit_stats`: per-model arrays
    (models, units) and per-unit arrays (units,) shared by every model (gold items, items).
    """
    names = STATISTICS[metric]
    n_models = next(v.shape[0] for v in unit_stats.values() if v.ndim == 2)
    columns = [np.broadcast_to(np.asarray(unit_stats[k], dtype=dtype), (n_models, unit_stats[k].shape[-1]))
               for k in names]
    return np.stack(columns, axis=-1)
