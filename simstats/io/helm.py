"""HELM run folders (``benchmark_output/runs/<suite>/<run>/per_instance_stats.json``).

``helm-run`` writes, per run (one model on one scenario), ``per_instance_stats.json``: a list of entries
``{instance_id, train_trial_index, [perturbation], stats}`` whose ``stats`` hold, per metric name and
split, the instance's ``mean`` (exact_match, quasi_exact_match, ...).  ``run_spec.json`` beside it
names the model (``adapter_spec.model``) and the run (``name``: ``<scenario>:<args>``);
``helm-summarize`` adds ``instances.json`` with each instance's input and references, which the reader
hashes (HELM stores no hash) so that a join of different instances under the same id is refused.

The files are plain JSON, read here without crfm-helm (whose full install pulls torch).
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pandas as pd

from simstats.io.checks import InputError
from simstats.io.formats import COLUMNS, InputConflict, UnusableLogs

__all__ = ["read_helm", "DEFAULT_STAT"]

#: The statistic read by default.
DEFAULT_STAT = "exact_match"
STATS_FILE = "per_instance_stats.json"


def run_folders(paths) -> list[Path]:
    """The run folders of ``paths``: run folders, ``per_instance_stats.json`` files, or folders holding run
    folders (a suite folder), in name order."""
    out = []
    for path in [paths] if isinstance(paths, (str, Path)) else paths:
        path = Path(path)
        if path.is_file() and path.name == STATS_FILE:
            out.append(path.parent)
        elif path.is_dir() and (path / STATS_FILE).is_file():
            out.append(path)
        elif path.is_file():
            raise InputError(f"--from helm: {path} is not a {STATS_FILE} file (give a HELM run folder, its "
                             f"{STATS_FILE}, or a suite folder of runs)")
        elif path.is_dir():
            found = sorted(p for p in path.iterdir() if (p / STATS_FILE).is_file())
            if not found:
                raise InputError(f"--from helm: no {STATS_FILE} in {path} or its folders (a HELM run folder, or a "
                                 "suite folder of runs)")
            out += found
        else:
            raise InputError(f"--from helm: {path} not found")
    return out


def read_helm(paths, *, stat: str | None = None, split: str = "test", cluster_field: str | None = None,
              strict: bool = False) -> pd.DataFrame:
    """Per-instance scores of HELM runs, in the readers' shape (:data:`simstats.io.formats.COLUMNS`).

    Parameters
    ----------
    paths : path or sequence of paths
        Run folders, their ``per_instance_stats.json`` files, or suite folders holding runs.
    stat : str, optional
        The per-instance statistic (default ``exact_match``); its ``mean`` is the instance's score.
    split : str
        The split whose statistics are read (default ``test``).
    cluster_field : str, optional
        A field of the instances in ``instances.json`` holding a cluster id (e.g. ``sub_split``).
    strict : bool
        Refuse the input when one run is unusable (a malformed file, a missing statistic); by default such
        a run is left out with a warning naming it and why (:class:`simstats.io.formats.UnusableLogs`).

    Returns
    -------
    pandas.DataFrame
        One row per (model, task, instance, train trial) of the unperturbed instances: the task is
        the run's name without its ``model=`` argument, the train trial is the epoch, and the item
        hash is the sha256 of the instance's input and references where ``instances.json`` is present.

    Raises
    ------
    simstats.io.checks.InputError
        A folder without runs, a file that is not HELM's (file named), an entry without the
        statistic (instance named), a non-finite value, two runs of one model and task.

    Examples
    --------
    Two models' runs of one suite (the repository's test fixture, written by ``helm-run``):

    >>> table = read_helm("tests/data/harness/helm/benchmark_output/runs/paired")
    >>> print(table.groupby("model").score.mean().round(4).to_string())
    model
    fixture/parity-a    0.825
    fixture/parity-b    0.675
    """
    stat = stat or DEFAULT_STAT
    frames, seen = [], {}
    unusable = UnusableLogs(strict)
    for folder in run_folders(paths):
        with unusable.each():
            model, task = _run_names(folder)
            if (model, task) in seen:
                raise InputConflict(f"--from helm: model {model!r} on task {task!r} appears in two runs "
                                    f"({seen[model, task]} and {folder})")
            frames.append(_run_rows(folder, model, task, stat, split, cluster_field))
            seen[model, task] = folder
    unusable.report(bool(frames))
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]


def _load(file: Path):
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"--from helm: {file}: not a JSON file ({err})") from None


def _run_names(folder: Path) -> tuple[str, str]:
    """(model, task) of a run: ``run_spec.json``'s adapter_spec.model and name without ``model=``."""
    spec_file = folder / "run_spec.json"
    if not spec_file.is_file():
        raise InputError(f"--from helm: {folder} has no run_spec.json (it names the run's model)")
    spec = _load(spec_file)
    try:
        model, name = str(spec["adapter_spec"]["model"]), str(spec["name"])
    except (KeyError, TypeError):
        raise InputError(f"--from helm: {spec_file}: no adapter_spec.model or name (not a HELM run spec, or an "
                         "unknown format version)") from None
    scenario, _, arguments = name.partition(":")
    kept = [a for a in arguments.split(",") if a and not a.startswith("model=")]
    return model, scenario + (":" + ",".join(kept) if kept else "")


