"""Validation of a whole workflow configuration (one-line errors naming the field).

The configuration's schema (``simstats/data/config.schema.yaml``, shipped with the package: the run's own
fields) composed with
each registered study's section schema and the scenario schema (:func:`config_schema`) is the
single source of the fields' types, ranges and defaults; this module applies it once, lets each
study parse its section (:mod:`simstats.studies`) and returns typed settings.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import yaml

import simstats.studies as registry
from simstats.sim.fields import as_mapping
from simstats.sim.scenario import BUILTIN_CONFIG_PATH, Scenario, ScenarioError, parse_scenarios
from simstats.sim.schema import apply_schema, load_schema

__all__ = ["CONFIG_SCHEMA_PATH", "DEFAULT_CONFIG_PATH", "Parsed", "Settings", "check_scenario_overrides", "config_schema", "validate_config"]

#: The schema of the run's own fields (shipped with the package; the workflow's ``workflow/schemas/`` links to it).
CONFIG_SCHEMA_PATH = Path(__file__).resolve().parent / "data" / "config.schema.yaml"
#: The default configuration with the built-in scenarios (the repository's ``config/config.yaml`` links to it).
DEFAULT_CONFIG_PATH = BUILTIN_CONFIG_PATH


def config_schema(path: str | Path = CONFIG_SCHEMA_PATH) -> dict:
    """The whole configuration's schema: the workflow's top level (``path``) with each registered study's
    ``schema.yaml`` under its configuration key."""
    path = Path(path)
    if not path.is_file():
        raise ScenarioError(f"the configuration's schema {path} was not found")
    top = load_schema(path)
    sections = {study.config_key: load_schema(study.directory / "schema.yaml") for study in registry.STUDIES}
    return {**top, "properties": {**top["properties"], **sections}}


@dataclass(frozen=True)
class Settings:
    """A validated workflow configuration: the run's seed and folders, the scenarios, and each configured
    study's parsed settings by its configuration key (also as attributes: ``settings.dror``; None for a
    registered study that is not configured)."""
    root_seed: int
    results_dir: str
    figures_dir: str
    scenarios: dict[str, Scenario]
    studies: dict[str, Any]

    def __getattr__(self, name: str):
        if name != "studies" and any(study.config_key == name for study in registry.STUDIES):
            return self.studies.get(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


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


#: Configuration keys renamed for one vocabulary: (section, old key) -> new key.  The old keys still
#: work for one release, with a warning.
RENAMED_KEYS = {("noise", "n_boot"): "n_resamples", ("dror", "n_bootstrap"): "n_resamples"}


def renamed_keys(config: Mapping[str, Any]) -> dict:
    """``config`` with renamed keys (:data:`RENAMED_KEYS`) spelled the new way, warning for each."""
    import warnings

    out = dict(config)
    for (section, old), new in RENAMED_KEYS.items():
        part = out.get(section)
        if isinstance(part, Mapping) and old in part:
            if new in part:
                raise ScenarioError(f"{section}: give {new} only ({old} is its old name)")
            warnings.warn(f"config {section}.{old} is renamed {section}.{new}; the old name will be removed in the "
                          "next release", FutureWarning, stacklevel=3)
            out[section] = {(new if k == old else k): v for k, v in part.items()}
    return out


def validate_config(config: Mapping[str, Any], schema_path: str | Path = CONFIG_SCHEMA_PATH) -> Settings:
    """Check a configuration mapping; raise :class:`ScenarioError` naming the first bad field.

    The scenarios are parsed first (their parser names the field in its own words), then the
    whole configuration is checked against the schema, whose defaults fill in what is omitted, and
    every registered study present in it parses its section (:mod:`simstats.studies`).
    """
    config = renamed_keys(as_mapping(config, "config"))
    scenarios = parse_scenarios(config["scenarios"]) if "scenarios" in config else None
    raw_scenarios = dict(config.get("scenarios") or {})
    config = apply_schema(config, config_schema(schema_path))
    context = registry.ParseContext(scenarios, raw_scenarios, {})
    for study in registry.STUDIES:
        if study.config_key in config:
            parse = study.part("settings").parse_settings
            context.parsed[study.config_key] = parse(config[study.config_key], context)
    return Settings(config["root_seed"], config["results_dir"], config["figures_dir"], scenarios,
                    dict(context.parsed))
