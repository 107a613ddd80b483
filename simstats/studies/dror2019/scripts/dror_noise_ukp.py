"""Dror study, section 6 on real runs: one analysis (false positive / half split / false negative) on the UKP pools."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.studies.dror2019.simulate import noise_analyses, ukp_pools
from simstats.io.write import script_logger
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    kind = snakemake.wildcards.analysis
    pools = ukp_pools(pd.read_csv(snakemake.input.ukp, sep="\t", low_memory=False), min_scores=p.min_scores)
    # each pool's draws keyed by (stream, analysis, pool index): the same rows however the pools are split
    rows = noise_analyses(pools, kind, p.repetitions, root_seed=p.root_seed, n_resamples=p.n_resamples,
                          alpha_aso=p.alpha_aso, stream=("dror", "noise_ukp"), deepsig=False)
    write_parquet(rows, snakemake.output[0])
    log.info("%s: %d pools, %d comparisons", kind, len(pools), len(rows))
