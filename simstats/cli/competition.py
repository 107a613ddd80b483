"""``simstats competition``: rank the systems of a competition with intervals, p-values and one decision rule;
--out writes the tables, report.md and figures."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from simstats import __version__
from simstats.cli.arguments import RegisteredChoices, check_memory, from_arguments, prediction_arguments, pvalue_rule_argument
from simstats.cli.inputs import prepare_inputs
from simstats.cli.output import csv_text, json_text, markdown_header


#: Figures written with --out and shown at the end of report.md: (file stem, caption).
FIGURE_LINKS = (("intervals", "Ordered bootstrap CIs (Figure 1)"),
                ("differences", "CIs of differences from the best (Figure 2)"),
                ("bootstrap", "Bootstrap distribution of the difference between the two best systems (Figure 3)"))


def _competition_inputs(args):
    """The systems' names, per-item statistics, metric and clusters from the command's input."""
    import pandas as pd

    from simstats.io.predictions import (item_clusters, statistics_from_long, statistics_from_predictions,
                                         statistics_metric, wide_clusters)
    from simstats.io.tables import read_table

    several = prepare_inputs(args)
    if several is not None:
        raise ValueError(f"competition ranks systems on one task; the evaluation has {len(several)} tasks "
                         "(choose one with --task)")
    table = None if args.from_format else read_table(args.table)
    scored = args._tasks[0] if args.from_format else None
    if scored is not None:
        names, stats, metric, clusters = scored.names, scored.stats, scored.metric, scored.clusters
    elif args.statistics:
        for flag, value in (("--systems", args.systems), ("--exclude", args.exclude), ("--id", args.id)):
            if value:
                raise ValueError(f"{flag} applies to prediction tables; with --statistics the systems and items are "
                                 "the columns 'system' and 'item'")
        metric = statistics_metric(args.metric)
        names, stats = statistics_from_long(table, metric)
        clusters = (item_clusters(table, args.clusters, items=np.sort(pd.unique(table.item)))
                    if args.clusters is not None else None)
    else:
        clusters, exclude = wide_clusters(table, args.clusters, args.systems, args.exclude)
        names, stats, metric = statistics_from_predictions(table, args.gold, args.systems, args.metric,
                                                           args.positive, args.classes, id_column=args.id,
                                                           exclude=exclude)
    return names, stats, metric, clusters


def _write_out(out: Path, args, analysis, tables, files, report, metric, rule, pvalues) -> None:
    """--out: the tables as CSV, report.md and the three figures."""
    from simstats.io.competition import (bootstrap_difference_figure, difference_intervals_figure,
                                         ordered_intervals_figure)
    from simstats.io.write import literal_label, output_folder, save_figures, write_csv, write_text

    level = f"{100 * args.confidence:g} %"
    drawn = {name: frame.assign(**{c: frame[c].map(literal_label) for c in ("system", "reference") if c in frame})
             for name, frame in tables.items() if name in ("scores", "differences")}   # names drawn as given
    first = drawn["differences"].iloc[0]
    panel = (f"{first.reference} vs {first.system}", analysis.improvement_replicates(0, 1), first.difference,
             float(tables["pairs"].pvalue.iloc[0]))
    bootstrap = bootstrap_difference_figure([panel], metric.name)
    bootstrap.axes[0].set_title(f"{panel[0]}\np ({pvalues}) = {panel[3]:.4f}", fontsize=9)
    figures = (("intervals", ordered_intervals_figure(drawn["scores"], metric.name,
                                                      label=f"score and {level} percentile CI")),
               ("differences", difference_intervals_figure(drawn["differences"], metric.name, rule=rule)),
               ("bootstrap", bootstrap))
    links = "\n## Figures\n\n" + "\n\n".join(f"![{caption}]({stem}.png)" for stem, caption in FIGURE_LINKS) + "\n"
    with output_folder(out, force=args.force) as folder:  # all or nothing
        for name, frame in files.items():
            write_csv(frame, folder / f"{name}.csv")
        write_text(report + links, folder / "report.md")
        save_figures([(figure, folder / f"{stem}.png", folder / f"{stem}.pdf") for stem, figure in figures])


def run(args) -> int:
    """Run ``simstats competition``."""
    from simstats.stats.competition import (analyse_competition, competition_settings, decision_rule,
                                            pvalue_description)
    from simstats.io.competition import case_markdown, case_tables, marked_significance

    if args.out:
        from simstats.io.write import check_output_folder
        check_output_folder(args.out, args.force)  # before the work
    names, stats, metric, clusters = _competition_inputs(args)
    # the analysis keeps every resample's score, difference and rank of every system and pair
    check_memory(16.0 * args.n_resamples * len(names) * (len(names) + 1),
                 f"--n-resamples {args.n_resamples} with {len(names)} systems")
    # --preset gives every setting; --correction, --correction-scope, --pvalue-rule, --alternative override
    settings = competition_settings(args.preset, correction=args.correction, scope=args.correction_scope,
                                    pvalue_rule=args.pvalue_rule, alternative=args.alternative)
    analysis = analyse_competition(names, stats, metric, n_resamples=args.n_resamples,
                                   rng=np.random.default_rng(args.seed), confidence_level=args.confidence,
                                   clusters=clusters, alpha=args.alpha, **settings)
    tables = case_tables(analysis, alpha=args.alpha)
    rule = decision_rule(settings["correction"], settings["scope"], args.alpha)
    pvalues = pvalue_description(settings["alternative"], settings["pvalue_rule"])
    source = ", ".join(map(str, args.table)) if isinstance(args.table, list) else args.table
    title = (f"{source}: {analysis.m} systems, n = {analysis.n_items}, {metric.name}; "
             f"{args.n_resamples} bootstrap samples, seed {args.seed}"
             + (f", {int(clusters.max() + 1)} clusters resampled whole" if clusters is not None else ""))
    report = case_markdown(title, tables)
    # Files and JSON: Table 4 as numbers (matrix) with its significance in long form beside it; the
    # Markdown report keeps the marked cells.
    files = {**tables, "matrix": analysis.difference_values(),
             "matrix_significance": marked_significance(analysis, alpha=args.alpha)}
    if args.out:
        _write_out(Path(args.out), args, analysis, tables, files, report, metric, rule, pvalues)
    m = analysis.m
    claim = {"claim": "these systems (one run each) differ on the population of test items",
             "decision_rule": rule, "pvalues": pvalues, "alternative": settings["alternative"],
             "pvalue_rule": settings["pvalue_rule"], "correction": settings["correction"],
             "correction_scope": (f"all {m * (m - 1) // 2} pairs" if settings["scope"] == "all" else
                                  "each reference system's comparisons with the systems ranked below it"),
             "n_resamples": args.n_resamples, "seed": args.seed, "confidence_level": args.confidence,
             "alpha": args.alpha}
    if args.format == "json":
        json_settings = {"table": str(args.table), "metric": metric.name, "higher_is_better": metric.higher_is_better,
                         "systems": m, "items": analysis.n_items, "preset": args.preset, **claim,
                         "clusters": int(clusters.max() + 1) if clusters is not None else None,
                         "simstats_version": __version__}
        print(json_text({"settings": json_settings,
                         "tables": {name: frame.to_dict(orient="records") for name, frame in files.items()}}))
    elif args.format == "csv":
        ranks = tables["ranks"].copy()
        for key, value in claim.items():
            ranks[key] = value
        print(csv_text(ranks), end="")
    else:
        print(markdown_header(report), end="")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("competition", help="analyse a competition as Nava-Muñoz et al. 2024: CIs, differences "
                       "vs the best, p-value matrix, corrections, summary measures")
    prediction_arguments(p, "CSV/TSV/parquet: a gold column and one prediction column per system, or with "
                             "--statistics long rows (system, item, statistics...)",
                          "accuracy, f1 (see --positive), macro_f1 (see --classes), weighted_f1, mae (lower is "
                          "better); with --statistics also precision, recall and bleu (sacrebleu's corpus BLEU)", several=True)
    p.add_argument("--statistics", action="store_true",
                   help="the table holds per-item sufficient statistics in long rows (system, item, statistics...), "
                        "e.g. BLEU's (default: it holds predictions)")
    from_arguments(p, several_tasks=False)
    p.add_argument("--n-resamples", type=int, default=10_000, help="bootstrap samples (default: 10000)")
    p.add_argument("--clusters", metavar="COLUMN",
                   help="column of cluster (document) ids: the bootstrap resamples whole clusters (default: none, "
                        "items resampled one by one)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of the CIs (default: 0.95)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="level of every verdict: Table 3's 'different', Table 4's marks, ties (Table 6), tie groups "
                        "and possible winners (default: 0.05)")
    p.add_argument("--preset", default="recommended", choices=RegisteredChoices("simstats.stats.competition:presets"),
                   help="recommended: two-sided (count+1)/(B+1) p-values, Holm over all pairs; or a preset registered "
                        "by another package (simstats.stats.conventions; the pipeline's competition study registers "
                        "paper: Nava-Muñoz et al./CompStats's one-sided count/B p-values, no correction of the "
                        "verdicts, Table 5 within each reference system's comparisons); the flags below override "
                        "single settings (default: recommended)")
    p.add_argument("--correction", choices=RegisteredChoices("simstats.compare:CORRECTION_CHOICES"),
                   help="correction of every verdict (Table 3, Table 4's marks, ties, possible winners) (default: "
                        "from --preset: holm; paper: none)")
    p.add_argument("--correction-scope", choices=["all", "group"],
                   help="family of the corrections: all pairs, or each reference system's comparisons (default: "
                        "from --preset: all; paper: group)")
    pvalue_rule_argument(p, "from --preset: add-one; paper: fraction")
    p.add_argument("--alternative", choices=["two-sided", "greater"],
                   help="two-sided, P*(|d*-d| >= |d|), or one-sided 'the system ranked above is better', "
                        "P*(d* >= 2d) (default: from --preset: two-sided; paper: greater)")
    p.add_argument("--out", help="directory for the tables (CSV), report.md and figures (PNG, PDF) "
                                 "(default: print the report only); written all or nothing, and an existing folder "
                                 "that is not empty is replaced only with --force")
    p.add_argument("--force", action="store_true", help="--out: replace an existing folder (default: refuse)")
    p.add_argument("--format", default="md", choices=["md", "csv", "json"],
                   help="standard output: the Markdown report, the ranks table as CSV, or JSON with the settings "
                        "and every table (default: md)")
    p.set_defaults(func=run)
