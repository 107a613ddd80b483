# The replication report: every study's comparisons with the papers in one Markdown file.
from simstats.report.replication import scale_summary


rule fidelity_ledger:
    """results/fidelity.{csv,md}: every published number beside ours, with role and symmetric verdict."""
    input:
        study_outputs(papers_only=True),
    output:
        csv=f"{RESULTS}/fidelity.csv",
        md=report(
            f"{RESULTS}/fidelity.md",
            caption="../report/fidelity.rst",
            category="Replication report",
        ),
    params:
        library=library_hash(None),
    log:
        log_path("fidelity_ledger"),
    conda:
        "../envs/simstats.yaml"
    script:
        "../scripts/fidelity_ledger.py"


rule replication_report:
    """results/REPORT.md: per paper, side-by-side tables with computed verdicts, figures, discrepancies."""
    input:
        study_outputs(),
        ledger=f"{RESULTS}/fidelity.csv",
    output:
        report(
            f"{RESULTS}/REPORT.md",
            caption="../report/replication_report.rst",
            category="Replication report",
        ),
    params:
        library=library_hash(None),
        figures_dir=figures_dir,
        scale=scale_summary(SETTINGS),
        root_seed=ROOT_SEED,
    log:
        log_path("replication_report"),
    conda:
        "../envs/simstats.yaml"
    script:
        "../scripts/replication_report.py"
