"""One competition analysed as in the paper: the simulated example or the CompStats data."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.io.tables import read_table
from simstats.io.predictions import statistics_from_predictions
from simstats.io.competition import case_markdown, case_tables
from simstats.stats.competition import analyse_competition
from simstats.studies.navamunoz2024.conventions import PRESET
from simstats.studies.navamunoz2024.simulate import example_competition
from simstats.studies.navamunoz2024.tables import compstats_check, example_vs_paper, summary_vs_paper
from simstats.io.write import script_logger
from simstats.sim.seeding import generator
from simstats.io.write import write_csv, write_parquet, write_text

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    case = snakemake.wildcards.case
    n_resamples = snakemake.params.n_resamples
    if snakemake.params.example is not None:
        population, example = snakemake.params.population.value, snakemake.params.example.value
        analysis, truth = example_competition(population, example, root_seed=snakemake.params.root_seed,
                                              n_resamples=n_resamples, name=case)
        tables = case_tables(analysis, truth["scores"])
        language = example.language
        check = example_vs_paper(analysis, language) if language else pd.DataFrame(columns=["verdict"])
        drawn = (f"; the test set is the first of {truth['draws']} simulated ones that ranks the systems as their "
                 "true scores do" if example.condition_on_ranking else "")
        title = f"Simulated competition '{case}' (n = {analysis.n_items}; true scores given{drawn})"
        extra = {} if not language else {
            f"CI widths beside the paper's Tables 2 and 3 ({language}; tolerance 15 % relative)": check,
            f"Summary measures beside the paper's Table 8 (VaxxStance {language}, Close Track-Textual; real data "
            "vs one simulated test set, no tolerance)": summary_vs_paper(tables["summary"], language)}
    else:
        table = read_table(snakemake.input[0])
        names, stats, metric = statistics_from_predictions(table, "y", metric_name="weighted_f1")
        analysis = analyse_competition(names, stats, metric, n_resamples=n_resamples,
                                       rng=generator(snakemake.params.root_seed, "competition", case, "bootstrap"),
                                       **PRESET)
        tables = case_tables(analysis)
        check = compstats_check(analysis)
        title = f"CompStats competition data (real; n = {analysis.n_items}, support-weighted F1)"
        extra = {"One-sided p-values vs the winner beside CompStats' documentation (tolerance 0.02)": check}
    log.info("%s: %d systems, n = %d, winner %s (%.4f)", case, analysis.m, analysis.n_items, analysis.names[0],
             analysis.scores[0])
    replicates = pd.DataFrame(analysis.replicates, columns=analysis.names)
    replicates.attrs = {}
    write_parquet(replicates, snakemake.output.replicates)
    for name, path in zip(["scores", "differences", "pairs", "matrix", "summary"], snakemake.output.tables):
        write_csv(tables[name], path)
    write_csv(check, snakemake.output.check)
    write_text(case_markdown(title, tables, extra), snakemake.output.md)
    log.info("checks: %s", dict(check.verdict.value_counts()))
