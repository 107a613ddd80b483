"""Simulated competitions of one study design (every cell m x n, all replicates)."""
import json

import pandas as pd

from simstats.studies.navamunoz2024.population import parse_design, parse_population
from simstats.studies.navamunoz2024.simulate import simulate_cell
from simstats.io import script_logger
from simstats.io import write_parquet

with script_logger(snakemake.log[0]) as log:
    s = json.loads(snakemake.params.settings)
    name = snakemake.wildcards.design
    pop_name = s["design"]["population"]
    population = parse_population(pop_name, s["population"])
    design = parse_design(name, s["design"], {pop_name: population})
    frames = []
    for m, n in design.cells():
        frames.append(simulate_cell(population, design, m, n, range(s["replicates"]),
                                    root_seed=snakemake.params.root_seed, n_resamples=s["n_resamples"],
                                    alpha=s["alpha"]))
        log.info("%s: m = %d, n = %d, %d competitions done", name, m, n, s["replicates"])
    write_parquet(pd.concat(frames, ignore_index=True), snakemake.output[0])
