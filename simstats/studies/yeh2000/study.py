"""Yeh (2000): correlated systems, paired and randomization tests (the registry's entry, see
:mod:`simstats.studies`)."""
from __future__ import annotations

from simstats.studies.yeh2000.checks import CHECKS
from simstats.studies.yeh2000.ledger import INPUT_NOTES, ledger_rows
from simstats.studies.yeh2000.report_section import report_section, validation_section
from simstats.studies.yeh2000.simulate import YehSettings, parse_yeh

CONFIG_KEY = "yeh"
PAPER = "yeh2000"
TITLE = "Yeh (2000)"

__all__ = ["CHECKS", "CONFIG_KEY", "INPUT_NOTES", "PAPER", "TITLE", "ledger_rows", "parse_settings", "report_section",
           "scale_summary", "validation_section"]


def parse_settings(section, context) -> YehSettings:
    return parse_yeh(section)


def scale_summary(settings: YehSettings) -> str:
    return f"Yeh {settings.replicates:,} test sets per cell"
