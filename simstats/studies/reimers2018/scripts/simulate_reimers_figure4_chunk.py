"""Reimers study, Figure 4 at large n: one job's pairs of groups of n fresh runs (figure4.py)."""
from simstats.io.write import script_logger, write_parquet
from simstats.studies.reimers2018.figure4 import chunk_ranges, simulate_groups

with script_logger(snakemake.log[0]) as log:
    s = snakemake.params.settings.value
    start, stop = chunk_ranges(s.figure4_groups, s.figure4_block, s.figure4_chunk)[int(snakemake.wildcards.chunk)]
    groups = simulate_groups(snakemake.params.scenario.value, int(snakemake.wildcards.n), start, stop,
                             s.figure4_block, s.n_resamples, snakemake.params.root_seed)
    log.info("%s, n = %s: groups %d-%d", snakemake.wildcards.scenario, snakemake.wildcards.n, start, stop - 1)
    write_parquet(groups, snakemake.output[0])
