"""Approach-level validation study: the planner's predictions against one variant's simulated power."""
from simstats.io.write import script_logger, write_csv
from simstats.studies.approaches.validation import planner_check, read_replicates

with script_logger(snakemake.log[0]) as log:
    settings = snakemake.params.settings.value
    planner = planner_check(read_replicates(snakemake.input), settings)
    write_csv(planner, snakemake.output[0])
    log.info("%d planned cells, %d within 3 MCSE", len(planner),
             int(planner.within_3_mcse.sum()) if len(planner) else 0)
