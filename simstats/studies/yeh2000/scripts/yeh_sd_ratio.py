"""Yeh study: sd_ind / sd of the difference, analytic vs simulated, beside Yeh's column."""
from simstats.sim.memory import keep_freed_memory
import pandas as pd

from simstats.studies.reference import paper_value
from simstats.io.write import script_logger
from simstats.io.write import markdown_table, write_csv, write_text
from simstats.studies.yeh2000.simulate import sd_ratio

keep_freed_memory()

with script_logger(snakemake.log[0]) as log:
    s = snakemake.params.settings.value
    rows = []
    for r12 in sorted(set(snakemake.params.r12) | {0.38, 0.5, 0.8}):
        res = sd_ratio(r12, n=s.n, replicates=s.replicates, root_seed=snakemake.params.root_seed)
        res["relative_difference"] = res["simulated"] / res["analytic"] - 1
        res["verdict"] = "agrees" if abs(res["relative_difference"]) <= 0.03 else "differs"
        res["yeh_2000"] = paper_value("yeh2000", "sd_ratio", f"r12={r12:.2f}", "sd_ind_over_sd")
        rows.append(res)
    table = pd.DataFrame(rows)
    write_csv(table, snakemake.output.csv)
    write_text("# sd_ind / sd of a difference: analytic 1/sqrt(1 - r12), simulated, Yeh's table\n\n"
               "Simulated: sqrt(var X1 + var X2) / sd(X1 - X2) of two systems' recall over test sets "
               "(SE from 20 batches); verdict: within 3 % of the analytic value.\n\n" + markdown_table(table),
               snakemake.output.md)
    log.info("sd ratios: %s", dict(table.verdict.value_counts()))
