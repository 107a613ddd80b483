"""Fitting the noise model to runs, validated by simulation (the study's settings)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simstats.sim.scenario import ScenarioError, parse_scenario
from simstats.sim.schema import apply_schema
from simstats.studies.fit.simulate import Variant
from simstats.studies.variant_settings import VariantStudySettings

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")


@dataclass(frozen=True, kw_only=True)
class FitStudySettings(VariantStudySettings):
    """The ``fit`` section: the designs of runs, their scenarios and the Monte Carlo sizes."""


def parse_settings(section, context) -> FitStudySettings:
    path = "fit"
    value = apply_schema(section, SCHEMA, path)
    variants = []
    for name, fields in value["variants"].items():
        where = f"{path}.variants.{name}"
        scenario = parse_scenario(name, fields["scenario"], f"{where}.scenario")
        if "test" not in fields["splits"]:
            raise ScenarioError(f"{where}.splits: the runs need a test split, got {fields['splits']}")
        if fields["data"] == "items":
            if scenario.metric != "accuracy":
                raise ScenarioError(f"{where}.scenario.metric: item-level outcomes are fitted as accuracy, got "
                                    f"{scenario.metric!r}")
            if fields["group_size"] or fields["group_sd"]:
                raise ScenarioError(f"{where}.group_size: configurations belong to run-level scores (data: scores)")
        elif scenario.clusters is not None:
            raise ScenarioError(f"{where}.scenario.clusters: run-level scores cannot show clusters (data: items)")
        if fields["group_size"] and fields["runs"] % fields["group_size"]:
            raise ScenarioError(f"{where}.group_size: {fields['runs']} runs do not split into configurations of "
                                f"{fields['group_size']}")
        variants.append(Variant(name=name, description=fields["description"], data=fields["data"],
                                runs=int(fields["runs"]), splits=tuple(s for s in ("dev", "test") if s in fields["splits"]),
                                group_size=int(fields["group_size"]), group_sd=float(fields["group_sd"]),
                                scenario=scenario))
    replicates = int(value["replicates"])
    return FitStudySettings(
        variants=tuple(variants), replicates=replicates, n_resamples=int(value["n_resamples"]),
        alpha=float(value["alpha"]), confidence_level=float(value["confidence_level"]),
        chunk_size=min(int(value.get("chunk_size", replicates)), replicates))


def scale_summary(settings: FitStudySettings) -> str:
    return (f"fit: {len(settings.variants)} designs of runs, {settings.replicates:,} simulated sets of runs fitted per "
            f"design, {settings.n_resamples:,} bootstrap resamples each")
