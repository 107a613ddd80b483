"""Approaches, not runs: one test over seeds x test items, validated by simulation (the study's settings)."""
from __future__ import annotations

from simstats.studies.approaches.validation import ApproachStudySettings, parse_approach_study


def parse_settings(section, context) -> ApproachStudySettings:
    return parse_approach_study(section, context.raw_scenarios)
