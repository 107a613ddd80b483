"""Harness-log validation study: the simulated evaluations of one variant and chunk of replicates (every test-set
size and truth)."""
import pandas as pd

from simstats.sim.memory import keep_freed_memory
from simstats.io.write import script_logger, write_parquet
from simstats.studies.harness.simulate import TRUTHS, simulate_cell

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    (variant,) = settings.variants
    tables = []
    for items in settings.items:
        for truth in TRUTHS:
            tables.append(simulate_cell(variant, items, truth, snakemake.params.replicates, snakemake.params.root_seed,
                                        settings.n_resamples, settings.confidence_level))
            log.info("%s: %d items, %s: %d evaluations", variant.name, items, truth, len(tables[-1]))
    write_parquet(pd.concat(tables, ignore_index=True), snakemake.output[0])
