"""lm-evaluation-harness output folders (``lm_eval --output_path OUT --log_samples``).

lm-evaluation-harness writes, per model, ``OUT/<model_name_sanitized>/results_<date>.json`` (the aggregate
scores and the run's configuration, with ``model_name``) and, with ``--log_samples``,
``samples_<task>_<date>.jsonl`` beside it: one JSON line per (document, filter) with ``doc_id``,
``doc_hash`` (a hash of the document), ``filter``, ``metrics`` (the metric names) and each metric's
per-document value.  Values of item-level metrics (acc, acc_norm, exact_match, f1 of a document...) are
numbers; corpus-level metrics (bleu, chrf, ter) store [reference, prediction] pairs instead, aggregated
only over the corpus.

A task run with ``repeats: N`` holds N responses per request in ``resps``; the logged scores are those of
the first repeat (lm-eval's default ``take_first`` filter) or of a filter that combines them (e.g. a
majority vote).  Multiple-choice tasks are rescored for every repeat (:func:`read_lm_eval`).

The files are plain JSON, read here without lm-evaluation-harness (whose logs have no reading API).
"""
from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import pandas as pd

from simstats.io.checks import InputError
from simstats.io.formats import COLUMNS, InputConflict, UnusableLogs

__all__ = ["read_lm_eval", "read_lm_eval_translations"]

#: ``samples_<task>_<date>.jsonl`` and ``results_<date>.json`` as lm-evaluation-harness names them.
SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$")
RESULTS = re.compile(r"^results_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.json$")
#: Keys every samples line has (lm-evaluation-harness 0.4).
LINE_KEYS = ("doc_id", "filter", "metrics")
#: Metrics lm-evaluation-harness aggregates over the corpus only (their per-document values are pairs).
CORPUS_METRICS = ("bleu", "chrf", "ter")


def lm_eval_runs(path, unusable: UnusableLogs | None = None) -> list[tuple[str, Path, dict[str, Path]]]:
    """The runs under ``path``: (model, results file, {task: samples file}) per model folder, the newest
    results file of each folder and the samples files of the same date.

    ``path`` is one model's folder (holding ``results_<date>.json``) or an ``--output_path`` folder
    holding model folders.  A model folder that is unusable (no samples, a results file that is not
    lm-eval's) is refused, or left out and noted in ``unusable`` when it is given.
    """
    unusable = unusable or UnusableLogs(strict=True)
    path = Path(path)
    if not path.exists():
        raise InputError(f"--from lm-eval: {path} not found")
    if not path.is_dir():
        raise InputError(f"--from lm-eval: {path} is a file; give the model's folder (holding results_<date>.json "
                         "and samples_<task>_<date>.jsonl) or the --output_path folder")
    if any(RESULTS.match(p.name) for p in path.iterdir()):
        folders = [path]
    else:
        subfolders = sorted(p for p in path.iterdir() if p.is_dir())
        folders = [p for p in subfolders if any(RESULTS.match(q.name) for q in p.iterdir())]
        without = [p.name for p in subfolders if p not in folders and not p.name.startswith(".")]
        if folders and without:
            warnings.warn(f"--from lm-eval: folder(s) {', '.join(without)} in {path} have no results_<date>.json; "
                          "left out")
    if not folders:
        raise InputError(f"--from lm-eval: no results_<date>.json in {path} or its folders (an lm-evaluation-harness "
                         "--output_path folder, or one model's folder in it)")
    runs = []
    for folder in folders:
        with unusable.each():
            runs.append(_lm_eval_run(folder))
    return runs


