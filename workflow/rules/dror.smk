# Dror et al. (2019): ASO, COS and SO on real score distributions.


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
        csv=f"{RESULTS}/dror/real_data.csv",
        cases=report(
            f"{RESULTS}/dror/real_data_cases.csv",
            caption="../report/dror_real_data.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        md=f"{RESULTS}/dror/real_data_cases.md",
    params:
        settings=lambda wc: canonical(config["dror"]),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/dror/real_data.log",
    benchmark:
        f"{RESULTS}/benchmarks/dror/real_data.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "../scripts/dror_real_data.py"


rule plot_dror_real_data:
    input:
        rules.dror_real_data.output.parquet,
    output:
        png=report(
            f"{FIGURES}/dror/real_data_eps.png",
            caption="../report/dror_real_data_eps.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        pdf=f"{FIGURES}/dror/real_data_eps.pdf",
    log:
        f"{RESULTS}/logs/dror/plot_real_data.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_dror_real_data.py"


rule dror_population:
    output:
        parquet=f"{RESULTS}/dror/synthetic.parquet",
        cases=report(
            f"{RESULTS}/dror/synthetic_cases.csv",
            caption="../report/dror_synthetic.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        md=f"{RESULTS}/dror/synthetic_cases.md",
        png=f"{FIGURES}/dror/synthetic_eps.png",
        pdf=f"{FIGURES}/dror/synthetic_eps.pdf",
    params:
        settings=lambda wc: canonical(config["dror"]),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/dror/population.log",
    benchmark:
        f"{RESULTS}/benchmarks/dror/population.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=20,
    script:
        "../scripts/dror_population.py"


rule dror_noise:
    output:
        f"{RESULTS}/dror/noise/{{analysis}}_{{chunk}}.parquet",
    params:
        settings=lambda wc: canonical(config["dror"]),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/dror/noise_{{analysis}}_{{chunk}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/dror/noise_{{analysis}}_{{chunk}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/dror_noise.py"


rule dror_noise_summary:
    input:
        expand(
            f"{RESULTS}/dror/noise/{{analysis}}_{{chunk}}.parquet",
            analysis=DROR_NOISE,
            chunk=range(DROR["population"]["chunks"] if DROR else 0),
        ),
    output:
        csv=report(
            f"{RESULTS}/dror/noise_analyses.csv",
            caption="../report/dror_noise.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        md=f"{RESULTS}/dror/noise_analyses.md",
        png=report(
            f"{FIGURES}/dror/noise_eps.png",
            caption="../report/dror_noise_eps.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        pdf=f"{FIGURES}/dror/noise_eps.pdf",
    log:
        f"{RESULTS}/logs/dror/noise_summary.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/dror_noise_summary.py"


rule dror_size_power:
    """Beyond the paper: size and power of ASO, Welch and MWU on one scenario's simulated scores."""
    input:
        scores=f"{RESULTS}/noise/{{scenario}}/scores.parquet",
    output:
        f"{RESULTS}/dror/size_power/{{scenario}}.parquet",
    params:
        settings=lambda wc: canonical(config["dror"]),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/dror/size_power_{{scenario}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/dror/size_power_{{scenario}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=30,
    script:
        "../scripts/dror_size_power.py"


rule dror_size_power_table:
    input:
        expand(f"{RESULTS}/dror/size_power/{{scenario}}.parquet", scenario=DROR_SIZE_POWER),
    output:
        csv=report(
            f"{RESULTS}/dror/size_power.csv",
            caption="../report/dror_size_power.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        md=f"{RESULTS}/dror/size_power.md",
        png=report(
            f"{FIGURES}/dror/size_power.png",
            caption="../report/dror_size_power_fig.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        pdf=f"{FIGURES}/dror/size_power.pdf",
    params:
        settings=lambda wc: canonical(config["dror"]),
    log:
        f"{RESULTS}/logs/dror/size_power_table.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/dror_size_power_table.py"


rule dror_paper_cases:
    """Tables 1-3: distributions with the paper's published summaries, COS / SO / ASO beside its verdicts."""
    output:
        csv=report(
            f"{RESULTS}/dror/paper_cases.csv",
            caption="../report/dror_paper_cases.rst",
            category="Almost stochastic order (Dror 2019)",
        ),
        md=f"{RESULTS}/dror/paper_cases.md",
    params:
        settings=lambda wc: canonical(config["dror"]),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/dror/paper_cases.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/dror_paper_cases.py"
