# Competition study (Nava-Muñoz et al. 2024): simulated competitions shaped like VaxxStance
# Basque and Spanish (competition.examples), the CompStats real data, the Table 5 check, and competitions with
# known truth (winner, FWER/FDR of corrections, CI coverage).
COMPETITION = SETTINGS.competition
COMPETITION_CASES = [*COMPETITION.examples, "compstats"] if COMPETITION is not None else []
COMPETITION_TABLES = ["scores", "differences", "pairs", "matrix", "summary"]
COMPETITION_CATEGORY = "Competitions (Nava-Muñoz 2024)"
COMPETITION_CASE_FIGURES = ["intervals", "differences", "bootstrap"]
COMPETITION_STUDY_FIGURES = ["fwer", "fdr", "power", "truth"]


rule competition_widths:
    """The paper's Tables 2-3 CI widths over competition.width_test_sets simulated test sets of an example
    (simstats/studies/navamunoz2024/widths.py): mean, MCSE, sd of one test set's width."""
    output:
        f"{RESULTS}/competition/{{case}}/widths.csv",
    params:
        library=library_hash("competition"),
        example=competition_example,
        population=competition_example_population,
        n_resamples=COMPETITION.n_resamples if COMPETITION else None,
        test_sets=COMPETITION.width_test_sets if COMPETITION else None,
        root_seed=ROOT_SEED,
    log:
        log_path("competition/{case}_widths"),
    benchmark:
        benchmark_path("competition/{case}_widths")
    resources:
        mem_mb=1000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    conda:
        CONDA_ENV
    script:
        "scripts/competition_widths.py"


rule competition_case:
    input:
        competition_case_input,
        competition_case_widths,
    output:
        replicates=f"{RESULTS}/competition/{{case}}/replicates.parquet",
        tables=expand(f"{RESULTS}/competition/{{{{case}}}}/{{table}}.csv", table=COMPETITION_TABLES),
        check=f"{RESULTS}/competition/{{case}}/check.csv",
        md=report(
            f"{RESULTS}/competition/{{case}}/{{case}}_report.md",
            caption="report/competition_case.rst",
            category=COMPETITION_CATEGORY,
            subcategory="{case}",
        ),
    params:
        library=library_hash("competition"),
        example=competition_example,
        population=competition_example_population,
        n_resamples=COMPETITION.n_resamples if COMPETITION else None,
        root_seed=ROOT_SEED,
    log:
        log_path("competition/{case}"),
    benchmark:
        benchmark_path("competition/{case}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "scripts/competition_case.py"


rule plot_competition_case:
    input:
        replicates=rules.competition_case.output.replicates,
        tables=rules.competition_case.output.tables,
    output:
        **figures(
            {fig: f"competition/{{case}}_{fig}" for fig in COMPETITION_CASE_FIGURES},
            "competition_",
            COMPETITION_CATEGORY,
            "{case}",
        ),
    params:
        library=library_hash("competition"),
        example=competition_example,
        metric=competition_case_metric,
    log:
        log_path("competition/{case}_plot"),
    conda:
        CONDA_ENV
    script:
        "scripts/plot_competition_case.py"


rule competition_table5_check:
    output:
        csv=report(
            f"{RESULTS}/competition/table5_check.csv",
            caption="report/competition_table5.rst",
            category=COMPETITION_CATEGORY,
        ),
        md=f"{RESULTS}/competition/table5_check.md",
    params:
        library=library_hash("competition"),
    log:
        log_path("competition/table5_check"),
    conda:
        CONDA_ENV
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "scripts/competition_table5_check.py"


rule simulate_competition_design:
    output:
        f"{RESULTS}/competition/study/designs/{{design}}/chunks/{{chunk}}.parquet",
    params:
        library=library_hash("competition"),
        design=competition_design,
        population=competition_design_population,
        replicates=competition_chunk_replicates,
        n_resamples=COMPETITION.study_resamples if COMPETITION else None,
        alpha=COMPETITION.alpha if COMPETITION else None,
        root_seed=ROOT_SEED,
    log:
        log_path("competition/study_{design}_{chunk}"),
    benchmark:
        benchmark_path("competition/study_{design}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=3000,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/simulate_competition_design.py"


rule summarise_competition_study:
    input:
        expand(
            f"{RESULTS}/competition/study/designs/{{design}}/chunks/{{chunk}}.parquet",
            design=list(COMPETITION.designs) if COMPETITION else [],
            chunk=range(len(COMPETITION.study_chunks())) if COMPETITION else [],
        ),
    output:
        parquet=f"{RESULTS}/competition/study/summary.parquet",
        csv=report(
            f"{RESULTS}/competition/study/summary.csv",
            caption="report/competition_study.rst",
            category=COMPETITION_CATEGORY,
            subcategory="known truth",
        ),
        md=f"{RESULTS}/competition/study/summary.md",
    params:
        library=library_hash("competition"),
        designs=competition_study_designs() if COMPETITION else None,
        populations=competition_study_populations() if COMPETITION else None,
        alpha=COMPETITION.alpha if COMPETITION else None,
    log:
        log_path("competition/study_summary"),
    conda:
        CONDA_ENV
    script:
        "scripts/summarise_competition_study.py"


rule plot_competition_study:
    input:
        rules.summarise_competition_study.output.parquet,
    output:
        **figures(
            {fig: f"competition/study_{fig}" for fig in COMPETITION_STUDY_FIGURES},
            "competition_study_",
            COMPETITION_CATEGORY,
            "known truth",
        ),
    params:
        library=library_hash("competition"),
        alpha=COMPETITION.alpha if COMPETITION else None,
    log:
        log_path("competition/study_plot"),
    conda:
        CONDA_ENV
    script:
        "scripts/plot_competition_study.py"
