"""Many models over a suite of tasks, validated by simulation (the study's settings)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from simstats.sim.scenario import ScenarioError
from simstats.sim.schema import apply_schema
from simstats.studies.suite.simulate import Variant

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")
#: The fields of one unit only, with their defaults (a variant of the other unit must leave them at these).
DEFAULTS = {name: field.default for name, field in Variant.__dataclass_fields__.items()
            if name in ("items", "item_sd", "interaction_sd", "runs", "run_sd", "failure_rate", "failure_score")}


@dataclass(frozen=True)
class SuiteStudySettings:
    """The ``suite`` section: the populations of suites, the numbers of tasks and the Monte Carlo sizes."""

    variants: tuple[Variant, ...]
    tasks: tuple[int, ...]
    replicates: int
    n_resamples: int
    alpha: float
    confidence_level: float
    chunk_size: int = 0                # replicates per job and variant (0: all in one job)

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants)

    def variant(self, name: str) -> Variant:
        return next(v for v in self.variants if v.name == name)

    def chunks(self) -> list[range]:
        """The replicates of each job of a variant (every number of tasks; replicate r is keyed by r)."""
        size = self.chunk_size or self.replicates
        return [range(start, min(start + size, self.replicates)) for start in range(0, self.replicates, size)]

    def for_variant(self, name: str) -> "SuiteStudySettings":
        """The settings of one variant only (a job's parameters: editing another variant reruns nothing here)."""
        return dataclasses.replace(self, variants=(self.variant(name),))


def parse_settings(section, context) -> SuiteStudySettings:
    path = "suite"
    value = apply_schema(section, SCHEMA, path)
    variants = []
    for name, fields in value["variants"].items():
        fields = {key: tuple(v) if isinstance(v, list) else v for key, v in fields.items()}
        for key in ("items", "run_sd"):
            if key in fields and fields[key][0] > fields[key][1]:
                raise ScenarioError(f"{path}.variants.{name}.{key}: the range {list(fields[key])} runs backwards "
                                    "(give [low, high])")
        variant = Variant(name=name, **fields)
        given = {key for key, default in DEFAULTS.items() if getattr(variant, key) != default}
        if variant.unit == "items":
            runs_only = [key for key in ("runs", "run_sd", "failure_rate", "failure_score") if key in given]
            if runs_only:
                raise ScenarioError(f"{path}.variants.{name}.{runs_only[0]}: belongs to a variant of runs "
                                    "(unit: runs), not of items")
        else:
            items_only = [key for key in ("items", "item_sd", "interaction_sd") if key in given]
            if items_only:
                raise ScenarioError(f"{path}.variants.{name}.{items_only[0]}: belongs to a variant of items "
                                    "(unit: items), not of runs")
        variants.append(variant)
    replicates = int(value["replicates"])
    return SuiteStudySettings(
        variants=tuple(variants), tasks=tuple(sorted(value["tasks"])), replicates=replicates,
        n_resamples=int(value["n_resamples"]), alpha=float(value["alpha"]),
        confidence_level=float(value["confidence_level"]),
        chunk_size=min(int(value.get("chunk_size", replicates)), replicates))


def scale_summary(settings: SuiteStudySettings) -> str:
    return (f"suite: {len(settings.variants)} populations x {len(settings.tasks)} numbers of tasks, "
            f"{settings.replicates:,} simulated suites per cell, {settings.n_resamples:,} resamples each")
