"""Dror study, section 6: one of the false-positive / half-split / false-negative analyses."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.dror2019.simulate import noise_analyses, synthetic_population
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params.population.value
    seed = snakemake.params.root_seed
    kind, chunk = snakemake.wildcards.analysis, int(snakemake.wildcards.chunk)
    pop = synthetic_population(generator(seed, "dror", "population"), n_distributions=p.n_distributions,
                               tail_share=p.tail_share)
    part = pop[chunk::p.chunks]
    rows = noise_analyses(part, kind, p.repetitions, root_seed=seed, n_resamples=snakemake.params.n_resamples,
                          method="grid", alpha_aso=snakemake.params.alpha_aso)
    write_parquet(rows, snakemake.output[0])
    log.info("%s chunk %d: %d comparisons", kind, chunk, len(rows))
