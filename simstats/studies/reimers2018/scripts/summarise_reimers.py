"""Reimers study: one task's Tables 1-5 and Figure 4 cells, and its power study."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.reimers2018.simulate import read_chunks
from simstats.studies.reimers2018.tables import power_study, task_summary
from simstats.io.write import script_logger
from simstats.io.write import write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenario, settings = snakemake.params.scenario.value, snakemake.params.settings.value
    scores = read_chunks(snakemake.input.scores)
    comparisons = read_chunks(snakemake.input.comparisons)
    log.info("task %s: %d models, %d comparisons", scenario.name, len(scores), len(comparisons))
    summary = task_summary(scenario, settings, scores, comparisons)
    log.info("summary done; power study (%d replicates per cell)", settings.power_replicates)
    power = power_study(scenario, settings, scores, snakemake.params.root_seed)
    write_parquet(power, snakemake.output.power)
    write_parquet(summary, snakemake.output.summary)
    write_parquet(comparisons, snakemake.output.comparisons)
    write_parquet(scores, snakemake.output.scores)
