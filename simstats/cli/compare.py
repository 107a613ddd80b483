"""``simstats compare``: systems' outputs on one test set (one run per system), approaches over seeds x items
(several runs per system), or models over the tasks of an evaluation's logs."""
from __future__ import annotations

import warnings

import numpy as np

from simstats.cli.arguments import (RESAMPLE_CHOICES, RegisteredChoices, from_arguments, prediction_arguments, pvalue_rule_argument,
                                   run_arguments)
from simstats.cli.inputs import prepare_inputs, runs_of
from simstats.cli.output import BEST_ONE_SIDED, DIFFERENCE_SIGN, IMPROVEMENT_H1, emit, gate, sides

def run(args) -> int:
    import pandas as pd

    from simstats.compare import Comparisons, compare_systems, default_item_test, item_values
    from simstats.io.predictions import item_clusters, statistics_from_long, statistics_from_predictions, statistics_metric, wide_clusters
    from simstats.io.tables import read_table
    from simstats.io.runs import runs_clusters

    several = prepare_inputs(args)
    if several is not None:
        return compare_tasks(args, several)
    table = None if args.from_format else read_table(args.table)
    scored = args._tasks[0] if args.from_format else None
    runs = None if scored is not None else runs_of(args, table)
    clusters, exclude = None, args.exclude
    if scored is not None:
        clusters = scored.clusters
    elif args.clusters is not None and runs is not None:
        runs = runs_clusters(runs, table, args.clusters)
        clusters = runs.clusters
    elif args.clusters is not None and args.statistics:
        clusters = item_clusters(table, args.clusters, items=np.sort(pd.unique(table.item)) if "item" in table else None)
    else:
        clusters, exclude = wide_clusters(table, args.clusters, args.systems, args.exclude)
    if args.reference == "best" and args.alternative in BEST_ONE_SIDED:
        warnings.warn(BEST_ONE_SIDED[args.alternative])
    if runs is not None and (args.resample is not None or runs.several_seeds):
        given = [f"{flag} {value}" for flag, value, default in (("--pvalue-method", args.pvalue_method, "shift"),
                                                                ("--pvalue-rule", args.pvalue_rule, "add-one"))
                 if value not in (None, default)]
        if given:
            raise ValueError(f"{' '.join(given)} applies to one run per system; the approach tests over seeds x "
                             "items have their own p-values (the t-test's reference distribution; the bootstrap's "
                             "shift method with (c + 1)/(B + 1))")
        return compare_approaches_command(args, runs)
    args.alternative = args.alternative or "two-sided"
    if args.variance != "moments":
        raise ValueError("--variance applies to approaches compared over several seeds per system (a long table "
                         "with a seed column, or --approach)")
    if args.fail_on == "claim-not-shown" and args.margin is None:
        raise ValueError("--fail-on claim-not-shown needs --margin (the claim to show)")
    # per-item scores from an evaluation: Bonett-Price's adjusted Wald for independent items in [0, 1], else the
    # paired t-test over items or clusters, with analytic intervals, validated by the harness study (the cluster
    # bootstrap is liberal with few clusters; a percentile or t interval collapses at 0 % and 100 %)
    if args.test is None and scored is not None and scored.metric.name == "mean_score":
        args.test = default_item_test(item_values(scored.stats, scored.metric), scored.clusters)
    if scored is not None:
        names, stats, metric = scored.names, scored.stats, scored.metric
    elif runs is not None:  # one run per system: the same test as a wide table of these columns
        names, stats, metric = runs.names, runs.stats, runs.metric
    elif args.statistics:
        metric = statistics_metric(args.metric)
        names, stats = statistics_from_long(table, metric)
    else:
        names, stats, metric = statistics_from_predictions(table, args.gold, args.systems, args.metric,
                                                           args.positive, args.classes, id_column=args.id,
                                                           exclude=exclude)
    if args.test is None:    # accuracy of one run per system, items independent: as --from's 0/1 items
        per_item = stats.shape[-1] == 2 and bool(np.all(stats[..., 1] == 1))    # one 0/1 outcome per item
        bootstrap_asked = args.pvalue_method is not None or args.pvalue_rule is not None   # options of the bootstrap
        args.test = ("adjusted" if metric.name == "accuracy" and clusters is None and per_item and not bootstrap_asked
                     else "bootstrap")
    comparisons = Comparisons(reference=args.reference, alternative=args.alternative,
                              correction=args.correction or "none", confidence_level=args.confidence)
    out = compare_systems(names, stats, metric, test=args.test, comparisons=comparisons,
                          n_resamples=args.n_resamples, rng=args.seed, pvalue_method=args.pvalue_method or "shift", pvalue_rule=args.pvalue_rule or "add-one",
                          clusters=clusters)
    out.attrs["alpha"] = args.alpha
    if scored is not None:
        low, high = scored.samples
        out.attrs.update(task=scored.task, samples_per_item=f"{low}" if low == high else f"{low}-{high}",
                         claim=(f"these models differ on the population of items of task {scored.task!r}"
                                + (" and of samples per item (item means over the epochs)" if high > 1 else "")
                                + " (not their training procedures)"))
    decision = ""
    if scored is not None:
        decision = items_line(scored)
    if args.margin is not None or args.fail_on is not None:
        out = one_run_decisions(out, names, stats, metric, args, clusters)
        if args.margin is not None:
            decision += (f"decision: is the reference {'non-inferior' if args.claim == 'non-inferiority' else 'equivalent'}"
                        f" to each system with margin {args.margin:g}? ({args.claim} test: paired t-test over "
                        f"{'clusters' if clusters is not None else 'items'}"
                        f"{', two one-sided tests' if args.claim == 'equivalence' else ', one-sided'} at alpha = "
                        f"{args.alpha:g}): claim_pvalue, claim_shown, verdict\n")
    a = out.attrs
    resampling, intervals = f"{a['n_resamples']} resamples, seed {a['seed']}, ", ""
    if args.test in ("t", "adjusted"):
        resampling = f"{a['intervals']}, "
    elif args.test == "exact-randomization":  # exact p-values need no resampling; the intervals do
        resampling, intervals = "", f" from {a['n_resamples']} bootstrap resamples (seed {a['seed']})"
    if a.get("clusters"):
        resampling += "" if args.test in ("t", "adjusted") else f"{a['clusters']} clusters resampled whole, "
    emit(out, args.format, f"{a['metric']}: {a['test']}, {resampling}correction {a['correction']} over "
                            f"{a['correction_scope']}\n"
                            f"claim: {a['claim']}\n"
                            f"H1: reference {IMPROVEMENT_H1[a['alternative']]} system; "
                            f"{sides(a['alternative'], args.confidence)}{intervals}; {DIFFERENCE_SIGN}\n"
                            + decision)
    return gate(out, args.fail_on)


