# Approach-level comparisons over seeds x items: which test holds alpha for which claim (issue 16).
APPROACHES = SETTINGS.approaches
APPROACHES_CATEGORY = "Comparing approaches over seeds and items"


# Study helpers (lambdas: `snakemake --lint` wants functions in common.smk, helpers of one
# study stay with its rules).
# Only this variant's cells (editing another variant does not rerun this one).
approaches_variant_settings = lambda wildcards: parsed(APPROACHES.for_variant(wildcards.variant))
# replicates of one job of a variant (replicate r is keyed by r: chunk-invariant)
approaches_chunk_replicates = lambda wildcards: APPROACHES.chunks()[int(wildcards.chunk)]
approaches_outputs = lambda: (
    []
    if APPROACHES is None
    else [
        f"{RESULTS}/approaches/validation.md",
        f"{RESULTS}/approaches/which_test.csv",
        f"{FIGURES}/approaches/validation.png",
        f"{FIGURES}/approaches/validation.pdf",
    ]
)


rule approaches:
    """Target: the approach-level validation study."""
    input:
        approaches_outputs(),


rule simulate_approaches_variant:
    output:
        f"{RESULTS}/approaches/variants/{{variant}}/chunks/{{chunk}}.parquet",
    params:
        settings=approaches_variant_settings,
        replicates=approaches_chunk_replicates,
        root_seed=ROOT_SEED,
    log:
        log_path("approaches/{variant}_{chunk}"),
    benchmark:
        benchmark_path("approaches/{variant}_{chunk}")
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1500,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "../scripts/approaches_variant.py"


rule summarise_approaches:
    input:
        expand(
            f"{RESULTS}/approaches/variants/{{variant}}/chunks/{{chunk}}.parquet",
            variant=APPROACHES.variant_names if APPROACHES else [],
            chunk=range(len(APPROACHES.chunks())) if APPROACHES else [],
        ),
    output:
        csv=report(
            f"{RESULTS}/approaches/validation.csv",
            caption="../report/approaches_validation.rst",
            category=APPROACHES_CATEGORY,
        ),
        which_test=f"{RESULTS}/approaches/which_test.csv",
        md=f"{RESULTS}/approaches/validation.md",
        **figure("approaches/validation", "approaches_validation_fig", APPROACHES_CATEGORY),
    params:
        settings=parsed(APPROACHES),
    log:
        log_path("approaches/summarise"),
    conda:
        "../envs/simstats.yaml"
    script:
        "../scripts/approaches_summary.py"
