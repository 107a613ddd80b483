"""Yeh (2000): correlated systems, paired and randomization tests (the study's settings)."""
from __future__ import annotations

from simstats.studies.yeh2000.simulate import YehSettings, parse_yeh


def parse_settings(section, context) -> YehSettings:
    return parse_yeh(section)


def scale_summary(settings: YehSettings) -> str:
    return f"Yeh {settings.replicates:,} test sets per cell"
