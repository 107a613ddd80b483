"""Reimers study, Figure 4 at large n: % significant per n with its MCSE, from the chunks' pairs of groups."""
import pandas as pd

from simstats.io.write import script_logger, write_parquet
from simstats.studies.reimers2018.figure4 import figure4_summary

with script_logger(snakemake.log[0]) as log:
    groups = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    summary = figure4_summary(snakemake.params.scenario.value, groups, snakemake.params.alpha)
    log.info("%s: %d pairs of groups", snakemake.wildcards.scenario, len(groups))
    write_parquet(summary, snakemake.output[0])
