"""Yeh study, real data: SQuAD 2.0 leaderboard pairs, paired (McNemar) vs unpaired (z) tests."""
import pandas as pd

from simstats.io.write import script_logger
from simstats.io.write import markdown_table, write_csv, write_parquet, write_text
from simstats.studies.yeh2000.simulate import leaderboard_pairs, leaderboard_summary

with script_logger(snakemake.log[0]) as log:
    n_questions, alpha = snakemake.params.n_questions, snakemake.params.alpha
    models = pd.read_csv(snakemake.input.models, sep="\t")
    pairs = pd.read_csv(snakemake.input.pairs, sep="\t")
    table = leaderboard_pairs(models, pairs, n_questions, alpha=alpha)
    summary = leaderboard_summary(table)
    write_parquet(table, snakemake.output.pairs)
    write_csv(summary, snakemake.output.csv)
    write_text(f"# SQuAD 2.0 leaderboard: {len(table)} pairs of submissions on {n_questions} "
               f"dev questions (α = {alpha}, two-sided)\n\n" + markdown_table(summary, digits=4),
               snakemake.output.md)
    log.info("%d pairs", len(table))
