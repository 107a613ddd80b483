"""Known-truth competition study: rates with Monte Carlo standard errors."""
import pandas as pd

from simstats.competition_model import parse_competition
from simstats.competition_study import summarise_study
from simstats.competition_tables import study_markdown
from simstats.runlog import script_logger
from simstats.tables import write_csv, write_parquet, write_text

with script_logger(snakemake.log[0]) as log:
    comp = parse_competition(snakemake.params.competition)
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    summary = summarise_study(rows, comp["designs"], comp["populations"])
    write_parquet(summary, snakemake.output.parquet)
    write_csv(summary, snakemake.output.csv)
    write_text(study_markdown(summary, comp["alpha"]), snakemake.output.md)
    log.info("%d competitions in %d cells", len(rows), rows.groupby(["design", "m", "n"]).ngroups)
