# Approach-level comparisons over seeds x items: which test holds alpha for which claim.
APPROACHES = SETTINGS.approaches
APPROACHES_CATEGORY = "Comparing approaches over seeds and items"


rule approaches:
    """Target: the approach-level validation study."""
    input:
        approaches_outputs(),


rule simulate_approaches_variant:
    output:
        f"{RESULTS}/approaches/variants/{{variant}}/chunks/{{chunk}}.parquet",
    params:
        library=library_hash("approaches"),
        settings=approaches_variant_settings,
        replicates=approaches_chunk_replicates,
        root_seed=ROOT_SEED,
    log:
        log_path("approaches/{variant}_{chunk}"),
    benchmark:
        benchmark_path("approaches/{variant}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1500,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/approaches_variant.py"


rule check_approaches_planner:
    """The planner's predictions against one variant's simulated power (off the summary's critical path)."""
    input:
        approaches_variant_chunks,
    output:
        f"{RESULTS}/approaches/variants/{{variant}}/planner.csv",
    params:
        library=library_hash("approaches"),
        settings=approaches_variant_settings,
    log:
        log_path("approaches/{variant}_planner"),
    benchmark:
        benchmark_path("approaches/{variant}_planner")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1500,
        runtime=30,
    script:
        "scripts/approaches_planner.py"


rule summarise_approaches:
    input:
        chunks=expand(
            f"{RESULTS}/approaches/variants/{{variant}}/chunks/{{chunk}}.parquet",
            variant=APPROACHES.variant_names if APPROACHES else [],
            chunk=range(len(APPROACHES.chunks())) if APPROACHES else [],
        ),
        planners=expand(
            f"{RESULTS}/approaches/variants/{{variant}}/planner.csv",
            variant=APPROACHES.variant_names if APPROACHES else [],
        ),
    output:
        csv=report(
            f"{RESULTS}/approaches/validation.csv",
            caption="report/approaches_validation.rst",
            category=APPROACHES_CATEGORY,
        ),
        which_test=f"{RESULTS}/approaches/which_test.csv",
        planner=f"{RESULTS}/approaches/planner.csv",
        md=f"{RESULTS}/approaches/validation.md",
        **figure("approaches/validation", "approaches_validation_fig", APPROACHES_CATEGORY),
    params:
        library=library_hash("approaches"),
        settings=parsed(APPROACHES),
    log:
        log_path("approaches/summarise"),
    conda:
        CONDA_ENV
    script:
        "scripts/approaches_summary.py"
