"""Approach-level validation study: the simulated studies of one variant and chunk of replicates (all sizes,
seeds, truths)."""
from simstats.sim.memory import keep_freed_memory
from simstats.io.write import script_logger, write_parquet
from simstats.studies.approaches.validation import simulate_variant

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    table = simulate_variant(settings, snakemake.wildcards.variant, snakemake.params.root_seed, progress=log.info,
                             replicates=snakemake.params.replicates)
    write_parquet(table, snakemake.output[0])
