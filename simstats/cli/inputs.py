"""The inputs of the commands: a table of predictions, runs or statistics, or an evaluation's logs (--from),
read with :mod:`simstats.io` after the options were checked against each other."""
from __future__ import annotations

from pathlib import Path

from simstats.cli.arguments import CORPUS_SCORES

def prepare_inputs(args):
    """Normalises ``args.table``: one path (``args.table`` a string) unless --from reads several; returns the
    tasks' paired scores when --from gives several tasks to compare, else None (and keeps them for reuse)."""
    from simstats.io.checks import InputError
    from simstats.io.formats import detect_format

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
        args._tasks = evaluations(args)
    return args._tasks if len(args._tasks) > 1 else None


def translations(args, paths):
    """``--from mt`` (hypothesis files and --references) or an lm-eval task scored by corpus BLEU: each
    system's per-sentence BLEU statistics (sacrebleu's), joined on the sentences."""
    import numpy as np

    from simstats.io.checks import InputError
    from simstats.io.paired import PairedScores
    from simstats.stats.metrics import bleu

    if args.clusters is not None:
        raise InputError("--clusters is not read from translations; give per-sentence statistics with a cluster "
                         "column (--statistics) instead")
    if args.from_format == "mt":
        from simstats.io.mt import read_translations
        if not args.references:
            raise InputError("--from mt needs --references FILE (the reference translations)")
        for flag, value in (("--task", args.task), ("--score", args.score), ("--filter", args.filter_name)):
            if value is not None:
                raise InputError(f"{flag} does not apply to --from mt (one test set, corpus BLEU)")
        names, stats = read_translations(paths, args.references)
        task = Path(args.references[0]).stem
    else:
        from simstats.io.lm_eval import read_lm_eval_translations
        from simstats.io.mt import bleu_statistics
        from simstats.io.paired import check_item_hashes
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


def evaluations(args):
    """``--from``: an evaluation's per-item scores, read by the format's reader: a list of
    :class:`~simstats.io.paired.PairedScores`, one per task compared (--task, or every task all the
    models have)."""
    from simstats.io.checks import InputError
    from simstats.io.tables import read_table
    from simstats.io.paired import paired_scores, shared_tasks
    from simstats.io.scores import read_scores

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
        return [translations(args, paths)]
    if args.from_format == "scores":
        if len(paths) != 1:
            raise InputError(f"--from scores reads one table, got {len(paths)} paths")
        for flag, value in (("--score", args.score), ("--filter", args.filter_name)):
            if value is not None:
                raise InputError(f"{flag} applies to --from lm-eval/inspect/helm; a scores table has one score column")
        evaluations = read_scores(read_table(paths[0]), cluster_column=args.clusters)
    elif args.from_format == "lm-eval":
        from simstats.io.lm_eval import read_lm_eval
        evaluations = read_lm_eval(paths, task=args.task, metric=args.score, filter=args.filter_name,
                                   cluster_field=args.clusters, strict=args.strict)
    elif args.from_format == "inspect":
        from simstats.io.inspect import read_inspect
        evaluations = read_inspect(paths, scorer=args.score, cluster_field=args.clusters, strict=args.strict)
    else:
        from simstats.io.helm import read_helm
        evaluations = read_helm(paths, stat=args.score, cluster_field=args.clusters, strict=args.strict)
    if args.from_format != "lm-eval" and args.filter_name is not None:
        raise InputError(f"--filter applies to --from lm-eval, not --from {args.from_format}")
    tasks = [args.task] if args.task is not None else shared_tasks(evaluations, models=args.systems)
    return [paired_scores(evaluations, task=task, models=args.systems, shared_items=args.shared_items)
            for task in tasks]


def runs_of(args, table):
    """Runs of a long table (system, seed, item, prediction, gold) or of --approach seed columns;
    None for the inputs ``compare`` read before (wide table of one column per system, --statistics)."""
    from simstats.io.checks import InputError
    from simstats.io.runs import is_long_predictions, runs_from_approaches, runs_from_long

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


def suite_input(args):
    """``simstats suite``'s input as a :class:`simstats.suite.Suite`: a table (runs, one score or items per model
    and task) or, with --from (or harness logs detected from the paths), an evaluation's per-item scores."""
    from simstats.io.checks import InputError
    from simstats.io.tables import read_table
    from simstats.io.formats import detect_format
    from simstats.io.suite import read_suite, suite_from_evaluations

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
        from simstats.io.lm_eval import read_lm_eval
        evaluations = read_lm_eval(paths, metric=args.score, filter=args.filter_name, strict=args.strict)
    elif source == "inspect":
        from simstats.io.inspect import read_inspect
        evaluations = read_inspect(paths, scorer=args.score, strict=args.strict)
    else:
        from simstats.io.helm import read_helm
        evaluations = read_helm(paths, stat=args.score, strict=args.strict)
    return suite_from_evaluations(evaluations, shared_items=args.shared_items)
