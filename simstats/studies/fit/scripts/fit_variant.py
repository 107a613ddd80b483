"""Validation study of simstats fit: one design of runs and chunk of replicates, each simulated and fitted back."""
from simstats.sim.memory import keep_freed_memory
from simstats.io.write import script_logger, write_parquet
from simstats.studies.fit.simulate import simulate_chunk

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    (variant,) = settings.variants
    table = simulate_chunk(variant, snakemake.params.replicates, snakemake.params.root_seed, settings.n_resamples,
                           settings.confidence_level, settings.alpha)
    log.info("%s: %d fits, %d parameter rows", variant.name, len(snakemake.params.replicates), len(table))
    write_parquet(table, snakemake.output[0])
