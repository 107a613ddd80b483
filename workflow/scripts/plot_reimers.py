"""Reimers study figures: Figure 4, dev vs test with the prediction band, power, calibration."""
import json

import pandas as pd

from simstats.studies.reimers2018.figures import reimers_calibration_figure, reimers_dev_test_figure, reimers_figure4, reimers_power_figure
from simstats.io import save_figure
from simstats.io import script_logger

with script_logger(snakemake.log[0]) as log:
    settings = json.loads(snakemake.params.settings)
    tables = pd.read_csv(snakemake.input.tables)
    out = snakemake.output
    save_figure(reimers_figure4(tables), out.figure4_png, out.figure4_pdf)
    scores = {p.split("/")[-2]: pd.read_parquet(p) for p in snakemake.input.scores}
    save_figure(reimers_dev_test_figure(scores, tables), out.dev_test_png, out.dev_test_pdf)
    power = pd.concat([pd.read_parquet(p) for p in snakemake.input.power], ignore_index=True)
    save_figure(reimers_power_figure(power, settings.get("power", {}).get("target", 0.8)), out.power_png,
                out.power_pdf)
    save_figure(reimers_calibration_figure(pd.read_csv(snakemake.input.calibration)), out.calibration_png,
                out.calibration_pdf)
    log.info("figures written")
