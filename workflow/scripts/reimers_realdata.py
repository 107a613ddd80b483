"""Reimers study, real data: seed replicates of one configuration in the UKP BiLSTM runs."""
from simstats.studies.reimers2018.realdata import read_ukp, ukp_replicates
from simstats.io import script_logger
from simstats.sim.seeding import generator
from simstats.io import write_csv

with script_logger(snakemake.log[0]) as log:
    table = read_ukp(snakemake.input.ukp)
    log.info("%d runs read", len(table))
    write_csv(ukp_replicates(table, generator(snakemake.params.root_seed, "reimers", "ukp")), snakemake.output.csv)
