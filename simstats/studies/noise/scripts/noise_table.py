"""All scenarios' noise summaries in one CSV and one Markdown table."""
import pandas as pd

from simstats.studies.noise.simulate import summary_markdown
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    summary = pd.concat([pd.read_parquet(f) for f in snakemake.input], ignore_index=True)
    write_csv(summary, snakemake.output.csv)
    write_text(summary_markdown(summary), snakemake.output.md)
    log.info("%d scenarios, %d rows", summary.scenario.nunique(), len(summary))
