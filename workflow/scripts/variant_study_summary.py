"""A validation study made of variants (harness, suite): rates with MCSE per cell, the Markdown summary and the
figure, from the study's own ``simulate`` (summarise, read_replicates, study_markdown, FAILING) and ``figures``
(validation_figure) modules."""
import importlib

from simstats.io.write import save_figure, script_logger, write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    study = importlib.import_module(f"simstats.studies.{snakemake.params.study}.simulate")
    figures = importlib.import_module(f"simstats.studies.{snakemake.params.study}.figures")
    settings = snakemake.params.settings.value
    summary = study.summarise(study.read_replicates(snakemake.input), alpha=settings.alpha,
                              confidence_level=settings.confidence_level)
    write_csv(summary, snakemake.output.csv)
    write_text(study.study_markdown(summary, settings), snakemake.output.md)
    save_figure(figures.validation_figure(summary, settings), snakemake.output.png, snakemake.output.pdf)
    log.info("%d rates, %d error rates above alpha + 3 MCSE or intervals below their level - 3 MCSE", len(summary),
             int(summary.verdict.isin(study.FAILING).sum()))
