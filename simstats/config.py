"""Validation of a whole workflow configuration (one-line errors naming the field).

The JSON schema (``simstats/data/config.schema.yaml``, see :mod:`simstats.sim.schema`) is the
single source of the fields' types, ranges and defaults; this module applies it, keeps only
the checks the schema cannot express (cross-field checks) and returns typed settings.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

from simstats.sim.schema import SCHEMA_PATH, apply_schema
from simstats.sim.fields import as_mapping
from simstats.sim.scenario import Scenario, ScenarioError, chunk_bounds, parse_scenarios
from simstats.studies.approaches.validation import ApproachStudySettings, parse_approach_study
from simstats.studies.dror2019.simulate import DrorSettings, parse_dror
from simstats.studies.navamunoz2024.population import CompetitionSettings, parse_competition
from simstats.studies.reimers2018.simulate import ReimersSettings, parse_reimers
from simstats.studies.yeh2000.simulate import YehSettings, parse_yeh

__all__ = ["SCHEMA_PATH", "NoiseStudySettings", "Parsed", "Settings", "check_scenario_overrides", "validate_config"]


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
    competition: CompetitionSettings | None = None
    #: parsed ``yeh`` section (None: the Yeh study is not run)
    yeh: YehSettings | None = None
    #: parsed ``dror`` section (None: the Dror study is not run)
    dror: DrorSettings | None = None
    #: parsed ``reimers`` section (None: the Reimers & Gurevych study is not run)
    reimers: ReimersSettings | None = None
    #: parsed ``approaches`` section (None: the approach-level validation study is not run)
    approaches: ApproachStudySettings | None = None


class Parsed(tuple):
    """A parsed settings object (e.g. a :class:`Scenario`) as a Snakemake rule parameter.

    Snakemake notices a changed parameter only for built-in types (it compares their repr), so
    the object travels as a one-element tuple whose repr is the object's; the script reads
    ``snakemake.params.<name>.value``.
    """

    def __new__(cls, value):
        return super().__new__(cls, (value,))

    def __getnewargs__(self):
        return (self[0],)

    @property
    def value(self):
        return self[0]

    def __repr__(self) -> str:
        return f"Parsed({self[0]!r})"


def check_scenario_overrides(builtin: Mapping[str, Any], extra: Mapping[str, Any], path: str,
                             builtin_path: str) -> None:
    """A scenario of ``extra`` (the file ``path``, merged after the built-in configuration
    ``builtin`` read from ``builtin_path``) may not share a built-in scenario's name unless it
    says ``replace: true``: the merge would otherwise silently change the built-in scenario.

    An entry identical to the built-in one changes nothing and passes.  The merge itself is
    unchanged (nested mappings merged field by field, as Snakemake's ``--configfile``), so the
    fields a ``replace: true`` entry omits keep the built-in scenario's values.
    """
    ours, theirs = builtin.get("scenarios"), extra.get("scenarios")
    if not isinstance(ours, Mapping) or not isinstance(theirs, Mapping):
        return
    for name, value in theirs.items():
        if name not in ours or value == ours[name]:
            continue
        if isinstance(value, Mapping) and value.get("replace", False) is not False:
            continue   # true, or not a boolean: the schema names the field
        raise ScenarioError(f"{path}: scenario {name!r} has the name of a built-in scenario of {builtin_path} and "
                            "would silently change it: rename it, or add 'replace: true' to it to override the "
                            "built-in one")


def check_configfile_overrides(paths, builtin_path: str) -> None:
    """:func:`check_scenario_overrides` for each YAML file merged over ``builtin_path`` (Snakemake's
    ``--configfile`` files, in order; the built-in file itself may be among them)."""
    import yaml

    with open(builtin_path, encoding="utf-8") as fh:
        builtin = yaml.safe_load(fh) or {}
    for path in paths or ():
        if os.path.abspath(path) == os.path.abspath(builtin_path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                extra = yaml.safe_load(fh)
        except (OSError, yaml.YAMLError):
            continue   # Snakemake reports unreadable or malformed config files itself
        if isinstance(extra, Mapping):
            check_scenario_overrides(builtin, extra, str(path), builtin_path)


def validate_config(config: Mapping[str, Any]) -> Settings:
    """Check a configuration mapping; raise :class:`ScenarioError` naming the first bad field.

    The scenarios are parsed first (their parser names the field in its own words), then the
    whole configuration is checked against the schema, whose defaults fill in what is omitted.
    """
    config = as_mapping(config, "config")
    scenarios = parse_scenarios(config["scenarios"]) if "scenarios" in config else None
    raw_scenarios = dict(config.get("scenarios") or {})
    config = apply_schema(config)
    noise = config["noise"]
    chosen = noise["scenarios"]
    if chosen == "all":
        chosen = list(scenarios)
    for name in chosen:
        if name not in scenarios:
            raise ScenarioError(f"noise.scenarios: unknown scenario {name!r}")
    competition = parse_competition(config["competition"]) if "competition" in config else None
    yeh = parse_yeh(config["yeh"]) if "yeh" in config else None
    dror = parse_dror(config["dror"]) if "dror" in config else None
    if dror is not None:
        for name in dror.size_power.scenarios:
            if name not in chosen:
                raise ScenarioError(f"dror.size_power.scenarios: {name!r} is not a scenario of the noise study "
                                    "(noise.scenarios), whose scores it uses")
    reimers = parse_reimers(config["reimers"], scenarios) if "reimers" in config else None
    approaches = (parse_approach_study(config["approaches"], raw_scenarios) if "approaches" in config else None)
    return Settings(config["root_seed"], config["results_dir"], config["figures_dir"],
                    NoiseStudySettings(noise["n_models"], noise["chunk_size"], noise["n_boot"], tuple(chosen)),
                    scenarios, competition, yeh, dror, reimers, approaches)
