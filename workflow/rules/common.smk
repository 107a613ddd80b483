# Shared by the rules: the validated settings and the helper functions the rules call (input
# functions, params functions, each study's list of outputs).  Snakemake's linter wants the
# functions of a workflow in one rule-free file, so every study's helpers live here, under its
# heading; the study's .smk file holds its rules only.
import dataclasses
import functools
import hashlib
import sys
from pathlib import Path

import simstats

from simstats.config import Parsed, check_configfile_overrides, validate_config
from simstats.sim.scenario import ScenarioError
from simstats.studies import STUDIES
from simstats.studies.reimers2018.calibration import has_targets

try:
    # a --configfile scenario named like a built-in one must say `replace: true`
    check_configfile_overrides(workflow.overwrite_configfiles, "config/config.yaml")
    # The one application of the configuration schema (types, ranges, defaults) plus the
    # cross-field checks, with one-line errors naming the field.  The rules read the parsed
    # settings only, never `config` itself.
    SETTINGS = validate_config(config)
except ScenarioError as err:
    sys.exit(f"simstats: invalid configuration: {err}")

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
    """The final outputs of every registered study (of those that replicate a paper), each from the
    ``<config_key>_outputs()`` function under the study's heading below."""
    out = []
    for study in STUDIES:
        if study.paper or not papers_only:
            out += globals()[f"{study.config_key}_outputs"]()
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
    """Outputs of one figure: ``<figures>/<stem>.png`` (in the HTML report, captioned by
    workflow/report/<caption>.rst) and the PDF beside it.  Keys ``png``/``pdf``, or
    ``<key>``/``<key>_pdf``; use as ``output: **figure(...)``."""
    labels = {"category": category} if subcategory is None else {"category": category, "subcategory": subcategory}
    png = report(f"{FIGURES}/{stem}.png", caption=f"../report/{caption}.rst", **labels)
    pdf = f"{FIGURES}/{stem}.pdf"
    return {"png": png, "pdf": pdf} if key is None else {key: png, f"{key}_pdf": pdf}


def figures(stems, caption_prefix, category, subcategory=None):
    """Several figures at once: {key: stem}; figure <key> is captioned by
    workflow/report/<caption_prefix><key>.rst."""
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


# ---------------------------------------------------------------------------------------------
# Noise study (noise.smk)


def noise_scenario(wildcards):
    """Only this scenario's parsed settings (editing another scenario does not rerun its jobs)."""
    return parsed(SETTINGS.scenarios[wildcards.scenario])


def noise_from_reimers(scenario):
    """Whether the scenario's noise-study models are read from the Reimers study's chunks.

    The study describes models 0 .. n_models-1 of each scenario.  The Reimers study simulates the
    same models of its tasks (same stream and item sets), and its chunk jobs write this study's
    tables of them; a scenario the Reimers study covers with at least as many models (in blocks of
    even size) is read from there, the others get their own chunk jobs."""
    reimers = SETTINGS.reimers
    return (reimers is not None and scenario in reimers.tasks and scenario in SETTINGS.noise.scenarios
            and reimers.holds_noise_models(SETTINGS.noise.n_models))


def _noise_chunks(scenario, suffix):
    """The chunk files holding a scenario's models (suffix "" for scores, ".pairs" for r12)."""
    noise = SETTINGS.noise
    if noise_from_reimers(scenario):
        reimers = SETTINGS.reimers
        chunks = [c for c in range(reimers.n_chunks) if reimers.chunk_range(c)[0] < noise.n_models]
        return expand(f"{RESULTS}/reimers/{scenario}/chunks/{{chunk}}.noise{suffix}.parquet", chunk=chunks)
    return expand(f"{RESULTS}/noise/{scenario}/chunks/{{chunk}}{suffix}.parquet", chunk=range(noise.n_chunks))


def noise_score_chunks(wildcards):
    """Input function: the chunk files of a scenario's scores."""
    return _noise_chunks(wildcards.scenario, "")


def noise_pair_chunks(wildcards):
    """Input function: the chunk files of a scenario's item-level correlations of two runs."""
    return _noise_chunks(wildcards.scenario, ".pairs")


def noise_outputs():
    scenarios = SETTINGS.noise.scenarios
    return [
        f"{RESULTS}/noise/summary.csv",
        f"{RESULTS}/noise/summary.md",
        *expand(f"{RESULTS}/noise/{{scenario}}/scores.parquet", scenario=scenarios),
        *expand(f"{FIGURES}/noise/{{scenario}}_dev_vs_test.{{ext}}", scenario=scenarios, ext=["png", "pdf"]),
    ]


