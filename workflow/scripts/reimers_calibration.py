"""Reimers study: refit each task's noise parameters and compare with the stored ones."""
import json

from simstats.calibration import calibration_table
from simstats.runlog import script_logger
from simstats.scenario import parse_scenario
from simstats.tables import write_csv

with script_logger(snakemake.log[0]) as log:
    scenarios = [parse_scenario(name, value, f"scenarios.{name}")
                 for name, value in json.loads(snakemake.params.scenarios).items()]
    table = calibration_table(scenarios, progress=log.info)
    write_csv(table, snakemake.output.csv)
