# Reimers & Gurevych (2018): Evaluations 1-4, Tables 1-5, Figure 4, calibration, power, UKP data.
REIMERS = SETTINGS.reimers
REIMERS_CATEGORY = "Single scores vs distributions (Reimers 2018)"
REIMERS_FIGURES = ["figure4", "figure4_tasks", "dev_vs_test", "power", "calibration"]


rule reimers:
    """Target: the whole Reimers & Gurevych study."""
    input:
        reimers_outputs(),


rule reimers_calibration:
    """Refit every task's noise parameters to tau, Delta95 (Table 1) and rho (Table 2), and Table 2's
    % significant for test_shift_mixture tasks; closed-form Figure 4 curves of the stored parameters."""
    output:
        csv=f"{RESULTS}/reimers/calibration_fit.csv",
        curves=f"{RESULTS}/reimers/closed_form_curves.csv",
    params:
        library=library_hash("reimers"),
        scenarios=reimers_task_scenarios(),
        ns=REIMERS.figure4_n if REIMERS else None,
        alpha=REIMERS.alpha if REIMERS else None,
        root_seed=ROOT_SEED,
    log:
        log_path("reimers/calibration"),
    benchmark:
        benchmark_path("reimers/calibration")
    conda:
        CONDA_ENV
    priority: PRIORITY_SIMULATION
    script:
        "scripts/reimers_calibration.py"


rule reimers_identifiability:
    """Refit the Figure 4 task under each assumed mixture shape: the Figure 4 values the published numbers
    do not pin down."""
    output:
        csv=f"{RESULTS}/reimers/identifiability.csv",
        md=f"{RESULTS}/reimers/identifiability.md",
    params:
        library=library_hash("reimers"),
        scenarios=reimers_task_scenarios(),
        low_prob=REIMERS.identifiability_low_prob if REIMERS else None,
        theta_ratio=REIMERS.identifiability_theta_ratio if REIMERS else None,
        ns=REIMERS.figure4_n if REIMERS else None,
        root_seed=ROOT_SEED,
    log:
        log_path("reimers/identifiability"),
    benchmark:
        benchmark_path("reimers/identifiability")
    conda:
        CONDA_ENV
    priority: PRIORITY_LONG
    script:
        "scripts/reimers_identifiability.py"


rule simulate_reimers_chunk:
    output:
        scores=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.parquet",
        comparisons=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.comparisons.parquet",
        # the noise study's tables of these models (summarise_noise reads them)
        noise_scores=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.noise.parquet",
        noise_pairs=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.noise.pairs.parquet",
    params:
        library=library_hash("reimers"),
        scenario=reimers_task,
        settings=reimers_task_settings,
        root_seed=ROOT_SEED,
        # the noise study's models (0 .. n_models-1) of this task, read from here (noise_from_reimers)
        noise_models=reimers_noise_models,
    log:
        log_path("reimers/{scenario}/simulate_{chunk}"),
    benchmark:
        benchmark_path("reimers/{scenario}/simulate_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=3000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/simulate_reimers_chunk.py"


rule summarise_reimers:
    input:
        scores=reimers_score_chunks,
        comparisons=reimers_comparison_chunks,
    output:
        scores=f"{RESULTS}/reimers/{{scenario}}/scores.parquet",
        comparisons=f"{RESULTS}/reimers/{{scenario}}/comparisons.parquet",
        summary=f"{RESULTS}/reimers/{{scenario}}/summary.parquet",
        power=f"{RESULTS}/reimers/{{scenario}}/power.parquet",
    params:
        library=library_hash("reimers"),
        scenario=reimers_task,
        settings=reimers_task_settings,
        root_seed=ROOT_SEED,
    log:
        log_path("reimers/{scenario}/summarise"),
    benchmark:
        benchmark_path("reimers/{scenario}/summarise")
    conda:
        CONDA_ENV
    resources:
        mem_mb=4000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/summarise_reimers.py"


rule reimers_realdata:
    input:
        ukp="resources/realdata/ukp_bilstm_runs_2017.tsv.gz",
        scores=reimers_task_files("scores"),
    output:
        csv=f"{RESULTS}/reimers/realdata.csv",
    params:
        library=library_hash("reimers"),
        root_seed=ROOT_SEED,
        n_resamples=REIMERS.realdata_resamples if REIMERS else None,
    log:
        log_path("reimers/realdata"),
    benchmark:
        benchmark_path("reimers/realdata")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/reimers_realdata.py"


rule simulate_reimers_figure4_chunk:
    """Figure 4 at large n: one job's groups of n fresh runs per approach (figure4.py); chunk-invariant."""
    output:
        f"{RESULTS}/reimers/figure4/{{scenario}}/n{{n}}_{{chunk}}.parquet",
    params:
        library=library_hash("reimers"),
        scenario=reimers_task,
        root_seed=ROOT_SEED,
        settings=parsed(REIMERS),
    log:
        log_path("reimers/figure4/{scenario}/n{n}_{chunk}"),
    benchmark:
        benchmark_path("reimers/figure4/{scenario}/n{n}_{chunk}")
    resources:
        mem_mb=2000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    conda:
        CONDA_ENV
    script:
        "scripts/simulate_reimers_figure4_chunk.py"


rule summarise_reimers_figure4:
    """The Figure 4 simulation's % significant per n with its MCSE."""
    input:
        reimers_figure4_chunks,
    output:
        f"{RESULTS}/reimers/figure4/{{scenario}}/summary.parquet",
    params:
        library=library_hash("reimers"),
        scenario=reimers_task,
        alpha=REIMERS.alpha if REIMERS else None,
    log:
        log_path("reimers/figure4/{scenario}/summarise"),
    priority: PRIORITY_SIMULATION
    conda:
        CONDA_ENV
    script:
        "scripts/summarise_reimers_figure4.py"


rule reimers_tables:
    input:
        # the dedicated Figure 4 summary last: side_by_side keeps it where it repeats a cell with more pairs
        summaries=[*reimers_task_files("summary"), *reimers_figure4_summaries()],
        power=reimers_task_files("power"),
        calibration=rules.reimers_calibration.output.csv,
        realdata=rules.reimers_realdata.output.csv,
    output:
        csv=report(
            f"{RESULTS}/reimers/tables.csv",
            caption="report/reimers_tables.rst",
            category=REIMERS_CATEGORY,
        ),
        md=f"{RESULTS}/reimers/tables.md",
        calibration_csv=f"{RESULTS}/reimers/calibration.csv",
        calibration_md=f"{RESULTS}/reimers/calibration.md",
        power_csv=f"{RESULTS}/reimers/power_runs_needed.csv",
        realdata_md=f"{RESULTS}/reimers/realdata.md",
    params:
        library=library_hash("reimers"),
        settings=parsed(REIMERS),
        origins=scenario_origins(),
    log:
        log_path("reimers/tables"),
    conda:
        CONDA_ENV
    priority: PRIORITY_SIMULATION
    script:
        "scripts/reimers_tables.py"


rule plot_reimers:
    input:
        tables=rules.reimers_tables.output.csv,
        curves=rules.reimers_calibration.output.curves,
        calibration=rules.reimers_tables.output.calibration_csv,
        scores=reimers_task_files("scores"),
        power=reimers_task_files("power"),
    output:
        **figures(
            {key: f"reimers/{key}" for key in REIMERS_FIGURES},
            "reimers_",
            REIMERS_CATEGORY,
        ),
    params:
        library=library_hash("reimers"),
        power_target=REIMERS.power_target if REIMERS else None,
        metrics=reimers_metrics(),
    log:
        log_path("reimers/plot"),
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/plot_reimers.py"
