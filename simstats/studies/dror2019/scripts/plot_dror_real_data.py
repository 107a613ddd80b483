"""Figure 1 analogue on real data: ASO's eps per case."""
import pandas as pd

from simstats.studies.dror2019.figures import dror_eps_figure
from simstats.io.write import save_figure
from simstats.io.write import script_logger

with script_logger(snakemake.log[0]) as log:
    save_figure(dror_eps_figure(pd.read_parquet(snakemake.input[0])), snakemake.output.png, snakemake.output.pdf)
    log.info("figure written")
