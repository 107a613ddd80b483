"""Merge a scenario's chunks, summarise its noise model and draw its dev vs test figure."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.studies.noise.figures import dev_vs_test_figure
from simstats.studies.noise.simulate import merge_chunks, summarise
from simstats.studies.reference import paper_value
from simstats.io.write import save_figure, script_logger
from simstats.io.write import write_csv, write_parquet

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    scenario = snakemake.params.scenario.value
    scores, pairs = merge_chunks([pd.read_parquet(f) for f in snakemake.input.scores],
                                 [pd.read_parquet(f) for f in snakemake.input.pairs], snakemake.params.n_models)
    log.info("scenario %s: %d models, %d pairs", scenario.name, len(scores), len(pairs))
    summary = summarise(scenario, scores, pairs, snakemake.params.root_seed, snakemake.params.n_resamples)
    write_parquet(scores, snakemake.output.scores)
    write_parquet(pairs, snakemake.output.pairs)
    write_parquet(summary, snakemake.output.summary)
    write_csv(summary, snakemake.output.csv)
    log.info("summary:\n%s", summary.to_string())
    rho = paper_value("reimers2018", "T2_eval2", scenario.reference, "spearman_rho") if scenario.reference else None
    fig = dev_vs_test_figure(scores, summary, scenario, paper_rho=rho)
    save_figure(fig, snakemake.output.png, snakemake.output.pdf)
    log.info("wrote %s and %s", snakemake.output.png, snakemake.output.pdf)
