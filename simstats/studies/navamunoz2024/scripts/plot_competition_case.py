"""Figures 1-3 of one analysed competition."""
import pandas as pd

from simstats.io.competition import bootstrap_difference_figure, difference_intervals_figure, ordered_intervals_figure
from simstats.io.write import save_figure
from simstats.studies.navamunoz2024.tables import paper_pvalue_note
from simstats.studies.reference import reference_table
from simstats.io.write import script_logger

with script_logger(snakemake.log[0]) as log:
    case = snakemake.wildcards.case
    tables = {name: pd.read_csv(path) for name, path in
              zip(["scores", "differences", "pairs", "matrix", "summary"], snakemake.input.tables)}
    replicates = pd.read_parquet(snakemake.input.replicates)
    example = snakemake.params.example.value if snakemake.params.example is not None else None
    language = example.language if example is not None else None
    metric = snakemake.params.metric
    paper = reference_table("nava_munoz_2024_table2_3") if language else None
    if paper is not None:
        paper = paper[paper.language == language]
    label = (f"simulated VaxxStance {language}" if language else f"simulated '{case}'") if example is not None \
        else "CompStats data (real)"
    fig = ordered_intervals_figure(tables["scores"], metric, None if paper is None else paper[paper.table == "T2"],
                                   title=f"Ordered bootstrap 95 % CIs — {label}",
                                   paper_label="paper (real VaxxStance data)")
    save_figure(fig, snakemake.output.intervals, snakemake.output.intervals_pdf)
    fig = difference_intervals_figure(tables["differences"], metric,
                                      None if paper is None else paper[paper.table == "T3"],
                                      title=f"95 % CIs of differences from the best — {label}",
                                      paper_label="paper (real data)")
    save_figure(fig, snakemake.output.differences, snakemake.output.differences_pdf)
    # the paper's Figure 3: the winner against the 4th system (a) and against the runner-up (b)
    winner = tables["scores"].system.iloc[0]
    pairs = tables["pairs"][tables["pairs"].reference == winner].set_index("system")
    chosen = [tables["scores"].system.iloc[min(3, len(tables["scores"]) - 1)], tables["scores"].system.iloc[1]]
    sign = 1.0 if tables["scores"].score.iloc[0] >= tables["scores"].score.iloc[-1] else -1.0
    panels = [(f"{winner} vs {s}", sign * (replicates[winner] - replicates[s]), pairs.loc[s, "difference"],
               pairs.loc[s, "pvalue"], paper_pvalue_note(language, winner, s) if language else "") for s in chosen]
    save_figure(bootstrap_difference_figure(panels, metric), snakemake.output.bootstrap,
                snakemake.output.bootstrap_pdf)
    log.info("figures for %s written", case)
