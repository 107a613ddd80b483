# Competition study (Nava-Muñoz et al. 2024): one simulated competition shaped like
# VaxxStance Basque, the CompStats real data, the Table 5 check, and competitions with
# known truth (winner, FWER/FDR of corrections, CI coverage).


rule competition_case:
    input:
        competition_case_input,
    output:
        replicates=f"{RESULTS}/competition/{{case}}/replicates.parquet",
        tables=expand(f"{RESULTS}/competition/{{{{case}}}}/{{table}}.csv", table=COMPETITION_TABLES),
        check=f"{RESULTS}/competition/{{case}}/check.csv",
        md=report(
            f"{RESULTS}/competition/{{case}}/report.md",
            caption="../report/competition_case.rst",
            category="Competitions (Nava-Muñoz 2024)",
            subcategory="{case}",
        ),
    params:
        settings=competition_case_params,
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/competition/{{case}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/competition/{{case}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "../scripts/competition_case.py"


rule plot_competition_case:
    input:
        replicates=rules.competition_case.output.replicates,
        tables=rules.competition_case.output.tables,
    output:
        intervals=report(
            f"{FIGURES}/competition/{{case}}_intervals.png",
            caption="../report/competition_intervals.rst",
            category="Competitions (Nava-Muñoz 2024)",
            subcategory="{case}",
        ),
        intervals_pdf=f"{FIGURES}/competition/{{case}}_intervals.pdf",
        differences=report(
            f"{FIGURES}/competition/{{case}}_differences.png",
            caption="../report/competition_differences.rst",
            category="Competitions (Nava-Muñoz 2024)",
            subcategory="{case}",
        ),
        differences_pdf=f"{FIGURES}/competition/{{case}}_differences.pdf",
        bootstrap=report(
            f"{FIGURES}/competition/{{case}}_bootstrap.png",
            caption="../report/competition_bootstrap.rst",
            category="Competitions (Nava-Muñoz 2024)",
            subcategory="{case}",
        ),
        bootstrap_pdf=f"{FIGURES}/competition/{{case}}_bootstrap.pdf",
    log:
        f"{RESULTS}/logs/competition/{{case}}_plot.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_competition_case.py"


rule competition_table5_check:
    output:
        csv=report(
            f"{RESULTS}/competition/table5_check.csv",
            caption="../report/competition_table5.rst",
            category="Competitions (Nava-Muñoz 2024)",
        ),
        md=f"{RESULTS}/competition/table5_check.md",
    log:
        f"{RESULTS}/logs/competition/table5_check.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/competition_table5_check.py"


rule simulate_competition_design:
    output:
        f"{RESULTS}/competition/study/designs/{{design}}.parquet",
    params:
        settings=competition_design_params,
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/competition/study_{{design}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/competition/study_{{design}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/simulate_competition_design.py"


rule summarise_competition_study:
    input:
        expand(
            f"{RESULTS}/competition/study/designs/{{design}}.parquet",
            design=list(COMPETITION["designs"]) if COMPETITION else [],
        ),
    output:
        parquet=f"{RESULTS}/competition/study/summary.parquet",
        csv=report(
            f"{RESULTS}/competition/study/summary.csv",
            caption="../report/competition_study.rst",
            category="Competitions (Nava-Muñoz 2024)",
            subcategory="known truth",
        ),
        md=f"{RESULTS}/competition/study/summary.md",
    params:
        study=competition_study_params,
    log:
        f"{RESULTS}/logs/competition/study_summary.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/summarise_competition_study.py"


rule plot_competition_study:
    input:
        rules.summarise_competition_study.output.parquet,
    output:
        **{
            fig: report(
                f"{FIGURES}/competition/study_{fig}.png",
                caption=f"../report/competition_study_{fig}.rst",
                category="Competitions (Nava-Muñoz 2024)",
                subcategory="known truth",
            )
            for fig in ["fwer", "fdr", "power", "truth"]
        },
        **{f"{fig}_pdf": f"{FIGURES}/competition/study_{fig}.pdf" for fig in ["fwer", "fdr", "power", "truth"]},
    params:
        alpha=lambda wc: competition_config().get("alpha", 0.05),
    log:
        f"{RESULTS}/logs/competition/study_plot.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_competition_study.py"