# ---------------------------------------------------------------------------------------------
# Competition study (competition.smk).  Each job gets only its own parsed settings: editing
# another design (or example) does not rerun it.


def competition_example(wildcards):
    examples = SETTINGS.competition.examples
    return parsed(examples[wildcards.case]) if wildcards.case in examples else None


def competition_example_population(wildcards):
    competition = SETTINGS.competition
    if wildcards.case not in competition.examples:
        return None
    return parsed(competition.populations[competition.examples[wildcards.case].population])


def competition_case_metric(wildcards):
    """The metric named on the case's figures (the CompStats data: weighted F1)."""
    competition = SETTINGS.competition
    if wildcards.case not in competition.examples:
        return "weighted_f1"
    return competition.populations[competition.examples[wildcards.case].population].metric_object().name


def competition_case_input(wildcards):
    return "resources/realdata/compstats_competition_data.csv" if wildcards.case == "compstats" else []


def competition_design(wildcards):
    return parsed(SETTINGS.competition.designs[wildcards.design])


def competition_design_population(wildcards):
    competition = SETTINGS.competition
    return parsed(competition.populations[competition.designs[wildcards.design].population])


def competition_chunk_replicates(wildcards):
    """The replicates of one job (every cell of the design): replicate r is keyed by r, so the
    results do not depend on the chunking."""
    return SETTINGS.competition.study_chunks()[int(wildcards.chunk)]


def competition_study_designs():
    """The designs in name order (reordering the YAML is no change)."""
    return dict(sorted(SETTINGS.competition.designs.items()))


def competition_study_populations():
    """The populations the designs use, in name order."""
    competition = SETTINGS.competition
    used = {design.population for design in competition.designs.values()}
    return {name: population for name, population in sorted(competition.populations.items()) if name in used}


def competition_case_widths(wildcards):
    """An example compared with a paper column waits for its width band (widths.csv), so that the
    ledger, which runs after every case report, finds it."""
    example = COMPETITION.examples.get(wildcards.case) if COMPETITION else None
    return [f"{RESULTS}/competition/{wildcards.case}/widths.csv"] if example is not None and example.language else []


def competition_outputs():
    if SETTINGS.competition is None:
        return []
    return [
        f"{RESULTS}/competition/table5_check.csv",
        f"{RESULTS}/competition/study/summary.csv",
        *expand(f"{RESULTS}/competition/{{case}}/{{case}}_report.md", case=COMPETITION_CASES),
        *[f"{RESULTS}/competition/{case}/widths.csv" for case in COMPETITION_CASES
          if SETTINGS.competition.examples.get(case) is not None and SETTINGS.competition.examples[case].language],
        *expand(
            f"{FIGURES}/competition/{{case}}_{{fig}}.{{ext}}",
            case=COMPETITION_CASES,
            fig=COMPETITION_CASE_FIGURES,
            ext=["png", "pdf"],
        ),
        *expand(f"{FIGURES}/competition/study_{{fig}}.{{ext}}", fig=COMPETITION_STUDY_FIGURES, ext=["png", "pdf"]),
    ]


# ---------------------------------------------------------------------------------------------
# Yeh study (yeh.smk)


def yeh_differences(wildcards):
    """Only this metric's true differences (editing another metric's does not rerun these cells)."""
    return SETTINGS.yeh.differences[wildcards.metric]


def yeh_outputs():
    if SETTINGS.yeh is None:
        return []
    return [
        f"{RESULTS}/yeh/size_power.md",
        f"{RESULTS}/yeh/sd_ratio.md",
        f"{RESULTS}/yeh/clusters.md",
        f"{RESULTS}/yeh/squad_summary.md",
        f"{RESULTS}/yeh/example.md",
        *expand(f"{FIGURES}/yeh/{{fig}}.{{ext}}", fig=YEH_FIGURES, ext=["png", "pdf"]),
    ]


# ---------------------------------------------------------------------------------------------
# Dror study (dror.smk)


