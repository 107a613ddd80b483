"""Figure: dev vs test scores of a scenario's models."""
import pandas as pd

from simstats.studies.noise.figures import dev_vs_test_figure
from simstats.io import save_figure
from simstats.studies.reference import paper_value
from simstats.io import script_logger

with script_logger(snakemake.log[0]) as log:
    scenario = snakemake.params.scenario.value
    scores = pd.read_parquet(snakemake.input.scores)
    summary = pd.read_parquet(snakemake.input.summary)
    rho = paper_value("reimers2018", "T2_eval2", scenario.reference, "spearman_rho") if scenario.reference else None
    fig = dev_vs_test_figure(scores, summary, scenario, paper_rho=rho)
    save_figure(fig, snakemake.output.png, snakemake.output.pdf)
    log.info("wrote %s and %s", snakemake.output.png, snakemake.output.pdf)
