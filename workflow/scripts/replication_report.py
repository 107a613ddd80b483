"""results/REPORT.md from the studies' tables (verdicts computed, figures linked)."""
import json
from pathlib import Path

from simstats.report.replication import replication_report, scale_summary
from simstats.io import script_logger
from simstats.io import write_text

with script_logger(snakemake.log[0]) as log:
    settings = json.loads(snakemake.params.settings)
    results = Path(snakemake.output[0]).parent
    text = replication_report(results, settings.get("figures_dir", "figures"), scale=scale_summary(settings),
                              root_seed=settings["root_seed"])
    write_text(text, snakemake.output[0])
    log.info("%d lines", text.count("\n") + 1)
