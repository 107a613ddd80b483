"""Reimers study: refit each task's noise parameters and compare with the stored ones."""
import json

from simstats.studies.reimers2018.calibration import calibration_table
from simstats.io import script_logger
from simstats.sim.scenario import parse_scenario
from simstats.io import write_csv

with script_logger(snakemake.log[0]) as log:
    scenarios = [parse_scenario(name, value, f"scenarios.{name}")
                 for name, value in json.loads(snakemake.params.scenarios).items()]
    table = calibration_table(scenarios, progress=log.info)
    write_csv(table, snakemake.output.csv)
