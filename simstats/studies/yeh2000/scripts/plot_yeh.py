"""Figures of the Yeh study."""
import pandas as pd

from simstats.io.write import save_figure
from simstats.studies.yeh2000.figures import yeh_cluster_figure, yeh_rate_figure, yeh_sd_ratio_figure, yeh_squad_figure
from simstats.io.write import script_logger

with script_logger(snakemake.log[0]) as log:
    alpha = snakemake.params.alpha
    summary = pd.read_parquet(snakemake.input.size_power)
    out = snakemake.output
    save_figure(yeh_rate_figure(summary, "size", alpha), out.size, out.size_pdf)
    save_figure(yeh_rate_figure(summary, "power", alpha), out.power, out.power_pdf)
    save_figure(yeh_cluster_figure(pd.read_parquet(snakemake.input.clusters), alpha), out.clusters, out.clusters_pdf)
    save_figure(yeh_squad_figure(pd.read_parquet(snakemake.input.squad), alpha), out.squad, out.squad_pdf)
    save_figure(yeh_sd_ratio_figure(pd.read_csv(snakemake.input.sd_ratio)), out.sd_ratio, out.sd_ratio_pdf)
    log.info("Yeh figures written")
