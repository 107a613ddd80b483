"""Command line: ``simstats check-config`` and ``simstats implied``."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

import yaml

from .config import validate_config
from .scenario import ScenarioError


def _load(paths: Sequence[str]) -> dict:
    """Read YAML files, later ones updating earlier ones (nested mappings merged)."""
    def merge(base, extra):
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                merge(base[key], value)
            else:
                base[key] = value
        return base

    config: dict = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
        except OSError as err:
            raise ScenarioError(f"{path}: cannot read ({err.strerror})") from None
        except yaml.YAMLError as err:
            raise ScenarioError(f"{path}: not valid YAML ({str(err).splitlines()[0]})") from None
        if not isinstance(data, dict):
            raise ScenarioError(f"{path}: the top level must be a mapping")
        merge(config, data)
    return config


def _check_config(args) -> int:
    settings = validate_config(_load(args.config))
    for name, sc in settings.scenarios.items():
        print(f"{name}\t{sc.metric}\ttarget={sc.target}\t{sc.description}")
    print(f"ok: {len(settings.scenarios)} scenarios")
    return 0


def _implied(args) -> int:
    from .noise import Population
    from .noise_study import implied_values

    settings = validate_config(_load(args.config))
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="simstats", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check-config", help="validate configuration file(s) and list the scenarios")
    p.add_argument("config", nargs="+", help="YAML files; later ones override earlier ones")
    p.set_defaults(func=_check_config)
    p = sub.add_parser("implied", help="print the exact summary values a scenario's noise model implies")
    p.add_argument("scenario")
    p.add_argument("--config", nargs="+", default=["config/config.yaml"])
    p.set_defaults(func=_implied)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ScenarioError, ValueError) as err:
        print(f"simstats: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
