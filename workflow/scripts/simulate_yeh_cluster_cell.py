"""Yeh study, dependent test items: the simulated test sets of one design effect (item- and cluster-level
tests on each)."""
from simstats.io import script_logger, write_parquet
from simstats.studies.yeh2000.simulate import cluster_design_rows

with script_logger(snakemake.log[0]) as log:
    c = snakemake.params.settings.value
    de = c.design_effects[int(snakemake.wildcards.chunk)]
    rows = cluster_design_rows(c, de, root_seed=snakemake.params.root_seed, n_resamples=snakemake.params.n_resamples)
    write_parquet(rows, snakemake.output[0])
    log.info("design effect %.2f (tau %.3f): %d rows", de, rows.tau.iloc[0], len(rows))
