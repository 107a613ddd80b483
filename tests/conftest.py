import itertools
import math

import numpy as np
import pytest

from simstats.sim.scenario import parse_scenario


@pytest.fixture
def make_scenario():
    """Build a scenario from keyword overrides of a small accuracy scenario."""
    def make(name="t", **overrides):
        spec = {"metric": "accuracy", "target": 0.8, "dev": {"items": 500}, "test": {"items": 500},
                "sigma_item": 1.0, "sigma_seed": 0.0, "sigma_shift": 0.0, "sigma_e": 0.7}
        spec.update(overrides)
        return parse_scenario(name, spec)
    return make


def run_cli(capsys, *args):
    """Run ``simstats`` in-process: (exit code, stdout, stderr)."""
    from simstats.cli import main

    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write_table(tmp_path, frame, name="table.csv"):
    """Write a test table as CSV and return its path."""
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def acc_stats(*systems):
    """Per-item accuracy statistics (correct, 1) of each system, stacked: (systems, items, 2)."""
    return np.stack([np.stack([np.asarray(s, float), np.ones(len(s))], axis=1) for s in systems])


def exact_bootstrap_pvalue(stats, metric, convention, alternative):
    """Enumerate every multinomial resample of n items with its probability."""
    n = stats.shape[1]
    delta = metric(stats[0].sum(0)) - metric(stats[1].sum(0))
    total = 0.0
    for combo in itertools.combinations_with_replacement(range(n), n):
        counts = np.bincount(combo, minlength=n).astype(float)
        prob = math.factorial(n) / np.prod([math.factorial(int(c)) for c in counts]) / n**n
        d = metric(counts @ stats[0]) - metric(counts @ stats[1])
        if convention == "shift":
            hit = {"greater": d >= 2 * delta - 1e-12, "less": d <= 2 * delta + 1e-12,
                   "two-sided": abs(d - delta) >= abs(delta) - 1e-12}[alternative]
        else:
            hit = d <= 1e-12 if alternative == "greater" else d >= -1e-12
        total += prob * hit
    return total


def inspect_logs(folder, **want):
    """The inspect_ai logs of ``folder`` whose header matches ``want`` (model, task, status, scored, and
    arg_<task argument>): logs are chosen by their header, never by their file name (which holds a date)."""
    import pytest

    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    found = []
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".eval", ".json"):
            continue
        header = read_eval_log(str(path), header_only=True)
        have = {"model": header.eval.model, "task": header.eval.task, "status": header.status,
                "scored": bool(header.results and header.results.scores),
                **{f"arg_{k}": v for k, v in (header.eval.task_args or {}).items()}}
        if all(have.get(k) == v for k, v in want.items()):
            found.append(path)
    return found


def one_inspect_log(folder, **want):
    """The one inspect_ai log of ``folder`` that matches ``want`` (:func:`inspect_logs`)."""
    (path,) = inspect_logs(folder, **want)
    return path
