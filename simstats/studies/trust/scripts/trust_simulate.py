"""What can I trust: one scenario's simulated comparisons (two runs on one test set; approaches over seeds)."""
from simstats.sim.memory import keep_freed_memory
from simstats.io.write import script_logger, write_parquet
from simstats.studies.trust.simulate import simulate_scenario

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenario = snakemake.params.scenario.value
    settings = snakemake.params.settings.value
    table = simulate_scenario(scenario, settings, snakemake.params.root_seed, range(settings.replicates))
    log.info("%s: %d rows", scenario.name, len(table))
    write_parquet(table, snakemake.output[0])
