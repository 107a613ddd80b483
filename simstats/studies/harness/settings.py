"""Comparing two models from an evaluation's per-item scores, validated by simulation (the study's settings)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simstats.sim.scenario import ScenarioError
from simstats.sim.schema import apply_schema
from simstats.studies.variant_settings import VariantStudySettings
from simstats.studies.harness.simulate import Variant

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")
#: The fields of the logit generator, with their defaults (a pair variant must leave them at these).
LOGIT_FIELDS = {name: field.default for name, field in Variant.__dataclass_fields__.items()
                if name in ("scores", "samples", "item_sd", "interaction_sd", "cluster_sd", "cluster_interaction_sd",
                            "cluster_size", "concentration")}


@dataclass(frozen=True, kw_only=True)
class HarnessStudySettings(VariantStudySettings):
    """The ``harness`` section: the populations of evaluations, the test-set sizes and the Monte Carlo sizes."""

    items: tuple[int, ...]


def parse_settings(section, context) -> HarnessStudySettings:
    path = "harness"
    value = apply_schema(section, SCHEMA, path)
    variants = []
    for name, fields in value["variants"].items():
        variant = Variant(name=name, **fields)
        if variant.generator == "pair":
            if variant.disagreement <= 0:
                raise ScenarioError(f"{path}.variants.{name}.disagreement: a pair variant needs the share of items "
                                    "exactly one model gets right (> 0)")
            try:
                variant.cells
            except ValueError as err:
                raise ScenarioError(f"{path}.variants.{name}: {err}") from None
            logit_only = [key for key, default in LOGIT_FIELDS.items() if getattr(variant, key) != default]
            if logit_only:
                raise ScenarioError(f"{path}.variants.{name}.{logit_only[0]}: a pair variant has one 0/1 sample per "
                                    "independent item; this field belongs to the logit generator")
        elif (variant.cluster_sd > 0 or variant.cluster_interaction_sd > 0) and variant.cluster_size < 2:
            raise ScenarioError(f"{path}.variants.{name}.cluster_size: cluster effects need clusters of at least 2 "
                                f"items, got {variant.cluster_size}")
        variants.append(variant)
    for variant in variants:
        if variant.clustered and min(value["items"]) < 2 * variant.cluster_size:
            raise ScenarioError(f"{path}.items: {min(value['items'])} items make fewer than 2 clusters of "
                                f"{variant.cluster_size} (variant {variant.name}); the cluster-robust tests need 2")
    replicates = int(value["replicates"])
    return HarnessStudySettings(
        variants=tuple(variants), items=tuple(sorted(value["items"])), replicates=replicates,
        n_resamples=int(value["n_resamples"]), alpha=float(value["alpha"]),
        confidence_level=float(value["confidence_level"]),
        chunk_size=min(int(value.get("chunk_size", replicates)), replicates))


def scale_summary(settings: HarnessStudySettings) -> str:
    return (f"harness: {len(settings.variants)} populations x {len(settings.items)} test-set sizes x 2 truths, "
            f"{settings.replicates:,} simulated evaluations per cell, {settings.n_resamples:,} resamples each")
