"""Dror et al. (2019): Almost Stochastic Order (the study's settings)."""
from __future__ import annotations

from simstats.sim.fields import ScenarioError
from simstats.studies.dror2019.simulate import DrorSettings, parse_dror


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
