"""Dror study, section 6 on real runs: the summary of the three analyses on the UKP pools, and the pools."""
import pandas as pd

from simstats.studies.dror2019.simulate import noise_summary, ukp_noise_markdown, ukp_pools
from simstats.io.write import script_logger
from simstats.io.write import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    rows = pd.concat([pd.read_parquet(p) for p in snakemake.input.chunks], ignore_index=True)
    rows = rows.sort_values(["analysis", "index", "repetition"], kind="stable", ignore_index=True)
    pools = ukp_pools(pd.read_csv(snakemake.input.ukp, sep="\t", low_memory=False),
                      min_scores=snakemake.params.min_scores)
    table = pd.DataFrame([{"index": d["index"], "task": d["task"], "factor": d["factor"], "value": d["value"],
                           "n": d["scores"].size, "sd": d["scores"].std(ddof=1)} for d in pools])
    summary = noise_summary(rows, within=True)   # fixed pools: only the noise and the bootstraps are random
    write_csv(summary, snakemake.output.csv)
    write_csv(table, snakemake.output.pools)
    write_text(ukp_noise_markdown(summary, table), snakemake.output.md)
    log.info("%d comparisons on %d pools", len(rows), len(table))
