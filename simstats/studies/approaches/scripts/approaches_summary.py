"""Approach-level validation study: rates with MCSE per cell, the which-test table, the figure."""
import pandas as pd

from simstats.io.write import save_figure, script_logger, write_csv, write_text
from simstats.studies.approaches.figures import validation_figure
from simstats.studies.approaches.validation import read_replicates, study_markdown, summarise, which_test_table

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    replicates = read_replicates(snakemake.input.chunks)
    summary = summarise(replicates, settings.alpha)
    table = which_test_table(summary, settings.alpha)
    # the per-variant checks, in the variants' sorted order as one check of all variants gives them
    planner = pd.concat([pd.read_csv(p) for p in snakemake.input.planners], ignore_index=True)
    planner = planner.sort_values(["variant", "items", "seeds"], kind="stable").reset_index(drop=True)
    write_csv(summary, snakemake.output.csv)
    write_csv(table, snakemake.output.which_test)
    write_csv(planner, snakemake.output.planner)
    write_text(study_markdown(summary, table, settings, planner), snakemake.output.md)
    save_figure(validation_figure(summary, settings.alpha, settings.difference), snakemake.output.png,
                snakemake.output.pdf)
    log.info("%d cells, %d null cells outside alpha + 3 MCSE", len(summary),
             int((summary.holds_alpha == False).sum()))  # noqa: E712
