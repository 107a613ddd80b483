"""What can I trust, per scenario (the study's settings)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simstats.sim.scenario import ScenarioError
from simstats.sim.schema import apply_schema

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")


@dataclass(frozen=True)
class TrustSettings:
    """The ``trust`` section: which scenarios get a page, and the simulated comparisons' sizes."""

    scenarios: tuple[str, ...]
    seeds: tuple[int, ...]
    difference: float
    mdd_seeds: tuple[int, ...]
    mdd_items: tuple[float, ...]
    replicates: int
    n_resamples: int
    alpha: float


def parse_settings(section, context) -> TrustSettings:
    path = "trust"
    value = apply_schema(section, SCHEMA, path)
    known = context.scenarios
    for key in ("exclude",) + (() if value["scenarios"] == "all" else ("scenarios",)):
        for name in value[key]:
            if name not in known:
                raise ScenarioError(f"{path}.{key}: unknown scenario {name!r}")
    chosen = [n for n, sc in known.items() if len(sc.approaches) == 2] if value["scenarios"] == "all" \
        else list(value["scenarios"])
    for name in chosen:
        if len(known[name].approaches) != 2:
            raise ScenarioError(f"{path}.scenarios: {name!r} has {len(known[name].approaches)} approaches; a page "
                                "compares two")
    chosen = tuple(n for n in chosen if n not in set(value["exclude"]))
    return TrustSettings(scenarios=chosen, seeds=tuple(sorted(value["seeds"])), difference=float(value["difference"]),
                         mdd_seeds=tuple(sorted(value["mdd_seeds"])), mdd_items=tuple(sorted(value["mdd_items"])),
                         replicates=int(value["replicates"]), n_resamples=int(value["n_resamples"]),
                         alpha=float(value["alpha"]))


def scale_summary(settings: TrustSettings) -> str:
    return (f"trust: {len(settings.scenarios)} scenario pages, {settings.replicates:,} simulated studies per scenario "
            f"and truth, {settings.n_resamples:,} resamples per test")
