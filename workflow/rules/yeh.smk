# Yeh (2000) study: correlated systems, paired vs independence-assuming tests, dependent items.


rule simulate_yeh_cells:
    output:
        f"{RESULTS}/yeh/cells/{{metric}}_{{size}}.parquet",
    params:
        settings=yeh_params,
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/yeh/cells_{{metric}}_{{size}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/yeh/cells_{{metric}}_{{size}}.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=60,
    script:
        "../scripts/simulate_yeh_cells.py"


rule summarise_yeh:
    input:
        expand(
            f"{RESULTS}/yeh/cells/{{metric}}_{{size}}.parquet",
            metric=YEH_METRICS,
            size=YEH["sizes"] if YEH else [],
        ),
    output:
        parquet=f"{RESULTS}/yeh/size_power.parquet",
        csv=report(
            f"{RESULTS}/yeh/size_power.csv",
            caption="../report/yeh_size_power.rst",
            category="Correlated systems (Yeh 2000)",
        ),
        md=f"{RESULTS}/yeh/size_power.md",
    params:
        alpha=lambda wc: config["yeh"].get("alpha", 0.05),
    log:
        f"{RESULTS}/logs/yeh/summarise.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/summarise_yeh.py"


rule yeh_sd_ratio:
    output:
        csv=report(
            f"{RESULTS}/yeh/sd_ratio.csv",
            caption="../report/yeh_sd_ratio.rst",
            category="Correlated systems (Yeh 2000)",
        ),
        md=f"{RESULTS}/yeh/sd_ratio.md",
    params:
        settings=yeh_section_params("sd_ratio"),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/yeh/sd_ratio.log",
    benchmark:
        f"{RESULTS}/benchmarks/yeh/sd_ratio.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/yeh_sd_ratio.py"


rule yeh_clusters:
    output:
        parquet=f"{RESULTS}/yeh/clusters.parquet",
        csv=report(
            f"{RESULTS}/yeh/clusters.csv",
            caption="../report/yeh_clusters.rst",
            category="Correlated systems (Yeh 2000)",
        ),
        md=f"{RESULTS}/yeh/clusters.md",
    params:
        settings=yeh_section_params("clusters"),
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/yeh/clusters.log",
    benchmark:
        f"{RESULTS}/benchmarks/yeh/clusters.tsv"
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/yeh_clusters.py"


rule yeh_squad:
    input:
        models="resources/realdata/squad2_leaderboard_models.tsv",
        pairs="resources/realdata/squad2_leaderboard_pairs_dev.tsv",
    output:
        pairs=f"{RESULTS}/yeh/squad_pairs.parquet",
        csv=report(
            f"{RESULTS}/yeh/squad_summary.csv",
            caption="../report/yeh_squad.rst",
            category="Correlated systems (Yeh 2000)",
        ),
        md=f"{RESULTS}/yeh/squad_summary.md",
    params:
        settings=yeh_section_params("squad"),
    log:
        f"{RESULTS}/logs/yeh/squad.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/yeh_squad.py"


rule yeh_example:
    output:
        csv=report(
            f"{RESULTS}/yeh/example.csv",
            caption="../report/yeh_example.rst",
            category="Correlated systems (Yeh 2000)",
        ),
        md=f"{RESULTS}/yeh/example.md",
    params:
        root_seed=SETTINGS.root_seed,
    log:
        f"{RESULTS}/logs/yeh/example.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/yeh_example.py"


rule plot_yeh:
    input:
        size_power=rules.summarise_yeh.output.parquet,
        sd_ratio=rules.yeh_sd_ratio.output.csv,
        clusters=rules.yeh_clusters.output.parquet,
        squad=rules.yeh_squad.output.pairs,
    output:
        **{
            fig: report(
                f"{FIGURES}/yeh/{fig}.png",
                caption=f"../report/yeh_fig_{fig}.rst",
                category="Correlated systems (Yeh 2000)",
            )
            for fig in ["size", "power", "clusters", "squad", "sd_ratio"]
        },
        **{f"{fig}_pdf": f"{FIGURES}/yeh/{fig}.pdf" for fig in ["size", "power", "clusters", "squad", "sd_ratio"]},
    params:
        alpha=lambda wc: config["yeh"].get("alpha", 0.05),
    log:
        f"{RESULTS}/logs/yeh/plot.log",
    threads: 1
    conda:
        "../envs/simstats.yaml"
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_yeh.py"
