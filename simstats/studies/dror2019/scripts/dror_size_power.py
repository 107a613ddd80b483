"""Size and power of ASO, Welch and MWU on each scenario's simulated test scores (one output per scenario)."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.studies.dror2019.size_power import size_power
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    for name, scores, out in zip(p.scenarios, snakemake.input.scores, snakemake.output, strict=True):
        pool = pd.read_parquet(scores).psi_test.to_numpy()
        log.info("scenario %s: %d scores in the pool", name, pool.size)
        rows = size_power(pool, name, n_runs=p.n_runs, shifts=p.shifts, replicates=p.replicates,
                          rng=generator(p.root_seed, "dror", "size_power", name), alpha=p.alpha_so,
                          alpha_aso=p.alpha_aso, n_resamples=p.n_resamples)
        write_parquet(rows, out)
