"""Approach-level validation study: rates with MCSE per cell, the which-test table, the figure."""
import pandas as pd

from simstats.io import save_figure, script_logger, write_csv, write_text
from simstats.studies.approaches.figures import validation_figure
from simstats.studies.approaches.validation import planner_check, study_markdown, summarise, which_test_table

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    replicates = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    # one order whatever the chunking (rates are counts: the order changes no number)
    replicates = replicates.sort_values(["variant", "items", "truth", "replicate", "seeds"],
                                        kind="stable").reset_index(drop=True)
    summary = summarise(replicates, settings.alpha)
    table = which_test_table(summary, settings.alpha)
    planner = planner_check(replicates, settings)
    write_csv(summary, snakemake.output.csv)
    write_csv(table, snakemake.output.which_test)
    write_csv(planner, snakemake.output.planner)
    write_text(study_markdown(summary, table, settings, planner), snakemake.output.md)
    save_figure(validation_figure(summary, settings.alpha, settings.difference), snakemake.output.png,
                snakemake.output.pdf)
    log.info("%d cells, %d null cells outside alpha + 3 MCSE", len(summary),
             int((summary.holds_alpha == False).sum()))  # noqa: E712
