"""results/fidelity.{csv,md}: the fidelity ledger of every published number (simstats.report.fidelity)."""
from pathlib import Path

from simstats.io.write import script_logger, write_csv, write_text
from simstats.report.fidelity import fidelity_ledger, fidelity_markdown, systematic_findings

with script_logger(snakemake.log[0]) as log:
    ledger = fidelity_ledger(Path(snakemake.output.csv).parent)
    findings = systematic_findings(ledger)
    write_csv(ledger, snakemake.output.csv)
    write_text(fidelity_markdown(ledger, findings), snakemake.output.md)
    log.info("%d published numbers: %s; %d systematic findings", len(ledger),
             ledger.groupby("role").verdict.value_counts().to_dict(), len(findings))
