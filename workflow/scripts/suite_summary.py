"""Suite validation study: rates with MCSE per cell, the Markdown summary and the figure."""
from simstats.io import save_figure, script_logger, write_csv, write_text
from simstats.studies.suite.figures import validation_figure
from simstats.studies.suite.simulate import FAILING, read_replicates, study_markdown, summarise

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    summary = summarise(read_replicates(snakemake.input), alpha=settings.alpha,
                        confidence_level=settings.confidence_level)
    write_csv(summary, snakemake.output.csv)
    write_text(study_markdown(summary, settings), snakemake.output.md)
    save_figure(validation_figure(summary, settings), snakemake.output.png, snakemake.output.pdf)
    log.info("%d rates, %d defaults above alpha + 3 MCSE or below their level - 3 MCSE", len(summary),
             int((summary.verdict.isin(FAILING) & summary["default"]).sum()))