def compare_tasks(args, tasks) -> int:
    """compare --from over several tasks: each task's comparison, the correction over all of them."""
    import pandas as pd

    from simstats.io.checks import InputError
    from simstats.compare import Comparisons, compare_systems, default_item_test, item_values
    from simstats.stats.multitest import adjust_pvalues

    for flag, value in (("--margin", args.margin), ("--fail-on", args.fail_on)):
        if value is not None:
            raise InputError(f"{flag} decides one comparison; choose a task with --task")
    if args.reference == "best" and args.alternative in BEST_ONE_SIDED:
        warnings.warn(BEST_ONE_SIDED[args.alternative])
    args.alternative = args.alternative or "two-sided"
    chosen = args.test
    correction = args.correction or "holm"
    frames = []
    for paired in tasks:
        args.test = chosen or default_item_test(item_values(paired.stats, paired.metric), paired.clusters)
        comparisons = Comparisons(reference=args.reference, alternative=args.alternative,
                                  confidence_level=args.confidence)
        out = compare_systems(paired.names, paired.stats, paired.metric, test=args.test, comparisons=comparisons,
                              n_resamples=args.n_resamples, rng=args.seed, pvalue_method=args.pvalue_method or "shift", pvalue_rule=args.pvalue_rule or "add-one",
                              clusters=paired.clusters)
        low, high = paired.samples
        frames.append(out.assign(task=paired.task, items=paired.stats.shape[1], items_left_out=paired.items_left_out,
                                 clusters=int(paired.clusters.max() + 1) if paired.clusters is not None else np.nan,
                                 samples_per_item=f"{low}" if low == high else f"{low}-{high}"))
    first = frames[0].attrs
    table = pd.concat(frames, ignore_index=True)
    table = table[["task"] + [c for c in table.columns if c != "task"]]
    tested = table.pvalue.notna().to_numpy()
    table["pvalue_adjusted"] = float("nan")
    table.loc[tested, "pvalue_adjusted"] = adjust_pvalues(table.pvalue.to_numpy()[tested], correction)
    count = int(tested.sum())
    scope = f"the {count} comparison{'' if count == 1 else 's'} with the reference over {len(tasks)} tasks"
    table.attrs = {**first, "correction": correction, "correction_scope": scope, "alpha": args.alpha,
                   "tasks": len(tasks), "task": None, "clusters": None,
                   "claim": "these models differ on the population of items of each task (item means over each "
                            "item's samples; not their training procedures)"}
    # each task's own test and intervals (items or clusters, Clopper-Pearson or t), listed once each
    table.attrs["test"] = "; ".join(dict.fromkeys(f.attrs["test"] for f in frames))
    table.attrs["intervals"] = "; ".join(dict.fromkeys(f.attrs["intervals"] for f in frames))
    a = table.attrs
    resampling = ("" if args.test in ("t", "adjusted") else
                  f", {a['n_resamples']} bootstrap resamples (seed {a['seed']})"
                  + (" for the intervals" if args.test == "exact-randomization" else ""))
    method = f"{a['test']}; {a['intervals']}{resampling}"
    emit(table, args.format, f"{a['metric']} over {len(tasks)} tasks: {method}; the clusters of each task in "
                              f"column clusters; correction {correction} over {scope}\n"
                              f"claim: {a['claim']}\n"
                              f"H1: reference {IMPROVEMENT_H1[a['alternative']]} system; "
                              f"{sides(a['alternative'], args.confidence)}; {DIFFERENCE_SIGN}\n"
                              "items: each task's items and samples per item in columns items and samples_per_item"
                              + ("; items_left_out: items not every model scored, left out (--shared-items)\n"
                                 if args.shared_items else "\n"))
    return 0


