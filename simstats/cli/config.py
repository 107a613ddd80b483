"""``simstats check-config`` and ``simstats implied``: the pipeline's configuration checked, and the values a
scenario implies."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Sequence

import yaml

from simstats.config import check_scenario_overrides, validate_config
from simstats.sim.scenario import ScenarioError

def load_config(paths: Sequence[str]) -> dict:
    """Read YAML files, later ones updating earlier ones (nested mappings merged).

    The first file holds the built-in scenarios: a later file's scenario of the same name is an
    error unless it says ``replace: true`` (:func:`simstats.config.check_scenario_overrides`)."""

    def merge(base, extra):
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                merge(base[key], value)
            else:
                base[key] = value
        return base

    config: dict = {}
    for i, path in enumerate(paths):
        try:
            with open(path, encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
        except OSError as err:
            raise ScenarioError(f"{path}: cannot read ({err.strerror})") from None
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            problem = getattr(err, "problem", None) or str(err).splitlines()[0]
            raise ScenarioError(f"{path}{where}: not valid YAML ({problem})") from None
        if not isinstance(data, dict):
            raise ScenarioError(f"{path}: the top level must be a mapping")
        if i == 0:
            builtin = copy.deepcopy(data)
        else:
            check_scenario_overrides(builtin, data, path, paths[0])
        merge(config, data)
    return config


def check_config(args) -> int:
    settings = validate_config(load_config(args.config))
    for name, sc in settings.scenarios.items():
        print(f"{name}\t{sc.metric}\ttarget={sc.target}\t{sc.description}")
    print(f"ok: {len(settings.scenarios)} scenarios")
    return 0


def implied(args) -> int:
    from simstats.sim.noise import Population
    from simstats.sim.closed_forms import implied_values

    from simstats.config import DEFAULT_CONFIG_PATH

    paths = args.config or ["config/config.yaml" if Path("config/config.yaml").is_file() else str(DEFAULT_CONFIG_PATH)]
    settings = validate_config(load_config(paths))
    if args.scenario not in settings.scenarios:
        raise ScenarioError(f"scenario: unknown scenario {args.scenario!r}")
    sc = settings.scenarios[args.scenario]
    out = {}
    for spec in sc.approaches:
        values = implied_values(sc, spec.name)
        values["mu"] = Population(sc).mu(spec.name)
        out[spec.name] = values
    print(json.dumps(out, indent=2, sort_keys=True))
    return 0


def add_check_config_parser(sub) -> None:
    p = sub.add_parser("check-config", help="validate configuration file(s) and list the scenarios")
    p.add_argument("config", nargs="+", help="YAML files; later ones override earlier ones")
    p.set_defaults(func=check_config)


def add_implied_parser(sub) -> None:
    p = sub.add_parser("implied", help="print the exact summary values a scenario's noise model implies")
    p.add_argument("scenario")
    p.add_argument("--config", nargs="+",
                   help="YAML files; later ones override earlier ones (default: config/config.yaml if it exists, else "
                        "the built-in configuration)")
    p.set_defaults(func=implied)
