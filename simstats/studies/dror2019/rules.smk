# Dror et al. (2019): ASO, COS and SO on real score distributions.
DROR = SETTINGS.dror
DROR_NOISE = ["false_positive", "half_split", "false_negative"]
DROR_SIZE_POWER = DROR.size_power.scenarios if DROR else []
DROR_CATEGORY = "Almost stochastic order (Dror 2019)"


rule dror_real_data:
    input:
        ukp="resources/realdata/ukp_bilstm_runs_2017.tsv.gz",
        ibm=expand(
            "resources/realdata/ibm_model_recycling_20_seeds/models_results_{base}_pretrain.csv",
            base=[
                "bert_base_cased",
                "bert_base_uncased",
                "google_t5_v1_1_base",
                "microsoft_deberta_v3_base",
                "roberta_base",
                "t5_base",
            ],
        ),
    output:
        parquet=f"{RESULTS}/dror/real_data.parquet",
        dror2019=f"{RESULTS}/dror/real_data_dror2019.parquet",
        csv=f"{RESULTS}/dror/real_data.csv",
        cases=report(
            f"{RESULTS}/dror/real_data_cases.csv",
            caption="report/dror_real_data.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/real_data_cases.md",
    params:
        library=library_hash("dror"),
        n_resamples=DROR.n_resamples if DROR else None,
        min_scores=DROR.min_scores if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/real_data"),
    benchmark:
        benchmark_path("dror/real_data")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=20,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/dror_real_data.py"


rule plot_dror_real_data:
    input:
        rules.dror_real_data.output.parquet,
    output:
        **figure("dror/real_data_eps", "dror_real_data_eps", DROR_CATEGORY),
    params:
        library=library_hash("dror"),
    log:
        log_path("dror/plot_real_data"),
    conda:
        CONDA_ENV
    script:
        "scripts/plot_dror_real_data.py"


rule dror_population:
    output:
        parquet=f"{RESULTS}/dror/synthetic.parquet",
        dror2019=f"{RESULTS}/dror/synthetic_dror2019.parquet",
        population=f"{RESULTS}/dror/population.csv",
        cases=report(
            f"{RESULTS}/dror/synthetic_cases.csv",
            caption="report/dror_synthetic.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/synthetic_cases.md",
        png=f"{FIGURES}/dror/synthetic_eps.png",
        pdf=f"{FIGURES}/dror/synthetic_eps.pdf",
    params:
        library=library_hash("dror"),
        n_distributions=DROR.population.n_distributions if DROR else None,
        tail_share=DROR.population.tail_share if DROR else None,
        n_resamples=DROR.n_resamples if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/population"),
    benchmark:
        benchmark_path("dror/population")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=20,
    priority: PRIORITY_CHAIN_START
    script:
        "scripts/dror_population.py"


rule dror_noise:
    output:
        f"{RESULTS}/dror/noise/chunks/{{analysis}}_{{chunk}}.parquet",
    params:
        library=library_hash("dror"),
        population=parsed(DROR.population) if DROR else None,
        n_resamples=DROR.n_resamples if DROR else None,
        alpha_aso=DROR.alpha_aso if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/noise_{analysis}_{chunk}"),
    benchmark:
        benchmark_path("dror/noise_{analysis}_{chunk}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=30,
    priority: PRIORITY_LONGEST
    script:
        "scripts/dror_noise.py"


rule dror_noise_summary:
    input:
        expand(
            f"{RESULTS}/dror/noise/chunks/{{analysis}}_{{chunk}}.parquet",
            analysis=DROR_NOISE,
            chunk=range(DROR.population.chunks if DROR else 0),
        ),
    output:
        csv=report(
            f"{RESULTS}/dror/noise_analyses.csv",
            caption="report/dror_noise.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/noise_analyses.md",
        **figure("dror/noise_eps", "dror_noise_eps", DROR_CATEGORY),
    params:
        library=library_hash("dror"),
    log:
        log_path("dror/noise_summary"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_noise_summary.py"


rule dror_noise_ukp:
    """Section 6 on real runs: one analysis on every UKP pool (task x hyperparameter value), the paper's own
    ASO computation only (about 10 ms per comparison)."""
    input:
        ukp=rules.dror_real_data.input.ukp,
    output:
        f"{RESULTS}/dror/noise_ukp/{{analysis}}.parquet",
    params:
        library=library_hash("dror"),
        repetitions=DROR.ukp_noise.repetitions if DROR else None,
        min_scores=DROR.ukp_noise.min_scores if DROR else None,
        n_resamples=DROR.n_resamples if DROR else None,
        alpha_aso=DROR.alpha_aso if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/noise_ukp_{analysis}"),
    benchmark:
        benchmark_path("dror/noise_ukp_{analysis}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/dror_noise_ukp.py"


rule dror_noise_ukp_summary:
    input:
        ukp=rules.dror_real_data.input.ukp,
        chunks=expand(f"{RESULTS}/dror/noise_ukp/{{analysis}}.parquet", analysis=DROR_NOISE),
    output:
        csv=report(
            f"{RESULTS}/dror/noise_ukp.csv",
            caption="report/dror_noise.rst",
            category=DROR_CATEGORY,
        ),
        pools=f"{RESULTS}/dror/noise_ukp_pools.csv",
        md=f"{RESULTS}/dror/noise_ukp.md",
    params:
        library=library_hash("dror"),
        min_scores=DROR.ukp_noise.min_scores if DROR else None,
    log:
        log_path("dror/noise_ukp_summary"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_noise_ukp_summary.py"


rule dror_size_power:
    """Beyond the paper: size and power of ASO, Welch and MWU on each scenario's simulated scores (one job:
    each scenario takes about a second, less than starting Python)."""
    input:
        scores=expand(f"{RESULTS}/noise/{{scenario}}/scores.parquet", scenario=DROR_SIZE_POWER),
    output:
        expand(f"{RESULTS}/dror/size_power/{{scenario}}.parquet", scenario=DROR_SIZE_POWER),
    params:
        library=library_hash("dror"),
        scenarios=DROR_SIZE_POWER,
        n_runs=DROR.size_power.n if DROR else None,
        shifts=DROR.size_power.shifts if DROR else None,
        replicates=DROR.size_power.replicates if DROR else None,
        alpha_so=DROR.alpha_so if DROR else None,
        alpha_aso=DROR.alpha_aso if DROR else None,
        n_resamples=DROR.n_resamples if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/size_power"),
    benchmark:
        benchmark_path("dror/size_power")
    conda:
        CONDA_ENV
    resources:
        runtime=30,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/dror_size_power.py"


rule dror_size_power_table:
    input:
        expand(f"{RESULTS}/dror/size_power/{{scenario}}.parquet", scenario=DROR_SIZE_POWER),
    output:
        csv=report(
            f"{RESULTS}/dror/size_power.csv",
            caption="report/dror_size_power.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/size_power.md",
        **figure("dror/size_power", "dror_size_power_fig", DROR_CATEGORY),
    params:
        library=library_hash("dror"),
        alpha_so=DROR.alpha_so if DROR else None,
        alpha_aso=DROR.alpha_aso if DROR else None,
    log:
        log_path("dror/size_power_table"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_size_power_table.py"


rule dror_paper_cases:
    """Tables 1-3: distributions with the paper's published summaries (and, for cases B and C, the UKP runs
    themselves), COS / SO / ASO beside its verdicts."""
    input:
        ukp="resources/realdata/ukp_bilstm_runs_2017.tsv.gz",
    output:
        csv=report(
            f"{RESULTS}/dror/paper_cases.csv",
            caption="report/dror_paper_cases.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/paper_cases.md",
        dror2019=f"{RESULTS}/dror/paper_cases_dror2019.csv",
    params:
        library=library_hash("dror"),
        n_resamples=DROR.n_resamples if DROR else None,
        alpha_aso=DROR.alpha_aso if DROR else None,
        root_seed=ROOT_SEED,
    log:
        log_path("dror/paper_cases"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_paper_cases.py"


rule dror_conventions:
    """Tables 1-4 and section 6 (synthetic population; UKP pools) under deepsig's and the paper's own ASO
    computation, beside the paper."""
    input:
        cases=rules.dror_paper_cases.output.csv,
        cases_dror2019=rules.dror_paper_cases.output.dror2019,
        real=rules.dror_real_data.output.parquet,
        real_dror2019=rules.dror_real_data.output.dror2019,
        synthetic=rules.dror_population.output.parquet,
        synthetic_dror2019=rules.dror_population.output.dror2019,
        noise=rules.dror_noise_summary.output.csv,
        noise_ukp=rules.dror_noise_ukp_summary.output.csv,
    output:
        csv=report(
            f"{RESULTS}/dror/conventions.csv",
            caption="report/dror_conventions.rst",
            category=DROR_CATEGORY,
        ),
        md=f"{RESULTS}/dror/conventions.md",
    params:
        library=library_hash("dror"),
    log:
        log_path("dror/conventions"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_conventions.py"


rule dror_so_readings:
    """Table 4's SO shares and Tables 2-3's U p-values under each reading of the paper's U test."""
    input:
        ukp=rules.dror_real_data.input.ukp,
        ibm=rules.dror_real_data.input.ibm,
        verdicts=rules.dror_real_data.output.dror2019,
    output:
        csv=report(
            f"{RESULTS}/dror/so_readings.csv",
            caption="report/dror_so_readings.rst",
            category=DROR_CATEGORY,
        ),
        examples=f"{RESULTS}/dror/so_readings_examples.csv",
        md=f"{RESULTS}/dror/so_readings.md",
    params:
        library=library_hash("dror"),
        min_scores=DROR.min_scores if DROR else None,
        alpha_so=DROR.alpha_so if DROR else None,
    log:
        log_path("dror/so_readings"),
    conda:
        CONDA_ENV
    script:
        "scripts/dror_so_readings.py"