def items_line(paired) -> str:
    """The header line of an evaluation's task: its items, the samples per item used, the items left out."""
    low, high = paired.samples
    samples = f"{low}" if low == high else f"{low} to {high}"
    return (f"items: {paired.stats.shape[1]}, {samples} sample{'' if high == 1 else 's'} per item"
            + (" (each item's mean over its samples)" if high > 1 else "")
            + (f"; {paired.items_left_out} item{'' if paired.items_left_out == 1 else 's'} not scored by every "
               "model left out (--shared-items)" if paired.items_left_out else "") + "\n")


def one_run_decisions(out, names, stats, metric, args, clusters):
    """One run per system: the ``verdict`` column (and with --margin the claim of
    :func:`simstats.paired_margin_test` for the reference against each system)."""
    from simstats.stats.approaches import paired_margin_test

    names = list(names)
    ref = names.index(out.reference.iloc[0])
    alpha = args.alpha
    verdicts, pvalues, shown = [], [], []
    for row in out.itertuples():
        if row.role == "reference":
            verdicts.append("reference")
            pvalues.append(np.nan)
            shown.append(np.nan)
            continue
        if args.margin is None:
            verdicts.append(f"{row.reference} and {row.system} differ: adjusted p = {row.pvalue_adjusted:.2g} < {alpha:g}"
                            if row.pvalue_adjusted < alpha else
                            f"{row.reference} and {row.system} are not shown to differ: adjusted p = "
                            f"{row.pvalue_adjusted:.2g} >= {alpha:g}")
            continue
        claim = paired_margin_test(stats[[ref, names.index(row.system)]], metric, margin=args.margin,
                                   hypothesis=args.claim, alpha=alpha, clusters=clusters,
                                   names=(row.reference, row.system))
        pvalues.append(claim.pvalue)
        shown.append(claim.shown)
        verdicts.append(claim.verdict)
    out = out.copy()
    if args.margin is not None:
        out["claim_pvalue"], out["claim_shown"] = pvalues, shown
        out.attrs.update(margin=args.margin, margin_claim=args.claim)
    out["verdict"] = verdicts
    return out


