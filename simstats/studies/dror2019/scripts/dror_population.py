"""Dror study: synthetic population of 255 score distributions, ~510 within-task comparisons."""
from simstats.sim.memory import keep_freed_memory
from simstats.studies.dror2019.simulate import (case_summary, cases_markdown, population_pairs, population_summary,
                                                real_data_comparisons, synthetic_population)
from simstats.studies.dror2019.figures import dror_eps_figure
from simstats.io.write import save_figure
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_csv, write_parquet, write_text

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    seed = p.root_seed
    pop = synthetic_population(generator(seed, "dror", "population"), n_distributions=p.n_distributions,
                               tail_share=p.tail_share)
    pairs = population_pairs(pop, generator(seed, "dror", "pairs"))
    comparisons = [("synthetic population", pop[i]["task"], "pair", i, j, pop[i]["scores"], pop[j]["scores"])
                   for i, j in pairs]
    results = real_data_comparisons(comparisons, rng=generator(seed, "dror", "synthetic_aso"),
                                    n_resamples=p.n_resamples)
    summary = case_summary(results)
    paper = real_data_comparisons(comparisons, rng=generator(seed, "dror", "synthetic_aso", "dror2019"),
                                  n_resamples=p.n_resamples, convention="dror2019")
    write_csv(population_summary(pop), snakemake.output.population)
    write_parquet(paper, snakemake.output.dror2019)
    write_parquet(results, snakemake.output.parquet)
    write_csv(summary, snakemake.output.cases)
    write_text(cases_markdown(summary, results).replace("on real score distributions", "on a synthetic population"),
               snakemake.output.md)
    save_figure(dror_eps_figure(results), snakemake.output.png, snakemake.output.pdf)
    log.info("%d distributions, %d comparisons", len(pop), len(results))
