"""The registry of studies: every study of the pipeline is listed here once.

A study is one line of :data:`STUDIES` (its configuration key, package, paper and title) and one package
``simstats.studies.<package>`` that owns everything it needs, in modules and files of fixed names
(all optional but ``settings.py``):

* ``settings.py``: ``parse_settings(section, context) -> settings`` parses the study's configuration
  section after its schema was applied (``context``: a :class:`ParseContext`), and
  ``scale_summary(settings) -> str`` names the study's scale for the report's header;
* ``schema.yaml``: the JSON schema of the study's configuration section (types, ranges, defaults);
* ``ledger.py``: ``ledger_rows(results) -> DataFrame``, the study's rows of the fidelity ledger
  (:data:`simstats.studies.reference.LEDGER_COLUMNS`), and how the ledger classes the paper's published
  cells the study does not compare: ``FITTED_CELLS``, ``IDENTITY_CELLS`` ({(table, column)}) and
  ``INPUT_NOTES`` ({table: why it is an input});
* ``report_section.py``: ``report_section(results, figures, rel, ledger) -> list[str]`` (the study's
  Markdown section of the replication report; empty when the study did not run) and
  ``validation_section(results, figures, rel) -> (lines, overview)`` (checks against known truth);
* ``checks.py`` and ``explanations.yaml``: ``CHECKS``, the computed checks behind the explanations of
  the paper's misses, and the explanations as data;
* ``rules.smk``, ``helpers.smk``, ``scripts/`` and ``report/``: the study's part of the pipeline: its rules (writing
  under ``results/<config_key>/`` and ``figures/<config_key>/``), its rule-free helper functions (input and params
  functions, and ``STUDY_OUTPUTS[config_key]``, the function listing its final outputs), the scripts its rules run
  and the captions of its entries in Snakemake's HTML report; the Snakefile includes them through this registry;
* the study's simulation, tables and figures, used by its scripts.

Adding a study: one package and one line below.  The registry
imports a study's modules only when asked, so that a workflow job importing one simulation module
does not import every study.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping


@dataclass(frozen=True)
class Study:
    """One registered study: ``config_key`` names its configuration section, results folder and rules file;
    ``package`` its package under simstats.studies; ``paper`` its key in the fidelity ledger (None for the
    studies beyond the papers); ``title`` the study as a reader knows it."""
    config_key: str
    package: str
    paper: str | None = None
    title: str = ""

    @property
    def directory(self) -> Path:
        """The package's folder (its data files: ``schema.yaml``, ``explanations.yaml``)."""
        return Path(__file__).resolve().parent / self.package

    def part(self, name: str) -> ModuleType | None:
        """The package's module ``name`` (e.g. ``"ledger"``), or None if the study has none."""
        module = f"{__name__}.{self.package}.{name}"
        return importlib.import_module(module) if importlib.util.find_spec(module) is not None else None


#: Every study, in the order the configuration is parsed and the report is written.
STUDIES: tuple[Study, ...] = (
    Study("noise", "noise", title="The noise model"),
    Study("reimers", "reimers2018", paper="reimers2018", title="Reimers & Gurevych (2018)"),
    Study("yeh", "yeh2000", paper="yeh2000", title="Yeh (2000)"),
    Study("approaches", "approaches", title="Comparing approaches over seeds and test items"),
    Study("competition", "navamunoz2024", paper="navamunoz2024", title="Nava-Muñoz et al. (2024)"),
    Study("dror", "dror2019", paper="dror2019", title="Dror et al. (2019)"),
    Study("harness", "harness", title="Comparing models from harness logs"),
    Study("suite", "suite", title="Many models over a suite of tasks"),
    Study("fit", "fit", title="Fitting the noise model to runs"),
    Study("trust", "trust", title="What can I trust, per scenario"),
)


@dataclass(frozen=True)
class ParseContext:
    """What a study's parser may need beyond its own section: the parsed scenarios, the scenarios as
    written (before the schema's defaults) and the settings of the studies parsed before it."""
    scenarios: Mapping[str, Any]
    raw_scenarios: Mapping[str, Any]
    parsed: Mapping[str, Any] = field(default_factory=dict)


def papers() -> list[Study]:
    """The studies that replicate a paper, in registry order."""
    return [s for s in STUDIES if s.paper]


def paper_study(paper: str) -> Study:
    """The study of a paper key, e.g. ``"dror2019"``."""
    for study in STUDIES:
        if study.paper == paper:
            return study
    raise ValueError(f"no registered study replicates {paper!r}")
