# Reimers study.  A task's jobs get its scenario and the settings restricted to
# it: editing another task's scenario or the task list does not rerun them.
from simstats.studies.reimers2018.calibration import has_targets



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


STUDY_OUTPUTS['reimers'] = reimers_outputs
