"""Dror study, section 6: one of the false-positive / half-split / false-negative analyses."""
import json

from simstats.studies.dror2019.simulate import noise_analyses, synthetic_population
from simstats.io import script_logger
from simstats.sim.seeding import generator
from simstats.io import write_parquet

with script_logger(snakemake.log[0]) as log:
    s = json.loads(snakemake.params.settings)
    p = s.get("population", {})
    seed = snakemake.params.root_seed
    kind, chunk = snakemake.wildcards.analysis, int(snakemake.wildcards.chunk)
    pop = synthetic_population(generator(seed, "dror", "population"), n_distributions=p.get("n_distributions", 255),
                               tail_share=p.get("tail_share", 0.5))
    part = pop[chunk::p.get("chunks", 2)]
    rows = noise_analyses(part, kind, p.get("repetitions", 100), root_seed=seed,
                          n_resamples=s.get("n_bootstrap", 1000), method="grid")
    write_parquet(rows, snakemake.output[0])
    log.info("%s chunk %d: %d comparisons", kind, chunk, len(rows))
