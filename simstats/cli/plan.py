"""``simstats plan``: the seeds and test items a comparison needs, from pilot runs or rates."""
from __future__ import annotations

import warnings

from simstats.cli.arguments import float_list, int_list, prediction_arguments, run_arguments
from simstats.cli.inputs import runs_of
from simstats.cli.output import emit

def observed_difference(out, name_a: str, name_b: str) -> str:
    """A pilot's observed difference with compare's sign: the observed best (compare's default
    reference) minus the other, so both commands print the same number for the same data; the
    JSON and CSV settings get the same (``reference``, ``pilot_difference``)."""
    difference = out.attrs["pilot_difference"]
    ref, other = (name_a, name_b) if difference >= 0 else (name_b, name_a)
    out.attrs.update(reference=ref, pilot_difference=abs(difference),
                     difference="reference minus system: the observed best minus the other")
    return (f"observed difference {ref} minus {other} = {abs(difference):.4g} (reference minus system, as "
            f"simstats compare prints it with the observed best, {ref}, as reference)")


def plan_one_run_command(args, out) -> int:
    """``plan`` with one run per system (or --rates): the paired comparison of two runs on new items."""
    from simstats.stats.power import MIN_DISCORDANT

    a = out.attrs
    name_a, name_b = a["systems"]
    units = "clusters" if a["pilot_clusters"] else "items"
    if a["few_discordant"]:
        warnings.warn(f"at {', '.join(map(str, a['few_discordant']))} {units} the runs would differ on fewer than "
                      f"{MIN_DISCORDANT} of them: the paired bootstrap then has less power than predicted")
    if a["pilot_items"]:
        source = (f"pilot {name_a} vs {name_b} (one run each) on {a['pilot_items']} {units}; "
                  + observed_difference(out, name_a, name_b))
    else:
        d = a["pilot_difference"]
        first, second = ("A", "B") if d >= 0 else ("B", "A")
        source = (f"rates: accuracy {first} minus accuracy {second} = {abs(d):.4g} (A, B as given to --rates; "
                  f"the better minus the other, as simstats compare prints differences), disagreement "
                  f"{a['differing_share']:.4g}")
    needed = a["items_needed"]
    emit(out, args.format,
          f"{a['metric']}: {source}\n"
          f"claim: {a['claim'].replace('test items', f'test {units}')}\n"
          f"variance of the per-{units[:-1]} difference: {a['variance_per_item']:.4g} (metric units squared)\n"
          f"two-sided paired test at alpha = {args.alpha:g}: se of the difference, mdd = minimum detectable "
          f"difference at {100 * args.power:g}% power, power against a true difference of "
          f"{a['power_difference']:.4g} ({a['power_difference_source']})"
          + (f"; _low/_high: {100 * args.confidence:g}% interval from the pilot's uncertainty" if a["pilot_items"]
             else "") + "\n"
          + (f"{units} needed for {100 * args.power:g}% power: "
             f"{'not reachable' if needed is None else f'{needed:,}'}\n" if a["power_difference"] > 0 else ""))
    return 0