def _lm_eval_run(folder: Path) -> tuple[str, Path, dict[str, Path]]:
    """One model folder's (model, newest results file, {task: samples file of the same date})."""
    results = sorted((p for p in folder.iterdir() if RESULTS.match(p.name)), key=lambda p: p.name)[-1]
    date = RESULTS.match(results.name)["date"]
    samples = {}
    for p in sorted(folder.iterdir()):
        m = SAMPLES.match(p.name)
        if m and m["date"] == date:
            samples[m["task"]] = p
    if not samples:
        raise InputError(f"--from lm-eval: {results} has no samples_<task>_{date}.jsonl beside it (run lm_eval "
                         "with --log_samples)")
    try:
        header = json.loads(results.read_text())
    except (OSError, ValueError) as err:
        raise InputError(f"--from lm-eval: {results}: not a JSON results file ({err})") from None
    if not isinstance(header, dict) or "results" not in header:
        raise InputError(f"--from lm-eval: {results}: no 'results' field (not an lm-evaluation-harness results "
                         "file, or an unknown format version)")
    model = header.get("model_name") or folder.name
    return str(model), results, samples


def read_lm_eval(paths, *, task: str | None = None, metric: str | None = None, filter: str | None = None,
                 cluster_field: str | None = None, strict: bool = False) -> pd.DataFrame:
    """Per-document scores of lm-evaluation-harness runs, in the readers' shape (:data:`simstats.io.formats.COLUMNS`).

    Parameters
    ----------
    paths : path or sequence of paths
        Model folders (``OUT/<model>``) or ``--output_path`` folders holding them.
    task : str, optional
        Read this task only (default: every task; a task that has no per-item value of ``metric``,
        e.g. one scored by corpus-level metrics only, is then left out with a warning naming it).
    metric : str, optional
        The metric to read (default: per task, the first metric of its samples whose values are
        numbers, e.g. acc or exact_match).
    filter : str, optional
        The filter whose responses were scored, for tasks with several (default: "none" if the task
        has it, else its only filter; a task with several other filters needs one named).
    cluster_field : str, optional
        A field of each document (``doc``) holding its cluster id (a subject, a source document);
        without ``task``, tasks whose documents lack it are left out with a warning.
    strict : bool
        Refuse the input when one model folder or samples file is unusable (no samples, a malformed
        line); by default it is left out with a warning naming it and why
        (:class:`simstats.io.formats.UnusableLogs`).

    Returns
    -------
    pandas.DataFrame
        One row per (model, task, document) and repeat: the document's id as ``item``, its ``doc_hash``
        as ``item_hash``, the repeat as ``epoch``.  lm-evaluation-harness logs one score per document and
        filter, that of the first repeat under its default filter, but keeps every repeat's responses: a
        multiple-choice task with ``repeats: N`` is rescored for each repeat from its log-likelihoods
        (acc, acc_norm, acc_bytes; the first repeat must reproduce the logged score), so its documents
        have N epochs; for other tasks with repeats the one logged score is read, with a warning saying so.

    Raises
    ------
    simstats.io.checks.InputError
        A folder without results or samples, a malformed line (file and line named), an unknown
        metric or filter, a corpus-level metric, a document scored twice, two runs of one model.

    Examples
    --------
    Two models' folders written by ``lm_eval --output_path runs --log_samples`` (the repository's test
    fixture; the mean of the per-document acc is lm-eval's reported acc):

    >>> table = read_lm_eval("tests/data/harness/lm_eval/runs", task="toy_mc")
    >>> print(table.groupby("model").score.mean().round(4).to_string())
    model
    simstats/toy-strong    0.7361
    simstats/toy-weak      0.5139
    """
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    frames, seen, left_out, tasks, filters = [], {}, {}, set(), set()
    unusable = UnusableLogs(strict)
    for path in paths:
        for model, results, samples in lm_eval_runs(path, unusable):
            if model in seen:
                raise InputConflict(f"--from lm-eval: model {model!r} appears twice ({seen[model]} and {results}); "
                                    "give one run per model")
            seen[model] = results
            tasks |= set(samples)
            configs = json.loads(results.read_text()).get("configs") or {}
            for name, file in samples.items():
                if task is not None and name != task:
                    continue
                with unusable.each():
                    try:
                        frame, present = _task_rows(model, name, file, metric, filter, cluster_field,
                                                    configs.get(name) or {})
                        frames.append(frame)
                        filters |= set(present)
                    except _NoItemScores as err:
                        if task is not None:
                            raise InputConflict(str(err)) from None
                        left_out.setdefault(name, str(err))
                        filters |= set(err.filters)
    if task is not None and task not in tasks:
        raise InputError(f"--task {task!r} not found (tasks: {', '.join(sorted(tasks))})")
    if filter is not None and frames and filter not in filters:
        raise InputError(f"--filter {filter!r}: no task read has it (filters: {', '.join(sorted(filters))})")
    unusable.report(bool(frames) or bool(left_out))
    for reason in left_out.values():
        warnings.warn(f"{reason}; task left out")
    if not frames:
        raise InputError("--from lm-eval: no task has per-item scores to compare "
                         f"({'; '.join(left_out.values())})")
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]


