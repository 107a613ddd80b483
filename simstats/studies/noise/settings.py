"""The noise study's settings: models per approach and scenario, chunking, bootstrap size, scenarios."""
from __future__ import annotations

from dataclasses import dataclass

from simstats.sim.fields import ScenarioError
from simstats.sim.scenario import chunk_bounds


@dataclass(frozen=True)
class NoiseStudySettings:
    n_models: int
    chunk_size: int
    n_resamples: int
    scenarios: tuple[str, ...]

    @property
    def n_chunks(self) -> int:
        return -(-self.n_models // self.chunk_size)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        return chunk_bounds(self.n_models, self.chunk_size, chunk)


def parse_settings(section, context) -> NoiseStudySettings:
    """The schema-checked ``noise`` section; ``scenarios: all`` means every scenario of the configuration."""
    chosen = section["scenarios"]
    if chosen == "all":
        chosen = list(context.scenarios)
    for name in chosen:
        if name not in context.scenarios:
            raise ScenarioError(f"noise.scenarios: unknown scenario {name!r}")
    return NoiseStudySettings(section["n_models"], section["chunk_size"], section["n_resamples"], tuple(chosen))


def scale_summary(settings: NoiseStudySettings) -> str:
    return f"noise study {settings.n_models:,} models per approach and scenario"
