"""Score-level generator: Psi = Psi_true + X with X drawn directly.

For studies that need only score distributions (Evaluations 3/4, ASO, power).  Two uses:

* :func:`simulate_scores` — consistent with the instance level: the same abilities
  (theta, delta; same seeds) and the same closed-form Psi_true, and X drawn from a
  standardised family scaled to the within-set sd the instance model implies for the
  split sizes (:meth:`Population.x_variance`).
* :class:`ScoreDistribution` — a free-standing loc + scale * noise distribution.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from simstats.sim.noise import Abilities, Population, draw_abilities
from simstats.sim.scenario import SPLITS, Scenario, ScenarioError
from simstats.sim.seeding import generator

NOISE_FAMILIES = ("gaussian", "student_t", "skew_normal", "mixture")


@dataclass(frozen=True)
class StandardisedNoise:
    """A noise family standardised to mean 0 and variance 1.

    gaussian; student_t (``df`` > 2); skew_normal (``shape``); mixture of normals
    (``weights``, ``locs``, ``scales``: a normal/failure mixture gives long lower tails).
    """

    family: str = "gaussian"
    df: float = 0.0
    shape: float = 0.0
    weights: tuple[float, ...] = ()
    locs: tuple[float, ...] = ()
    scales: tuple[float, ...] = ()

    def __post_init__(self):
        if self.family not in NOISE_FAMILIES:
            raise ScenarioError(f"noise.family: unknown family {self.family!r} (allowed: {', '.join(NOISE_FAMILIES)})")
        if self.family == "student_t" and not self.df > 2:
            raise ScenarioError(f"noise.df: student_t needs df > 2 for a finite variance, got {self.df!r}")
        if self.family == "mixture":
            k = len(self.weights)
            if k < 1 or len(self.locs) != k or len(self.scales) != k:
                raise ScenarioError("noise.weights: mixture needs weights, locs and scales of equal length >= 1")
            if any(w < 0 for w in self.weights) or not math.isclose(sum(self.weights), 1.0, rel_tol=1e-9):
                raise ScenarioError(f"noise.weights: must be >= 0 and sum to 1, got {self.weights}")
            if any(s < 0 for s in self.scales):
                raise ScenarioError(f"noise.scales: must be >= 0, got {self.scales}")
            if self._mixture_moments()[1] <= 0:
                raise ScenarioError("noise.scales: the mixture has zero variance")

    @classmethod
    def from_mapping(cls, value: Mapping[str, Any]) -> "StandardisedNoise":
        value = dict(value)
        for key in ("weights", "locs", "scales"):
            if key in value:
                value[key] = tuple(float(v) for v in value[key])
        unknown = set(value) - {"family", "df", "shape", "weights", "locs", "scales"}
        if unknown:
            raise ScenarioError(f"noise.{sorted(unknown)[0]}: unknown field")
        return cls(**value)

    def _mixture_moments(self) -> tuple[float, float]:
        w, m, s = map(np.asarray, (self.weights, self.locs, self.scales))
        mean = float(np.sum(w * m))
        return mean, float(np.sum(w * (s**2 + m**2)) - mean**2)

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        if self.family == "gaussian":
            return rng.standard_normal(size)
        if self.family == "student_t":
            return rng.standard_t(self.df, size) * math.sqrt((self.df - 2) / self.df)
        if self.family == "skew_normal":
            d = self.shape / math.sqrt(1 + self.shape**2)
            u, v = rng.standard_normal(size), rng.standard_normal(size)
            x = d * np.abs(u) + math.sqrt(1 - d**2) * v
            return (x - d * math.sqrt(2 / math.pi)) / math.sqrt(1 - 2 * d**2 / math.pi)
        mean, var = self._mixture_moments()
        component = np.searchsorted(np.cumsum(self.weights), rng.random(size) * sum(self.weights), side="right")
        component = np.minimum(component, len(self.weights) - 1)
        x = np.asarray(self.locs)[component] + np.asarray(self.scales)[component] * rng.standard_normal(size)
        return (x - mean) / math.sqrt(var)


@dataclass(frozen=True)
class ScoreDistribution:
    """Scores loc + scale * noise (e.g. a seed-score distribution for an ASO study)."""

    loc: float
    scale: float
    noise: StandardisedNoise = StandardisedNoise()

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        return self.loc + self.scale * self.noise.sample(rng, size)


@dataclass
class ScoreBatch:
    scenario: str
    approach: str
    abilities: Abilities
    psi_true: dict[str, np.ndarray]
    psi: dict[str, np.ndarray]

    @property
    def index(self) -> np.ndarray:
        return self.abilities.index

    def x(self, split: str) -> np.ndarray:
        return self.psi[split] - self.psi_true[split]


def simulate_scores(scenario: Scenario, approach: str, start: int, stop: int, root_seed: int, *,
                    noise: StandardisedNoise = StandardisedNoise(), stream: str = "noise") -> ScoreBatch:
    """Scores of models ``start .. stop-1`` without item-level simulation (see module doc)."""
    pop = Population(scenario)
    abil = draw_abilities(scenario, approach, np.arange(start, stop), root_seed, stream)
    theta = {"dev": abil.theta + scenario.dev_offset, "test": abil.theta + abil.delta}
    draws = np.empty((abil.index.size, 2))
    for row, index in enumerate(abil.index):
        rng = generator(root_seed, stream, scenario.name, approach, "score-noise", int(index))
        draws[row] = noise.sample(rng, 2)
    psi_true, psi = {}, {}
    for col, split in enumerate(SPLITS):
        psi_true[split] = np.asarray(pop.psi_true(theta[split], split), dtype=float)
        psi[split] = psi_true[split] + np.sqrt(pop.x_variance(theta[split], split)) * draws[:, col]
    return ScoreBatch(scenario.name, approach, abil, psi_true, psi)
