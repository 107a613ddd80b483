# Fitting the noise model to runs (simstats fit): recovery of known parameters.
FIT = SETTINGS.fit
FIT_CATEGORY = "Fitting the noise model to runs"


rule fit:
    """Target: the validation study of simstats fit."""
    input:
        fit_outputs(),


rule simulate_fit_variant:
    output:
        f"{RESULTS}/fit/variants/{{variant}}/chunks/{{chunk}}.parquet",
    params:
        library=library_hash("fit"),
        settings=fit_variant_settings,
        replicates=fit_chunk_replicates,
        root_seed=ROOT_SEED,
    log:
        log_path("fit/{variant}_{chunk}"),
    benchmark:
        benchmark_path("fit/{variant}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1000,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/fit_variant.py"


rule summarise_fit:
    input:
        expand(
            f"{RESULTS}/fit/variants/{{variant}}/chunks/{{chunk}}.parquet",
            variant=FIT.variant_names if FIT else [],
            chunk=range(len(FIT.chunks())) if FIT else [],
        ),
    output:
        csv=report(
            f"{RESULTS}/fit/validation.csv",
            caption="report/fit_validation.rst",
            category=FIT_CATEGORY,
        ),
        md=f"{RESULTS}/fit/validation.md",
        **figure("fit/validation", "fit_validation_fig", FIT_CATEGORY),
    params:
        library=library_hash("fit"),
        settings=parsed(FIT),
        study="fit",
    log:
        log_path("fit/summarise"),
    conda:
        CONDA_ENV
    script:
        f"{WORKFLOW_SCRIPTS}/variant_study_summary.py"
