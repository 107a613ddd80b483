"""Reimers study: every table beside the paper, calibration residuals, power and real data."""
import pandas as pd

from simstats.studies.reimers2018.markdown import (calibration_markdown, fitted_cells, realdata_markdown,
                                                  simulated_calibration, tables_markdown)
from simstats.studies.reimers2018.tables import required_runs, side_by_side
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    alpha, target = settings.alpha, settings.power_target
    fit = pd.read_csv(snakemake.input.calibration)
    tables = side_by_side(pd.concat([pd.read_parquet(p) for p in snakemake.input.summaries], ignore_index=True),
                          fitted=fitted_cells(fit), origins=snakemake.params.origins)
    needed = required_runs(pd.concat([pd.read_parquet(p) for p in snakemake.input.power], ignore_index=True),
                           target, alpha)
    calibration = simulated_calibration(fit, tables)
    realdata = pd.read_csv(snakemake.input.realdata)
    write_csv(tables, snakemake.output.csv)
    write_text(tables_markdown(tables, needed, settings), snakemake.output.md)
    write_csv(calibration, snakemake.output.calibration_csv)
    write_text(calibration_markdown(calibration, fit), snakemake.output.calibration_md)
    write_csv(needed, snakemake.output.power_csv)
    write_text(realdata_markdown(realdata, tables), snakemake.output.realdata_md)
    log.info("%d cells: %s", len(tables), tables.verdict.value_counts().to_dict())
