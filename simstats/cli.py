"""Command line: simstats compare, plan, compare-scores, competition, check-config, implied."""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import sys
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np
import yaml

from simstats import __version__
from simstats.config import check_scenario_overrides, validate_config
from simstats.sim.scenario import ScenarioError

# The commands import pandas, scipy and the analyses (simstats.compare, simstats.io, the noise model) inside
# their functions, so that `simstats --help` and option errors answer without loading them.


def _load(paths: Sequence[str]) -> dict:
    """Read YAML files, later ones updating earlier ones (nested mappings merged).

    The first file holds the built-in scenarios: a later file's scenario of the same name is an
    error unless it says ``replace: true`` (:func:`simstats.config.check_scenario_overrides`)."""

    def merge(base, extra):
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                merge(base[key], value)
            else:
                base[key] = value
        return base

    config: dict = {}
    for i, path in enumerate(paths):
        try:
            with open(path, encoding="utf-8") as fh:
                data = yaml.safe_load(fh)
        except OSError as err:
            raise ScenarioError(f"{path}: cannot read ({err.strerror})") from None
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
            problem = getattr(err, "problem", None) or str(err).splitlines()[0]
            raise ScenarioError(f"{path}{where}: not valid YAML ({problem})") from None
        if not isinstance(data, dict):
            raise ScenarioError(f"{path}: the top level must be a mapping")
        if i == 0:
            builtin = copy.deepcopy(data)
        else:
            check_scenario_overrides(builtin, data, path, paths[0])
        merge(config, data)
    return config


def _suite_input(args):
    """``simstats suite``'s input as a :class:`simstats.suite.Suite`: a table (runs, one score or items per model
    and task) or, with --from (or harness logs detected from the paths), an evaluation's per-item scores."""
    from simstats.compare import InputError, read_table
    from simstats.readers import detect_format
    from simstats.suite import read_suite, suite_from_evaluations

    paths = args.table
    source = args.from_format or detect_format(paths)
    if source is None or source == "scores":
        for flag, value in (("--score", args.score), ("--filter", args.filter_name)):
            if value is not None:
                raise InputError(f"{flag} applies to --from lm-eval/inspect/helm; a table has one score column")
        if len(paths) != 1:
            raise InputError(f"one table expected, got {len(paths)} paths (several paths are the logs of --from "
                             "lm-eval/inspect/helm)")
        table = read_table(paths[0])
        if source == "scores" and "item" not in table.columns:
            raise InputError(f"--from scores: column 'item' not found (columns: {', '.join(map(str, table.columns))}); "
                             "a scores table has model, task, item, score and optionally epoch")
        return read_suite(table, run_column=args.run)
    if args.run is not None:
        raise InputError(f"--run applies to a table of runs, not to --from {source} (item-level scores)")
    if source != "lm-eval" and args.filter_name is not None:
        raise InputError(f"--filter applies to --from lm-eval, not --from {source}")
    if source == "lm-eval":
        from simstats.readers.lm_eval import read_lm_eval
        evaluations = read_lm_eval(paths, metric=args.score, filter=args.filter_name)
    elif source == "inspect":
        from simstats.readers.inspect import read_inspect
        evaluations = read_inspect(paths, scorer=args.score)
    else:
        from simstats.readers.helm import read_helm
        evaluations = read_helm(paths, stat=args.score)
    return suite_from_evaluations(evaluations)


def _fit(args) -> int:
    """``simstats fit``: a scenario entry fitted to the user's runs."""
    from simstats.compare import InputError, read_table
    from simstats.fit import fit_table

    if not 0 <= args.failure_alpha < 1:
        raise InputError(f"--failure-alpha must be in [0, 1), got {args.failure_alpha}")
    if args.n_resamples < 20:
        raise InputError(f"--n-resamples must be >= 20 (the intervals of the item and cluster shares come from the "
                         f"resamples' spread), got {args.n_resamples}")
    if not all(c.isalnum() or c in "_-" for c in args.name) or not args.name:
        raise InputError(f"--name uses letters, digits, '_' and '-' only, got {args.name!r}")
    fit = fit_table(read_table(args.table), args)
    if args.format == "yaml":
        print(fit.to_yaml(args.name, args.description), end="")
        return 0
    table = fit.table()
    table.attrs.update({"claim": f"{100 * args.confidence:g}% intervals of the noise model's parameters "
                                 "(latent units: total noise sd 1)", "data": fit.data["summary"]})
    _emit(table, args.format, f"scenario {args.name!r} fitted to {fit.data['kind']}: {fit.data['summary']}\n"
                              f"family: {fit.family}; latent units: sigma_item^2 + sigma_c^2 + sigma_e^2 = 1\n"
          + "".join(f"note: {n}\n" for n in fit.notes))
    return 0


def _suite(args) -> int:
    """``simstats suite``: the models', the pairs' and the tasks' tables over a suite of tasks."""
    from simstats.compare import InputError
    from simstats.io import markdown_table
    from simstats.suite import analyse_suite

    if args.pairs and args.tasks:
        raise InputError("--pairs and --tasks each choose the table --format csv prints: give one of them")
    suite = _suite_input(args)
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
                 + (f" (item means over {span(*samples)} samples)" if samples[1] > 1 else ""))
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
        _suite_figures(args, suite, models, settings)
    if args.format == "json":
        print(json.dumps({"settings": {**settings, "summary": header.strip(), "simstats_version": __version__},
                          "models": models.to_dict(orient="records"), "pairs": pairs.to_dict(orient="records"),
                          "tasks": tasks.to_dict(orient="records")}, indent=2, default=float))
    elif args.format == "csv":
        chosen = pairs if args.pairs else tasks if args.tasks else models
        print(chosen.to_csv(index=False, lineterminator="\n"), end="")
    else:
        print(header)
        print(markdown_table(models, digits=4))
        print(markdown_table(pairs, digits=4), end="")
        if len(tasks):
            print()
            print(markdown_table(tasks, digits=4), end="")
    return 0


