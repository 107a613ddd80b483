"""Figures of the known-truth competition study."""
import pandas as pd

from simstats.studies.navamunoz2024.figures import competition_study_figure, competition_truth_figure
from simstats.io.write import save_figure
from simstats.io.write import script_logger

with script_logger(snakemake.log[0]) as log:
    summary = pd.read_parquet(snakemake.input[0])
    alpha = snakemake.params.alpha
    for q in ("fwer", "fdr", "power"):
        fig = competition_study_figure(summary, q, alpha if q in ("fwer", "fdr") else None)
        save_figure(fig, snakemake.output[q], snakemake.output[f"{q}_pdf"])
    save_figure(competition_truth_figure(summary), snakemake.output.truth, snakemake.output.truth_pdf)
    log.info("study figures written")
