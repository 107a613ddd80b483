# Helpers shared by the rules: validated settings, output paths, chunk lists.
import sys

from simstats.config import validate_config
from simstats.scenario import ScenarioError

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
