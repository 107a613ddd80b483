"""Yeh study: test items in documents; item- vs cluster-level tests as the design effect grows."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.io.write import script_logger
from simstats.io.write import markdown_table, write_csv, write_parquet, write_text
from simstats.studies.yeh2000.simulate import clustered_pair, simulate_cluster_cell, summarise_clusters

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    c, alpha = snakemake.params.settings.value, snakemake.params.alpha
    frames = []
    for de in c.design_effects:
        pair = clustered_pair(de, accuracy=c.accuracy, sigma_item=c.sigma_item, doc_size=c.doc_size)
        rows = simulate_cluster_cell(pair, c.n_docs, range(c.replicates), root_seed=snakemake.params.root_seed,
                                     key=(de,), n_resamples=snakemake.params.n_resamples)
        rows.insert(0, "tau", pair.tau)
        rows.insert(0, "design_effect", de)
        frames.append(rows)
        log.info("design effect %.2f (tau %.3f) done", de, pair.tau)
    rows = pd.concat(frames, ignore_index=True)
    summary = summarise_clusters(rows, alpha)
    write_parquet(summary, snakemake.output.parquet)
    write_csv(summary, snakemake.output.csv)
    wide = summary.assign(cell=[f"{r:.3f} ± {m:.3f} ({v})" for r, m, v in zip(summary.rate, summary.mcse,
                                                                                summary.verdict)])
    wide = wide.pivot_table(index=["design_effect", "tau"], columns="test", values="cell", aggfunc="first")
    write_text(f"# Dependent test items: size of item- vs cluster-level tests (α = {alpha}, two-sided)\n\n"
               f"{c.n_docs} documents of {c.doc_size} items; two equally good systems; the "
               "design effect of the accuracy difference is exact (closed form).\n\n"
               + markdown_table(wide.reset_index()), snakemake.output.md)
