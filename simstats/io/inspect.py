"""inspect_ai evaluation logs (``.eval`` and ``.json``), read through inspect_ai's public reader.

Each log holds one task evaluated by one model: a sample per (id, epoch), with its scores by scorer
name.  The logs are read with :func:`inspect_ai.log.read_eval_log` (install ``simstats[inspect]``, or
inspect-ai itself); a score's value becomes a number with inspect_ai's own mapping
(:func:`inspect_ai.scorer.value_to_float`: "C" 1, "P" 0.5, "I" and "N" 0, booleans, numbers, and
"yes"/"no"/"true"/"false" and numeric strings), so the mean item score equals inspect's accuracy or mean.
inspect_ai stores no hash of a sample, so the reader hashes each sample's input text and target: two
logs whose sample of the same id had a different input are refused when joined.
"""
from __future__ import annotations

import hashlib
import math
import warnings
from pathlib import Path

import pandas as pd

from simstats.io.checks import InputError
from simstats.io.formats import COLUMNS, InputConflict, UnusableLogs

__all__ = ["read_inspect", "INSTALL"]

#: How to get inspect_ai when it is missing.
INSTALL = "pip install 'simstats[inspect]' (or pip install inspect-ai)"
#: The string values inspect_ai's value_to_float maps without a warning (the rest: numbers, yes/no, true/false).
SENTINELS = ("C", "I", "P", "N")


def _inspect_log():
    try:
        import inspect_ai.log as log
        from inspect_ai.scorer import value_to_float
    except ImportError:
        raise InputError(f"--from inspect reads logs with inspect_ai's reader, which is not installed: {INSTALL}") \
            from None
    return log, value_to_float()


def log_files(paths) -> list[Path]:
    """The ``.eval`` and ``.json`` files of ``paths`` (files, or folders searched one level deep), in name order."""
    out = []
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        path = Path(path)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in (".eval", ".json") and p.is_file())
            if not found:
                raise InputError(f"--from inspect: no .eval or .json log in {path}")
            out += found
        elif path.is_file():
            out.append(path)
        else:
            raise InputError(f"--from inspect: {path} not found")
    return out


def read_inspect(paths, *, scorer: str | None = None, cluster_field: str | None = None,
                 strict: bool = False) -> pd.DataFrame:
    """Per-sample scores of inspect_ai logs, in the readers' shape (:data:`simstats.io.formats.COLUMNS`).

    Parameters
    ----------
    paths : path or sequence of paths
        Log files (``.eval``, ``.json``) or folders of them; one log per (model, task).
    scorer : str, optional
        The scorer whose scores are read (default: the log's only scorer, which must be the same
        for every model of a task); logs without it are left out with a warning naming them.
    cluster_field : str, optional
        A key of each sample's metadata holding its cluster id (a subject, a source document).
    strict : bool
        Refuse the input when one log is unusable (unfinished, unreadable, unscored); by default such a
        log is left out with a warning naming it and why (:class:`simstats.io.formats.UnusableLogs`).

    Returns
    -------
    pandas.DataFrame
        One row per (model, task, sample id, epoch): ``model`` and ``task`` from the log's header,
        the sample's id as ``item``, its epoch, its score as a number and a hash of its input and
        target as ``item_hash``.

    Raises
    ------
    simstats.io.checks.InputError
        inspect_ai not installed, a log that is not finished (status started, error or
        cancelled), a file inspect_ai cannot read, an unknown scorer or several with none chosen,
        a sample without the score, a value inspect_ai cannot map to a number, a missing metadata
        key, two logs of one model and task.

    Examples
    --------
    Two models' logs of one task, 35 items scored in 3 epochs (the repository's test fixture, written
    by inspect_ai):

    >>> import glob
    >>> table = read_inspect(sorted(glob.glob("tests/data/harness/inspect/logs/eval/*toy-choice*")))
    >>> per_model = table.groupby("model").score
    >>> per_model.size().to_dict(), per_model.mean().round(4).to_dict()
    ({'mockllm/strong': 105, 'mockllm/weak': 105}, {'mockllm/strong': 0.6476, 'mockllm/weak': 0.3429})
    """
    log_api, to_float = _inspect_log()
    frames, seen, left_out, scorers = [], {}, [], {}
    unusable = UnusableLogs(strict)
    for file in log_files(paths):
        with unusable.each():
            _read_log(log_api, to_float, file, scorer, cluster_field, frames, seen, left_out, scorers)
    unusable.report(bool(frames) or bool(left_out))
    if not frames:
        raise InputError(left_out[0])
    for reason in left_out:
        warnings.warn(f"{reason}; log left out")
    for task, used in scorers.items():
        if len(set(used.values())) > 1:
            (m1, s1), (m2, s2) = list(used.items())[:2]
            raise InputError(f"--from inspect: task {task!r} was scored by {s1} for model {m1!r} and by {s2} for model "
                             f"{m2!r}: choose the scorer to compare with --score")
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]


