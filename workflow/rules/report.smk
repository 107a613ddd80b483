# The replication report: every study's comparisons with the papers in one Markdown file.


rule replication_report:
    """results/REPORT.md: per paper, side-by-side tables with computed verdicts, figures, discrepancies."""
    input:
        noise_outputs(),
        competition_outputs(),
        yeh_outputs(),
        dror_outputs(),
        reimers_outputs(),
    output:
        report(
            f"{RESULTS}/REPORT.md",
            caption="../report/replication_report.rst",
            category="Replication report",
        ),
    params:
        settings=lambda wc: canonical({k: v for k, v in config.items() if k != "scenarios"}),
    log:
        f"{RESULTS}/logs/replication_report.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/replication_report.py"
