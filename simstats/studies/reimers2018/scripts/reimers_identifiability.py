"""Reimers study: refit the Figure 4 task under each assumed mixture shape (the identifiability band)."""
from simstats.sim.memory import keep_freed_memory
from simstats.sim.noise import realised_item_sets
from simstats.studies.reimers2018.calibration import (identifiability, identifiability_band, identifiability_markdown,
                                                      identifiability_task)
from simstats.io.write import script_logger, write_csv, write_text

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    task = identifiability_task(p.scenarios.values())
    if task is None:
        raise ValueError("reimers.identifiability: no Reimers task uses the test_shift_mixture seed distribution")
    table = identifiability(task, p.low_prob, p.theta_ratio, p.ns, item_sets=realised_item_sets(task, p.root_seed),
                            progress=log.info)
    band = identifiability_band(table)
    write_csv(table, snakemake.output.csv)
    write_text(identifiability_markdown(table, band), snakemake.output.md)
