"""Readers of evaluation outputs: one module per format, one table shape out.

Every reader returns a long table with the columns of :data:`COLUMNS`: the model, the task, the
item id, the item's score (one sample), the sample's epoch (repeat), the item's cluster and, where
the format has one, the item's content hash.  :func:`simstats.io.paired.paired_scores` turns
such a table into the per-item statistics the tests take.
"""
from __future__ import annotations

from simstats.io.checks import InputError

class InputConflict(InputError):
    """Logs that contradict each other (two runs of one model and task): refused, never skipped as unusable."""


class UnusableLogs:
    """The logs a reader left out, each with its reason: a log that is unusable (unfinished, malformed, not
    scored) is skipped with one warning each, unless ``strict``, when the first refuses the whole input.

    Use :meth:`each` around the reading of one log, then :meth:`report` once every log was tried.

    Examples
    --------
    >>> logs = UnusableLogs(strict=False)
    >>> for name in ("a", "b"):
    ...     with logs.each():
    ...         if name == "b":
    ...             raise InputError("--from x: b: not finished")
    >>> logs.reasons
    ['--from x: b: not finished']
    """

    def __init__(self, strict: bool = False):
        self.strict = strict
        self.reasons: list[str] = []

    def each(self):
        import contextlib

        @contextlib.contextmanager
        def one_log():
            try:
                yield
            except InputError as err:
                if self.strict or isinstance(err, InputConflict):
                    raise
                self.reasons.append(str(err))
        return one_log()

    def report(self, anything_read: bool) -> None:
        """Warn once per log left out; with nothing read, refuse with the first reason."""
        import warnings

        if not anything_read and self.reasons:
            raise InputError(self.reasons[0])
        for reason in self.reasons:
            warnings.warn(f"{reason}; log left out (--strict refuses such input)")


#: The columns every reader returns (``cluster`` and ``item_hash`` may be empty).
COLUMNS = ("model", "task", "item", "score", "epoch", "cluster", "item_hash")

#: Harness formats :func:`detect_format` recognises (``--from`` values).
DETECTED_FORMATS = ("lm-eval", "inspect", "helm")


def _format_of(path) -> str | None:
    import re
    from pathlib import Path

    path = Path(path)
    results = re.compile(r"^results_\d{4}-\d{2}-\d{2}T.*\.json$")
    if path.is_file():
        if path.suffix == ".eval":
            return "inspect"
        if path.name == "per_instance_stats.json":
            return "helm"
        if path.suffix == ".json":
            with open(path, encoding="utf-8", errors="replace") as handle:
                head = handle.read(4096)
            return "inspect" if '"eval"' in head and '"status"' in head else None
        return None
    if not path.is_dir():
        return None
    children = list(path.iterdir())
    folders = [p for p in children if p.is_dir()]
    if any(results.match(p.name) for p in children) or any(results.match(q.name) for f in folders
                                                              for q in f.iterdir()):
        return "lm-eval"
    if (path / "per_instance_stats.json").is_file() or any((f / "per_instance_stats.json").is_file()
                                                           for f in folders):
        return "helm"
    if any(p.suffix == ".eval" for p in children) or any(_format_of(p) == "inspect" for p in children
                                                          if p.suffix == ".json"):
        return "inspect"
    return None


def detect_format(paths) -> str | None:
    """The harness format of ``paths`` (:data:`DETECTED_FORMATS`), or None when they are not all of one.

    lm-evaluation-harness: a folder holding ``results_<date>.json`` (or model folders that do);
    HELM: ``per_instance_stats.json`` or a folder holding it (or run folders that do); inspect_ai:
    ``.eval`` files, ``.json`` logs, or a folder of them.

    Parameters
    ----------
    paths : sequence of path
        Files or folders.

    Returns
    -------
    str or None
        "lm-eval", "inspect" or "helm".

    Examples
    --------
    >>> detect_format(["tests/data/harness/lm_eval/runs"]), detect_format(["tests/data/harness/inspect/logs/json"])
    ('lm-eval', 'inspect')
    >>> detect_format(["tests/data/harness/helm/benchmark_output/runs/paired"]), detect_format(["README.md"])
    ('helm', None)
    """
    formats = {_format_of(p) for p in paths}
    return formats.pop() if len(formats) == 1 else None
