"""Size and power of ASO, Welch and MWU on one scenario's simulated test scores."""
import pandas as pd

from simstats.studies.dror2019.size_power import size_power
from simstats.io import script_logger
from simstats.sim.seeding import generator
from simstats.io import write_parquet

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    name = snakemake.wildcards.scenario
    pool = pd.read_parquet(snakemake.input.scores).psi_test.to_numpy()
    log.info("scenario %s: %d scores in the pool", name, pool.size)
    rows = size_power(pool, name, n_runs=p.n_runs, shifts=p.shifts, replicates=p.replicates,
                      rng=generator(p.root_seed, "dror", "size_power", name), alpha=p.alpha_so,
                      alpha_aso=p.alpha_aso, n_resamples=p.n_resamples)
    write_parquet(rows, snakemake.output[0])
