"""Validation of a whole workflow configuration (one-line errors naming the field)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from simstats.studies.navamunoz2024.population import parse_competition
from simstats.studies.dror2019.simulate import parse_dror
from simstats.studies.reimers2018.simulate import ReimersSettings, parse_reimers
from simstats.studies.yeh2000.simulate import parse_yeh
from simstats.sim.scenario import Scenario, ScenarioError, chunk_bounds, parse_scenarios
from simstats.sim.fields import as_mapping, check_keys, integer_field

TOP_LEVEL = {"root_seed", "results_dir", "figures_dir", "noise", "scenarios", "competition", "yeh", "dror", "reimers"}


@dataclass(frozen=True)
class NoiseStudySettings:
    n_models: int
    chunk_size: int
    n_boot: int
    scenarios: tuple[str, ...]

    @property
    def n_chunks(self) -> int:
        return -(-self.n_models // self.chunk_size)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        return chunk_bounds(self.n_models, self.chunk_size, chunk)


@dataclass(frozen=True)
class Settings:
    root_seed: int
    results_dir: str
    figures_dir: str
    noise: NoiseStudySettings
    scenarios: dict[str, Scenario]
    #: parsed ``competition`` section (None: the competition study is not run)
    competition: dict | None = None
    #: parsed ``yeh`` section (None: the Yeh study is not run)
    yeh: dict | None = None
    #: parsed ``dror`` section (None: the Dror study is not run)
    dror: dict | None = None
    #: parsed ``reimers`` section (None: the Reimers & Gurevych study is not run)
    reimers: ReimersSettings | None = None


def validate_config(config: Mapping[str, Any]) -> Settings:
    """Check a configuration mapping; raise :class:`ScenarioError` naming the first bad field."""
    config = as_mapping(config, "config")
    check_keys(config, "config", TOP_LEVEL, {"root_seed", "noise", "scenarios"})
    root_seed = integer_field(config["root_seed"], "root_seed", minimum=0)
    dirs = {}
    for key, default in (("results_dir", "results"), ("figures_dir", "figures")):
        dirs[key] = config.get(key, default)
        if not isinstance(dirs[key], str) or not dirs[key].strip():
            raise ScenarioError(f"{key}: must be a non-empty path")
    scenarios = parse_scenarios(config["scenarios"])
    noise = as_mapping(config["noise"], "noise")
    check_keys(noise, "noise", {"n_models", "chunk_size", "n_boot", "scenarios"}, {"n_models", "chunk_size"})
    n_models = integer_field(noise["n_models"], "noise.n_models", minimum=4)
    chunk_size = integer_field(noise["chunk_size"], "noise.chunk_size", minimum=2)
    if chunk_size % 2:
        raise ScenarioError(f"noise.chunk_size: must be even (models are paired 2k, 2k+1), got {chunk_size}")
    n_boot = integer_field(noise.get("n_boot", 1000), "noise.n_boot", minimum=100)
    chosen = noise.get("scenarios", "all")
    if chosen == "all":
        chosen = list(scenarios)
    if not isinstance(chosen, list) or not chosen:
        raise ScenarioError("noise.scenarios: must be 'all' or a non-empty list of scenario names")
    for name in chosen:
        if name not in scenarios:
            raise ScenarioError(f"noise.scenarios: unknown scenario {name!r}")
    competition = parse_competition(config["competition"]) if "competition" in config else None
    yeh = parse_yeh(config["yeh"]) if "yeh" in config else None
    dror = parse_dror(config["dror"]) if "dror" in config else None
    if dror is not None:
        for name in dror["size_power"]["scenarios"]:
            if name not in chosen:
                raise ScenarioError(f"dror.size_power.scenarios: {name!r} is not a scenario of the noise study "
                                    "(noise.scenarios), whose scores it uses")
    reimers = parse_reimers(config["reimers"], scenarios) if "reimers" in config else None
    return Settings(root_seed, dirs["results_dir"], dirs["figures_dir"],
                    NoiseStudySettings(n_models, chunk_size, n_boot, tuple(chosen)), scenarios, competition, yeh,
                    dror, reimers)
