# Noise study: what each scenario's noise model produces, beside its closed forms.


rule simulate_noise_chunk:
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/chunks/{{chunk}}.pairs.parquet",
    params:
        scenario=lambda wc: scenario_config(wc.scenario),
        root_seed=SETTINGS.root_seed,
        n_models=NOISE.n_models,
        chunk_size=NOISE.chunk_size,
    log:
        f"{RESULTS}/logs/noise/{{scenario}}/simulate_{{chunk}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/noise/{{scenario}}/simulate_{{chunk}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/simulate_noise_chunk.py"


rule summarise_noise:
    input:
        scores=noise_chunk_files(""),
        pairs=noise_chunk_files(".pairs"),
    output:
        scores=f"{RESULTS}/noise/{{scenario}}/scores.parquet",
        pairs=f"{RESULTS}/noise/{{scenario}}/pairs.parquet",
        summary=f"{RESULTS}/noise/{{scenario}}/summary.parquet",
        csv=f"{RESULTS}/noise/{{scenario}}/summary.csv",
    params:
        scenario=lambda wc: scenario_config(wc.scenario),
        root_seed=SETTINGS.root_seed,
        n_boot=NOISE.n_boot,
    log:
        f"{RESULTS}/logs/noise/{{scenario}}/summarise.log",
    benchmark:
        f"{RESULTS}/benchmarks/noise/{{scenario}}/summarise.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/summarise_noise.py"


rule plot_noise:
    input:
        scores=rules.summarise_noise.output.scores,
        summary=rules.summarise_noise.output.summary,
    output:
        png=report(
            f"{FIGURES}/noise/{{scenario}}_dev_vs_test.png",
            caption="../report/noise_dev_vs_test.rst",
            category="Noise model",
            subcategory="{scenario}",
        ),
        pdf=f"{FIGURES}/noise/{{scenario}}_dev_vs_test.pdf",
    params:
        scenario=lambda wc: scenario_config(wc.scenario),
    log:
        f"{RESULTS}/logs/noise/{{scenario}}/plot.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_noise.py"


rule noise_table:
    input:
        expand(f"{RESULTS}/noise/{{scenario}}/summary.parquet", scenario=NOISE.scenarios),
    output:
        csv=report(
            f"{RESULTS}/noise/summary.csv",
            caption="../report/noise_summary.rst",
            category="Noise model",
        ),
        md=f"{RESULTS}/noise/summary.md",
    log:
        f"{RESULTS}/logs/noise/table.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/noise_table.py"
