"""Competitions: the paper's Tables 2-3 CI widths of one example over many simulated test sets (widths.py)."""
from simstats.io.write import script_logger, write_csv
from simstats.studies.navamunoz2024.widths import example_widths

with script_logger(snakemake.log[0]) as log:
    p, case = snakemake.params, snakemake.wildcards.case
    if p.example is None or not p.example.value.language:
        raise ValueError(f"competition.examples.{case}: no example with a paper language")
    band = example_widths(p.population.value, p.example.value, root_seed=p.root_seed, n_resamples=p.n_resamples,
                          test_sets=p.test_sets, name=case)
    log.info("%s: %d widths over %d test sets", case, len(band), p.test_sets)
    write_csv(band, snakemake.output[0])
