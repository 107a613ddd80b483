"""Dror study, real data: COS / SO / ASO on UKP BiLSTM runs and IBM 20-seed results."""
from simstats.sim.memory import keep_freed_memory
from pathlib import Path

import pandas as pd

from simstats.studies.dror2019.simulate import (case_summary, cases_markdown, ibm_distributions, read_ibm, real_data_comparisons,
                                 ukp_distributions)
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_csv, write_parquet, write_text

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    ukp = pd.read_csv(snakemake.input.ukp, sep="\t", low_memory=False)
    comparisons = ukp_distributions(ukp, min_scores=p.min_scores)
    comparisons += ibm_distributions(read_ibm(Path(snakemake.input.ibm[0]).parent))
    log.info("%d comparisons", len(comparisons))
    results = real_data_comparisons(comparisons, rng=generator(p.root_seed, "dror", "real_data"),
                                    n_resamples=p.n_resamples)
    summary = case_summary(results)
    paper = real_data_comparisons(comparisons, rng=generator(p.root_seed, "dror", "real_data", "dror2019"),
                                  n_resamples=p.n_resamples, convention="dror2019")
    write_parquet(paper, snakemake.output.dror2019)
    write_parquet(results, snakemake.output.parquet)
    write_csv(results, snakemake.output.csv)
    write_csv(summary, snakemake.output.cases)
    write_text(cases_markdown(summary, results), snakemake.output.md)
