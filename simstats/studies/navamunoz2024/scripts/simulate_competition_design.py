"""Simulated competitions of one study design (every cell m x n, one chunk of the replicates)."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.studies.navamunoz2024.simulate import simulate_cell
from simstats.io.write import script_logger
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    population, design = p.population.value, p.design.value
    frames = []
    for m, n in design.cells():
        frames.append(simulate_cell(population, design, m, n, p.replicates, root_seed=p.root_seed,
                                    n_resamples=p.n_resamples, alpha=p.alpha))
        log.info("%s: m = %d, n = %d, competitions %d-%d done", design.name, m, n, p.replicates.start,
                 p.replicates.stop - 1)
    write_parquet(pd.concat(frames, ignore_index=True), snakemake.output[0])
