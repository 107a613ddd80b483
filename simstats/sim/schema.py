"""JSON schemas of the configuration: the single source of the fields' types, ranges and defaults.

A scenario's schema is ``scenario.schema.yaml`` beside this module; each study's section has the
``schema.yaml`` of its package; the top level is ``simstats/data/config.schema.yaml``
(composed with the others by :func:`simstats.config.config_schema`).  :func:`apply_schema`
validates a value against one of them and returns a copy with the schema's defaults filled in; a
violation raises :class:`ScenarioError` with a one-line message naming the field.  The parsers
keep only the checks a schema cannot express (cross-field checks).
"""
from __future__ import annotations

import copy
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema.exceptions import best_match
from jsonschema import Draft202012Validator, validators

from simstats.sim.fields import ScenarioError

#: A scenario's schema (its ``$defs`` hold ``scenario`` and ``split``; every schema may refer to them).
SCENARIO_SCHEMA_PATH = Path(__file__).resolve().with_name("scenario.schema.yaml")


@lru_cache(maxsize=None)
def load_schema(path: str | Path = SCENARIO_SCHEMA_PATH) -> dict:
    """A schema file, parsed once (do not modify the result)."""
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@lru_cache(maxsize=None)
def _validator_class():
    properties = Draft202012Validator.VALIDATORS["properties"]
    # stricter than JSON: an integer is an int (not 3.0, not a bool), a number is finite
    types = Draft202012Validator.TYPE_CHECKER.redefine_many({
        "integer": lambda checker, x: isinstance(x, int) and not isinstance(x, bool),
        "number": lambda checker, x: isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x),
    })

    def set_defaults(validator, props, instance, schema):
        if isinstance(instance, dict):
            for name, sub in props.items():
                if "default" in sub:
                    instance.setdefault(name, copy.deepcopy(sub["default"]))
        yield from properties(validator, props, instance, schema)

    return validators.extend(Draft202012Validator, {"properties": set_defaults}, type_checker=types)


def _location(prefix: str, parts) -> str:
    out = prefix
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out


def _name(error) -> str:
    """The name of the field an error is about ("value" for list items and the top level)."""
    parts = [p for p in error.absolute_path if not isinstance(p, int)]
    return str(parts[-1]) if parts else "value"


def _message(error, prefix: str) -> str:
    """One line ``<field>: <what is wrong>`` for a jsonschema error."""
    where = _location(prefix, error.absolute_path)
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "required":
        missing = next(k for k in expected if k not in value)
        return f"{_location(where, [missing])}: required field is missing"
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in value if k not in allowed)[0]
        hint = f" (allowed: {', '.join(sorted(allowed))})" if allowed else ""
        return f"{_location(where, [extra])}: unknown field{hint}"
    simple = {
        "minimum": lambda: f"must be >= {expected}, got {value!r}",
        "maximum": lambda: f"must be <= {expected}, got {value!r}",
        "exclusiveMinimum": lambda: f"must be > {expected}, got {value!r}",
        "exclusiveMaximum": lambda: f"must be < {expected}, got {value!r}",
        "multipleOf": lambda: (f"must be even, got {value!r}" if expected == 2
                               else f"must be a multiple of {expected}, got {value!r}"),
        "type": lambda: f"must be a finite number, got {value!r}" if expected == "number" and isinstance(
            value, float) else f"must be of type {expected if isinstance(expected, str) else ' or '.join(expected)}, "
                        f"got {value!r}",
        "enum": lambda: f"unknown {_name(error)} {value!r} (allowed: {', '.join(map(str, expected))})",
        "const": lambda: f"must be {expected!r}, got {value!r}",
        "minItems": lambda: f"must list at least {expected} item(s), got {value!r}",
        "minProperties": lambda: f"needs at least {expected} entr{'y' if expected == 1 else 'ies'}",
        "minLength": lambda: f"must be a non-empty string, got {value!r}",
        "uniqueItems": lambda: f"values must be distinct, got {value!r}",
        "pattern": lambda: f"{value!r} does not match {expected!r} (letters, digits, '_' and '-' only)",
    }
    if kind in simple:
        return f"{where or 'config'}: {simple[kind]()}"
    text = " ".join(str(error.message).split())
    return f"{where or 'config'}: {text}"


def apply_schema(value: Any, schema: str | Path | dict, path: str = "", pointer: str = "") -> Any:
    """Validate ``value`` against ``schema`` (a schema file or a parsed schema; ``pointer``: the part of it
    at this JSON pointer, e.g. ``/properties/populations/additionalProperties``) and return a deep copy
    with the defaults filled in; ``path`` is the field name used in error messages (e.g. ``dror``).
    References ``#/$defs/scenario`` and ``#/$defs/split`` resolve to the scenario schema."""
    schema = load_schema(schema) if isinstance(schema, (str, Path)) else schema
    for part in filter(None, pointer.split("/")):
        schema = schema[part]
    schema = {**schema, "$defs": {**load_schema()["$defs"], **schema.get("$defs", {})}}
    instance = copy.deepcopy(value)
    validator = _validator_class()(schema)
    error = best_match(validator.iter_errors(instance))
    if error is not None:
        raise ScenarioError(_message(error, path))
    return instance
