"""The registry of studies: every study of the pipeline is listed here once.

A study is one package ``simstats.studies.<package>`` that owns everything it needs.  Its module
``study.py`` is the study's face to the rest of the project, with these names (all but the first
three optional):

* ``CONFIG_KEY``: the configuration section (and results folder) of the study, e.g. ``"dror"``;
* ``PAPER``: the paper's key in the fidelity ledger (``None`` for studies beyond the papers);
* ``TITLE``: the paper or study as a reader knows it;
* ``parse_settings(section, context) -> settings``: the study's configuration section parsed
  (after the schema fragment ``schema.yaml`` beside it was applied); ``context`` is a
  :class:`ParseContext`;
* ``scale_summary(settings) -> str``: the study's scale in a few words, for the report's header;
* ``ledger_rows(results) -> DataFrame``: the study's rows of the fidelity ledger (the columns of
  :data:`simstats.studies.reference.LEDGER_COLUMNS`);
* ``FITTED_CELLS``, ``IDENTITY_CELLS``, ``INPUT_NOTES``: how the ledger classes the paper's
  published cells the study does not compare;
* ``report_section(results, figures, rel, ledger) -> list[str]``: the study's section of the
  replication report (Markdown lines, empty when the study did not run);
* ``validation_section(results, figures, rel) -> (lines, overview)``: checks against known truth;
* ``CHECKS``: the computed checks behind the explanations of misses (``explanations.yaml``
  beside ``study.py``).

The registry imports a study's ``study.py`` only when asked (:func:`load`), so that a workflow job
importing one simulation module does not import every study.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

#: Every study, in the order the configuration is parsed and the report is written.
#: Adding a study: one package with a ``study.py``, one name here, one ``workflow/rules/<study>.smk``.
STUDIES: tuple[str, ...] = ("noise", "reimers2018", "yeh2000", "approaches", "navamunoz2024", "dror2019")


@dataclass(frozen=True)
class ParseContext:
    """What a study's parser may need beyond its own section: the parsed scenarios, the scenarios as
    written (before the schema's defaults) and the settings of the studies parsed before it."""
    scenarios: Mapping[str, Any]
    raw_scenarios: Mapping[str, Any]
    parsed: Mapping[str, Any] = field(default_factory=dict)


def load(name: str) -> ModuleType:
    """The ``study.py`` module of a registered study."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r} (registered: {', '.join(STUDIES)})")
    return importlib.import_module(f"simstats.studies.{name}.study")


def studies() -> list[ModuleType]:
    """Every registered study's ``study.py``, in registry order."""
    return [load(name) for name in STUDIES]


def papers() -> list[ModuleType]:
    """The studies that replicate a paper (``PAPER`` set), in registry order."""
    return [s for s in studies() if getattr(s, "PAPER", None)]


def study_dir(module: ModuleType) -> Path:
    """The folder of a study's package (its data files: ``schema.yaml``, ``explanations.yaml``)."""
    return Path(module.__file__).resolve().parent
