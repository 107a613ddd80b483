"""The settings shared by the validation studies made of variants (populations) simulated in chunks of
replicates: the harness-log and the suite studies."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class VariantStudySettings:
    """Variants simulated ``replicates`` times per cell, in jobs of ``chunk_size`` replicates per variant."""

    variants: tuple
    replicates: int
    n_resamples: int
    alpha: float
    confidence_level: float
    chunk_size: int = 0                # replicates per job and variant (0: all in one job)

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants)

    def variant(self, name: str):
        return next(v for v in self.variants if v.name == name)

    def chunks(self) -> list[range]:
        """The replicates of each job of a variant (every cell of it; replicate r is keyed by r)."""
        size = self.chunk_size or self.replicates
        return [range(start, min(start + size, self.replicates)) for start in range(0, self.replicates, size)]

    def for_variant(self, name: str):
        """The settings of one variant only (a job's parameters: editing another variant reruns nothing here)."""
        return dataclasses.replace(self, variants=(self.variant(name),))