def compare_approaches_command(args, runs) -> int:
    """``compare`` with several seeds per system: the approach t-test (default) or bootstrap over seeds x items."""
    from simstats.io.checks import InputError
    from simstats.compare import Comparisons, compare_approach_runs

    test = args.test or ("bootstrap" if args.resample else "t")
    if test not in ("t", "bootstrap"):
        raise InputError(f"--test {test} applies to one run per system; with several seeds per system the "
                         "comparison is the approach t-test (--test t, the default) or bootstrap (--test bootstrap, "
                         "choose what it resamples with --resample)")
    alternative = args.alternative or "two-sided"
    resample = args.resample or "both"
    if args.fail_on == "claim-not-shown" and args.margin is None:
        raise InputError("--fail-on claim-not-shown needs --margin (the claim to show)")
    comparisons = Comparisons(reference=args.reference, alternative=alternative, correction=args.correction or "none",
                              confidence_level=args.confidence, alpha=args.alpha)
    out = compare_approach_runs(runs, test=test, resample=resample, comparisons=comparisons,
                                n_resamples=args.n_resamples, rng=args.seed,
                                paired_seeds={"auto": None, "yes": True, "no": False}[args.paired_seeds],
                                margin=args.margin, claim=args.claim, variance=args.variance)
    a = out.attrs
    paired = out.paired_seeds[out.role == "system"].tolist()
    pairing = "paired seeds" if all(paired) else "unpaired seeds" if not any(paired) else "seeds paired where shared"
    units = f"{a['items']} items" + (f" in {a['clusters']} clusters" if a.get("clusters") else "")
    if test == "t":
        floored = out.system[out.floored.eq(True)].tolist()
        if floored:
            warnings.warn(f"{', '.join(map(str, floored))}: the estimated variance of the difference was not positive "
                          "and was set to its run x item part (var_residual); the seed and item parts are about 0")
        how = ("method of moments" if a["variance_estimate"] == "moments" else
               f"corrected bootstrap variance, {a['n_resamples']} resamples, seed {a['seed']}")
        header = (f"{a['metric']}: approach t-test over seeds x items ({how}, fitted-components "
                  f"reference; {pairing}), correction {a['correction']} over {a['correction_scope']}; {units}\n"
                  f"claim: {a['claim']}\n"
                  f"H1: reference {IMPROVEMENT_H1[alternative]} system (difference of the approaches' mean scores "
                  f"over seeds); {sides(alternative, args.confidence)}; p-values and intervals from the null "
                  f"distribution of difference / se under the fitted variance components (df: Satterthwaite's, a "
                  f"summary); {DIFFERENCE_SIGN}\n"
                  "var_seeds, var_items, var_residual: the estimated variance of the difference from seed effects, "
                  "approach x item effects and run x item noise\n")
        if args.margin is not None:
            header += (f"decision: is the reference {'non-inferior' if args.claim == 'non-inferiority' else 'equivalent'} "
                       f"to each system with margin {args.margin:g}? ({args.claim} test, "
                       f"{'two one-sided tests' if args.claim == 'equivalence' else 'one-sided test'} at alpha = "
                       f"{args.alpha:g}): claim_pvalue, claim_shown, verdict\n")
    else:
        header = (f"{a['metric']}: approach bootstrap over seeds x items (--resample {resample}, {pairing}), "
                  f"{a['n_resamples']} resamples, seed {a['seed']}, correction {a['correction']} over {a['correction_scope']}; {units}\n"
                  f"claim: {a['claim']}\n"
                  f"H1: reference {IMPROVEMENT_H1[alternative]} system (difference of the approaches' mean scores "
                  f"over seeds); {sides(alternative, args.confidence)} percentile; p-values by the shift method "
                  f"({a['extreme']}); {DIFFERENCE_SIGN}\n"
                  "var_seeds, var_items, var_residual: bootstrap variance of the difference from seeds only, items "
                  "only, and the rest of the seeds x items variance\n")
    emit(out, args.format, header)
    return gate(out, args.fail_on)


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="compare systems' predictions (or per-item statistics) on one test set; "
                       "with several seeds per system, approaches over seeds x items")
    prediction_arguments(p, "CSV/TSV/parquet: a gold column and one column per system (--approach groups seed "
                             "columns into approaches); long rows (system, seed, item, pred, gold); or, with "
                             "--statistics, long rows (system, item, statistics...)",
                          "accuracy, f1, precision, recall (binary, see --positive), macro_f1 (see --classes), "
                          "weighted_f1, mae; with --statistics also bleu (sacrebleu's corpus BLEU)", several=True)
    p.add_argument("--statistics", action="store_true",
                   help="the table holds per-item sufficient statistics (default: it holds predictions)")
    from_arguments(p)
    p.add_argument("--test", choices=RegisteredChoices("simstats.compare:TESTS"),
                   help="one run per system: bootstrap (paired), randomization (approximate), exact-randomization "
                        "(stratified), t (the paired t-test over items or --clusters, for accuracy and mean item "
                        "scores) or adjusted (Bonett-Price's adjusted Wald over items, for scores in [0, 1]: holds "
                        "with few items and near 0 %% or 100 %%); several seeds per system: t (the approach t-test "
                        "over seeds x items) or bootstrap (over seeds x items, see --resample) (default: adjusted for "
                        "accuracy with one run per system and for --from's mean item scores, t with --clusters or "
                        "scores outside [0, 1]; bootstrap for other metrics with one run per system, t with several "
                        "seeds, bootstrap when --resample is given)")
    p.add_argument("--pvalue-method", choices=["shift", "percentile", "sacrebleu"],
                   help="which bootstrap replicates count as extreme (--test bootstrap): shift (two-sided "
                        "|d* - d| >= |d|; one-sided d* >= 2d), percentile (d* <= 0 one-sided, Koehn 2004) or "
                        "sacrebleu (sacrebleu --paired-bs, two-sided: #{|d*| - mean |d*| > |d|}) (default: shift)")
    pvalue_rule_argument(p)
    p.add_argument("--reference", default="best", help="system every other is compared with (default: the best)")
    p.add_argument("--alternative", choices=["greater", "less", "two-sided"],
                   help="H1 about the reference's improvement over each system (default: two-sided); greater or "
                        "less are one-sided, meant for a reference named before seeing the data: against "
                        "--reference best, greater rejects about 2 x alpha of the time under no difference")
    p.add_argument("--n-resamples", type=int, default=10_000,
                   help="bootstrap resamples of the intervals, and of the p-values of --test bootstrap or "
                        "randomization (default: 10000)")
    run_arguments(p)
    p.add_argument("--resample", choices=list(RESAMPLE_CHOICES),
                   help="approach test: resample both (claim about new seeds and the population of items), items "
                        "(these trained runs on the population of items) or seeds (new seeds on this test set) "
                        "(default: both when a system has several seeds; one run per system: today's test)")
    p.add_argument("--clusters", metavar="COLUMN",
                   help="column of cluster (document) ids, for items that are not independent: the bootstrap "
                        "resamples whole clusters, the t-tests take them as units; with --from a field of the log "
                        "(default: none, items one by one)")
    p.add_argument("--paired-seeds", default="auto", choices=["auto", "yes", "no"],
                   help="approach test: resample shared seed ids jointly; auto pairs when the approaches have the "
                        "same seed ids (long tables), yes pairs the i-th --approach columns (default: auto)")
    p.add_argument("--seed", type=int, default=0, help="seed of the resampling (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the two-sided intervals (default: 0.95)")
    p.add_argument("--correction", choices=RegisteredChoices("simstats.compare:CORRECTION_CHOICES"),
                   help="multiple-comparison correction of the p-values (default: none; holm over every task's "
                        "comparisons when --from gives several tasks)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="approach tests: level of the verdicts and of --fail-on (default: 0.05)")
    p.add_argument("--variance", default="moments", choices=["moments", "bootstrap"],
                   help="approach t-test: estimate the variance of the difference by the method of moments, or by "
                        "the seeds x items bootstrap corrected for the crossed design (--n-resamples, --seed) "
                        "(default: moments)")
    p.add_argument("--margin", type=float,
                   help="approach t-test: also test the --claim with this margin in metric units (default: none)")
    p.add_argument("--claim", choices=["non-inferiority", "equivalence"],
                   help="with --margin: the reference is at most the margin worse than each system "
                        "(non-inferiority), or within the margin of it (equivalence, two one-sided tests) "
                        "(default: non-inferiority)")
    p.add_argument("--fail-on", choices=["difference", "claim-not-shown"],
                   help="approach tests: exit with status 1 when some system differs from the reference at "
                        "--alpha (difference), or when the --claim is not shown for some system "
                        "(claim-not-shown); for CI gates (default: exit 0 whatever the result)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown table, CSV or JSON (default: table)")
    p.set_defaults(func=run)
