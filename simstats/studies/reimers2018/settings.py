"""Reimers & Gurevych (2018): single scores vs score distributions (the study's settings)."""
from __future__ import annotations

from simstats.studies.reimers2018.simulate import ReimersSettings, parse_reimers


def parse_settings(section, context) -> ReimersSettings:
    return parse_reimers(section, context.scenarios)


def scale_summary(settings: ReimersSettings) -> str:
    return (f"Reimers & Gurevych {settings.n_models:,} models per approach and task, B = "
            f"{settings.n_resamples:,}")
