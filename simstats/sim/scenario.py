"""Noise scenarios: a validated, immutable description of one simulated world.

A scenario is plain data (read from YAML); :func:`parse_scenario` checks every field and
raises :class:`ScenarioError` with a message that names the offending field, e.g.
``scenarios.iid.sigma_e: must be >= 0, got -1``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simstats.sim.fields import ScenarioError  # noqa: F401  (re-exported: simstats.sim.scenario.ScenarioError)
from simstats.sim.fields import as_mapping, check_keys, fail
from simstats.sim.schema import SCENARIO_SCHEMA_PATH, apply_schema

#: The default configuration with the built-in scenarios, shipped with the package (the repository's
#: ``config/config.yaml`` links to it).
BUILTIN_CONFIG_PATH = Path(__file__).resolve().parents[1] / "data" / "config.yaml"

METRICS = ("accuracy", "recall", "precision", "f1")
SEED_FAMILIES = ("normal", "skew_normal", "failure_mixture", "test_shift_mixture")
SPLITS = ("dev", "test")
#: How a scenario's ``origin`` reads in tables and pages.
ORIGIN_LABELS = {"calibrated": "calibrated", "fitted": "fitted to data", "stated": "stated"}


@dataclass(frozen=True)
class SplitSpec:
    """Sizes of one evaluation split.

    ``items`` for accuracy; ``gold`` and ``spurious`` (candidate pool) for
    recall/precision/F1.  ``sentences``, if given, groups the items into that many
    resampling units (sentences); otherwise every item is its own unit.
    """

    items: int = 0
    gold: int = 0
    spurious: int = 0
    sentences: int | None = None

    @property
    def n_items(self) -> int:
        return self.items + self.gold + self.spurious

    @property
    def n_units(self) -> int:
        return self.sentences if self.sentences is not None else self.n_items


@dataclass(frozen=True)
class SeedDistribution:
    """Distribution of a training run's ability around the approach's mean.

    ``normal``: theta = mu + sigma_seed * z.  ``skew_normal``: z is a skew-normal with
    ``shape``, standardised to mean 0 and variance 1.  ``failure_mixture``: with
    probability ``failure_prob`` a run fails and theta = mu + failure_shift +
    failure_sd * z (latent units); otherwise as ``normal``.  ``test_shift_mixture``: with
    probability ``low_prob`` a run is "low": its ability theta drops by ``low_theta`` and its
    test-only shift delta by ``low_shift`` (latent units, same spreads sigma_seed and
    sigma_shift as the other runs), so the dev split sees only part of a drop the test split
    sees in full.
    """

    family: str = "normal"
    shape: float = 0.0
    failure_prob: float = 0.0
    failure_shift: float = 0.0
    failure_sd: float = 0.0
    low_prob: float = 0.0
    low_theta: float = 0.0
    low_shift: float = 0.0

    @property
    def components(self) -> tuple[tuple[float, float, float], ...]:
        """(weight, drop of theta, drop of the test shift) of each normal component of a
        ``test_shift_mixture`` (one component, no drops, for every other family)."""
        if self.family != "test_shift_mixture":
            return ((1.0, 0.0, 0.0),)
        return ((1.0 - self.low_prob, 0.0, 0.0), (self.low_prob, self.low_theta, self.low_shift))


@dataclass(frozen=True)
class ClusterSpec:
    """Documents: consecutive blocks of ``size`` units sharing an effect g ~ N(0, sigma_c^2)."""

    size: int
    sigma_c: float


@dataclass(frozen=True)
class ApproachSpec:
    """An approach; ``difference`` is its true quality minus the scenario target (metric units)."""

    name: str
    difference: float = 0.0


@dataclass(frozen=True)
class Scenario:
    name: str
    metric: str
    target: float
    dev: SplitSpec
    test: SplitSpec
    sigma_item: float = 1.0
    sigma_seed: float = 0.0
    sigma_shift: float = 0.0
    sigma_e: float = 1.0
    #: approach x item interaction: each approach's own difficulty offset per item, N(0, this^2)
    sigma_approach_item: float = 0.0
    #: share of the seed effect's variance a seed id shares between the approaches (paired seeds)
    seed_sharing: float = 0.0
    spurious_offset: float = 0.0
    #: latent ability every run gains on the dev split (a fixed difficulty difference between dev and test)
    dev_offset: float = 0.0
    seed_distribution: SeedDistribution = field(default_factory=SeedDistribution)
    clusters: ClusterSpec | None = None
    approaches: tuple[ApproachSpec, ...] = (ApproachSpec("A"), ApproachSpec("B"))
    #: Row label of the paper task this scenario models (e.g. "CoNLL 2003 - NER-En"), if any.
    description: str = ""
    reference: str = ""
    #: where the noise parameters come from: "calibrated" (to published numbers), "fitted" (to a user's runs
    #: by ``simstats fit``) or "stated" (by hand)
    origin: str = "stated"

    @property
    def sigma_c(self) -> float:
        return self.clusters.sigma_c if self.clusters else 0.0

    @property
    def latent_scale(self) -> float:
        """sqrt(sigma_item^2 + sigma_c^2 + sigma_approach_item^2 + sigma_e^2): sd of an outcome's latent
        noise over items, models and approaches."""
        return math.sqrt(self.sigma_item**2 + self.sigma_c**2 + self.sigma_approach_item**2 + self.sigma_e**2)

    def split(self, name: str) -> SplitSpec:
        if name not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {name!r}")
        return self.dev if name == "dev" else self.test

    def approach(self, name: str) -> ApproachSpec:
        for spec in self.approaches:
            if spec.name == name:
                return spec
        raise KeyError(f"scenario {self.name!r} has no approach {name!r}")


# --------------------------------------------------------------------------- parsing
def chunk_bounds(total: int, chunk_size: int, chunk: int) -> tuple[int, int]:
    """(start, stop) of chunk ``chunk`` when ``total`` items are cut into chunks of ``chunk_size``."""
    n_chunks = -(-total // chunk_size)
    if not 0 <= chunk < n_chunks:
        raise ValueError(f"chunk {chunk} out of range 0..{n_chunks - 1}")
    start = chunk * chunk_size
    return start, min(start + chunk_size, total)


def _parse_split(value: Any, path: str, metric: str) -> SplitSpec:
    """A split (already checked by the schema): which sizes it gives depends on the metric."""
    if metric == "accuracy":
        check_keys(value, path, {"items", "sentences"}, {"items"})
        items, gold, spurious = value["items"], 0, 0
    else:
        check_keys(value, path, {"gold", "spurious", "sentences"}, {"gold"})
        items, gold = 0, value["gold"]
        spurious = value.get("spurious", gold)   # the candidate pool defaults to the gold count
    return SplitSpec(items=items, gold=gold, spurious=spurious, sentences=value.get("sentences"))


def _parse_seed_distribution(value: Any, path: str) -> SeedDistribution:
    """A seed distribution (already checked by the schema): the parameters its family takes."""
    family = value["family"]
    allowed = {"normal": set(), "skew_normal": {"shape"},
               "failure_mixture": {"failure_prob", "failure_shift", "failure_sd"},
               "test_shift_mixture": {"low_prob", "low_theta", "low_shift"}}[family]
    for key in sorted(set(value) - {"family"} - allowed):
        fail(f"{path}.{key}", f"not a parameter of the {family} seed distribution")
    if family == "skew_normal":
        check_keys(value, path, {"family", "shape"}, {"shape"})
        return SeedDistribution(family, shape=float(value["shape"]))
    if family == "failure_mixture":
        check_keys(value, path, {"family", "failure_prob", "failure_shift", "failure_sd"},
                    {"failure_prob", "failure_shift"})
        return SeedDistribution(family, failure_prob=float(value["failure_prob"]),
                                failure_shift=float(value["failure_shift"]),
                                failure_sd=float(value.get("failure_sd", 0.0)))   # failure_mixture only
    if family == "test_shift_mixture":
        check_keys(value, path, {"family", "low_prob", "low_theta", "low_shift"}, {"low_prob", "low_theta", "low_shift"})
        return SeedDistribution(family, low_prob=float(value["low_prob"]), low_theta=float(value["low_theta"]),
                                low_shift=float(value["low_shift"]))
    return SeedDistribution(family)


def parse_scenario(name: str, value: Any, path: str | None = None) -> Scenario:
    """Validate one scenario mapping (as read from YAML) and build a :class:`Scenario`.

    Types, ranges and defaults come from the configuration schema (``$defs/scenario``); the
    checks here are the ones it cannot express (fields that depend on the metric or family).
    """
    path = path or f"scenarios.{name}"
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "_-" for c in name):
        fail(path, "scenario names use letters, digits, '_' and '-' only")
    value = apply_schema(as_mapping(value, path), SCENARIO_SCHEMA_PATH, path, "/$defs/scenario")
    value.pop("replace", None)   # the merge's acknowledgement of an override (config.check_scenario_overrides)
    metric = value["metric"]
    target = float(value["target"])
    dev = _parse_split(value["dev"], f"{path}.dev", metric)
    test = _parse_split(value["test"], f"{path}.test", metric)
    if metric == "precision":
        for split_name, split in (("dev", dev), ("test", test)):
            if split.spurious == 0:
                fail(f"{path}.{split_name}.spurious", "precision needs a spurious-candidate pool > 0")
    sigmas = {key: float(value[key]) for key in ("sigma_item", "sigma_seed", "sigma_shift", "sigma_e",
                                                 "sigma_approach_item")}
    if sigmas["sigma_e"] == 0 and sigmas["sigma_item"] == 0:
        fail(f"{path}.sigma_e", "sigma_e and sigma_item cannot both be 0 (outcomes would be deterministic)")
    seed_distribution = _parse_seed_distribution(value["seed_distribution"], f"{path}.seed_distribution")
    clusters = None
    if value.get("clusters") is not None:
        clusters = ClusterSpec(size=value["clusters"]["size"], sigma_c=float(value["clusters"]["sigma_c"]))
    apath = f"{path}.approaches"
    approaches = []
    for aname, aval in value["approaches"].items():
        diff = 0.0 if aval is None else float(aval["difference"])   # null: an approach at the target
        if not 0 < target + diff < 1:
            fail(f"{apath}.{aname}.difference", f"target + difference must lie in (0, 1), got {target + diff!r}")
        approaches.append(ApproachSpec(aname, diff))
    return Scenario(name=name, metric=metric, target=target, dev=dev, test=test,
                    spurious_offset=float(value["spurious_offset"]), dev_offset=float(value["dev_offset"]),
                    seed_distribution=seed_distribution,
                    seed_sharing=float(value["seed_sharing"]),
                    clusters=clusters, approaches=tuple(approaches), description=value["description"],
                    reference=value["reference"], origin=value["origin"], **sigmas)


def parse_scenarios(value: Any, path: str = "scenarios") -> dict[str, Scenario]:
    """Validate the ``scenarios`` mapping of a configuration."""
    value = as_mapping(value, path)
    if not value:
        fail(path, "at least one scenario is required")
    return {name: parse_scenario(name, spec, f"{path}.{name}") for name, spec in value.items()}
