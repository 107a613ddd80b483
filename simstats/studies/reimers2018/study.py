"""Reimers & Gurevych (2018): single scores vs score distributions (the registry's entry, see
:mod:`simstats.studies`)."""
from __future__ import annotations

from simstats.studies.reimers2018.checks import CHECKS
from simstats.studies.reimers2018.ledger import FITTED_CELLS, IDENTITY_CELLS, INPUT_NOTES, ledger_rows
from simstats.studies.reimers2018.report_section import report_section
from simstats.studies.reimers2018.simulate import ReimersSettings, parse_reimers

CONFIG_KEY = "reimers"
PAPER = "reimers2018"
TITLE = "Reimers & Gurevych (2018)"

__all__ = ["CHECKS", "CONFIG_KEY", "FITTED_CELLS", "IDENTITY_CELLS", "INPUT_NOTES", "PAPER", "TITLE", "ledger_rows",
           "parse_settings", "report_section", "scale_summary"]


def parse_settings(section, context) -> ReimersSettings:
    return parse_reimers(section, context.scenarios)


def scale_summary(settings: ReimersSettings) -> str:
    return (f"Reimers & Gurevych {settings.n_models:,} models per approach and task, B = "
            f"{settings.n_resamples:,}")