def _suite_figures(args, suite, models, settings) -> None:
    """--figure PATH: the critical-difference diagram (PATH.png/.pdf) and, with items or runs, the suite means
    (PATH-means) and the rank intervals (PATH-ranks), from the models' table."""
    from simstats.io import save_figure
    from simstats.report.suite_figures import cd_diagram, rank_intervals_figure, suite_means_figure

    stem = Path(args.figure)
    if stem.suffix in (".png", ".pdf"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    names = models.model.tolist()
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
    for suffix, fig in figures:
        save_figure(fig, stem.parent / f"{stem.name}{suffix}.png", stem.parent / f"{stem.name}{suffix}.pdf")


def _check_config(args) -> int:
    settings = validate_config(_load(args.config))
    for name, sc in settings.scenarios.items():
        print(f"{name}\t{sc.metric}\ttarget={sc.target}\t{sc.description}")
    print(f"ok: {len(settings.scenarios)} scenarios")
    return 0


def _implied(args) -> int:
    from simstats.sim.noise import Population
    from simstats.sim.closed_forms import implied_values

    settings = validate_config(_load(args.config))
    if args.scenario not in settings.scenarios:
        raise ScenarioError(f"scenario: unknown scenario {args.scenario!r}")
    sc = settings.scenarios[args.scenario]
    out = {}
    for spec in sc.approaches:
        values = implied_values(sc, spec.name)
        values["mu"] = Population(sc).mu(spec.name)
        out[spec.name] = values
    print(json.dumps(out, indent=2, sort_keys=True))
    return 0


#: Settings every CSV row carries (when the command has them): the claim, and how it was tested.
CLAIM_FIELDS = ("claim", "test", "alternative", "correction", "correction_scope", "pvalue_method", "pvalue_rule",
                "n_resamples", "seed", "confidence_level", "alpha", "aso_threshold", "aso_note", "task",
                "samples_per_item")


def _emit(table, fmt: str, header: str) -> None:
    """Print ``table`` as Markdown (``header`` above it), CSV or JSON; CSV and JSON carry the claim and
    settings (``table.attrs``) as the header states them: JSON in ``settings``, CSV as constant columns."""
    from simstats.io import markdown_table

    if fmt == "json":
        records = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
                   for row in table.to_dict(orient="records")]
        settings = {**dict(table.attrs), "summary": header.strip(), "simstats_version": __version__}
        print(json.dumps({"settings": settings, "rows": records}, indent=2, default=float))
    elif fmt == "csv":
        out = table.copy()
        for key in CLAIM_FIELDS:
            value = table.attrs.get(key)
            if value is not None and key not in out.columns and not isinstance(value, (dict, list, tuple)):
                out[key] = value
        print(out.to_csv(index=False, lineterminator="\n"), end="")  # floats at full (repr) precision
    else:
        print(header)
        print(markdown_table(table, digits=4), end="")


#: The one sign convention of every command: the first named minus the second (library: A minus B).
DIFFERENCE_SIGN = "difference = reference minus system (positive: the reference is better; for mae, its improvement)"
#: H1 as the header states it; compare tests the reference's improvement (metric-aware), compare-scores the scores.
IMPROVEMENT_H1 = {"greater": "better than", "less": "worse than", "two-sided": "differs from"}
SCORES_H1 = {"greater": "scores higher than", "less": "scores lower than", "two-sided": "scores differ from"}
#: compare's note when the data choose the reference (--reference best) and the p-value is one-sided.
BEST_ONE_SIDED = {
    "greater": "--alternative greater with --reference best: the test is one-sided in the direction the data "
               "chose (the observed best), so its false-positive rate under no difference is about 2 x alpha; "
               "use --alternative two-sided (the default) or name the reference",
    "less": "--alternative less with --reference best: the test is one-sided against the direction the data "
            "chose (the observed best), so its p-values are about 0.5 or more and it can hardly reject; "
            "use --alternative two-sided (the default) or name the reference"}


def _sides(alternative: str, confidence: float) -> str:
    """States that the p-values follow --alternative while the intervals are always two-sided."""
    return (f"p-values {'two' if alternative == 'two-sided' else 'one'}-sided, "
            f"intervals two-sided {100 * confidence:g}%")


def _compare(args) -> int:
    import pandas as pd

    from simstats.compare import (compare_systems, item_clusters, read_table, runs_clusters, statistics_from_long,
                                  statistics_from_predictions, statistics_metric, wide_clusters)

    several = _prepare_inputs(args)
    if several is not None:
        return _compare_tasks(args, several)
    table = None if args.from_format else read_table(args.table)
    scored = args._tasks[0] if args.from_format else None
    runs = None if scored is not None else _runs(args, table)
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
        return _compare_approaches(args, runs)
    args.alternative = args.alternative or "two-sided"
    if args.variance != "moments":
        raise ValueError("--variance applies to approaches compared over several seeds per system (a long table "
                         "with a seed column, or --approach)")
    if args.fail_on == "claim-not-shown" and args.margin is None:
        raise ValueError("--fail-on claim-not-shown needs --margin (the claim to show)")
    # per-item scores from an evaluation: the paired t-test over items (or clusters) and analytic intervals,
    # validated by the harness study (the cluster bootstrap is liberal with few clusters; a percentile
    # interval collapses at 0 % and 100 %)
    args.test = args.test or ("t" if scored is not None and scored.metric.name == "mean_score" else "bootstrap")
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
    out = compare_systems(names, stats, metric, test=args.test, reference=args.reference,
                          n_resamples=args.n_resamples, rng=args.seed, correction=args.correction or "none",
                          alternative=args.alternative, confidence_level=args.confidence,
                          pvalue_method=args.pvalue_method or "shift", pvalue_rule=args.pvalue_rule or "add-one",
                          clusters=clusters)
    out.attrs["alpha"] = args.alpha
    if scored is not None:
        low, high = scored.samples
        out.attrs.update(task=scored.task, samples_per_item=f"{low}" if low == high else f"{low}-{high}",
                         claim=(f"these models differ on the population of items of task {scored.task!r}"
                                + (" and of samples per item (item means over the epochs)" if high > 1 else "")
                                + " (not their training procedures)"))
    decision = ""
    if args.margin is not None or args.fail_on is not None:
        out = _one_run_decisions(out, names, stats, metric, args, clusters)
        if args.margin is not None:
            decision = (f"decision: is the reference {'non-inferior' if args.claim == 'non-inferiority' else 'equivalent'}"
                        f" to each system with margin {args.margin:g}? ({args.claim} test: paired t-test over "
                        f"{'clusters' if clusters is not None else 'items'}"
                        f"{', two one-sided tests' if args.claim == 'equivalence' else ', one-sided'} at alpha = "
                        f"{args.alpha:g}): claim_pvalue, claim_shown, verdict\n")
    a = out.attrs
    resampling, intervals = f"{a['n_resamples']} resamples, seed {a['seed']}, ", ""
    if args.test == "t":
        resampling = f"{a['intervals']}, "
    elif args.test == "exact-randomization":  # exact p-values need no resampling; the intervals do
        resampling, intervals = "", f" from {a['n_resamples']} bootstrap resamples (seed {a['seed']})"
    if a.get("clusters"):
        resampling += "" if args.test == "t" else f"{a['clusters']} clusters resampled whole, "
    _emit(out, args.format, f"{a['metric']}: {a['test']}, {resampling}correction {a['correction']} over "
                            f"{a['correction_scope']}\n"
                            f"claim: {a['claim']}\n"
                            f"H1: reference {IMPROVEMENT_H1[a['alternative']]} system; "
                            f"{_sides(a['alternative'], args.confidence)}{intervals}; {DIFFERENCE_SIGN}\n"
                            + decision)
    return _gate(out, args.fail_on)