class _NoItemScores(InputError):
    """A task without per-item values of the metric asked for (left out when every task is read); ``filters``:
    the task's filters."""

    filters: tuple = ()


def _chosen_filter(task: str, filters: list, filter_name: str | None) -> str:
    """The filter read of a task: ``filter_name`` where the task has several, else its only one; "none" by
    default; an InputError when the task has several and none is named, or not the named one."""
    if filter_name is None:
        if "none" in filters or len(filters) == 1:
            return "none" if "none" in filters else filters[0]
        raise InputError(f"--from lm-eval: task {task!r} has {len(filters)} filters ({', '.join(filters)}): "
                         "choose one with --filter")
    if filter_name not in filters and len(filters) == 1:
        return filters[0]                             # --filter chooses among a task's several filters
    if filter_name not in filters:
        raise InputError(f"--from lm-eval: task {task!r} has no filter {filter_name!r} (filters: {', '.join(filters)})")
    return filter_name


def _json_lines(file: Path):
    """(line number, parsed JSON) of a JSON-lines file; an InputError naming the file and line otherwise."""
    with open(file, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(f"--from lm-eval: {file}, line {number}: not UTF-8 text ({err.reason} at byte "
                                 f"{err.start} of the line)") from None
            if not text.strip():
                continue
            try:
                yield number, json.loads(text)
            except ValueError:
                raise InputError(f"--from lm-eval: {file}, line {number}: not a JSON object") from None


def _task_rows(model: str, task: str, file: Path, metric, filter_name, cluster_field, config=None) -> pd.DataFrame:
    lines = []
    for number, line in _json_lines(file):
        missing = [k for k in LINE_KEYS if k not in line] if isinstance(line, dict) else list(LINE_KEYS)
        if missing:
            raise InputError(f"--from lm-eval: {file}, line {number}: field {missing[0]!r} missing (not an "
                             "lm-evaluation-harness 0.4 samples file, or an unknown format version)")
        lines.append((number, line))
    if not lines:
        raise InputError(f"--from lm-eval: {file} has no samples")
    filters = list(dict.fromkeys(line["filter"] for _, line in lines))
    filter_name = _chosen_filter(task, filters, filter_name)
    try:
        return _filtered_rows(model, task, file, metric, filter_name, cluster_field, lines, config or {}), filters
    except _NoItemScores as err:
        err.filters = tuple(filters)
        raise


def _filtered_rows(model, task, file, metric, filter_name, cluster_field, lines, config) -> pd.DataFrame:
    """The rows of one task and filter (:func:`_task_rows`): one per document, or with ``repeats: N`` on a
    multiple-choice task one per document and repeat (:func:`_repeat_scores`)."""
    lines = [(n, line) for n, line in lines if line["filter"] == filter_name]
    names = list(lines[0][1]["metrics"])
    chosen = metric
    if chosen is None:
        numeric = [m for m in names if _is_number(lines[0][1].get(m))]
        if not numeric:
            raise _NoItemScores(f"--from lm-eval: task {task!r}: no item-level metric (metrics: {', '.join(names)}; "
                             f"{', '.join(m for m in names if m in CORPUS_METRICS) or 'these'} are computed over the "
                             "corpus only)")
        chosen = numeric[0]
    elif chosen not in names:
        raise _NoItemScores(f"--from lm-eval: task {task!r} has no metric {chosen!r} (metrics: {', '.join(names)})")
    rows = []
    repeats = _repeats(lines[0][1], config)
    for number, line in lines:
        value = line.get(chosen)
        if not _is_number(value):
            kind = ("a [reference, prediction] pair: a corpus-level metric, not a per-item score"
                    if isinstance(value, list) else f"{value!r}, not a finite number")
            raise InputError(f"--from lm-eval: {file}, line {number} (doc_id {line['doc_id']}): {chosen} is {kind}")
        cluster = None
        if cluster_field is not None:
            doc = line.get("doc") or {}
            if cluster_field not in doc:
                raise _NoItemScores(f"--from lm-eval: {file}, line {number} (doc_id {line['doc_id']}): the document has "
                                 f"no field {cluster_field!r} for --clusters (fields: {', '.join(map(str, doc))})")
            cluster = doc[cluster_field]
        scores = _repeat_scores(file, number, line, chosen, float(value), config, repeats)
        rows += [(model, task, line["doc_id"], score, epoch, cluster, line.get("doc_hash"))
                 for epoch, score in enumerate(scores)]
    if repeats > 1 and not rows_per_repeat(lines[0][1], chosen, config):
        scored = ("the first repeat (lm-eval's default filter take_first)" if filter_name == "none" else
                  f"filter {filter_name!r}'s response (the first repeat's, unless the filter combines them, e.g. "
                  "by majority vote)")
        warnings.warn(f"--from lm-eval: task {task!r}: {repeats} repeats per document, of which the log scores one "
                      f"response: compared on {scored}, 1 sample per item")
    out = pd.DataFrame(rows, columns=list(COLUMNS))
    again = out.duplicated(["item", "epoch"])
    if again.any():
        raise InputError(f"--from lm-eval: {file}: doc_id {out['item'][again].iloc[0]} appears twice for filter "
                         f"{filter_name!r}")
    return out


#: Multiple-choice metrics rescored from each repeat's log-likelihoods: the choice's length in characters or
#: bytes that divides its log-likelihood (None: not divided), as lm-eval's ConfigurableTask.process_results does.
RESCORED = {"acc": None, "acc_norm": "characters", "acc_bytes": "bytes"}


def _repeats(line: dict, config: dict) -> int:
    """The repeats of a task's documents: the length of each request's responses (``resps``), which lm-eval
    fills with one response per repeat; the task's ``repeats`` setting where the line has no responses."""
    responses = line.get("resps")
    if isinstance(responses, list) and responses and isinstance(responses[0], list) and responses[0]:
        return len(responses[0])
    return int(config.get("repeats") or 1)


def rows_per_repeat(line: dict, metric: str, config: dict) -> bool:
    """Whether each repeat of a document is scored from the log (a multiple-choice task and a metric of
    :data:`RESCORED`), else the log's one score per document is read."""
    return config.get("output_type") == "multiple_choice" and metric in RESCORED and _repeats(line, config) > 1


def _repeat_scores(file, number, line, metric, logged: float, config: dict, repeats: int) -> list[float]:
    """The document's score per repeat: lm-eval logs the score of the first repeat only (its take_first
    filter), but keeps every repeat's log-likelihoods in ``resps``; a multiple-choice metric of
    :data:`RESCORED` is recomputed from them for each repeat (the argmax over the choices, each log-likelihood
    divided by its choice's length for acc_norm, ties to the first choice).  The first repeat's recomputed
    score must equal the logged one (else the task scores in its own way, and the repeats are refused)."""
    if not rows_per_repeat(line, metric, config):
        return [logged]
    where = f"--from lm-eval: {file}, line {number} (doc_id {line.get('doc_id')})"
    try:
        responses = line["resps"]
        arguments = line["arguments"]
        gold = int(str(line["target"]))
        delimiter = str(config.get("target_delimiter", " "))
        choices = [str(arguments[f"gen_args_{i}"]["arg_1"]) for i in range(len(responses))]
        choices = [c[len(delimiter):] if delimiter and c.startswith(delimiter) else c for c in choices]
        loglik = [[float(responses[i][r][0]) for i in range(len(choices))] for r in range(repeats)]
    except (KeyError, TypeError, ValueError, IndexError):
        raise InputError(f"{where}: {repeats} repeats of a multiple-choice document whose log-likelihoods, choices "
                         "or gold index cannot be read to score each repeat (compare --from with repeats: 1, or "
                         "give per-repeat scores as a table: model, task, item, epoch, score)") from None
    size = {None: [1.0] * len(choices), "characters": [float(len(c)) for c in choices],
            "bytes": [float(len(c.encode("utf-8"))) for c in choices]}[RESCORED[metric]]
    scores = []
    for values in loglik:
        if len(values) != len(size) or min(size) <= 0:
            raise InputError(f"{where}: {len(values)} log-likelihoods for {len(choices)} choices; the repeats cannot "
                             "be scored")
        normalised = [v / n for v, n in zip(values, size)]
        scores.append(1.0 if normalised.index(max(normalised)) == gold else 0.0)
    if scores[0] != logged:
        raise InputError(f"{where}: {metric} recomputed from the first repeat's log-likelihoods is {scores[0]:g}, the "
                         f"log says {logged:g}: the task scores its choices in its own way, so its {repeats} repeats "
                         "cannot be scored from the log (give per-repeat scores as a table)")
    return scores


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def read_lm_eval_translations(paths, *, task: str, metric: str = "bleu", filter: str | None = None) -> pd.DataFrame:
    """The [reference, prediction] pairs a corpus-level metric (bleu) stores per document.

    Parameters
    ----------
    paths : path or sequence of paths
        As :func:`read_lm_eval`.
    task : str
        The task (a corpus-level metric is compared one task at a time).
    metric : str
        The corpus-level metric whose pairs are read (default bleu).
    filter : str, optional
        As :func:`read_lm_eval`.

    Returns
    -------
    pandas.DataFrame
        Columns model, task, item (doc_id), reference, prediction and item_hash (doc_hash).

    Raises
    ------
    simstats.io.checks.InputError
        An unknown task, metric or filter, a value that is not a [reference, prediction] pair.

    Examples
    --------
    >>> pairs = read_lm_eval_translations("tests/data/harness/lm_eval/runs", task="toy_mt")
    >>> pairs.groupby("model").size().to_dict()
    {'simstats/toy-strong': 60, 'simstats/toy-weak': 60}
    """
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    rows, seen = [], {}
    for path in paths:
        for model, results, samples in lm_eval_runs(path):
            if model in seen:
                raise InputError(f"--from lm-eval: model {model!r} appears twice ({seen[model]} and {results})")
            seen[model] = results
            if task not in samples:
                raise InputError(f"--task {task!r} not found for model {model!r} (tasks: {', '.join(sorted(samples))})")
            file = samples[task]
            lines = list(_json_lines(file))
            if not lines:
                raise InputError(f"--from lm-eval: {file} has no samples")
            chosen = _chosen_filter(task, list(dict.fromkeys(line.get("filter") for _, line in lines)), filter)
            for number, line in lines:
                if line.get("filter") != chosen:
                    continue
                pair = line.get(metric)
                if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                    raise InputError(f"--from lm-eval: {file}, line {number} (doc_id {line.get('doc_id')}): {metric} "
                                     f"is {pair!r}, not a [reference, prediction] pair of a corpus-level metric")
                rows.append((model, task, line["doc_id"], pair[0], pair[1], line.get("doc_hash")))
    return pd.DataFrame(rows, columns=["model", "task", "item", "reference", "prediction", "item_hash"])
