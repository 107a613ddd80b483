"""Dror study, section 6: summary beside the paper's values, Figure 2 analogue."""
import pandas as pd

from simstats.studies.dror2019.simulate import noise_markdown, noise_summary
from simstats.studies.dror2019.figures import dror_noise_figure
from simstats.io.write import save_figure
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    rows = rows.sort_values(["analysis", "index", "repetition"], kind="stable", ignore_index=True)
    summary = noise_summary(rows)
    write_csv(summary, snakemake.output.csv)
    write_text(noise_markdown(summary), snakemake.output.md)
    save_figure(dror_noise_figure(rows), snakemake.output.png, snakemake.output.pdf)
    log.info("%d comparisons", len(rows))
