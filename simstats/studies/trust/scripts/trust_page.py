"""What can I trust: one scenario's page (Markdown and figure) from its simulated comparisons and, where the Reimers
study ran it, its evaluations and runs needed."""
import os

import pandas as pd

from simstats.io.write import save_figure, script_logger, write_csv, write_text
from simstats.studies.trust.page import page_figure, scenario_page
from simstats.studies.trust.simulate import minimum_detectable, read_replicates, summarise

with script_logger(snakemake.log[0]) as log:
    scenario = snakemake.params.scenario.value
    settings = snakemake.params.settings.value
    replicates = read_replicates([snakemake.input.replicates])
    summary = summarise(replicates, settings.alpha)
    mdd = minimum_detectable(replicates, scenario, settings)
    tables = needed = None
    if snakemake.input.reimers:
        tables = pd.read_csv(snakemake.input.reimers[0])
        needed = pd.read_csv(snakemake.input.reimers[1])
    rel = os.path.relpath(snakemake.output.png, os.path.dirname(snakemake.output.md))[:-len(".png")]
    write_csv(summary, snakemake.output.summary)
    write_csv(mdd, snakemake.output.mdd)
    write_text(scenario_page(scenario, summary, mdd, settings, tables=tables, needed=needed,
                             row_size=snakemake.params.row_size if tables is not None else None, figure_rel=rel),
               snakemake.output.md)
    save_figure(page_figure(summary, scenario, settings), snakemake.output.png, snakemake.output.pdf)
    log.info("%s: %d rates, %d sizes above alpha + 3 MCSE", scenario.name, len(summary),
             int((summary.verdict == "liberal").sum()))
