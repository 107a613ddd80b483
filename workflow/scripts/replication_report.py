"""results/REPORT.md from the studies' tables (verdicts computed, figures linked)."""
from pathlib import Path

from simstats.report.replication import replication_report
from simstats.io.write import script_logger
from simstats.io.write import write_text

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    results = Path(snakemake.output[0]).parent
    text = replication_report(results, p.figures_dir, scale=p.scale, root_seed=p.root_seed)
    write_text(text, snakemake.output[0])
    log.info("%d lines", text.count("\n") + 1)
