"""Size and power of ASO, Welch and MWU on one scenario's simulated test scores."""
import json

import pandas as pd

from simstats.studies.dror2019.size_power import size_power
from simstats.io import script_logger
from simstats.sim.seeding import generator
from simstats.io import write_parquet

with script_logger(snakemake.log[0]) as log:
    s = json.loads(snakemake.params.settings)
    sp = s.get("size_power", {})
    name = snakemake.wildcards.scenario
    pool = pd.read_parquet(snakemake.input.scores).psi_test.to_numpy()
    log.info("scenario %s: %d scores in the pool", name, pool.size)
    rows = size_power(pool, name, n_runs=sp.get("n", [5, 10, 20, 50]), shifts=sp.get("shifts", [0.0, 0.5, 1.0]),
                      replicates=sp.get("replicates", 200),
                      rng=generator(snakemake.params.root_seed, "dror", "size_power", name),
                      alpha=s.get("alpha_so", 0.05), alpha_aso=s.get("alpha_aso", 0.01),
                      n_resamples=s.get("n_bootstrap", 1000))
    write_parquet(rows, snakemake.output[0])
