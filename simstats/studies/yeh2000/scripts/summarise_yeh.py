"""Yeh study: rejection rates with MCSE, size verdicts, Markdown tables."""
import pandas as pd

from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_parquet, write_text
from simstats.studies.yeh2000.simulate import size_power_markdown, summarise_cells

with script_logger(snakemake.log[0]) as log:
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    summary = summarise_cells(rows, snakemake.params.alpha)
    write_parquet(summary, snakemake.output.parquet)
    write_csv(summary, snakemake.output.csv)
    write_text(size_power_markdown(summary, snakemake.params.alpha), snakemake.output.md)
    log.info("%d test sets, %d summary rows", len(rows), len(summary))
