# What can I trust, per scenario: the comparisons a researcher makes, at each scenario's own parameters.
TRUST = SETTINGS.trust
TRUST_CATEGORY = "What can I trust, per scenario"


rule trust:
    """Target: every scenario's page."""
    input:
        trust_outputs(),


rule simulate_trust:
    output:
        f"{RESULTS}/trust/{{scenario}}/replicates.parquet",
    params:
        library=library_hash("trust"),
        scenario=noise_scenario,
        settings=trust_simulation_settings,
        root_seed=ROOT_SEED,
    log:
        log_path("trust/{scenario}"),
    benchmark:
        benchmark_path("trust/{scenario}")
    conda:
        CONDA_ENV
    resources:
        mem_mb=1500,
        runtime=60,
    priority: PRIORITY_SIMULATION
    script:
        "scripts/trust_simulate.py"


rule trust_page:
    input:
        replicates=rules.simulate_trust.output[0],
        reimers=trust_reimers_inputs,
    output:
        summary=f"{RESULTS}/trust/{{scenario}}/summary.csv",
        mdd=f"{RESULTS}/trust/{{scenario}}/minimum_detectable_difference.csv",
        md=report(
            f"{RESULTS}/trust/{{scenario}}.md",
            caption="report/trust_page.rst",
            category=TRUST_CATEGORY,
        ),
        **figure("trust/{scenario}", "trust_page_fig", TRUST_CATEGORY),
    params:
        library=library_hash("trust"),
        scenario=noise_scenario,
        settings=trust_page_settings,
        row_size=REIMERS.row_size if REIMERS else None,
    log:
        log_path("trust/{scenario}_page"),
    conda:
        CONDA_ENV
    script:
        "scripts/trust_page.py"
