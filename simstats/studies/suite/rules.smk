# Many models over a suite of tasks: error rates of the per-task decisions, coverage, size of the rank tests.
SUITE = SETTINGS.suite
SUITE_CATEGORY = "Many models over a suite of tasks"


rule suite:
    """Target: the suite validation study."""
    input:
        suite_outputs(),


rule simulate_suite_variant:
    output:
        f"{RESULTS}/suite/variants/{{variant}}/chunks/{{chunk}}.parquet",
    params:
        library=library_hash("suite"),
        settings=suite_variant_settings,
        replicates=suite_chunk_replicates,
        root_seed=ROOT_SEED,
    log:
        log_path("suite/{variant}_{chunk}"),
    benchmark:
        benchmark_path("suite/{variant}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1000,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/suite_variant.py"


rule summarise_suite:
    input:
        expand(
            f"{RESULTS}/suite/variants/{{variant}}/chunks/{{chunk}}.parquet",
            variant=SUITE.variant_names if SUITE else [],
            chunk=range(len(SUITE.chunks())) if SUITE else [],
        ),
    output:
        csv=report(
            f"{RESULTS}/suite/validation.csv",
            caption="report/suite_validation.rst",
            category=SUITE_CATEGORY,
        ),
        md=f"{RESULTS}/suite/validation.md",
        **figure("suite/validation", "suite_validation_fig", SUITE_CATEGORY),
    params:
        library=library_hash("suite"),
        settings=parsed(SUITE),
        study="suite",
    log:
        log_path("suite/summarise"),
    conda:
        CONDA_ENV
    script:
        f"{WORKFLOW_SCRIPTS}/variant_study_summary.py"
