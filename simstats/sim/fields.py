"""Checks of configuration fields: one-line :class:`ScenarioError` messages naming the field.

Used by the scenario parser and the studies' settings parsers for checks that the JSON
schema cannot express (and for callers that bypass the workflow's schema validation).
"""
from __future__ import annotations

import math
from typing import Any, Mapping


class ScenarioError(ValueError):
    """An invalid scenario or configuration field (the message names the field)."""


def fail(path: str, message: str) -> None:
    raise ScenarioError(f"{path}: {message}")


def as_mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        fail(path, f"must be a mapping, got {type(value).__name__}")
    return value


def check_keys(value: Mapping[str, Any], path: str, allowed: set[str], required: set[str] = frozenset()) -> None:
    for key in value:
        if key not in allowed:
            fail(f"{path}.{key}", f"unknown field (allowed: {', '.join(sorted(allowed))})")
    for key in required:
        if key not in value:
            fail(f"{path}.{key}", "required field is missing")


def number_field(value: Any, path: str, *, minimum: float | None = None, exclusive_minimum: float | None = None,
            maximum: float | None = None, exclusive_maximum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        fail(path, f"must be a finite number, got {value!r}")
    if minimum is not None and value < minimum:
        fail(path, f"must be >= {minimum}, got {value!r}")
    if exclusive_minimum is not None and value <= exclusive_minimum:
        fail(path, f"must be > {exclusive_minimum}, got {value!r}")
    if maximum is not None and value > maximum:
        fail(path, f"must be <= {maximum}, got {value!r}")
    if exclusive_maximum is not None and value >= exclusive_maximum:
        fail(path, f"must be < {exclusive_maximum}, got {value!r}")
    return float(value)


def integer_field(value: Any, path: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(path, f"must be an integer, got {value!r}")
    if value < minimum:
        fail(path, f"must be >= {minimum}, got {value!r}")
    return int(value)
