"""Reimers study: simulate one chunk of models of one task, test every comparison in it, and write the
noise study's tables of those of its models that the noise study describes."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.reimers2018.simulate import simulate_chunk
from simstats.io.write import script_logger
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenario, settings = snakemake.params.scenario.value, snakemake.params.settings.value
    start, stop = settings.chunk_range(int(snakemake.wildcards.chunk))
    log.info("task %s: models %d..%d of each approach, B = %d", scenario.name, start, stop - 1,
             settings.n_resamples)
    scores, comparisons, noise_scores, noise_pairs = simulate_chunk(
        scenario, settings, snakemake.params.root_seed, start, stop, progress=log.info,
        noise_models=snakemake.params.noise_models)
    write_parquet(comparisons, snakemake.output.comparisons)
    write_parquet(scores, snakemake.output.scores)
    write_parquet(noise_scores, snakemake.output.noise_scores)
    write_parquet(noise_pairs, snakemake.output.noise_pairs)
