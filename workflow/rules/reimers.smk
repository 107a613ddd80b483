# Reimers & Gurevych (2018): Evaluations 1-4, Tables 1-5, Figure 4, calibration, power, UKP data.


rule reimers:
    """Target: the whole Reimers & Gurevych study."""
    input:
        reimers_outputs(),


rule reimers_calibration:
    """Refit every task's noise parameters to tau, Delta95 (Table 1) and rho (Table 2)."""
    output:
        csv=f"{RESULTS}/reimers/calibration_fit.csv",
    params:
        scenarios=lambda wc: canonical({name: config["scenarios"][name] for name in REIMERS.tasks}),
    log:
        f"{RESULTS}/logs/reimers/calibration.log",
    benchmark:
        f"{RESULTS}/benchmarks/reimers/calibration.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/reimers_calibration.py"


rule simulate_reimers_chunk:
    output:
        scores=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.parquet",
        comparisons=f"{RESULTS}/reimers/{{scenario}}/chunks/{{chunk}}.comparisons.parquet",
    params:
        settings=reimers_params,
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/reimers/{{scenario}}/simulate_{{chunk}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/reimers/{{scenario}}/simulate_{{chunk}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/simulate_reimers_chunk.py"


rule summarise_reimers:
    input:
        scores=reimers_chunk_files(""),
        comparisons=reimers_chunk_files(".comparisons"),
    output:
        scores=f"{RESULTS}/reimers/{{scenario}}/scores.parquet",
        comparisons=f"{RESULTS}/reimers/{{scenario}}/comparisons.parquet",
        summary=f"{RESULTS}/reimers/{{scenario}}/summary.parquet",
        power=f"{RESULTS}/reimers/{{scenario}}/power.parquet",
    params:
        settings=reimers_params,
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/reimers/{{scenario}}/summarise.log",
    benchmark:
        f"{RESULTS}/benchmarks/reimers/{{scenario}}/summarise.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/summarise_reimers.py"


rule reimers_realdata:
    input:
        ukp="resources/realdata/ukp_bilstm_runs_2017.tsv.gz",
    output:
        csv=f"{RESULTS}/reimers/realdata.csv",
    params:
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/reimers/realdata.log",
    benchmark:
        f"{RESULTS}/benchmarks/reimers/realdata.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/reimers_realdata.py"


rule reimers_tables:
    input:
        summaries=reimers_task_files("summary"),
        power=reimers_task_files("power"),
        calibration=rules.reimers_calibration.output.csv,
        realdata=rules.reimers_realdata.output.csv,
    output:
        csv=report(
            f"{RESULTS}/reimers/tables.csv",
            caption="../report/reimers_tables.rst",
            category="Single scores vs distributions (Reimers 2018)",
        ),
        md=f"{RESULTS}/reimers/tables.md",
        calibration_csv=f"{RESULTS}/reimers/calibration.csv",
        calibration_md=f"{RESULTS}/reimers/calibration.md",
        power_csv=f"{RESULTS}/reimers/power_runs_needed.csv",
        realdata_md=f"{RESULTS}/reimers/realdata.md",
    params:
        scenarios=lambda wc: canonical({name: config["scenarios"][name] for name in REIMERS.tasks}),
        settings=lambda wc: canonical(config["reimers"]),
    log:
        f"{RESULTS}/logs/reimers/tables.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/reimers_tables.py"


rule plot_reimers:
    input:
        tables=rules.reimers_tables.output.csv,
        calibration=rules.reimers_tables.output.calibration_csv,
        scores=reimers_task_files("scores"),
        power=reimers_task_files("power"),
    output:
        figure4_png=report(
            f"{FIGURES}/reimers/figure4.png",
            caption="../report/reimers_figure4.rst",
            category="Single scores vs distributions (Reimers 2018)",
        ),
        figure4_pdf=f"{FIGURES}/reimers/figure4.pdf",
        dev_test_png=report(
            f"{FIGURES}/reimers/dev_vs_test.png",
            caption="../report/reimers_dev_vs_test.rst",
            category="Single scores vs distributions (Reimers 2018)",
        ),
        dev_test_pdf=f"{FIGURES}/reimers/dev_vs_test.pdf",
        power_png=report(
            f"{FIGURES}/reimers/power.png",
            caption="../report/reimers_power.rst",
            category="Single scores vs distributions (Reimers 2018)",
        ),
        power_pdf=f"{FIGURES}/reimers/power.pdf",
        calibration_png=report(
            f"{FIGURES}/reimers/calibration.png",
            caption="../report/reimers_calibration.rst",
            category="Single scores vs distributions (Reimers 2018)",
        ),
        calibration_pdf=f"{FIGURES}/reimers/calibration.pdf",
    params:
        scenarios=lambda wc: canonical({name: config["scenarios"][name] for name in REIMERS.tasks}),
        settings=lambda wc: canonical(config["reimers"]),
    log:
        f"{RESULTS}/logs/reimers/plot.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/plot_reimers.py"