def run(args) -> int:
    from simstats.io.checks import InputError
    from simstats.plan import plan_from_runs, plan_one_run
    from simstats.io.tables import read_table
    from simstats.io.runs import runs_clusters
    from simstats.io.predictions import statistics_from_predictions, wide_clusters

    seeds = int_list(args.seeds, "--seeds", 2)
    items = int_list(args.items, "--items", 1) if args.items else None
    if not args.alpha < args.power < 1:
        raise InputError(f"--power must be in (--alpha, 1), got {args.power}")
    if args.rates is not None or args.table is None:
        if args.table is not None or args.rates is None:
            raise InputError("plan needs a pilot table or --rates ACC_A,ACC_B,DISAGREEMENT (not both)")
        rates = float_list(args.rates, "--rates", 3)
        return plan_one_run_command(args, plan_one_run(None, None, None, items=items, alpha=args.alpha, target=args.power,
                                                difference=args.difference, confidence_level=args.confidence,
                                                rates=rates))
    table = read_table(args.table)
    runs = runs_of(args, table)
    if runs is None or not runs.several_seeds:          # one run per system: a paired comparison on items
        if runs is not None:
            clusters = runs_clusters(runs, table, args.clusters).clusters if args.clusters else None
            names, stats, metric = runs.names, runs.stats, runs.metric
        else:
            clusters, exclude = wide_clusters(table, args.clusters, args.systems, args.exclude)
            names, stats, metric = statistics_from_predictions(table, args.gold, args.systems, args.metric,
                                                               args.positive, args.classes, id_column=args.id,
                                                               exclude=exclude)
        return plan_one_run_command(args, plan_one_run(names, stats, metric, items=items, alpha=args.alpha,
                                                target=args.power, difference=args.difference,
                                                confidence_level=args.confidence, clusters=clusters))
    if args.clusters is not None:
        runs = runs_clusters(runs, table, args.clusters)
    out = plan_from_runs(runs, seeds=seeds, items=items, alpha=args.alpha, target=args.power,
                         difference=args.difference, confidence_level=args.confidence,
                         paired_seeds={"auto": None, "yes": True, "no": False}[args.paired_seeds])
    a = out.attrs
    (name_a, name_b), (ka, kb) = a["approaches"], a["pilot_runs"]
    units = "clusters" if a["pilot_clusters"] else "items"
    if a["floored"]:
        several = len(a["floored"]) > 1
        warnings.warn(f"the pilot's {'estimates' if several else 'estimate'} of the {' and '.join(a['floored'])} "
                      f"variance {'components were' if several else 'component was'} below 0 and set to 0: the "
                      f"pilot cannot tell {'them' if several else 'it'} from 0, and the predictions assume "
                      f"{'they are' if several else 'it is'} 0")
    needed = "; ".join(f"{k} seeds: {'not reachable' if n is None else f'{n:,} {units}'}"
                       for k, n in a["items_needed"].items())
    emit(out, args.format,
          f"{a['metric']}: pilot {name_a} ({ka} seeds) vs {name_b} ({kb} seeds, "
          f"{'paired' if a['paired_seeds'] else 'unpaired'}) on {a['pilot_items']} {units}; "
          f"{observed_difference(out, name_a, name_b)}\n"
          f"claim: {a['claim']}\n"
          f"variance components: seed {a['sigma2_seed']:.4g}, approach x item {a['sigma2_interaction']:.4g}, "
          f"residual {a['sigma2_residual']:.4g} (metric units squared"
          + (f"; floored at 0: {', '.join(a['floored'])}" if a["floored"] else "") + ")\n"
          f"two-sided approach t-test at alpha = {args.alpha:g}: se of the difference, df, mdd = minimum "
          f"detectable difference at {100 * args.power:g}% power, power against a true difference of "
          f"{a['power_difference']:.4g} ({a['power_difference_source']}); _low/_high: "
          f"{100 * args.confidence:g}% interval from the pilot's uncertainty\n"
          + (f"{units} needed for {100 * args.power:g}% power: {needed}\n" if needed else ""))
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("plan", help="plan an approach comparison from pilot runs: power and minimum detectable "
                                    "difference over a grid of seeds and test items")
    prediction_arguments(p, "CSV/TSV/parquet pilot runs: long rows (system, seed, item, pred, gold), a wide "
                             "table with --approach NAME=col1,col2,..., or one run per system (a wide table of "
                             "one prediction column per system: a paired comparison of two runs)",
                          "accuracy, f1, precision, recall (binary, see --positive), macro_f1 (see --classes), "
                          "weighted_f1, mae", optional=True)
    run_arguments(p)
    p.add_argument("--rates", metavar="ACC_A,ACC_B,DISAGREEMENT",
                   help="instead of a pilot table: plan a paired comparison of two runs from their accuracies and "
                        "the share of items on which they disagree (needs --items)")
    p.add_argument("--seeds", default="3,5,10,20", help="seeds per approach of the planned study, comma-separated "
                                                        "(default: 3,5,10,20)")
    p.add_argument("--items", help="test items of the planned study, comma-separated (default: the pilot's number "
                                   "of items, 2 and 4 times it)")
    p.add_argument("--alpha", type=float, default=0.05, help="level of the two-sided test (default: 0.05)")
    p.add_argument("--clusters", metavar="COLUMN",
                   help="column of cluster (document) ids: clusters are the units the planned test samples "
                        "(default: none, items)")
    p.add_argument("--paired-seeds", default="auto", choices=["auto", "yes", "no"],
                   help="plan a study whose approaches share seed ids (auto: when the pilot's do) (default: auto)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the intervals of power and mdd from the pilot's uncertainty (default: 0.95)")
    p.add_argument("--power", type=float, default=0.8,
                   help="target power of the minimum detectable difference (default: 0.8)")
    p.add_argument("--difference", type=float,
                   help="true difference the power column is computed against (default: the pilot's observed "
                        "difference)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown table, CSV or JSON (default: table)")
    p.set_defaults(func=run)
