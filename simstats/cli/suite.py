"""``simstats suite``: many models over a suite of tasks."""
from __future__ import annotations

from simstats.cli.output import csv_text, json_text, markdown_header
from pathlib import Path

from simstats import __version__
from simstats.cli.arguments import log_arguments
from simstats.cli.inputs import suite_input

def run(args) -> int:
    """``simstats suite``: the models', the pairs' and the tasks' tables over a suite of tasks."""
    from simstats.io.checks import InputError
    from simstats.io.write import markdown_table
    from simstats.suite import analyse_suite

    if args.pairs and args.tasks:
        raise InputError("--pairs and --tasks each choose the table --format csv prints: give one of them")
    suite = suite_input(args)
    models, pairs, tasks, settings = analyse_suite(
        suite, alpha=args.alpha, higher_is_better=not args.lower_is_better, n_resamples=args.n_resamples,
        rng=args.seed, confidence_level=args.confidence, reference=args.reference, correction=args.correction,
        scope=args.scope, bootstrap_intervals=args.bootstrap_intervals)
    s = settings
    units = s["units_per_task"]

    def span(low, high) -> str:
        return f"{low}" if low == high else f"{low}-{high}"

    if s["unit"] == "items":
        samples = s["samples_per_item"]
        level = (f"{span(*units)} items per task"
                 + (f" (item means over {span(*samples)} samples)" if samples[1] > 1 else
                    ", 1 sample per item")
                 + (f", {suite.items_left_out} items not scored by every model left out (--shared-items)"
                    if suite.items_left_out else ""))
    else:
        level = f"{s['runs_per_task']} runs per task" if s["unit"] == "runs" else "one score per model and task"
    friedman = (f"{s['method_friedman']}: chi-square {s['friedman_statistic']:.4g}, p = {s['friedman_pvalue']:.4g}"
                if s["friedman_pvalue"] is not None else "Friedman test: needs 3 models")
    header = (f"{s['models']} models x {s['tasks']} tasks, {level}; scores: "
              f"{'lower' if args.lower_is_better else 'higher'} is better\n"
              f"claim (ranks): {s['claim_ranks']}\n"
              f"{friedman}; {s['method_nemenyi']}: critical difference {s['critical_difference']:.4g} at alpha = "
              f"{args.alpha:g}; {s['method_wilcoxon']}\n")
    figures_note = ""
    if s["unit"] == "none":
        header += f"suite means and per-task comparisons: not available ({s['note_intervals']})\n"
        figures_note = " (the figures of the suite means and rank intervals need item- or run-level scores)"
    else:
        rank_note = ("" if s["correction"] in ("holm", "bonferroni") else
                     f"; with {s['correction']} the rank intervals do not hold together (holm or bonferroni do)")
        header += (f"claim (suite means, scope '{s['scope']}'): {s['claim_means']}\n"
                   f"method (suite means): {s['method_means']}; intervals {100 * args.confidence:g}%, rank intervals "
                   f"and tie groups at alpha = {args.alpha:g}{rank_note}\n"
                   + (f"note (suite means): {s['note_means']}\n" if s["note_means"] else "")
                   + (f"note (clusters): {s['note_clusters']}\n" if s["note_clusters"] else "")
                   + f"claim (per task): {s['claim_tasks']}\n"
                   f"method (per task): {s['method_tasks']}; intervals {100 * args.confidence:g}% (unadjusted); "
                   f"significant: adjusted p < {args.alpha:g}\n")
    if s["claim_runs"]:
        header += f"claim (IQM, probability of improvement): {s['claim_runs']}; "
        if s["n_resamples"]:
            header += (f"{args.n_resamples} stratified bootstrap resamples, seed {args.seed}, percentile intervals "
                       f"{100 * args.confidence:g}%; ")
        header += f"{s['note_bootstrap']}\n"
    if figures_note and args.figure:
        header += f"figure: the critical-difference diagram only{figures_note}\n"
    if args.figure:
        suite_figures(args, suite, models, settings)
    if args.format == "json":
        print(json_text({"settings": {**settings, "summary": header.strip(), "simstats_version": __version__},
                         "models": models.to_dict(orient="records"), "pairs": pairs.to_dict(orient="records"),
                         "tasks": tasks.to_dict(orient="records")}))
    elif args.format == "csv":
        chosen = pairs if args.pairs else tasks if args.tasks else models
        print(csv_text(chosen), end="")
    else:
        print(markdown_header(header))
        print(markdown_table(models, digits=4, literal=True))
        print(markdown_table(pairs, digits=4, literal=True), end="")
        if len(tasks):
            print()
            print(markdown_table(tasks, digits=4, literal=True), end="")
    return 0


