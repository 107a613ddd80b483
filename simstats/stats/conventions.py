"""Named conventions that other packages register: ASO computations, competition presets, metrics and tests of
score distributions.

The library offers the generic methods (:func:`simstats.stats.aso.aso`'s ``"exact"``, ``"grid"`` and
``"deepsig"``; the ``"recommended"`` competition settings). A package adds a convention under a name of its
own, either at run time with :func:`register` or, so that the command line lists it without importing
the package, as an entry point in its ``pyproject.toml``::

    [project.entry-points."simstats.aso_methods"]
    my_aso = "my_package.module:my_aso"          # called as aso(scores_a, scores_b, **options)

    [project.entry-points."simstats.competition_presets"]
    my_preset = "my_package.module:MY_PRESET"    # a dict: alternative, pvalue_rule, correction, scope

    [project.entry-points."simstats.metrics"]
    my_metric = "my_package.module:MY_METRIC"    # a simstats.stats.metrics.Metric named my_metric

    [project.entry-points."simstats.score_tests"]
    my_test = "my_package.module:my_test"        # called as my_test(scores_a, scores_b, alternative=...),
                                                 # returning a result with a pvalue (compare-scores --tests)

An entry point is loaded on first use of its name, never at import. The pipeline's studies register the
conventions of their papers this way (e.g. ASO as a paper's released code computes it).

Examples
--------
>>> from simstats.stats import conventions
>>> conventions.register("competition_presets", "strict", {"alternative": "two-sided", "pvalue_rule": "add-one",
...                                                         "correction": "bonferroni", "scope": "all"})
>>> conventions.get("competition_presets", "strict")["correction"]
'bonferroni'
>>> "strict" in conventions.names("competition_presets")
True
>>> conventions.unregister("competition_presets", "strict")
"""
from __future__ import annotations

from importlib import metadata
from typing import Any

__all__ = ["KINDS", "register", "unregister", "names", "get"]

#: The kinds of convention, each the name of its entry-point group (``simstats.<kind>``).
KINDS = ("aso_methods", "competition_presets", "metrics", "score_tests")

_REGISTERED: dict[str, dict[str, Any]] = {kind: {} for kind in KINDS}


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of convention {kind!r} (choose from {', '.join(KINDS)})")


def _entry_points(kind: str) -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=f"simstats.{kind}")}


def register(kind: str, name: str, value: Any) -> None:
    """Register ``value`` (a function or a settings dict) under ``name``; a name registered at run time
    takes precedence over an entry point of the same name."""
    _check_kind(kind)
    _REGISTERED[kind][name] = value


def unregister(kind: str, name: str) -> None:
    """Remove a convention registered with :func:`register` (entry points stay)."""
    _check_kind(kind)
    _REGISTERED[kind].pop(name, None)


def names(kind: str) -> tuple[str, ...]:
    """The registered names of ``kind``, sorted (none is loaded)."""
    _check_kind(kind)
    return tuple(sorted(set(_REGISTERED[kind]) | set(_entry_points(kind))))


def get(kind: str, name: str) -> Any:
    """The convention registered as ``name``, loaded on first use; ValueError naming the known ones
    when there is none."""
    _check_kind(kind)
    if name not in _REGISTERED[kind]:
        found = _entry_points(kind).get(name)
        if found is None:
            raise ValueError(f"no {kind.replace('_', ' ')[:-1]} named {name!r} is registered "
                             f"(registered: {', '.join(names(kind)) or 'none'})")
        _REGISTERED[kind][name] = found.load()
    return _REGISTERED[kind][name]