def _prepare_inputs(args):
    """Normalises ``args.table``: one path (``args.table`` a string) unless --from reads several; returns the
    tasks' paired scores when --from gives several tasks to compare, else None (and keeps them for reuse)."""
    from simstats.compare import InputError
    from simstats.readers import detect_format

    if not args.from_format and isinstance(args.table, list):
        args.from_format = detect_format(args.table)       # harness logs need no --from
    if not args.from_format:
        given = [flag for flag, value in (("--task", args.task), ("--score", args.score), ("--filter", args.filter_name),
                                          ("--references", args.references)) if value is not None]
        if given:
            raise InputError(f"{given[0]} applies to --from (an evaluation's logs or scores); this input is read as "
                             "predictions")
        if isinstance(args.table, list):
            if len(args.table) != 1:
                raise InputError(f"one table expected, got {len(args.table)} paths (several paths are the logs or "
                                 "files of --from lm-eval/inspect/helm/mt, all of one format)")
            args.table = args.table[0]
        return None
    given = [flag for flag, value in (("--positive", args.positive), ("--classes", args.classes),
                                      ("--gold", None if args.gold == "y" else args.gold)) if value]
    if given:
        raise InputError(f"{given[0]} applies to predictions and gold labels, not to --from {args.from_format}")
    if getattr(args, "_tasks", None) is None:
        args._tasks = _evaluations(args)
    return args._tasks if len(args._tasks) > 1 else None


