# Shared by the rules: the validated settings and the helper functions every study's rules call.  A study's
# own helpers (input and params functions, its list of outputs) are in its package's helpers.smk, a
# rule-free file as Snakemake's linter wants, and its rules in the package's rules.smk.
import dataclasses
import functools
import hashlib
import sys
from pathlib import Path

import simstats

from simstats.config import Parsed, check_configfile_overrides, validate_config
from simstats.sim.scenario import ScenarioError
from simstats.studies import STUDIES

try:
    # a --configfile scenario named like a built-in one must say `replace: true`
    check_configfile_overrides(workflow.overwrite_configfiles, "config/config.yaml")
    # The one application of the configuration schema (types, ranges, defaults) plus the
    # cross-field checks, with one-line errors naming the field.  The rules read the parsed
    # settings only, never `config` itself.
    SETTINGS = validate_config(config)
except ScenarioError as err:
    sys.exit(f"simstats: invalid configuration: {err}")

#: The conda environment of every job, and the folder of the scripts the studies share.
CONDA_ENV = str(Path(workflow.basedir) / "workflow" / "envs" / "simstats.yaml")
WORKFLOW_SCRIPTS = str(Path(workflow.basedir) / "workflow" / "scripts")
#: config_key -> the function listing the study's final outputs (each study's helpers.smk adds its own).
STUDY_OUTPUTS = {}

RESULTS = SETTINGS.results_dir
FIGURES = SETTINGS.figures_dir
ROOT_SEED = SETTINGS.root_seed

# Job order (`priority:`, taken by the greedy scheduler of the profiles): whenever more jobs are
# ready than can run, the long jobs and the jobs that unlock long jobs start first and the many
# short jobs fill in behind them, so that no long job is left to run alone at the end (the usual
# longest-first heuristic of list scheduling; it holds on any number of CPUs).  Order only: no result
# depends on it.
PRIORITY_CHAIN_START = 40      # dror_population: the Dror noise analyses need it
PRIORITY_LONGEST = 30          # dror_noise: the longest jobs of the default run and at paper scale
PRIORITY_LONG = 20             # reimers_identifiability: one long job
PRIORITY_SIMULATION = 10       # the other simulations, and the Reimers and Yeh chains up to their figures


wildcard_constraints:
    scenario="[A-Za-z0-9_-]+",
    chunk="[0-9]+",
    case="|".join([*(SETTINGS.competition.examples if SETTINGS.competition else []), "compstats"]),
    design="[A-Za-z0-9_-]+",
    metric="recall|precision|f1",
    size="[0-9]+",
    analysis="false_positive|half_split|false_negative",
    variant="[A-Za-z0-9_]+",


# ---------------------------------------------------------------------------------------------
# Rule boilerplate
@functools.cache
def library_hash(config_key=None):
    """A digest of the library code a study's jobs run: stats/, io/, sim/, the shared modules of studies/, the
    package's data and the study's own package (``config_key``; None: the whole package, for the report).
    Every rule has it as a param, so that Snakemake's params trigger reruns a job whose library code changed
    (its scripts are covered by the code trigger)."""
    package = Path(simstats.__file__).resolve().parent
    if config_key is None:
        files = package.rglob("*")
    else:
        study = next(s for s in STUDIES if s.config_key == config_key)
        files = [*(f for part in ("stats", "io", "sim", "data") for f in (package / part).rglob("*")),
                 *package.glob("*.py"), *(package / "studies").glob("*.py"), *study.directory.rglob("*")]
    digest = hashlib.sha256()
    for f in sorted({f for f in files if f.is_file() and f.suffix != ".pyc"}):
        for part in (f.relative_to(package).as_posix().encode(), f.read_bytes()):
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
    return digest.hexdigest()[:16]


def study_outputs(papers_only=False):
    """The final outputs of every registered study (of those that replicate a paper), each listed by the
    function its helpers.smk puts in STUDY_OUTPUTS."""
    out = []
    for study in STUDIES:
        if study.paper or not papers_only:
            out += STUDY_OUTPUTS[study.config_key]()
    return out




def scenario_origins():
    """Reimers task -> where its parameters come from (calibrated, fitted or stated); only the tasks, so that adding
    a scenario outside the Reimers study reruns none of its tables."""
    tasks = SETTINGS.reimers.tasks if SETTINGS.reimers else ()
    return {name: SETTINGS.scenarios[name].origin for name in tasks}


def log_path(name):
    """The log file of a job: ``<results>/logs/<name>.log`` (name may hold wildcards)."""
    return f"{RESULTS}/logs/{name}.log"


def benchmark_path(name):
    """The benchmark file of a simulation job: ``<results>/benchmarks/<name>.tsv``."""
    return f"{RESULTS}/benchmarks/{name}.tsv"


def figure(stem, caption, category, subcategory=None, key=None):
    """Outputs of one figure: ``<figures>/<stem>.png`` (in the HTML report, captioned by the study's
    report/<caption>.rst, relative to its rules.smk) and the PDF beside it.  Keys ``png``/``pdf``, or
    ``<key>``/``<key>_pdf``; use as ``output: **figure(...)``."""
    labels = {"category": category} if subcategory is None else {"category": category, "subcategory": subcategory}
    png = report(f"{FIGURES}/{stem}.png", caption=f"report/{caption}.rst", **labels)
    pdf = f"{FIGURES}/{stem}.pdf"
    return {"png": png, "pdf": pdf} if key is None else {key: png, f"{key}_pdf": pdf}


def figures(stems, caption_prefix, category, subcategory=None):
    """Several figures at once: {key: stem}; figure <key> is captioned by
    report/<caption_prefix><key>.rst of the study."""
    out = {}
    for key, stem in stems.items():
        out.update(figure(stem, f"{caption_prefix}{key}", category, subcategory, key=key))
    return out


def parsed(value):
    """A parsed settings object as a rule parameter (changes to it rerun the job)."""
    return Parsed(value)


def figures_dir(wildcards):
    """The figures directory as a parameter (a function: a plain string that prefixes the rule's
    input files is what `snakemake --lint` reports as a hard-coded path prefix)."""
    return FIGURES


