"""Dror et al. Tables 1-3: shaped distributions and the UKP runs behind cases B and C, our COS / U test /
ASO beside the paper's, under deepsig's convention and the paper's own (dror2019)."""
import pandas as pd

from simstats.io.write import script_logger, write_csv, write_text
from simstats.sim.seeding import generator
from simstats.studies.dror2019.cases import case_comparisons, cases_markdown, real_case_comparisons

with script_logger(snakemake.log[0]) as log:
    p = snakemake.params
    ukp = pd.read_csv(snakemake.input.ukp, sep="\t", low_memory=False)
    frames = {}
    for convention in ("deepsig", "dror2019"):
        key = () if convention == "deepsig" else ("dror2019",)
        shaped = case_comparisons(rng=generator(p.root_seed, "dror", "paper_cases", *key), n_resamples=p.n_resamples,
                                  alpha_aso=p.alpha_aso, convention=convention)
        real = real_case_comparisons(ukp, rng=generator(p.root_seed, "dror", "paper_cases_ukp", *key),
                                     n_resamples=p.n_resamples, alpha_aso=p.alpha_aso, convention=convention)
        frames[convention] = pd.concat([shaped, real], ignore_index=True)
    write_csv(frames["dror2019"], snakemake.output.dror2019)
    write_csv(frames["deepsig"], snakemake.output.csv)
    write_text(cases_markdown(frames["deepsig"]), snakemake.output.md)
    log.info("%d cases (%d on UKP runs)", len(frames["deepsig"]), int((frames["deepsig"].source != shaped.source.iloc[0]).sum()))