def _compare_tasks(args, tasks) -> int:
    """compare --from over several tasks: each task's comparison, the correction over all of them."""
    import pandas as pd

    from simstats.compare import InputError, compare_systems
    from simstats.stats.multitest import adjust_pvalues

    for flag, value in (("--margin", args.margin), ("--fail-on", args.fail_on)):
        if value is not None:
            raise InputError(f"{flag} decides one comparison; choose a task with --task")
    if args.reference == "best" and args.alternative in BEST_ONE_SIDED:
        warnings.warn(BEST_ONE_SIDED[args.alternative])
    args.alternative = args.alternative or "two-sided"
    args.test = args.test or "t"
    correction = args.correction or "holm"
    frames = []
    for paired in tasks:
        out = compare_systems(paired.names, paired.stats, paired.metric, test=args.test, reference=args.reference,
                              n_resamples=args.n_resamples, rng=args.seed, correction="none",
                              alternative=args.alternative, confidence_level=args.confidence,
                              pvalue_method=args.pvalue_method or "shift", pvalue_rule=args.pvalue_rule or "add-one",
                              clusters=paired.clusters)
        low, high = paired.samples
        frames.append(out.assign(task=paired.task, items=paired.stats.shape[1],
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
    resampling = ("" if args.test == "t" else f", {a['n_resamples']} bootstrap resamples (seed {a['seed']})"
                  + (" for the intervals" if args.test == "exact-randomization" else ""))
    method = f"{a['test']}; {a['intervals']}{resampling}"
    _emit(table, args.format, f"{a['metric']} over {len(tasks)} tasks: {method}; the clusters of each task in "
                              f"column clusters; correction {correction} over {scope}\n"
                              f"claim: {a['claim']}\n"
                              f"H1: reference {IMPROVEMENT_H1[a['alternative']]} system; "
                              f"{_sides(a['alternative'], args.confidence)}; {DIFFERENCE_SIGN}\n")
    return 0


def _translations(args, paths):
    """``--from mt`` (hypothesis files and --references) or an lm-eval task scored by corpus BLEU: each
    system's per-sentence BLEU statistics (sacrebleu's), joined on the sentences."""
    import numpy as np

    from simstats.compare import InputError
    from simstats.readers.paired import PairedScores
    from simstats.stats.metrics import bleu

    if args.clusters is not None:
        raise InputError("--clusters is not read from translations; give per-sentence statistics with a cluster "
                         "column (--statistics) instead")
    if args.from_format == "mt":
        from simstats.readers.mt import read_translations
        if not args.references:
            raise InputError("--from mt needs --references FILE (the reference translations)")
        for flag, value in (("--task", args.task), ("--score", args.score), ("--filter", args.filter_name)):
            if value is not None:
                raise InputError(f"{flag} does not apply to --from mt (one test set, corpus BLEU)")
        names, stats = read_translations(paths, args.references)
        task = Path(args.references[0]).stem
    else:
        from simstats.readers.lm_eval import read_lm_eval_translations
        from simstats.readers.mt import bleu_statistics
        from simstats.readers.paired import check_item_hashes
        if args.task is None:
            raise InputError(f"--score {args.score} is a corpus-level metric: choose its task with --task")
        pairs = read_lm_eval_translations(paths, task=args.task, metric=args.score, filter=args.filter_name)
        check_item_hashes(pairs, args.task)
        names = list(dict.fromkeys(pairs.model)) if args.systems is None else list(args.systems)
        by_model = {m: g.sort_values("item", kind="stable") for m, g in pairs.groupby("model", sort=False)}
        unknown = [m for m in names if m not in by_model]
        if unknown:
            raise InputError(f"model(s) {', '.join(map(repr, unknown))} not found (models: {', '.join(by_model)})")
        items = by_model[names[0]]["item"].to_numpy()
        for m in names[1:]:
            if not np.array_equal(by_model[m]["item"].to_numpy(), items):
                raise InputError(f"task {args.task!r}: models {names[0]!r} and {m!r} were not scored on the same "
                                 "documents")
        stats = np.stack([bleu_statistics(by_model[m].prediction.tolist(), by_model[m].reference.tolist())
                          for m in names])
        task = args.task
    if args.systems is not None and args.from_format == "mt":
        missing = [m for m in args.systems if m not in names]
        if missing:
            raise InputError(f"system(s) {', '.join(map(repr, missing))} not found (systems: {', '.join(names)})")
        keep = [names.index(m) for m in args.systems]
        names, stats = [names[k] for k in keep], stats[keep]
    if len(names) < 2:
        raise InputError(f"{len(names)} system; a comparison needs at least two")
    return PairedScores(names, stats, np.arange(stats.shape[1]), None, task, (1, 1), metric=bleu)


def _evaluations(args):
    """``--from``: an evaluation's per-item scores, read by the format's reader: a list of
    :class:`~simstats.readers.paired.PairedScores`, one per task compared (--task, or every task all the
    models have)."""
    from simstats.compare import InputError, read_table
    from simstats.readers.paired import paired_scores, shared_tasks
    from simstats.readers.scores import read_scores

    for flag, value in (("--statistics", args.statistics), ("--approach", getattr(args, "approach", None)),
                        ("--prediction", getattr(args, "prediction", None)), ("--id", args.id),
                        ("--exclude", args.exclude), ("--resample", getattr(args, "resample", None))):
        if value:
            raise InputError(f"{flag} cannot be combined with --from {args.from_format} (the reader names the "
                             "models, items and scores)")
    if args.from_format == "mt" and args.metric not in ("accuracy", "bleu"):
        raise InputError(f"--from mt compares corpus BLEU; --metric {args.metric} does not apply")
    if args.from_format != "mt" and args.metric not in ("accuracy", "mean_score"):
        raise InputError(f"--from {args.from_format} compares mean item scores; --metric {args.metric} does not apply "
                         "(--score names the format's metric)")
    paths = args.table
    if args.references is not None and args.from_format != "mt":
        raise InputError("--references applies to --from mt")
    if args.from_format == "mt" or (args.from_format == "lm-eval" and args.score in CORPUS_SCORES):
        return [_translations(args, paths)]
    if args.from_format == "scores":
        if len(paths) != 1:
            raise InputError(f"--from scores reads one table, got {len(paths)} paths")
        for flag, value in (("--score", args.score), ("--filter", args.filter_name)):
            if value is not None:
                raise InputError(f"{flag} applies to --from lm-eval/inspect/helm; a scores table has one score column")
        evaluations = read_scores(read_table(paths[0]), cluster_column=args.clusters)
    elif args.from_format == "lm-eval":
        from simstats.readers.lm_eval import read_lm_eval
        evaluations = read_lm_eval(paths, task=args.task, metric=args.score, filter=args.filter_name,
                                   cluster_field=args.clusters)
    elif args.from_format == "inspect":
        from simstats.readers.inspect import read_inspect
        evaluations = read_inspect(paths, scorer=args.score, cluster_field=args.clusters)
    else:
        from simstats.readers.helm import read_helm
        evaluations = read_helm(paths, stat=args.score, cluster_field=args.clusters)
    if args.from_format != "lm-eval" and args.filter_name is not None:
        raise InputError(f"--filter applies to --from lm-eval, not --from {args.from_format}")
    tasks = [args.task] if args.task is not None else shared_tasks(evaluations, models=args.systems)
    return [paired_scores(evaluations, task=task, models=args.systems) for task in tasks]


def _one_run_decisions(out, names, stats, metric, args, clusters):
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


def _runs(args, table):
    """Runs of a long table (system, seed, item, prediction, gold) or of --approach seed columns;
    None for the inputs ``compare`` read before (wide table of one column per system, --statistics)."""
    from simstats.compare import InputError, is_long_predictions, runs_from_approaches, runs_from_long

    statistics = getattr(args, "statistics", False)
    long = not statistics and is_long_predictions(table, args.prediction)
    if statistics:
        for flag, value in (("--approach", args.approach), ("--prediction", args.prediction),
                            ("--resample", getattr(args, "resample", None))):
            if value:
                raise InputError(f"{flag} cannot be combined with --statistics")
        return None
    if args.approach:
        if long:
            raise InputError("--approach groups the columns of a wide table; this table is long (columns system, "
                             "seed, ...): drop --approach")
        for flag, value in (("--systems", args.systems), ("--exclude", args.exclude),
                            ("--prediction", args.prediction)):
            if value:
                raise InputError(f"{flag} cannot be combined with --approach (the approaches name their columns)")
        return runs_from_approaches(table, args.gold, args.approach, args.metric, args.positive, args.classes,
                                    id_column=args.id,
                                    paired_by_position=getattr(args, "paired_seeds", "auto") == "yes")
    if long:
        for flag, value in (("--id", args.id), ("--exclude", args.exclude)):
            if value:
                raise InputError(f"{flag} applies to wide tables; a long table's items are in column 'item'")
        return runs_from_long(table, args.gold, args.prediction, args.metric, args.positive, args.classes,
                              systems=args.systems)
    if args.prediction:
        raise InputError("--prediction names the prediction column of a long table (columns system, seed, item, "
                         "prediction, gold); this table has no 'system' column")
    if getattr(args, "resample", None):
        raise InputError("--resample: the approach test needs runs grouped by system: give a long table (system, "
                         "seed, item, pred, gold) or --approach NAME=col1,col2,...")
    return None


def _compare_approaches(args, runs) -> int:
    """``compare`` with several seeds per system: the approach t-test (default) or bootstrap over seeds x items."""
    from simstats.compare import InputError, compare_approach_runs

    test = args.test or ("bootstrap" if args.resample else "t")
    if test not in ("t", "bootstrap"):
        raise InputError(f"--test {test} applies to one run per system; with several seeds per system the "
                         "comparison is the approach t-test (--test t, the default) or bootstrap (--test bootstrap, "
                         "choose what it resamples with --resample)")
    alternative = args.alternative or "two-sided"
    resample = args.resample or "both"
    if args.fail_on == "claim-not-shown" and args.margin is None:
        raise InputError("--fail-on claim-not-shown needs --margin (the claim to show)")
    out = compare_approach_runs(runs, test=test, resample=resample, reference=args.reference,
                                alternative=alternative, n_resamples=args.n_resamples, rng=args.seed,
                                confidence_level=args.confidence, correction=args.correction or "none",
                                paired_seeds={"auto": None, "yes": True, "no": False}[args.paired_seeds],
                                margin=args.margin, claim=args.claim, alpha=args.alpha, variance=args.variance)
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
                  f"over seeds); {_sides(alternative, args.confidence)}; p-values and intervals from the null "
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
                  f"over seeds); {_sides(alternative, args.confidence)} percentile; p-values by the shift method "
                  f"({a['extreme']}); {DIFFERENCE_SIGN}\n"
                  "var_seeds, var_items, var_residual: bootstrap variance of the difference from seeds only, items "
                  "only, and the rest of the seeds x items variance\n")
    _emit(out, args.format, header)
    return _gate(out, args.fail_on)


def _gate(out, fail_on: str | None) -> int:
    """``--fail-on``: exit status 1 when a compared system meets the condition, else 0."""
    rows = out[out.role == "system"]
    if fail_on == "difference":
        return int(bool((rows.pvalue_adjusted < out.attrs["alpha"]).any()))
    if fail_on == "claim-not-shown":
        return int(not bool(rows.claim_shown.astype(bool).all()))
    return 0


def _grid(text: str, flag: str, smallest: int) -> list[int]:
    """``"3,5,10"`` -> [3, 5, 10]; a one-line error naming the flag otherwise."""
    from simstats.compare import InputError

    values = []
    for part in text.split(","):
        try:
            value = int(part.strip())
        except ValueError:
            raise InputError(f"{flag}: {part.strip()!r} is not an integer (expected e.g. {flag} 3,5,10)") from None
        if value < smallest:
            raise InputError(f"{flag}: every value must be >= {smallest}, got {value}")
        values.append(value)
    return values


def _floats(text: str, flag: str, count: int) -> list[float]:
    """``count`` comma-separated numbers of ``flag``."""
    from simstats.compare import InputError

    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise InputError(f"{flag}: expected {count} comma-separated numbers, got {text!r}") from None
    if len(values) != count:
        raise InputError(f"{flag}: expected {count} comma-separated numbers, got {text!r}")
    return values


def _observed_difference(out, name_a: str, name_b: str) -> str:
    """A pilot's observed difference with compare's sign: the observed best (compare's default
    reference) minus the other, so both commands print the same number for the same data; the
    JSON and CSV settings get the same (``reference``, ``pilot_difference``)."""
    difference = out.attrs["pilot_difference"]
    ref, other = (name_a, name_b) if difference >= 0 else (name_b, name_a)
    out.attrs.update(reference=ref, pilot_difference=abs(difference),
                     difference="reference minus system: the observed best minus the other")
    return (f"observed difference {ref} minus {other} = {abs(difference):.4g} (reference minus system, as "
            f"simstats compare prints it with the observed best, {ref}, as reference)")


def _plan_one_run(args, out) -> int:
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
                  + _observed_difference(out, name_a, name_b))
    else:
        d = a["pilot_difference"]
        first, second = ("A", "B") if d >= 0 else ("B", "A")
        source = (f"rates: accuracy {first} minus accuracy {second} = {abs(d):.4g} (A, B as given to --rates; "
                  f"the better minus the other, as simstats compare prints differences), disagreement "
                  f"{a['differing_share']:.4g}")
    needed = a["items_needed"]
    _emit(out, args.format,
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


def _plan(args) -> int:
    from simstats.compare import (InputError, plan_from_runs, plan_one_run, read_table, runs_clusters,
                                  statistics_from_predictions, wide_clusters)

    seeds = _grid(args.seeds, "--seeds", 2)
    items = _grid(args.items, "--items", 1) if args.items else None
    if not args.alpha < args.power < 1:
        raise InputError(f"--power must be in (--alpha, 1), got {args.power}")
    if args.rates is not None or args.table is None:
        if args.table is not None or args.rates is None:
            raise InputError("plan needs a pilot table or --rates ACC_A,ACC_B,DISAGREEMENT (not both)")
        rates = _floats(args.rates, "--rates", 3)
        return _plan_one_run(args, plan_one_run(None, None, None, items=items, alpha=args.alpha, target=args.power,
                                                difference=args.difference, confidence=args.confidence,
                                                rates=rates))
    table = read_table(args.table)
    runs = _runs(args, table)
    if runs is None or not runs.several_seeds:          # one run per system: a paired comparison on items
        if runs is not None:
            clusters = runs_clusters(runs, table, args.clusters).clusters if args.clusters else None
            names, stats, metric = runs.names, runs.stats, runs.metric
        else:
            clusters, exclude = wide_clusters(table, args.clusters, args.systems, args.exclude)
            names, stats, metric = statistics_from_predictions(table, args.gold, args.systems, args.metric,
                                                               args.positive, args.classes, id_column=args.id,
                                                               exclude=exclude)
        return _plan_one_run(args, plan_one_run(names, stats, metric, items=items, alpha=args.alpha,
                                                target=args.power, difference=args.difference,
                                                confidence=args.confidence, clusters=clusters))
    if args.clusters is not None:
        runs = runs_clusters(runs, table, args.clusters)
    out = plan_from_runs(runs, seeds=seeds, items=items, alpha=args.alpha, target=args.power,
                         difference=args.difference, confidence=args.confidence,
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
    _emit(out, args.format,
          f"{a['metric']}: pilot {name_a} ({ka} seeds) vs {name_b} ({kb} seeds, "
          f"{'paired' if a['paired_seeds'] else 'unpaired'}) on {a['pilot_items']} {units}; "
          f"{_observed_difference(out, name_a, name_b)}\n"
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


def _compare_scores(args) -> int:
    from simstats.compare import compare_score_distributions, read_table
    from simstats.stats.aso import NOT_A_TEST

    if args.reference == "best" and args.alternative in BEST_ONE_SIDED:
        warnings.warn(BEST_ONE_SIDED[args.alternative])
    out = compare_score_distributions(read_table(args.table), reference=args.reference, tests=args.tests,
                                      correction=args.correction, alternative=args.alternative,
                                      min_scores=args.min_scores, aso_alpha=args.aso_alpha,
                                      aso_threshold=args.aso_threshold, rng=args.seed,
                                      confidence_level=args.confidence, aso_method=args.aso_method)
    a = out.attrs
    tests = [t for t in args.tests if t != "aso"]
    header = (f"score distributions: {', '.join(tests) or 'no p-value test'}, correction {args.correction} over "
              f"{a['correction_scope']}\n"
              f"claim: {a['claim']}\n"
              f"H1: reference {SCORES_H1[args.alternative]} system; "
              f"{_sides(args.alternative, args.confidence)} (Welch, difference of means); "
              "difference = reference minus system (of the mean scores)\n")
    if "aso" in args.tests:
        header += (f"eps_min_aso: ASO ({args.aso_method}), upper {100 * (1 - args.aso_alpha):g} % confidence bound "
                   f"of the violation ratio of 'reference almost stochastically larger'"
                   + (f", level divided by {max(1, len(out) - 1)} comparisons" if args.correction != "none" else "")
                   + "; " + (f"aso_decision: eps_min < {args.aso_threshold:g}" if args.aso_threshold is not None
                             else "no decision (set --aso-threshold)")
                   + f"\nnote: {NOT_A_TEST}\n")
    out.attrs["aso_note"] = NOT_A_TEST if "aso" in args.tests else None
    _emit(out, args.format, header)
    return 0


def _competition(args) -> int:
    import pandas as pd

    from simstats.compare import (item_clusters, read_table, statistics_from_long, statistics_from_predictions,
                                  statistics_metric, wide_clusters)
    from simstats.stats.competition import (analyse_competition, competition_settings, decision_rule,
                                            pvalue_description)
    from simstats.studies.navamunoz2024.conventions import marked_significance
    from simstats.studies.navamunoz2024.tables import case_markdown, case_tables
    from simstats.io import write_csv, write_text

    def records(frame) -> list[dict]:
        """JSON-ready rows of a table: NaN as null, numpy scalars as Python ones."""
        return [{str(k): (None if isinstance(v, float) and np.isnan(v) else v.item() if isinstance(v, np.generic)
                          else v) for k, v in row.items()} for row in frame.to_dict(orient="records")]

    #: Figures written with --out and shown at the end of report.md: (file stem, caption).
    figure_links = (("intervals", "Ordered bootstrap CIs (Figure 1)"),
                    ("differences", "CIs of differences from the best (Figure 2)"),
                    ("bootstrap", "Bootstrap distribution of the difference between the two best systems (Figure 3)"))

    several = _prepare_inputs(args)
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
    # --preset gives every setting; --correction, --correction-scope, --pvalue-rule, --alternative override
    settings = competition_settings(args.preset, correction=args.correction, scope=args.correction_scope,
                                    pvalue_rule=args.pvalue_rule, alternative=args.alternative)
    analysis = analyse_competition(names, stats, metric, n_resamples=args.n_resamples,
                                   rng=np.random.default_rng(args.seed), confidence_level=args.confidence,
                                   clusters=clusters, alpha=args.alpha, **settings)
    tables = case_tables(analysis, alpha=args.alpha)
    rule = decision_rule(settings["correction"], settings["scope"], args.alpha)
    pvalues = pvalue_description(settings["alternative"], settings["pvalue_rule"])
    title = (f"{', '.join(map(str, args.table)) if isinstance(args.table, list) else args.table}: {analysis.m} systems, n = {analysis.n_items}, {metric.name}; "
             f"{args.n_resamples} bootstrap samples, seed {args.seed}"
             + (f", {int(clusters.max() + 1)} clusters resampled whole" if clusters is not None else ""))
    report = case_markdown(title, tables)
    # Files and JSON: Table 4 as numbers (matrix) with its significance in long form beside it; the
    # Markdown report keeps the marked cells.
    files = {**tables, "matrix": analysis.difference_values(),
             "matrix_significance": marked_significance(analysis, alpha=args.alpha)}
    if args.out:
        from simstats.studies.navamunoz2024.figures import (bootstrap_difference_figure, difference_intervals_figure,
                                                            ordered_intervals_figure)
        from simstats.io import save_figure

        level = f"{100 * args.confidence:g} %"
        out = Path(args.out)
        for name, frame in files.items():
            write_csv(frame, out / f"{name}.csv")
        figures = "\n## Figures\n\n" + "\n\n".join(f"![{caption}]({stem}.png)" for stem, caption in
                                                     figure_links) + "\n"
        write_text(report + figures, out / "report.md")
        save_figure(ordered_intervals_figure(tables["scores"], metric.name, label=f"score and {level} percentile CI"),
                    out / "intervals.png", out / "intervals.pdf")
        save_figure(difference_intervals_figure(tables["differences"], metric.name, rule=rule),
                    out / "differences.png", out / "differences.pdf")
        first = tables["differences"].iloc[0]
        panel = (f"{first.reference} vs {first.system}", analysis.improvement_replicates(0, 1), first.difference,
                 float(tables["pairs"].pvalue.iloc[0]))
        figure = bootstrap_difference_figure([panel], metric.name)
        figure.axes[0].set_title(f"{panel[0]}\np ({pvalues}) = {panel[3]:.4f}", fontsize=9)
        save_figure(figure, out / "bootstrap.png", out / "bootstrap.pdf")
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
        print(json.dumps({"settings": json_settings,
                          "tables": {name: records(frame) for name, frame in files.items()}}, indent=2))
    elif args.format == "csv":
        ranks = tables["ranks"].copy()
        for key, value in claim.items():
            ranks[key] = value
        print(ranks.to_csv(index=False, lineterminator="\n"), end="")  # full (repr) precision
    else:
        print(report, end="")
    return 0


#: The formats of ``--from``: their readers take paths (files or folders), the scores format one table.
FROM_FORMATS = ("lm-eval", "inspect", "helm", "mt", "scores")
#: Corpus-level metrics whose per-item statistics simstats computes (through sacrebleu's public API).
CORPUS_SCORES = ("bleu",)


def _from_arguments(p, several_tasks: bool = True) -> None:
    """``--from`` and ``--task`` of ``compare`` and ``competition`` (``several_tasks``: compare compares every
    task; competition ranks one)."""
    p.add_argument("--from", dest="from_format", choices=list(FROM_FORMATS),
                   help="read an evaluation's per-item scores instead of predictions: lm-eval (lm-evaluation-harness "
                        "--output_path folders, or one folder per model), inspect (inspect_ai .eval/.json logs; "
                        "needs simstats[inspect]), helm (HELM run folders or per_instance_stats.json files), mt "
                        "(translation files, one sentence per line, scored by corpus BLEU against --references), scores "
                        "(a long table: model, item, score and optionally task, epoch); each model's epochs of an "
                        "item are averaged, models are joined on the item ids (and item hashes, where the format "
                        "has them), and --systems chooses models (default: lm-eval, inspect or helm when the paths "
                        "are such logs, else predictions or --statistics)")
    p.add_argument("--task", help="with --from: the task to compare (default: every task all models have, each "
                                  "compared, the correction over all of them)" if several_tasks else
                   "with --from: the task to rank the systems on (default: the evaluation's only task)")
    p.add_argument("--score", metavar="NAME",
                   help="with --from lm-eval/inspect/helm: the metric (lm-eval), scorer (inspect) or statistic (helm) "
                        "to compare (default: lm-eval the task's first per-item metric, inspect the log's only "
                        "scorer, helm exact_match)")
    p.add_argument("--references", nargs="+", metavar="FILE",
                   help="with --from mt: the reference translation file(s), one sentence per line (default: none; "
                        "--from mt needs them)")
    p.add_argument("--filter", dest="filter_name", metavar="NAME",
                   help="with --from lm-eval: the filter of a task with several (default: none, or the task's only one)")


def _pvalue_rule_argument(p, default: str = "add-one") -> None:
    p.add_argument("--pvalue-rule", choices=["add-one", "fraction"],
                   help="how a count c of the B resamples at least as extreme becomes a p-value: add-one "
                        f"(c + 1)/(B + 1), never 0, or fraction c/B (can print 0) (default: {default})")


def _prediction_arguments(p, table_help: str, metric_help: str, optional: bool = False, several: bool = False) -> None:
    """The input options shared by ``compare``, ``plan`` and ``competition`` (``several``: the paths of --from)."""
    p.add_argument("table", help=table_help, **({"nargs": "?"} if optional else {"nargs": "+"} if several else {}))
    p.add_argument("--gold", default="y", help="gold label column (default: y)")
    p.add_argument("--systems", nargs="+", help="system columns (default: all but the gold, id and --exclude "
                                                "columns)")
    p.add_argument("--id", metavar="COLUMN",
                   help="item id column, never a system (default: a column named id or item, if any)")
    p.add_argument("--exclude", nargs="+", default=[], metavar="COLUMN",
                   help="columns that are not systems (default: none)")
    p.add_argument("--metric", default="accuracy", help=metric_help + " (default: accuracy)")
    p.add_argument("--positive", help="positive label for f1/precision/recall (default: the last of two labels "
                                      "in sorted order)")
    p.add_argument("--classes", nargs="+", help="classes averaged by macro_f1 (default: all)")


#: Checks of numeric options, so that errors name the flag: (attribute, flag, test, requirement).
OPTION_CHECKS = [
    ("n_resamples", "--n-resamples", lambda v: v >= 1, "must be >= 1"),
    ("seed", "--seed", lambda v: v >= 0, "must be >= 0"),
    ("confidence", "--confidence", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("alpha", "--alpha", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("margin", "--margin", lambda v: v is None or (math.isfinite(v) and v > 0), "must be a positive number"),
    ("aso_alpha", "--aso-alpha", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("min_scores", "--min-scores", lambda v: v >= 2, "must be >= 2 (the sd and Welch's t need 2 scores per system)"),
]


def _check_options(args) -> None:
    for attr, flag, ok, requirement in OPTION_CHECKS:
        if hasattr(args, attr) and not ok(getattr(args, attr)):
            raise ValueError(f"{flag} {requirement}, got {getattr(args, attr)}")


#: --resample choices of the approach test (simstats.compare.RESAMPLE maps them to compare_approaches').
RESAMPLE_CHOICES = ("both", "items", "seeds")


def _run_arguments(p) -> None:
    """Options of ``compare`` and ``plan`` that read several runs (seeds) per system."""
    p.add_argument("--prediction", metavar="COLUMN",
                   help="prediction column of a long table (columns system, seed, item, prediction, gold) "
                        "(default: pred)")
    p.add_argument("--approach", action="append", metavar="NAME=COL1,COL2,...",
                   help="wide table: the seed columns of one approach; repeat for each approach (default: none, "
                        "every column is one system)")


#: Options renamed for one vocabulary; the old spellings still work for one release, with a warning.
#: (command or None for every command, old option) -> new option.
RENAMED_OPTIONS = {("compare", "--resamples"): "--n-resamples", ("competition", "--resamples"): "--n-resamples",
                   ("compare", "--pvalue"): "--pvalue-method",
                   ("competition", "--pvalue"): "--pvalue-rule", ("competition", "--convention"): "--preset",
                   ("competition", "--scope"): "--correction-scope", ("competition", "--marks"): "--correction"}

DESCRIPTION = """Compare ML/NLP systems with tests validated by simulation.

commands:
  compare         systems' outputs on one test set, or approaches over seeds x items
  plan            seeds and test items a comparison needs (power, minimum detectable difference)
  compare-scores  score distributions, one score per run
  competition     rank the systems of a competition, with intervals and one decision rule
  suite           many models over a suite of tasks: ranks, means with intervals, per-task comparisons
  fit             fit the noise model to your own runs: a scenario for the pipeline
  check-config    validate configuration files and list their scenarios
  implied         the summary values a scenario's noise model implies

Every p-value is two-sided unless asked otherwise and never 0; every output states its claim."""


def renamed_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` with renamed options (:data:`RENAMED_OPTIONS`) spelled the new way, warning once for each."""
    argv = list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    out = []
    for arg in argv:
        name, eq, value = arg.partition("=")
        new = RENAMED_OPTIONS.get((command, name))
        if new is not None and name.startswith("--"):
            warnings.warn(f"{name} is renamed {new}; the old name will be removed in the next release")
            arg = new + eq + value
        out.append(arg)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="simstats", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"simstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("compare", help="compare systems' predictions (or per-item statistics) on one test set; "
                       "with several seeds per system, approaches over seeds x items")
    _prediction_arguments(p, "CSV/TSV/parquet: a gold column and one column per system (--approach groups seed "
                             "columns into approaches); long rows (system, seed, item, pred, gold); or, with "
                             "--statistics, long rows (system, item, statistics...)",
                          "accuracy, f1, precision, recall (binary, see --positive), macro_f1 (see --classes), "
                          "weighted_f1, mae; with --statistics also bleu (sacrebleu's corpus BLEU)", several=True)
    p.add_argument("--statistics", action="store_true",
                   help="the table holds per-item sufficient statistics (default: it holds predictions)")
    _from_arguments(p)
    p.add_argument("--test", choices=["bootstrap", "randomization", "exact-randomization", "t"],
                   help="one run per system: bootstrap (paired), randomization (approximate), exact-randomization "
                        "(stratified) or t (the paired t-test over items or --clusters, for accuracy and mean item "
                        "scores); several seeds per system: t (the approach t-test over seeds x items) or bootstrap "
                        "(over seeds x items, see --resample) (default: t for --from's mean item scores, bootstrap "
                        "for other metrics with one run per system, t with several seeds, bootstrap when --resample "
                        "is given)")
    p.add_argument("--pvalue-method", choices=["shift", "percentile", "sacrebleu"],
                   help="which bootstrap replicates count as extreme (--test bootstrap): shift (two-sided "
                        "|d* - d| >= |d|; one-sided d* >= 2d), percentile (d* <= 0 one-sided, Koehn 2004) or "
                        "sacrebleu (sacrebleu --paired-bs, two-sided: #{|d*| - mean |d*| > |d|}) (default: shift)")
    _pvalue_rule_argument(p)
    p.add_argument("--reference", default="best", help="system every other is compared with (default: the best)")
    p.add_argument("--alternative", choices=["greater", "less", "two-sided"],
                   help="H1 about the reference's improvement over each system (default: two-sided); greater or "
                        "less are one-sided, meant for a reference named before seeing the data: against "
                        "--reference best, greater rejects about 2 x alpha of the time under no difference")
    p.add_argument("--n-resamples", type=int, default=10_000,
                   help="bootstrap resamples of the intervals, and of the p-values of --test bootstrap or "
                        "randomization (default: 10000)")
    _run_arguments(p)
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
    p.add_argument("--correction", choices=["none", "bonferroni", "holm", "bh"],
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
    p.add_argument("--claim", default="non-inferiority", choices=["non-inferiority", "equivalence"],
                   help="with --margin: the reference is at most the margin worse than each system "
                        "(non-inferiority), or within the margin of it (equivalence, two one-sided tests) "
                        "(default: non-inferiority)")
    p.add_argument("--fail-on", choices=["difference", "claim-not-shown"],
                   help="approach tests: exit with status 1 when some system differs from the reference at "
                        "--alpha (difference), or when the --claim is not shown for some system "
                        "(claim-not-shown); for CI gates (default: exit 0 whatever the result)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown table, CSV or JSON (default: table)")
    p.set_defaults(func=_compare)
    p = sub.add_parser("plan", help="plan an approach comparison from pilot runs: power and minimum detectable "
                                    "difference over a grid of seeds and test items")
    _prediction_arguments(p, "CSV/TSV/parquet pilot runs: long rows (system, seed, item, pred, gold), a wide "
                             "table with --approach NAME=col1,col2,..., or one run per system (a wide table of "
                             "one prediction column per system: a paired comparison of two runs)",
                          "accuracy, f1, precision, recall (binary, see --positive), macro_f1 (see --classes), "
                          "weighted_f1, mae", optional=True)
    _run_arguments(p)
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
    p.set_defaults(func=_plan)
    p = sub.add_parser("compare-scores", help="compare score distributions (one score per run/seed)")
    p.add_argument("table", help="CSV/TSV/parquet: long (columns system, score and optionally seed) or wide "
                                 "(one column of scores per system, one row per seed, optional seed column)")
    p.add_argument("--tests", nargs="+", default=["welch", "mwu"], choices=["welch", "mwu", "wilcoxon", "aso"],
                   help="welch, mwu (independent runs), wilcoxon (scores paired by seed id), aso (eps_min) "
                        "(default: welch mwu)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the two-sided Welch interval of the difference of means (default: 0.95)")
    p.add_argument("--aso-alpha", type=float, default=0.05, help="ASO level (default: 0.05)")
    p.add_argument("--aso-method", default="exact", choices=["exact", "grid", "deepsig", "dror2019"],
                   help="ASO computation: exact (exact integrals of the quantile functions), grid (deepsig's grid, "
                        "first point counted), deepsig (as deepsig >= 1.2.4), dror2019 (as Dror et al. 2019's "
                        "released script) (default: exact)")
    p.add_argument("--aso-threshold", type=float,
                   help="decide with ASO: the reference is declared almost stochastically larger when eps_min < "
                        "this value, in (0, 0.5] (0.2 for a strict claim, Dror et al. 2019); ASO is not a test at "
                        "level alpha (default: no decision, eps_min only)")
    p.add_argument("--seed", type=int, default=0, help="seed of ASO's bootstrap (default: 0)")
    p.add_argument("--reference", default="best",
                   help="system every other is compared with (default: the best, highest mean)")
    p.add_argument("--alternative", default="two-sided", choices=["greater", "less", "two-sided"],
                   help="H1 about the reference's scores against each system's (default: two-sided); greater or "
                        "less are one-sided, meant for a reference named before seeing the data")
    p.add_argument("--correction", default="none", choices=["none", "bonferroni", "holm", "bh"],
                   help="multiple-comparison correction of the p-values (default: none)")
    p.add_argument("--min-scores", type=int, default=3, help="fewest scores a system may have (default: 3)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown table, CSV or JSON (default: table)")
    p.set_defaults(func=_compare_scores)
    p = sub.add_parser("competition", help="analyse a competition as Nava-Muñoz et al. 2024: CIs, differences "
                       "vs the best, p-value matrix, corrections, summary measures")
    _prediction_arguments(p, "CSV/TSV/parquet: a gold column and one prediction column per system, or with "
                             "--statistics long rows (system, item, statistics...)",
                          "accuracy, f1 (see --positive), macro_f1 (see --classes), weighted_f1, mae (lower is "
                          "better); with --statistics also precision, recall and bleu (sacrebleu's corpus BLEU)", several=True)
    p.add_argument("--statistics", action="store_true",
                   help="the table holds per-item sufficient statistics in long rows (system, item, statistics...), "
                        "e.g. BLEU's (default: it holds predictions)")
    _from_arguments(p, several_tasks=False)
    p.add_argument("--n-resamples", type=int, default=10_000, help="bootstrap samples (default: 10000)")
    p.add_argument("--clusters", metavar="COLUMN",
                   help="column of cluster (document) ids: the bootstrap resamples whole clusters (default: none, "
                        "items resampled one by one)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of the CIs (default: 0.95)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="level of every verdict: Table 3's 'different', Table 4's marks, ties (Table 6), tie groups "
                        "and possible winners (default: 0.05)")
    p.add_argument("--preset", default="recommended", choices=["recommended", "paper"],
                   help="recommended: two-sided (count+1)/(B+1) p-values, Holm over all pairs; paper: Nava-Muñoz et "
                        "al./CompStats (one-sided count/B p-values, no correction of the verdicts, Table 5 within "
                        "each reference system's comparisons); the flags below override single settings "
                        "(default: recommended)")
    p.add_argument("--correction", choices=["none", "bonferroni", "holm", "bh"],
                   help="correction of every verdict (Table 3, Table 4's marks, ties, possible winners) (default: "
                        "from --preset: holm; paper: none)")
    p.add_argument("--correction-scope", choices=["all", "group"],
                   help="family of the corrections: all pairs, or each reference system's comparisons (default: "
                        "from --preset: all; paper: group)")
    _pvalue_rule_argument(p, "from --preset: add-one; paper: fraction")
    p.add_argument("--alternative", choices=["two-sided", "greater"],
                   help="two-sided, P*(|d*-d| >= |d|), or one-sided 'the system ranked above is better', "
                        "P*(d* >= 2d) (default: from --preset: two-sided; paper: greater)")
    p.add_argument("--out", help="directory for the tables (CSV), report.md and figures (PNG, PDF) "
                                 "(default: print the report only)")
    p.add_argument("--format", default="md", choices=["md", "csv", "json"],
                   help="standard output: the Markdown report, the ranks table as CSV, or JSON with the settings "
                        "and every table (default: md)")
    p.set_defaults(func=_competition)
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
    p.set_defaults(func=_suite)
    p = sub.add_parser("fit", help="fit the noise model to your own runs: a scenario entry (YAML) for the "
                                   "pipeline, each parameter with an interval")
    p.add_argument("table", help="CSV/TSV/parquet (optionally compressed): item-level rows (seed, item, correct or "
                                 "pred and gold, optionally split dev/test) or run-level scores (columns test and "
                                 "optionally dev, or rows seed, split, score)")
    p.add_argument("--name", default="my_task", help="scenario name (default: my_task)")
    p.add_argument("--description", default="", help="scenario description (default: what was fitted)")
    p.add_argument("--where", action="append", metavar="COLUMN=VALUE",
                   help="keep only the rows where COLUMN equals VALUE; repeat for several (default: all rows)")
    p.add_argument("--run", metavar="COLUMN", help="run (seed) column (default: seed or run)")
    p.add_argument("--item", metavar="COLUMN", help="item id column of item-level rows (default: item)")
    p.add_argument("--split", metavar="COLUMN", help="split column, values dev and test (default: split; without "
                                                      "one every row is test)")
    p.add_argument("--outcome", metavar="COLUMN", help="0/1 correctness column of item-level rows (default: "
                                                       "correct, else --prediction compared with --gold)")
    p.add_argument("--prediction", metavar="COLUMN", help="prediction column (default: pred or prediction)")
    p.add_argument("--gold", metavar="COLUMN", help="gold label column (default: y or gold)")
    p.add_argument("--system", help="the system to fit, when the table has a system column with several")
    p.add_argument("--clusters", metavar="COLUMN", help="cluster (document) id of each item: sigma_c is fitted and "
                                                        "clusters are resampled (default: none)")
    p.add_argument("--test", metavar="COLUMN", help="run-level test score column (default: test)")
    p.add_argument("--dev", metavar="COLUMN", help="run-level dev score column (default: dev, if present)")
    p.add_argument("--score", metavar="COLUMN", help="score column of long run-level rows (default: score)")
    p.add_argument("--group", nargs="+", metavar="COLUMN",
                   help="run-level: columns whose values together name a configuration; variances are pooled "
                        "within configurations (default: all runs are one configuration)")
    p.add_argument("--metric", default="accuracy", choices=["accuracy", "recall", "precision", "f1"],
                   help="the scores' metric (item-level rows: accuracy) (default: accuracy)")
    p.add_argument("--test-size", type=int, help="run-level: test items (gold items for f1/precision/recall)")
    p.add_argument("--dev-size", type=int, help="run-level: dev items (default: --test-size)")
    p.add_argument("--assume-item-share", type=float, default=0.5,
                   help="run-level without dev scores: the share sigma_item^2 of the latent noise variance, which "
                        "test scores alone cannot identify (default: 0.5)")
    p.add_argument("--confidence", type=float, default=0.95, help="level of every interval (default: 0.95)")
    p.add_argument("--n-resamples", type=int, default=200,
                   help="item-level: bootstrap resamples of the item (cluster) correlations (default: 200)")
    p.add_argument("--failure-alpha", type=float, default=0.01,
                   help="level of the test that flags failed runs (generalised ESD); 0 turns it off (default: 0.01)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and pivotal draws (default: 0)")
    p.add_argument("--format", default="yaml", choices=["yaml", "table", "csv", "json"],
                   help="output: the scenario entry (YAML with comments), a Markdown table of the parameters, CSV "
                        "or JSON (default: yaml)")
    p.set_defaults(func=_fit)
    p = sub.add_parser("check-config", help="validate configuration file(s) and list the scenarios")
    p.add_argument("config", nargs="+", help="YAML files; later ones override earlier ones")
    p.set_defaults(func=_check_config)
    p = sub.add_parser("implied", help="print the exact summary values a scenario's noise model implies")
    p.add_argument("scenario")
    p.add_argument("--config", nargs="+", default=["config/config.yaml"])
    p.set_defaults(func=_implied)
    return parser


#: Signal number of SIGPIPE; exit code 128 + it (141) when the reader closes the pipe, as a shell reports.
SIGPIPE = 13


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises no second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (e.g. captured output): nothing is left to flush
        pass


def main(argv: Sequence[str] | None = None) -> int:
    # Python warnings (numpy, scipy, ASO's small-sample warning) become one line each, after the output;
    # after an error only the error is printed.
    with warnings.catch_warnings(record=True) as caught:
        args = build_parser().parse_args(renamed_argv(sys.argv[1:] if argv is None else argv))
        try:
            _check_options(args)
            code = args.func(args)
            sys.stdout.flush()  # a closed pipe shows here, not at exit
        except (ScenarioError, ValueError) as err:
            print(f"simstats: error: {err}", file=sys.stderr)
            return 2
        except BrokenPipeError:  # e.g. `simstats ... | head -1`: stop quietly, as Unix tools do
            _discard_stdout()
            return 128 + SIGPIPE
    for message in dict.fromkeys(str(w.message).partition("\n")[0] for w in caught):
        print(f"simstats: warning: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