def dror_outputs():
    if SETTINGS.dror is None:
        return []
    return [
        f"{RESULTS}/dror/real_data_cases.md",
        f"{RESULTS}/dror/synthetic_cases.md",
        f"{RESULTS}/dror/noise_analyses.md",
        f"{RESULTS}/dror/noise_ukp.md",
        f"{RESULTS}/dror/size_power.md",
        f"{RESULTS}/dror/paper_cases.md",
        f"{RESULTS}/dror/conventions.md",
        f"{RESULTS}/dror/so_readings.md",
        *expand(
            f"{FIGURES}/dror/{{fig}}.{{ext}}",
            fig=["real_data_eps", "synthetic_eps", "noise_eps", "size_power"],
            ext=["png", "pdf"],
        ),
    ]


# ---------------------------------------------------------------------------------------------
# Reimers study (reimers.smk).  A task's jobs get its scenario and the settings restricted to
# it: editing another task's scenario or the task list does not rerun them.


def reimers_task(wildcards):
    return parsed(SETTINGS.scenarios[wildcards.scenario])


def reimers_task_settings(wildcards):
    """One task's settings, without the dedicated Figure 4 simulation's (changing those reruns none of its chunks)."""
    defaults = {f.name: f.default for f in dataclasses.fields(SETTINGS.reimers) if f.name.startswith("figure4_")
                and f.name != "figure4_n"}
    return parsed(dataclasses.replace(SETTINGS.reimers, tasks=(wildcards.scenario,), **defaults))


def reimers_noise_models(wildcards):
    """How many of the noise study's models (0 .. n_models-1) this task's chunks write for it
    (see noise_from_reimers)."""
    return SETTINGS.noise.n_models if noise_from_reimers(wildcards.scenario) else 0


def reimers_task_scenarios():
    """The paper's tasks (the scenarios with published targets), in name order (reordering the
    task list is no change); a user's scenario is evaluated with its stated parameters, not
    calibrated."""
    if SETTINGS.reimers is None:
        return None
    scenarios = SETTINGS.scenarios
    return {name: scenarios[name] for name in sorted(SETTINGS.reimers.tasks) if has_targets(scenarios[name])}


def _reimers_chunks(scenario, suffix):
    return expand(f"{RESULTS}/reimers/{scenario}/chunks/{{chunk}}{suffix}.parquet",
                  chunk=range(SETTINGS.reimers.n_chunks))


def reimers_score_chunks(wildcards):
    """Input function: the chunk files of a task's scores."""
    return _reimers_chunks(wildcards.scenario, "")


def reimers_comparison_chunks(wildcards):
    """Input function: the chunk files of a task's comparisons."""
    return _reimers_chunks(wildcards.scenario, ".comparisons")


def reimers_task_files(name):
    """``<results>/reimers/<task>/<name>.parquet`` of every task."""
    tasks = SETTINGS.reimers.tasks if SETTINGS.reimers else []
    return expand(f"{RESULTS}/reimers/{{scenario}}/{name}.parquet", scenario=tasks)


def reimers_metrics():
    """Each task's metric, for the figures' axis labels."""
    if SETTINGS.reimers is None:
        return None
    return {name: SETTINGS.scenarios[name].metric for name in SETTINGS.reimers.tasks}


def reimers_figure4_summaries():
    """The dedicated Figure 4 simulation's summary (none when reimers.figure4_sim.task is empty)."""
    if not REIMERS or not REIMERS.figure4_task:
        return []
    return [f"{RESULTS}/reimers/figure4/{REIMERS.figure4_task}/summary.parquet"]


def reimers_figure4_chunks(wildcards):
    from simstats.studies.reimers2018.figure4 import chunk_ranges

    chunks = chunk_ranges(REIMERS.figure4_groups, REIMERS.figure4_block, REIMERS.figure4_chunk)
    return expand(f"{RESULTS}/reimers/figure4/{wildcards.scenario}/n{{n}}_{{chunk}}.parquet",
                  n=REIMERS.figure4_sim_n, chunk=range(len(chunks)))


def reimers_outputs():
    if SETTINGS.reimers is None:
        return []
    return [
        f"{RESULTS}/reimers/tables.md",
        f"{RESULTS}/reimers/calibration.md",
        f"{RESULTS}/reimers/realdata.md",
        f"{RESULTS}/reimers/identifiability.md",
        *expand(f"{FIGURES}/reimers/{{fig}}.{{ext}}", fig=REIMERS_FIGURES, ext=["png", "pdf"]),
    ]


# ---------------------------------------------------------------------------------------------
# Approach-level study (approaches.smk)


def approaches_variant_settings(wildcards):
    """Only this variant's cells (editing another variant does not rerun this one)."""
    return parsed(SETTINGS.approaches.for_variant(wildcards.variant))


