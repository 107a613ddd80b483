# Noise study: what each scenario's noise model produces, beside its closed forms.
NOISE = SETTINGS.noise
NOISE_CATEGORY = "Noise model"


rule simulate_noise_chunk:
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.pairs.parquet",
    params:
        library=library_hash("noise"),
        scenario=noise_scenario,
        root_seed=ROOT_SEED,
        n_models=NOISE.n_models,
        chunk_size=NOISE.chunk_size,
    log:
        log_path("noise/{scenario}/simulate_{chunk}"),
    benchmark:
        benchmark_path("noise/{scenario}/simulate_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "scripts/simulate_noise_chunk.py"


rule summarise_noise:
    """Merge a scenario's chunks (its own or the Reimers study's), summarise its noise model against the
    closed forms and draw its dev vs test figure (one job: the figure needs nothing else)."""
    input:
        scores=noise_score_chunks,
        pairs=noise_pair_chunks,
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/scores.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/pairs.parquet",
        summary=f"{RESULTS}/noise/{{scenario}}/summary.parquet",
        csv=f"{RESULTS}/noise/{{scenario}}/summary.csv",
        **figure("noise/{scenario}_dev_vs_test", "noise_dev_vs_test", NOISE_CATEGORY, "{scenario}"),
    params:
        library=library_hash("noise"),
        scenario=noise_scenario,
        root_seed=ROOT_SEED,
        n_models=NOISE.n_models,
        n_resamples=NOISE.n_resamples,
    log:
        log_path("noise/{scenario}/summarise"),
    benchmark:
        benchmark_path("noise/{scenario}/summarise")
    conda:
        CONDA_ENV
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "scripts/summarise_noise.py"


rule noise_table:
    input:
        expand(f"{RESULTS}/noise/{{scenario}}/summary.parquet", scenario=NOISE.scenarios),
    output:
        csv=report(
            f"{RESULTS}/noise/summary.csv",
            caption="report/noise_summary.rst",
            category=NOISE_CATEGORY,
        ),
        md=f"{RESULTS}/noise/summary.md",
    params:
        library=library_hash("noise"),
    log:
        log_path("noise/table"),
    conda:
        CONDA_ENV
    script:
        "scripts/noise_table.py"
