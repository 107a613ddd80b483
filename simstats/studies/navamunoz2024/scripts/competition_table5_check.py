"""The paper's Table 5: its raw p-values corrected with statsmodels, beside its adjusted columns."""
from simstats.studies.navamunoz2024.tables import TABLE5_TOL, table5_check
from simstats.io.write import script_logger
from simstats.io.write import markdown_table, write_csv, write_text

with script_logger(snakemake.log[0]) as log:
    check = table5_check()
    write_csv(check, snakemake.output.csv)
    text = ("# Nava-Muñoz et al. 2024, Table 5: corrections within each reference system's group\n\n"
            f"Tolerance {TABLE5_TOL} (the paper prints 4 decimals). Largest difference: "
            f"{check.abs_difference.max():.2g}; verdicts: {dict(check.verdict.value_counts())}.\n\n"
            + markdown_table(check))
    write_text(text, snakemake.output.md)
    log.info("table 5 check: max |difference| %.3g", check.abs_difference.max())
