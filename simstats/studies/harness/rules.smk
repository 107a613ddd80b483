# Comparing two models from an evaluation's per-item scores (harness logs): coverage, size and power.
HARNESS = SETTINGS.harness
HARNESS_CATEGORY = "Comparing models from harness logs"


rule harness:
    """Target: the harness-log validation study."""
    input:
        harness_outputs(),


rule simulate_harness_variant:
    output:
        f"{RESULTS}/harness/variants/{{variant}}/chunks/{{chunk}}.parquet",
    params:
        library=library_hash("harness"),
        settings=harness_variant_settings,
        replicates=harness_chunk_replicates,
        root_seed=ROOT_SEED,
    log:
        log_path("harness/{variant}_{chunk}"),
    benchmark:
        benchmark_path("harness/{variant}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1000,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/harness_variant.py"


rule summarise_harness:
    input:
        expand(
            f"{RESULTS}/harness/variants/{{variant}}/chunks/{{chunk}}.parquet",
            variant=HARNESS.variant_names if HARNESS else [],
            chunk=range(len(HARNESS.chunks())) if HARNESS else [],
        ),
    output:
        csv=report(
            f"{RESULTS}/harness/validation.csv",
            caption="report/harness_validation.rst",
            category=HARNESS_CATEGORY,
        ),
        md=f"{RESULTS}/harness/validation.md",
        **figure("harness/validation", "harness_validation_fig", HARNESS_CATEGORY),
    params:
        library=library_hash("harness"),
        settings=parsed(HARNESS),
        study="harness",
    log:
        log_path("harness/summarise"),
    conda:
        CONDA_ENV
    script:
        f"{WORKFLOW_SCRIPTS}/variant_study_summary.py"