def suite_figures(args, suite, models, settings) -> None:
    """--figure PATH: the critical-difference diagram (PATH.png/.pdf) and, with items or runs, the suite means
    (PATH-means) and the rank intervals (PATH-ranks), from the models' table."""
    from simstats.io.write import literal_label, save_figures
    from simstats.io.suite_figures import cd_diagram, rank_intervals_figure, suite_means_figure

    stem = Path(args.figure)
    if stem.suffix in (".png", ".pdf"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    names = [literal_label(name) for name in models.model]      # drawn as given, never as mathtext
    figures = [("", cd_diagram(names, models.average_rank.to_numpy(), settings["critical_difference"],
                               alpha=args.alpha, tasks=len(suite.tasks)))]
    if suite.unit != "none":
        what = "items" if suite.unit == "items" else "runs"
        claim = (f"{100 * args.confidence:g}% t intervals over tasks like these (the {len(suite.tasks)} tasks drawn "
                 "from a population of tasks)" if settings["scope"] == "tasks like these" else
                 f"{100 * args.confidence:g}% t intervals over these {len(suite.tasks)} tasks, new {what} (the tasks "
                 "fixed)")
        figures.append(("-means", suite_means_figure(names, models.mean_score.to_numpy(), models.mean_ci_low.to_numpy(),
                                                     models.mean_ci_high.to_numpy(), claim=claim,
                                                     higher_is_better=not args.lower_is_better)))
        figures.append(("-ranks", rank_intervals_figure(names, models.mean_score.to_numpy(), models.rank_low.to_numpy(),
                                                        models.rank_high.to_numpy(), alpha=args.alpha,
                                                        correction=settings["correction"],
                                                        higher_is_better=not args.lower_is_better)))
    save_figures([(fig, stem.parent / f"{stem.name}{suffix}.png", stem.parent / f"{stem.name}{suffix}.pdf")
                  for suffix, fig in figures])  # every figure drawn before the first file is written


def add_parser(sub) -> None:
    p = sub.add_parser("suite", help="many models over a suite of tasks: average ranks, Friedman, Nemenyi's critical "
                       "difference, Wilcoxon-Holm; with items or runs, each model's mean over tasks with intervals, "
                       "rank intervals and comparisons within each task; with runs, IQM and probability of improvement")
    p.add_argument("table", nargs="+",
                   help="CSV/TSV/parquet long rows: model, task, score and optionally a run column (seed), or model, "
                        "task, item, score (item-level outputs, optionally epoch); with --from, the evaluation's logs")
    p.add_argument("--from", dest="from_format", choices=["lm-eval", "inspect", "helm", "scores"],
                   help="read an evaluation's per-item scores: lm-eval (lm-evaluation-harness --output_path folders), "
                        "inspect (inspect_ai logs), helm (HELM runs), scores (a long table model, task, item, score); "
                        "each model's epochs of an item are averaged and the models joined on the items of each task "
                        "(default: lm-eval, inspect or helm when the paths are such logs, else a table)")
    p.add_argument("--score", metavar="NAME",
                   help="with --from lm-eval/inspect/helm: the metric (lm-eval), scorer (inspect) or statistic (helm) "
                        "(default: lm-eval each task's first per-item metric, inspect the only scorer, helm "
                        "exact_match)")
    p.add_argument("--filter", dest="filter_name", metavar="NAME",
                   help="with --from lm-eval: the filter of tasks with several (default: none, or the task's only one)")
    log_arguments(p)
    p.add_argument("--run", metavar="COLUMN",
                   help="the column naming each run (default: seed or run if the table has it, else one run each)")
    p.add_argument("--reference", metavar="MODEL",
                   help="compare every model with this one within each task (default: with each task's best)")
    p.add_argument("--correction", default="holm", metavar="{holm,bonferroni,bh,none}",
                   help="correction of the comparisons within tasks (over every pair on every task, or with "
                        "--reference over its comparisons on every task) and of the suite means' pairs (default: holm)")
    p.add_argument("--scope", default="tasks like these", metavar="SCOPE",
                   help="claim of the suite means' intervals: 'tasks like these' (like-these; the tasks drawn from a "
                        "population of tasks) or 'these tasks' (these; the tasks fixed, new items or runs) "
                        "(default: tasks like these)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="level of Nemenyi's critical difference, the rank intervals and tie groups, and the verdicts "
                        "(default: 0.05)")
    p.add_argument("--lower-is-better", action="store_true",
                   help="lower scores are better, e.g. error rates (default: higher is better)")
    p.add_argument("--n-resamples", type=int, default=2000,
                   help="stratified bootstrap resamples of --bootstrap-intervals (default: 2000)")
    p.add_argument("--bootstrap-intervals", action="store_true",
                   help="runs: the IQM's and the probability of improvement's stratified bootstrap intervals, which "
                        "undercover in the suite study with 10 runs per task and with 20 over 5 tasks (default: "
                        "none)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of the intervals (default: 0.95)")
    p.add_argument("--pairs", action="store_true",
                   help="--format csv: print the pairs' table (default: the models')")
    p.add_argument("--tasks", action="store_true",
                   help="--format csv: print the comparisons within tasks (default: the models')")
    p.add_argument("--figure", metavar="PATH",
                   help="write the critical-difference diagram to PATH.png and PATH.pdf and, with items or runs, the "
                        "suite means to PATH-means.png/.pdf and the rank intervals to PATH-ranks.png/.pdf "
                        "(default: none)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown tables, CSV or JSON (default: table)")
    p.set_defaults(func=run)
