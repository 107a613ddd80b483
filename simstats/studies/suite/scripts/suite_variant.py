"""Suite validation study: the simulated suites of one variant and chunk of replicates (every number of tasks)."""
import pandas as pd

from simstats.sim.memory import keep_freed_memory
from simstats.io.write import script_logger, write_parquet
from simstats.studies.suite.simulate import simulate_cell

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    (variant,) = settings.variants
    tables = []
    for tasks in settings.tasks:
        tables.append(simulate_cell(variant, tasks, snakemake.params.replicates, snakemake.params.root_seed,
                                    alpha=settings.alpha, confidence_level=settings.confidence_level,
                                    n_resamples=settings.n_resamples))
        log.info("%s: %d tasks: %d suites", variant.name, tasks, len(tables[-1]))
    write_parquet(pd.concat(tables, ignore_index=True), snakemake.output[0])
