"""Known-truth competition study: rates with Monte Carlo standard errors."""
import pandas as pd

from simstats.studies.navamunoz2024.simulate import summarise_study
from simstats.studies.navamunoz2024.tables import study_markdown
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_parquet, write_text

with script_logger(snakemake.log[0]) as log:
    designs, populations = snakemake.params.designs, snakemake.params.populations
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input], ignore_index=True)
    # one order whatever the chunking (chunks hold replicate ranges of every cell)
    rows = rows.sort_values(["design", "m", "n", "replicate"], kind="stable").reset_index(drop=True)
    summary = summarise_study(rows, designs, populations)
    write_parquet(summary, snakemake.output.parquet)
    write_csv(summary, snakemake.output.csv)
    write_text(study_markdown(summary, snakemake.params.alpha), snakemake.output.md)
    log.info("%d competitions in %d cells", len(rows), rows.groupby(["design", "m", "n"]).ngroups)
