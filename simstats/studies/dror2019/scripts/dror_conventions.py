"""Dror et al. (2019) under both ASO conventions beside the paper's numbers (Tables 1-4, section 6)."""
import pandas as pd

from simstats.io.write import script_logger, write_csv, write_text
from simstats.studies.dror2019.conventions import conventions_markdown, conventions_table
from simstats.studies.reference import paper_targets

with script_logger(snakemake.log[0]) as log:
    i = snakemake.input
    table = conventions_table(
        {"deepsig": pd.read_csv(i.cases), "dror2019": pd.read_csv(i.cases_dror2019)},
        {"deepsig": pd.concat([pd.read_parquet(i.real), pd.read_parquet(i.synthetic)], ignore_index=True),
         "dror2019": pd.concat([pd.read_parquet(i.real_dror2019), pd.read_parquet(i.synthetic_dror2019)],
                               ignore_index=True)},
        pd.read_csv(i.noise), paper_targets(), noise_ukp=pd.read_csv(i.noise_ukp))
    write_csv(table, snakemake.output.csv)
    write_text(conventions_markdown(table), snakemake.output.md)
    log.info("%d published numbers under 2 conventions", len(table) // 2)
