# Shared by the rules: the validated settings and helpers for repeated rule boilerplate.
# Each study's own helpers (*_outputs(), params slices) live in its .smk file.
import os
import sys

from simstats.config import Parsed, check_configfile_overrides, validate_config
from simstats.sim.scenario import ScenarioError
from simstats.studies.reimers2018.calibration import has_targets

try:
    # a --configfile scenario named like a built-in one must say `replace: true` (issue 17)
    check_configfile_overrides(workflow.overwrite_configfiles, "config/config.yaml")
    SETTINGS = validate_config(config)
except ScenarioError as err:
    sys.exit(f"simstats: invalid configuration: {err}")

# Jobs allocate and free arrays of tens to hundreds of MB in loops; by default glibc hands each back to
# the system and faults its pages in again on the next allocation (a Reimers chunk: 131,000 page faults,
# 40 % of its CPU time in the kernel).  Keeping freed memory in the job's heap removes that; the jobs
# inherit these variables (a user's own settings win).
for _name, _value in (("MALLOC_MMAP_THRESHOLD_", "2147483647"), ("MALLOC_TRIM_THRESHOLD_", "2147483647"),
                      ("MALLOC_TOP_PAD_", "268435456")):
    os.environ.setdefault(_name, _value)

# Every job is single-threaded and CPU-bound, so running more jobs at once than the CPUs this process may use
# only makes them compete for caches and memory: on 2 CPUs the default run took 254 s with --cores 8 and 213 s
# with --cores 2 (docs/pipeline.md).  Local runs are therefore capped at those CPUs; results do not depend on it.
# SIMSTATS_NO_CPU_CAP=1 keeps the requested number.  (Cluster runs set their own job limit.)
_cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
_requested = workflow.global_resources["_cores"].value
_cluster = workflow.global_resources["_nodes"].value is not None      # --jobs of an executor plugin
if (isinstance(_requested, int) and _requested > _cpus and not _cluster
        and not os.environ.get("SIMSTATS_NO_CPU_CAP")):
    workflow.global_resources["_cores"] = _cpus
    if workflow.is_main_process:
        print(f"simstats: --cores {_requested} is more than the {_cpus} CPUs available: running at most {_cpus} "
              f"jobs at once (set SIMSTATS_NO_CPU_CAP=1 to keep {_requested})", file=sys.stderr)

# Job order on few CPUs: the greedy scheduler starts the ready job of highest `priority:` first.  Left to
# input sizes it started the default run's Dror noise analyses last, and the last one (24 s) ran alone at
# the end on one of the two CPUs.  Long jobs and the jobs that unlock them therefore go first, and the
# many short jobs fill in behind them (the Yeh figure's small-input jobs, picked last by input size, had
# left `plot_yeh` alone at the end).  Order only: no result depends on it.
PRIORITY_CHAIN_START = 40      # dror_population: the Dror noise analyses need it
PRIORITY_LONGEST = 30          # dror_noise: the default run's longest jobs (at paper scale among them)
PRIORITY_LONG = 20             # reimers_identifiability: one long job
PRIORITY_SIMULATION = 10       # the other simulations, and the Reimers and Yeh chains up to their figures

RESULTS = SETTINGS.results_dir
FIGURES = SETTINGS.figures_dir
ROOT_SEED = SETTINGS.root_seed


wildcard_constraints:
    scenario="[A-Za-z0-9_-]+",
    chunk="[0-9]+",
    case="|".join([*(SETTINGS.competition.examples if SETTINGS.competition else []), "compstats"]),
    design="[A-Za-z0-9_-]+",
    metric="recall|precision|f1",
    size="[0-9]+",
    analysis="false_positive|half_split|false_negative",
    variant="[A-Za-z0-9_]+",


def log_path(name):
    """The log file of a job: ``<results>/logs/<name>.log`` (name may hold wildcards)."""
    return f"{RESULTS}/logs/{name}.log"


def benchmark_path(name):
    """The benchmark file of a simulation job: ``<results>/benchmarks/<name>.tsv``."""
    return f"{RESULTS}/benchmarks/{name}.tsv"


def figure(stem, caption, category, subcategory=None, key=None):
    """Outputs of one figure: ``<figures>/<stem>.png`` (in the HTML report, captioned by
    workflow/report/<caption>.rst) and the PDF beside it.  Keys ``png``/``pdf``, or
    ``<key>``/``<key>_pdf``; use as ``output: **figure(...)``."""
    labels = {"category": category} if subcategory is None else {"category": category, "subcategory": subcategory}
    png = report(f"{FIGURES}/{stem}.png", caption=f"../report/{caption}.rst", **labels)
    pdf = f"{FIGURES}/{stem}.pdf"
    return {"png": png, "pdf": pdf} if key is None else {key: png, f"{key}_pdf": pdf}


def figures(stems, caption, category, subcategory=None):
    """Several figures ``<prefix><key>`` at once: {key: stem}; caption(key) names each caption."""
    out = {}
    for key, stem in stems.items():
        out.update(figure(stem, caption(key), category, subcategory, key=key))
    return out


def parsed(value):
    """A parsed settings object as a rule parameter (changes to it rerun the job)."""
    return Parsed(value)
