"""Reimers study: refit each task's noise parameters and compare with the stored ones."""
from simstats.studies.reimers2018.calibration import calibration_table
from simstats.io import script_logger
from simstats.io import write_csv

with script_logger(snakemake.log[0]) as log:
    table = calibration_table(list(snakemake.params.scenarios.values()), progress=log.info)
    write_csv(table, snakemake.output.csv)
