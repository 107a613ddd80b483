"""Size and power of ASO, Welch and MWU: table and figure over all scenarios."""
import pandas as pd

from simstats.studies.dror2019.size_power import size_power_markdown
from simstats.studies.dror2019.figures import aso_size_power_figure
from simstats.io.write import save_figure
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    write_csv(rows, snakemake.output.csv)
    write_text(size_power_markdown(rows, snakemake.params.alpha_so, snakemake.params.alpha_aso), snakemake.output.md)
    save_figure(aso_size_power_figure(rows), snakemake.output.png, snakemake.output.pdf)
    log.info("%d rows", len(rows))
