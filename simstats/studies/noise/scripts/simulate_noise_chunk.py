"""Simulate one chunk of models of one scenario (noise study)."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.noise.simulate import simulate_chunk
from simstats.io.write import script_logger
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenario = snakemake.params.scenario.value
    size = snakemake.params.chunk_size
    start = int(snakemake.wildcards.chunk) * size
    stop = min(start + size, snakemake.params.n_models)
    log.info("scenario %s: models %d..%d of each approach", scenario.name, start, stop - 1)
    scores, pairs = simulate_chunk(scenario, snakemake.params.root_seed, start, stop, progress=log.info)
    write_parquet(scores, snakemake.output.scores)
    write_parquet(pairs, snakemake.output.pairs)
    log.info("wrote %d model rows and %d pairs", len(scores), len(pairs))
