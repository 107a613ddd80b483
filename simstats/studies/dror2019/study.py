"""Dror et al. (2019): Almost Stochastic Order (the registry's entry, see :mod:`simstats.studies`)."""
from __future__ import annotations

from simstats.sim.fields import ScenarioError
from simstats.studies.dror2019.checks import CHECKS
from simstats.studies.dror2019.ledger import FITTED_CELLS, INPUT_NOTES, ledger_rows
from simstats.studies.dror2019.report_section import report_section
from simstats.studies.dror2019.simulate import DrorSettings, parse_dror

CONFIG_KEY = "dror"
PAPER = "dror2019"
TITLE = "Dror et al. (2019)"

__all__ = ["CHECKS", "CONFIG_KEY", "FITTED_CELLS", "INPUT_NOTES", "PAPER", "TITLE", "ledger_rows", "parse_settings",
           "report_section", "scale_summary"]


def parse_settings(section, context) -> DrorSettings:
    """The ``dror`` section; its size and power analysis uses the noise study's scores, so its scenarios
    must be among the noise study's."""
    settings = parse_dror(section)
    noise = context.parsed.get("noise")
    chosen = noise.scenarios if noise is not None else ()
    for name in settings.size_power.scenarios:
        if name not in chosen:
            raise ScenarioError(f"dror.size_power.scenarios: {name!r} is not a scenario of the noise study "
                                "(noise.scenarios), whose scores it uses")
    return settings


def scale_summary(settings: DrorSettings) -> str:
    return f"Dror section 6 {settings.population.repetitions} repetitions per distribution"
