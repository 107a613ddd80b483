"""Dror et al. Table 4: SO shares and the Tables 2-3 U p-values under each reading of the U test."""
from pathlib import Path

import pandas as pd

from simstats.io.write import script_logger, write_csv, write_text
from simstats.studies.dror2019.simulate import ibm_distributions, read_ibm, ukp_distributions
from simstats.studies.dror2019.so_readings import example_readings, so_readings, so_readings_markdown

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    ukp = pd.read_csv(snakemake.input.ukp, sep="\t", low_memory=False)
    comparisons = ukp_distributions(ukp, min_scores=p.min_scores)
    comparisons += ibm_distributions(read_ibm(Path(snakemake.input.ibm[0]).parent))
    readings = so_readings(comparisons, pd.read_parquet(snakemake.input.verdicts), alpha_so=p.alpha_so)
    examples = example_readings(ukp)
    write_csv(readings, snakemake.output.csv)
    write_csv(examples, snakemake.output.examples)
    write_text(so_readings_markdown(readings, examples), snakemake.output.md)
    log.info("%d comparisons, %d readings", len(comparisons), readings.reading.nunique())
