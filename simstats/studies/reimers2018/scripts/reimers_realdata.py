"""Reimers study, real data: seed replicates of one configuration in the UKP BiLSTM runs, beside the
calibrated tasks' simulated runs grouped alike."""
from simstats.sim.memory import keep_freed_memory
from pathlib import Path

import pandas as pd

from simstats.studies.reimers2018.realdata import read_ukp, ukp_replicates
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_csv

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    table = read_ukp(snakemake.input.ukp)
    log.info("%d runs read", len(table))
    scores = {Path(p).parent.name: pd.read_parquet(p) for p in snakemake.input.scores}
    write_csv(ukp_replicates(table, generator(snakemake.params.root_seed, "reimers", "ukp"),
                             n_resamples=snakemake.params.n_resamples, model_scores=scores),
              snakemake.output.csv)