def _run_rows(folder, model, task, stat, split, cluster_field) -> pd.DataFrame:
    file = folder / STATS_FILE
    entries = _load(file)
    if not isinstance(entries, list):
        raise InputError(f"--from helm: {file}: not a list of per-instance entries (an unknown format version)")
    instances = _instances(folder, cluster_field)
    rows = []
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or "instance_id" not in entry or "stats" not in entry:
            raise InputError(f"--from helm: {file}: entry {k} has no instance_id or stats (an unknown format version)")
        if entry.get("perturbation"):
            continue                                  # perturbed copies: a robustness analysis, not the items
        item = entry["instance_id"]
        values = [s for s in entry["stats"] if s.get("name", {}).get("name") == stat
                  and s["name"].get("split") == split and not s["name"].get("perturbation")]
        if not values:
            names = sorted({s.get("name", {}).get("name") for s in entry["stats"]})
            raise InputError(f"--from helm: {file}: instance {item!r} has no {stat} statistic on split {split!r} "
                             f"(statistics: {', '.join(map(str, names[:12]))}{', ...' if len(names) > 12 else ''})")
        value = values[0].get("mean")
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(f"--from helm: {file}: instance {item!r}: {stat} mean {value!r} is not a finite number")
        info = instances.get(item, {})
        cluster = None
        if cluster_field is not None:
            if cluster_field not in info:
                raise InputError(f"--from helm: instance {item!r} has no field {cluster_field!r} in "
                                 f"{folder / 'instances.json'} for --clusters")
            cluster = info[cluster_field]
        rows.append((model, task, item, float(value), int(entry.get("train_trial_index", 0)), cluster,
                     info.get("_hash")))
    if not rows:
        raise InputError(f"--from helm: {file}: no unperturbed instance")
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _instances(folder: Path, cluster_field) -> dict:
    """Instance id -> its fields and content hash, from ``instances.json`` (empty without the file)."""
    file = folder / "instances.json"
    if not file.is_file():
        if cluster_field is not None:
            raise InputError(f"--from helm: --clusters reads instances.json, which {folder} lacks (run helm-summarize)")
        return {}
    out = {}
    for instance in _load(file):
        if instance.get("perturbation"):
            continue
        text = json.dumps({"input": instance.get("input"), "references": instance.get("references")},
                          sort_keys=True, ensure_ascii=False)
        out[instance.get("id")] = {**instance, "_hash": hashlib.sha256(text.encode()).hexdigest()}
    return out
