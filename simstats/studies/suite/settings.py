"""Many models over a suite of tasks, validated by simulation (the study's settings)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simstats.sim.scenario import ScenarioError
from simstats.sim.schema import apply_schema
from simstats.studies.variant_settings import VariantStudySettings
from simstats.studies.suite.simulate import Variant

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")
#: The fields of one unit only, with their defaults (a variant of the other unit must leave them at these).
DEFAULTS = {name: field.default for name, field in Variant.__dataclass_fields__.items()
            if name in ("items", "item_sd", "interaction_sd", "runs", "run_sd", "failure_rate", "failure_score")}


@dataclass(frozen=True, kw_only=True)
class SuiteStudySettings(VariantStudySettings):
    """The ``suite`` section: the populations of suites, the numbers of tasks and the Monte Carlo sizes."""

    tasks: tuple[int, ...]


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
