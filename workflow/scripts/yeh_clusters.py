"""Yeh study: test items in documents; item- vs cluster-level tests as the design effect grows."""
from simstats.io import script_logger
from simstats.io import markdown_table, write_csv, write_parquet, write_text
from simstats.studies.yeh2000.simulate import read_cluster_rows, summarise_clusters

with script_logger(snakemake.log[0]) as log:
    c, alpha = snakemake.params.settings.value, snakemake.params.alpha
    rows = read_cluster_rows(snakemake.input)
    log.info("%d test sets over %d design effects", len(rows), rows.design_effect.nunique())
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