def _read_log(log_api, to_float, file, scorer, cluster_field, frames, seen, left_out, scorers) -> None:
    """One log's rows appended to ``frames`` (a log without ``scorer`` noted in ``left_out``)."""
    try:
        log = log_api.read_eval_log(str(file))
    except Exception as err:       # inspect_ai raises several kinds for a file it cannot read
        raise InputError(f"--from inspect: {file}: not a log inspect_ai can read "
                         f"({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})") from None
    if log.status != "success":
        detail = f": {log.error.message}" if getattr(log, "error", None) is not None else ""
        what = ("the evaluation is still running or was interrupted" if log.status == "started"
                else "the evaluation did not finish")
        raise InputError(f"--from inspect: {file}: status {log.status!r} ({what}{detail}); compare finished logs "
                         "only")
    model, task = str(log.eval.model), str(log.eval.task)
    if (model, task) in seen:
        raise InputConflict(f"--from inspect: model {model!r} on task {task!r} appears in two logs "
                            f"({seen[model, task]} and {file}); give one log per model and task")
    try:
        rows, used = _log_rows(file, log, model, task, scorer, cluster_field, to_float)
        frames.append(rows)
        scorers.setdefault(task, {})[model] = used
        seen[model, task] = file
    except _NoScorer as err:
        left_out.append(str(err))


class _NoScorer(InputError):
    """A log without the scorer asked for (left out when other logs have it)."""


def _log_rows(file, log, model, task, scorer, cluster_field, to_float) -> pd.DataFrame:
    samples = log.samples or []
    if not samples:
        raise InputError(f"--from inspect: {file}: the log has no samples")
    names = list(dict.fromkeys(name for s in samples for name in (s.scores or {})))
    if not names:
        raise InputError(f"--from inspect: {file}: no sample has a score (the task was run without a scorer)")
    if scorer is None:
        if len(names) > 1:
            raise InputError(f"--from inspect: {file}: {len(names)} scorers ({', '.join(names)}): choose one with "
                             "--score")
        scorer = names[0]
    elif scorer not in names:
        raise _NoScorer(f"--from inspect: {file}: no scorer {scorer!r} (scorers: {', '.join(names)})")
    rows = []
    for s in samples:
        where = f"{file}: sample {s.id!r}, epoch {s.epoch}"
        score = (s.scores or {}).get(scorer)
        if score is None:
            raise InputError(f"--from inspect: {where} has no {scorer} score"
                             + (f" (error: {s.error.message})" if getattr(s, "error", None) is not None else ""))
        value = _number(score.value, to_float)
        if value is None:
            raise InputError(f"--from inspect: {where}: {scorer} value {score.value!r} is not a number inspect_ai maps "
                             "to one (C, P, I, N, a boolean, a number)")
        cluster = None
        if cluster_field is not None:
            metadata = s.metadata or {}
            if cluster_field not in metadata:
                raise InputError(f"--from inspect: {where}: no metadata key {cluster_field!r} for --clusters (keys: "
                                 f"{', '.join(map(str, metadata)) or 'none'})")
            cluster = metadata[cluster_field]
        rows.append((model, task, s.id, value, int(s.epoch), cluster, _sample_hash(s)))
    return pd.DataFrame(rows, columns=list(COLUMNS)), scorer


def _number(value, to_float) -> float | None:
    """inspect_ai's numeric reading of a score value, or None where it would only warn and give 0."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        text = value.lower()
        if value not in SENTINELS and text not in ("yes", "no", "true", "false"):
            try:
                if not math.isfinite(float(value)):
                    return None
            except ValueError:
                return None
        return float(to_float(value))
    return None


def _sample_hash(sample) -> str:
    """sha256 of a sample's input text and target: the same item in two logs has the same hash."""
    given = sample.input
    text = given if isinstance(given, str) else "\n".join(str(getattr(m, "text", m)) for m in given)
    target = sample.target if isinstance(sample.target, str) else "\n".join(map(str, sample.target))
    return hashlib.sha256(f"{text}\n--target--\n{target}".encode()).hexdigest()