def approaches_chunk_replicates(wildcards):
    """The replicates of one job of a variant (replicate r is keyed by r: chunk-invariant)."""
    return SETTINGS.approaches.chunks()[int(wildcards.chunk)]


def approaches_variant_chunks(wildcards):
    """The simulated chunks of one variant."""
    return [f"{RESULTS}/approaches/variants/{wildcards.variant}/chunks/{chunk}.parquet"
            for chunk in range(len(SETTINGS.approaches.chunks()))]


def approaches_outputs():
    if SETTINGS.approaches is None:
        return []
    return [
        f"{RESULTS}/approaches/validation.md",
        f"{RESULTS}/approaches/which_test.csv",
        f"{FIGURES}/approaches/validation.png",
        f"{FIGURES}/approaches/validation.pdf",
    ]


# ---------------------------------------------------------------------------------------------
# Comparing models from harness logs (harness.smk)
def harness_variant_settings(wildcards):
    """One variant's settings (editing another variant reruns nothing of this one)."""
    return parsed(SETTINGS.harness.for_variant(wildcards.variant))


def harness_chunk_replicates(wildcards):
    """The replicates of one job of a variant."""
    return SETTINGS.harness.chunks()[int(wildcards.chunk)]


def harness_outputs():
    if SETTINGS.harness is None:
        return []
    return [
        f"{RESULTS}/harness/validation.csv",
        f"{RESULTS}/harness/validation.md",
        f"{FIGURES}/harness/validation.png",
        f"{FIGURES}/harness/validation.pdf",
    ]


# ---------------------------------------------------------------------------------------------
# Many models over a suite of tasks (suite.smk)
def suite_variant_settings(wildcards):
    """One variant's settings (editing another variant reruns nothing of this one)."""
    return parsed(SETTINGS.suite.for_variant(wildcards.variant))


def suite_chunk_replicates(wildcards):
    """The replicates of one job of a variant."""
    return SETTINGS.suite.chunks()[int(wildcards.chunk)]


def suite_outputs():
    if SETTINGS.suite is None:
        return []
    return [
        f"{RESULTS}/suite/validation.csv",
        f"{RESULTS}/suite/validation.md",
        f"{FIGURES}/suite/validation.png",
        f"{FIGURES}/suite/validation.pdf",
    ]


# ---------------------------------------------------------------------------------------------
# Fitting the noise model to runs (fit.smk)
def fit_variant_settings(wildcards):
    """One design's settings (editing another design reruns nothing of this one)."""
    return parsed(SETTINGS.fit.for_variant(wildcards.variant))


def fit_chunk_replicates(wildcards):
    """The replicates of one job of a design."""
    return SETTINGS.fit.chunks()[int(wildcards.chunk)]


def fit_outputs():
    if SETTINGS.fit is None:
        return []
    return [
        f"{RESULTS}/fit/validation.csv",
        f"{RESULTS}/fit/validation.md",
        f"{FIGURES}/fit/validation.png",
        f"{FIGURES}/fit/validation.pdf",
    ]


# ---------------------------------------------------------------------------------------------
# What can I trust, per scenario (trust.smk)
def trust_simulation_settings(wildcards):
    """The settings a scenario's simulation uses (adding or excluding another scenario reruns nothing of it)."""
    return parsed(dataclasses.replace(SETTINGS.trust, scenarios=(wildcards.scenario,), mdd_seeds=(), mdd_items=()))


def trust_page_settings(wildcards):
    """The settings of a scenario's page (another scenario's page changes nothing here)."""
    return parsed(dataclasses.replace(SETTINGS.trust, scenarios=(wildcards.scenario,)))


def trust_reimers_inputs(wildcards):
    """The Reimers tables and runs needed, when the Reimers study evaluates this scenario (else none)."""
    if SETTINGS.reimers is None or wildcards.scenario not in SETTINGS.reimers.tasks:
        return []
    return [f"{RESULTS}/reimers/tables.csv", f"{RESULTS}/reimers/power_runs_needed.csv"]


def trust_outputs():
    if SETTINGS.trust is None:
        return []
    return expand(
        [
            f"{RESULTS}/trust/{{scenario}}.md",
            f"{RESULTS}/trust/{{scenario}}/summary.csv",
            f"{FIGURES}/trust/{{scenario}}.png",
            f"{FIGURES}/trust/{{scenario}}.pdf",
        ],
        scenario=SETTINGS.trust.scenarios,
    )
