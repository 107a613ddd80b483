"""Reimers study figures: Figure 4, dev vs test with the prediction band, power, calibration."""
import pandas as pd

from simstats.studies.reimers2018.figures import (reimers_calibration_figure, reimers_dev_test_figure, reimers_figure4,
                                                 reimers_figure4_tasks, reimers_power_figure)
from simstats.io.write import save_figure
from simstats.io.write import script_logger

with script_logger(snakemake.log[0]) as log:
    tables = pd.read_csv(snakemake.input.tables)
    out = snakemake.output
    curves = pd.read_csv(snakemake.input.curves)
    save_figure(reimers_figure4(tables, curves), out.figure4, out.figure4_pdf)
    save_figure(reimers_figure4_tasks(tables, curves), out.figure4_tasks, out.figure4_tasks_pdf)
    scores = {p.split("/")[-2]: pd.read_parquet(p) for p in snakemake.input.scores}
    save_figure(reimers_dev_test_figure(scores, tables, metrics=snakemake.params.metrics), out.dev_vs_test,
                out.dev_vs_test_pdf)
    power = pd.concat([pd.read_parquet(p) for p in snakemake.input.power], ignore_index=True)
    save_figure(reimers_power_figure(power, snakemake.params.power_target), out.power, out.power_pdf)
    save_figure(reimers_calibration_figure(pd.read_csv(snakemake.input.calibration)), out.calibration,
                out.calibration_pdf)
    log.info("figures written")
