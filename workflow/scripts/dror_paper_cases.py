"""Dror et al. Tables 1-3: shaped distributions, our COS / U test / ASO beside the paper's."""
from simstats.studies.dror2019.cases import case_comparisons, cases_markdown
from simstats.io import script_logger
from simstats.sim.seeding import generator
from simstats.io import write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    frame = case_comparisons(rng=generator(p.root_seed, "dror", "paper_cases"), n_resamples=p.n_resamples,
                             alpha_aso=p.alpha_aso)
    paper = case_comparisons(rng=generator(p.root_seed, "dror", "paper_cases", "dror2019"),
                             n_resamples=p.n_resamples, alpha_aso=p.alpha_aso, convention="dror2019")
    write_csv(paper, snakemake.output.dror2019)
    write_csv(frame, snakemake.output.csv)
    write_text(cases_markdown(frame), snakemake.output.md)
    log.info("%d cases", len(frame))
