"""Approaches, not runs: one test over seeds x test items, validated by simulation (the registry's
entry, see :mod:`simstats.studies`)."""
from __future__ import annotations

from simstats.studies.approaches.report_section import validation_section
from simstats.studies.approaches.validation import ApproachStudySettings, parse_approach_study

CONFIG_KEY = "approaches"
PAPER = None
TITLE = "Comparing approaches over seeds and test items"

__all__ = ["CONFIG_KEY", "PAPER", "TITLE", "parse_settings", "validation_section"]


def parse_settings(section, context) -> ApproachStudySettings:
    return parse_approach_study(section, context.raw_scenarios)
