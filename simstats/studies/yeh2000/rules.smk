# Yeh (2000) study: correlated systems, paired vs independence-assuming tests, dependent items.
YEH = SETTINGS.yeh
YEH_METRICS = ["recall", "precision", "f1"]
YEH_CATEGORY = "Correlated systems (Yeh 2000)"
YEH_FIGURES = ["size", "power", "clusters", "squad", "sd_ratio"]


rule simulate_yeh_cells:
    output:
        f"{RESULTS}/yeh/cells/{{metric}}_{{size}}.parquet",
    params:
        library=library_hash("yeh"),
        r12=YEH.r12 if YEH else None,
        differences=yeh_differences,
        replicates=YEH.replicates if YEH else None,
        n_resamples=YEH.n_resamples if YEH else None,
        max_exact_cells=YEH.max_exact_cells if YEH else None,
        recall=YEH.recall if YEH else None,
        spurious=YEH.spurious if YEH else None,
        gold_share=YEH.gold_share if YEH else None,
        root_seed=ROOT_SEED,
    log:
        log_path("yeh/cells_{metric}_{size}"),
    benchmark:
        benchmark_path("yeh/cells_{metric}_{size}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/simulate_yeh_cells.py"


rule summarise_yeh:
    input:
        expand(
            f"{RESULTS}/yeh/cells/{{metric}}_{{size}}.parquet",
            metric=YEH_METRICS,
            size=YEH.sizes if YEH else [],
        ),
    output:
        parquet=f"{RESULTS}/yeh/size_power.parquet",
        csv=report(
            f"{RESULTS}/yeh/size_power.csv",
            caption="report/yeh_size_power.rst",
            category=YEH_CATEGORY,
        ),
        md=f"{RESULTS}/yeh/size_power.md",
    params:
        library=library_hash("yeh"),
        alpha=YEH.alpha if YEH else None,
    log:
        log_path("yeh/summarise"),
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/summarise_yeh.py"


rule yeh_sd_ratio:
    output:
        csv=report(
            f"{RESULTS}/yeh/sd_ratio.csv",
            caption="report/yeh_sd_ratio.rst",
            category=YEH_CATEGORY,
        ),
        md=f"{RESULTS}/yeh/sd_ratio.md",
    params:
        library=library_hash("yeh"),
        settings=parsed(YEH.sd_ratio) if YEH else None,
        r12=YEH.r12 if YEH else None,
        root_seed=ROOT_SEED,
    log:
        log_path("yeh/sd_ratio"),
    benchmark:
        benchmark_path("yeh/sd_ratio")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/yeh_sd_ratio.py"


rule yeh_clusters:
    output:
        parquet=f"{RESULTS}/yeh/clusters.parquet",
        csv=report(
            f"{RESULTS}/yeh/clusters.csv",
            caption="report/yeh_clusters.rst",
            category=YEH_CATEGORY,
        ),
        md=f"{RESULTS}/yeh/clusters.md",
    params:
        library=library_hash("yeh"),
        settings=parsed(YEH.clusters) if YEH else None,
        alpha=YEH.alpha if YEH else None,
        n_resamples=YEH.n_resamples if YEH else None,
        root_seed=ROOT_SEED,
    log:
        log_path("yeh/clusters"),
    benchmark:
        benchmark_path("yeh/clusters")
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
        runtime=30,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/yeh_clusters.py"


rule yeh_squad:
    input:
        models="resources/realdata/squad2_leaderboard_models.tsv",
        pairs="resources/realdata/squad2_leaderboard_pairs_dev.tsv",
    output:
        pairs=f"{RESULTS}/yeh/squad_pairs.parquet",
        csv=report(
            f"{RESULTS}/yeh/squad_summary.csv",
            caption="report/yeh_squad.rst",
            category=YEH_CATEGORY,
        ),
        md=f"{RESULTS}/yeh/squad_summary.md",
    params:
        library=library_hash("yeh"),
        n_questions=YEH.n_questions if YEH else None,
        alpha=YEH.alpha if YEH else None,
    log:
        log_path("yeh/squad"),
    conda:
        CONDA_ENV
    priority: PRIORITY_SIMULATION
    script:
        "scripts/yeh_squad.py"


rule yeh_example:
    output:
        csv=report(
            f"{RESULTS}/yeh/example.csv",
            caption="report/yeh_example.rst",
            category=YEH_CATEGORY,
        ),
        md=f"{RESULTS}/yeh/example.md",
    params:
        library=library_hash("yeh"),
        root_seed=ROOT_SEED,
    log:
        log_path("yeh/example"),
    conda:
        CONDA_ENV
    resources:
        mem_mb=2000,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/yeh_example.py"


rule plot_yeh:
    input:
        size_power=rules.summarise_yeh.output.parquet,
        sd_ratio=rules.yeh_sd_ratio.output.csv,
        clusters=rules.yeh_clusters.output.parquet,
        squad=rules.yeh_squad.output.pairs,
    output:
        **figures({fig: f"yeh/{fig}" for fig in YEH_FIGURES}, "yeh_fig_", YEH_CATEGORY),
    params:
        library=library_hash("yeh"),
        alpha=YEH.alpha if YEH else None,
    log:
        log_path("yeh/plot"),
    conda:
        CONDA_ENV
    priority: PRIORITY_SIMULATION
    script:
        "scripts/plot_yeh.py"
