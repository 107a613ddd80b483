"""Reimers study: refit each task's noise parameters and compare with the stored ones; the closed-form
Figure 4 / Table 2 curves of the stored parameters."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.reimers2018.calibration import calibration_table
from simstats.studies.reimers2018.selection import closed_form_curves
from simstats.io.write import script_logger
from simstats.io.write import write_csv

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenarios = list(snakemake.params.scenarios.values())
    table = calibration_table(scenarios, progress=log.info, root_seed=snakemake.params.root_seed)
    curves = closed_form_curves(scenarios, snakemake.params.ns, alpha=snakemake.params.alpha,
                                root_seed=snakemake.params.root_seed, progress=log.info)
    write_csv(table, snakemake.output.csv)
    write_csv(curves, snakemake.output.curves)
