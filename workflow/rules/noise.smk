# Noise study: what each scenario's noise model produces, beside its closed forms.
NOISE = SETTINGS.noise
NOISE_CATEGORY = "Noise model"


# Study helpers (lambdas: `snakemake --lint` wants functions in common.smk, helpers of one
# study stay with its rules).
# Only this scenario's parsed settings (editing another scenario does not rerun its jobs).
noise_scenario = lambda wildcards: parsed(SETTINGS.scenarios[wildcards.scenario])
# The study describes models 0 .. n_models-1 of each approach.  The Reimers study simulates the same models of
# its tasks (same stream and item sets), and its chunk jobs write this study's tables of them; a scenario the
# Reimers study covers with at least as many models (in blocks of even size) is read from there, the others get
# their own chunk jobs.
noise_from_reimers = lambda scenario: (
    SETTINGS.reimers is not None
    and scenario in SETTINGS.reimers.tasks
    and scenario in NOISE.scenarios
    and SETTINGS.reimers.holds_noise_models(NOISE.n_models)
)
# Input function: the chunk files holding a scenario's models (suffix "" for scores, ".pairs" for r12).
noise_chunk_files = lambda suffix: lambda wildcards: (
    expand(
        f"{RESULTS}/reimers/{wildcards.scenario}/chunks/{{chunk}}.noise{suffix}.parquet",
        chunk=[c for c in range(SETTINGS.reimers.n_chunks) if SETTINGS.reimers.chunk_range(c)[0] < NOISE.n_models],
    )
    if noise_from_reimers(wildcards.scenario)
    else expand(f"{RESULTS}/noise/{wildcards.scenario}/chunks/{{chunk}}{suffix}.parquet", chunk=range(NOISE.n_chunks))
)
noise_outputs = lambda: [
    f"{RESULTS}/noise/summary.csv",
    f"{RESULTS}/noise/summary.md",
    *expand(f"{RESULTS}/noise/{{scenario}}/scores.parquet", scenario=NOISE.scenarios),
    *expand(f"{FIGURES}/noise/{{scenario}}_dev_vs_test.{{ext}}", scenario=NOISE.scenarios, ext=["png", "pdf"]),
]


rule simulate_noise_chunk:
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.pairs.parquet",
    params:
        scenario=noise_scenario,
        root_seed=ROOT_SEED,
        n_models=NOISE.n_models,
        chunk_size=NOISE.chunk_size,
    log:
        log_path("noise/{scenario}/simulate_{chunk}"),
    benchmark:
        benchmark_path("noise/{scenario}/simulate_{chunk}")
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/simulate_noise_chunk.py"


rule summarise_noise:
    """Merge a scenario's chunks (its own or the Reimers study's), summarise its noise model against the
    closed forms and draw its dev vs test figure (one job: the figure needs nothing else)."""
    input:
        scores=noise_chunk_files(""),
        pairs=noise_chunk_files(".pairs"),
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/scores.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/pairs.parquet",
        summary=f"{RESULTS}/noise/{{scenario}}/summary.parquet",
        csv=f"{RESULTS}/noise/{{scenario}}/summary.csv",
        **figure("noise/{scenario}_dev_vs_test", "noise_dev_vs_test", NOISE_CATEGORY, "{scenario}"),
    params:
        scenario=noise_scenario,
        root_seed=ROOT_SEED,
        n_models=NOISE.n_models,
        n_boot=NOISE.n_boot,
    log:
        log_path("noise/{scenario}/summarise"),
    benchmark:
        benchmark_path("noise/{scenario}/summarise")
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/summarise_noise.py"


rule noise_table:
    input:
        expand(f"{RESULTS}/noise/{{scenario}}/summary.parquet", scenario=NOISE.scenarios),
    output:
        csv=report(
            f"{RESULTS}/noise/summary.csv",
            caption="../report/noise_summary.rst",
            category=NOISE_CATEGORY,
        ),
        md=f"{RESULTS}/noise/summary.md",
    log:
        log_path("noise/table"),
    conda:
        "../envs/simstats.yaml"
    script:
        "../scripts/noise_table.py"
