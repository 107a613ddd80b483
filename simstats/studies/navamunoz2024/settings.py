"""Nava-Muñoz et al. (2024): bootstrap CIs and multiple comparisons in competitions (the study's settings)."""
from __future__ import annotations

from simstats.studies.navamunoz2024.population import CompetitionSettings, parse_competition


def parse_settings(section, context) -> CompetitionSettings:
    return parse_competition(section)


def scale_summary(settings: CompetitionSettings) -> str:
    return f"competitions {settings.replicates:,} per design cell"
