"""Yeh study: every r12 x true difference cell of one metric and test size."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.io.write import script_logger
from simstats.io.write import write_parquet
from simstats.studies.yeh2000.simulate import make_population, simulate_cell

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    metric, n = snakemake.wildcards.metric, int(snakemake.wildcards.size)
    frames = []
    for r12 in p.r12:
        for diff in p.differences:
            pop = make_population(metric, r12, diff, recall=p.recall, spurious=p.spurious, gold_share=p.gold_share)
            rows = simulate_cell(pop, n, range(p.replicates), root_seed=p.root_seed, key=(metric, n, r12, diff),
                                 n_resamples=p.n_resamples, max_exact_cells=p.max_exact_cells)
            rows.insert(0, "difference", diff)
            rows.insert(0, "r12_population", pop.r12)
            rows.insert(0, "r12", r12)
            rows.insert(0, "n", n)
            rows.insert(0, "metric", metric)
            frames.append(rows)
        log.info("%s n=%d: r12 = %.2f done", metric, n, r12)
    write_parquet(pd.concat(frames, ignore_index=True), snakemake.output[0])
