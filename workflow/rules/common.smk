# Helpers shared by the rules: validated settings, output paths, chunk lists.
import json
import sys

from simstats.config import validate_config
from simstats.sim.scenario import ScenarioError

try:
    SETTINGS = validate_config(config)
except ScenarioError as err:
    sys.exit(f"simstats: invalid configuration: {err}")

RESULTS = SETTINGS.results_dir
FIGURES = SETTINGS.figures_dir
NOISE = SETTINGS.noise


wildcard_constraints:
    scenario="[A-Za-z0-9_-]+",
    chunk="[0-9]+",
    case="example|compstats",
    design="[A-Za-z0-9_-]+",
    metric="recall|precision|f1",
    size="[0-9]+",
    analysis="false_positive|half_split|false_negative",


def scenario_config(name):
    """The YAML mapping of one scenario (only this scenario's jobs depend on it)."""
    return config["scenarios"][name]


def noise_chunk_files(suffix):
    """Input function: every chunk file of a scenario (suffix "" for scores, ".pairs" for r12)."""

    def files(wildcards):
        return expand(
            f"{RESULTS}/noise/{wildcards.scenario}/chunks/{{chunk}}{suffix}.parquet",
            chunk=range(NOISE.n_chunks),
        )

    return files


def noise_outputs():
    return [
        f"{RESULTS}/noise/summary.csv",
        f"{RESULTS}/noise/summary.md",
        *expand(f"{RESULTS}/noise/{{scenario}}/scores.parquet", scenario=NOISE.scenarios),
        *expand(
            f"{FIGURES}/noise/{{scenario}}_dev_vs_test.{{ext}}",
            scenario=NOISE.scenarios,
            ext=["png", "pdf"],
        ),
    ]


# --------------------------------------------------------------------------- competition study
COMPETITION = SETTINGS.competition
COMPETITION_CASES = ["example", "compstats"]
COMPETITION_TABLES = ["scores", "differences", "pairs", "matrix", "summary"]


def competition_config():
    return config["competition"]


def canonical(value):
    """Params as sorted-key JSON: reordering the YAML does not look like a change."""
    return json.dumps(value, sort_keys=True)


def competition_design_params(wildcards):
    """Only this design's settings (editing another design does not rerun this one)."""
    comp = competition_config()
    design = comp["study"]["designs"][wildcards.design]
    return canonical(
        {
            "design": design,
            "population": comp["populations"][design["population"]],
            "replicates": comp["study"]["replicates"],
            "n_resamples": comp["study"].get("n_resamples", 1000),
            "alpha": comp.get("alpha", 0.05),
        }
    )


def competition_case_params(wildcards):
    comp = competition_config()
    params = {"n_resamples": comp.get("n_resamples", 10000)}
    if wildcards.case == "example":
        example = comp["example"]
        params.update(example=example, population=comp["populations"][example["population"]])
    return canonical(params)


def competition_study_params(wildcards):
    comp = competition_config()
    used = {d["population"] for d in comp["study"]["designs"].values()}
    return canonical(
        {
            "designs": comp["study"]["designs"],
            "populations": {k: v for k, v in comp["populations"].items() if k in used},
            "alpha": comp.get("alpha", 0.05),
        }
    )


def competition_case_input(wildcards):
    if wildcards.case == "compstats":
        return "resources/realdata/compstats_competition_data.csv"
    return []


def competition_outputs():
    if COMPETITION is None:
        return []
    return [
        f"{RESULTS}/competition/table5_check.csv",
        f"{RESULTS}/competition/study/summary.csv",
        *expand(f"{RESULTS}/competition/{{case}}/report.md", case=COMPETITION_CASES),
        *expand(
            f"{FIGURES}/competition/{{case}}_{{fig}}.{{ext}}",
            case=COMPETITION_CASES,
            fig=["intervals", "differences", "bootstrap"],
            ext=["png", "pdf"],
        ),
        *expand(
            f"{FIGURES}/competition/study_{{fig}}.{{ext}}",
            fig=["fwer", "fdr", "power", "truth"],
            ext=["png", "pdf"],
        ),
    ]


# --------------------------------------------------------------------------- Yeh study
YEH = SETTINGS.yeh
YEH_METRICS = ["recall", "precision", "f1"]


def yeh_params(wildcards):
    """The Yeh settings as canonical JSON (cell jobs take only what they use)."""
    yeh = config["yeh"]
    keys = ["alpha", "replicates", "n_resamples", "r12", "differences", "recall", "spurious", "gold_share",
            "max_exact_cells"]
    return canonical({k: yeh[k] for k in keys if k in yeh})


def yeh_section_params(section):
    def params(wildcards):
        yeh = config["yeh"]
        out = {"section": yeh.get(section, {}), "alpha": yeh.get("alpha", 0.05),
               "replicates": yeh["replicates"], "n_resamples": yeh.get("n_resamples", 1000), "r12": yeh["r12"]}
        return canonical(out)

    return params


def yeh_outputs():
    if YEH is None:
        return []
    return [
        f"{RESULTS}/yeh/size_power.md",
        f"{RESULTS}/yeh/sd_ratio.md",
        f"{RESULTS}/yeh/clusters.md",
        f"{RESULTS}/yeh/squad_summary.md",
        f"{RESULTS}/yeh/example.md",
        *expand(
            f"{FIGURES}/yeh/{{fig}}.{{ext}}",
            fig=["size", "power", "clusters", "squad", "sd_ratio"],
            ext=["png", "pdf"],
        ),
    ]


# --------------------------------------------------------------------------- Dror study
DROR = SETTINGS.dror
DROR_NOISE = ["false_positive", "half_split", "false_negative"]
DROR_SIZE_POWER = DROR["size_power"]["scenarios"] if DROR else []


def dror_outputs():
    if DROR is None:
        return []
    return [
        f"{RESULTS}/dror/real_data_cases.md",
        f"{RESULTS}/dror/synthetic_cases.md",
        f"{RESULTS}/dror/noise_analyses.md",
        f"{RESULTS}/dror/size_power.md",
        f"{RESULTS}/dror/paper_cases.md",
        *expand(f"{FIGURES}/dror/{{fig}}.{{ext}}", fig=["real_data_eps", "synthetic_eps", "noise_eps", "size_power"],
                ext=["png", "pdf"]),
    ]


# --------------------------------------------------------------------------- Reimers study
REIMERS = SETTINGS.reimers


def reimers_params(wildcards):
    """The reimers section plus this task's scenario (other tasks' edits do not rerun it)."""
    settings = dict(config["reimers"])
    settings["tasks"] = [wildcards.scenario]
    return canonical({"settings": settings, "scenario": config["scenarios"][wildcards.scenario]})


def reimers_chunk_files(suffix):
    def files(wildcards):
        return expand(
            f"{RESULTS}/reimers/{wildcards.scenario}/chunks/{{chunk}}{suffix}.parquet",
            chunk=range(REIMERS.n_chunks),
        )

    return files


def reimers_task_files(name):
    return expand(f"{RESULTS}/reimers/{{scenario}}/{name}.parquet", scenario=REIMERS.tasks)


def reimers_outputs():
    if REIMERS is None:
        return []
    return [
        f"{RESULTS}/reimers/tables.md",
        f"{RESULTS}/reimers/calibration.md",
        f"{RESULTS}/reimers/realdata.md",
        *expand(
            f"{FIGURES}/reimers/{{fig}}.{{ext}}",
            fig=["figure4", "dev_vs_test", "power", "calibration"],
            ext=["png", "pdf"],
        ),
    ]
