"""Reimers study, real data: seed replicates of one configuration in the UKP BiLSTM runs."""
from simstats.reimers_realdata import read_ukp, ukp_replicates
from simstats.runlog import script_logger
from simstats.seeding import generator
from simstats.tables import write_csv

with script_logger(snakemake.log[0]) as log:
    table = read_ukp(snakemake.input.ukp)
    log.info("%d runs read", len(table))
    write_csv(ukp_replicates(table, generator(snakemake.params.root_seed, "reimers", "ukp")), snakemake.output.csv)
