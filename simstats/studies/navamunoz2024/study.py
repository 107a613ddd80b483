"""Nava-Muñoz et al. (2024): bootstrap CIs and multiple comparisons in competitions (the registry's
entry, see :mod:`simstats.studies`)."""
from __future__ import annotations

from simstats.studies.navamunoz2024.checks import CHECKS
from simstats.studies.navamunoz2024.ledger import INPUT_NOTES, ledger_rows
from simstats.studies.navamunoz2024.population import CompetitionSettings, parse_competition
from simstats.studies.navamunoz2024.report_section import report_section, validation_section

CONFIG_KEY = "competition"
PAPER = "navamunoz2024"
TITLE = "Nava-Muñoz et al. (2024)"

__all__ = ["CHECKS", "CONFIG_KEY", "INPUT_NOTES", "PAPER", "TITLE", "ledger_rows", "parse_settings", "report_section",
           "scale_summary", "validation_section"]


def parse_settings(section, context) -> CompetitionSettings:
    return parse_competition(section)


def scale_summary(settings: CompetitionSettings) -> str:
    return f"competitions {settings.replicates:,} per design cell"
