"""One place per extension (docs/architecture.md): a metric is one registration, and a study is one package plus
one registry line — its configuration defaults, rules, helpers, scripts and captions come from the package."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import run_cli
from simstats.stats import metrics

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- a metric: one registration
@pytest.fixture
def brier():
    metric = metrics.register_metric(metrics.custom_metric("brier", ("squared_error", "items"),
                                                           lambda s: s[..., 0] / s[..., 1], higher_is_better=False))
    yield metric
    metrics.unregister_metric("brier")


def test_a_registered_metric_is_known_everywhere(brier, tmp_path, capsys):
    assert metrics.get_metric("brier") is brier and "brier" in metrics.metric_names()
    assert metrics.metric_from_sums("brier", {"squared_error": 3.0, "items": 12}) == pytest.approx(0.25)
    rng = np.random.default_rng(5)
    errors = {"a": rng.random(40) ** 2, "b": rng.random(40) ** 2 * 0.5}
    rows = [{"system": s, "item": i, "squared_error": e, "items": 1} for s, v in errors.items() for i, e in enumerate(v)]
    table = tmp_path / "brier.csv"
    pd.DataFrame(rows).to_csv(table, index=False)
    code, out, err = run_cli(capsys, "compare", table, "--statistics", "--metric", "brier", "--format", "csv",
                             "--n-resamples", "200")
    assert code == 0, err
    scores = pd.read_csv(__import__("io").StringIO(out)).set_index("system").score
    assert scores["a"] == pytest.approx(errors["a"].mean(), abs=1e-12)     # the metric's own definition
    assert scores["b"] == pytest.approx(errors["b"].mean(), abs=1e-12)
    assert scores.index[0] == "b"                                            # lower is better: b first


def test_an_unregistered_metric_is_refused_with_the_registered_names(tmp_path, capsys):
    table = tmp_path / "t.csv"
    pd.DataFrame({"system": ["a", "b"], "item": [0, 0], "squared_error": [0.1, 0.2], "items": [1, 1]}).to_csv(table)
    code, _, err = run_cli(capsys, "compare", table, "--statistics", "--metric", "brier")
    assert code == 2 and "brier" in err and "accuracy" in err
    with pytest.raises(ValueError, match="already registered"):
        metrics.register_metric(metrics.custom_metric("accuracy", ("c", "n"), lambda s: s[..., 0]))


# --------------------------------------------------------------------------- a test of score distributions
def scipy_result_with(pvalue):
    import types
    return types.SimpleNamespace(statistic=0.0, pvalue=pvalue)


@pytest.fixture
def brunner_munzel():
    import scipy.stats

    from simstats.stats import conventions
    conventions.register("score_tests", "brunner-munzel", scipy.stats.brunnermunzel)
    yield scipy.stats.brunnermunzel
    conventions.unregister("score_tests", "brunner-munzel")


def test_a_registered_score_test_is_offered_by_the_library_and_the_command(brunner_munzel, tmp_path, capsys):
    from simstats.compare import compare_score_distributions, score_tests
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.80, 0.01, 8), rng.normal(0.79, 0.02, 8)
    runs = pd.DataFrame({"system": ["a"] * 8 + ["b"] * 8, "score": np.r_[a, b]})
    assert "brunner-munzel" in score_tests()
    out = compare_score_distributions(runs, tests=("welch", "brunner-munzel")).set_index("system")
    reference, other = ("a", b) if a.mean() > b.mean() else ("b", a)
    expected = brunner_munzel(runs[runs.system == reference].score.to_numpy(), other).pvalue
    assert out["pvalue_brunner-munzel"].dropna().iloc[0] == pytest.approx(expected, rel=1e-12)
    table = tmp_path / "runs.csv"
    runs.to_csv(table, index=False)
    code, printed, err = run_cli(capsys, "compare-scores", table, "--tests", "brunner-munzel", "--format", "csv")
    assert code == 0, err
    column = pd.read_csv(__import__("io").StringIO(printed))["pvalue_brunner-munzel"].dropna()
    assert column.iloc[0] == pytest.approx(expected, rel=1e-12)
    from simstats.stats import conventions
    conventions.register("score_tests", "broken", lambda a, b, alternative: scipy_result_with(float("nan")))
    try:
        code, _, err = run_cli(capsys, "compare-scores", table, "--tests", "broken")
    finally:
        conventions.unregister("score_tests", "broken")
    assert code == 2 and err.count("\n") == 1 and "score test 'broken' gave p = nan" in err
    with pytest.raises(SystemExit):
        run_cli(capsys, "compare-scores", table, "--tests", "no-such-test")
    assert "choose from 'welch', 'mwu', 'wilcoxon', 'aso', 'brunner-munzel'" in capsys.readouterr().err


# --------------------------------------------------------------------------- a study: one package, one line
TINY = {
    "__init__.py": '"""A tiny study: writes a table of a configured number of rows."""\n',
    "settings.py": ('"""The tiny study\'s settings."""\nfrom dataclasses import dataclass\n\n\n'
                    '@dataclass(frozen=True)\nclass TinySettings:\n    rows: int\n\n\n'
                    'def parse_settings(section, context):\n    return TinySettings(section["rows"])\n\n\n'
                    'def scale_summary(settings):\n    return f"tiny: {settings.rows} rows"\n'),
    "schema.yaml": ("type: object\nadditionalProperties: false\ndefault: {}\n"
                    "properties:\n  rows: {type: integer, minimum: 1, default: 3}\n"),
    "helpers.smk": ('# The tiny study\n\n\ndef tiny_outputs():\n    return [f"{RESULTS}/tiny/table.csv"]\n\n\n'
                    'STUDY_OUTPUTS["tiny"] = tiny_outputs\n'),
    "rules.smk": ('rule tiny_table:\n    output:\n        report(f"{RESULTS}/tiny/table.csv", caption="report/tiny.rst", '
                  'category="Tiny"),\n    params:\n        library=library_hash("tiny"),\n'
                  '        rows=SETTINGS.tiny.rows,\n    log:\n        log_path("tiny/table"),\n'
                  '    conda:\n        CONDA_ENV\n    script:\n        "scripts/tiny_table.py"\n'),
    "scripts/tiny_table.py": ('from simstats.io.write import write_text\n\n'
                              'write_text("".join(f"{k}\\n" for k in range(snakemake.params.rows)), '
                              'snakemake.output[0])\nopen(snakemake.log[0], "w").close()\n'),
    "report/tiny.rst": "A table of the configured number of rows.\n",
}


@pytest.fixture(scope="module")
def tiny_checkout(tmp_path_factory):
    """A copy of the checkout with the tiny study added: its package and one line of the registry."""
    copy = tmp_path_factory.mktemp("tiny") / "repo"
    shutil.copytree(ROOT, copy, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".snakemake", "results", "figures", ".test", "docs", "__pycache__", "build", "*.egg-info"))
    package = copy / "simstats" / "studies" / "tiny"
    for name, text in TINY.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    registry = copy / "simstats" / "studies" / "__init__.py"
    text = registry.read_text()
    last = '    Study("trust", "trust", title="What can I trust, per scenario"),\n'
    assert last in text
    registry.write_text(text.replace(last, last + '    Study("tiny", "tiny", title="A tiny study"),\n'))
    return copy


def run_in(copy: Path, *args, timeout=300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run(args, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_tiny_study_is_configured_from_its_package(tiny_checkout):
    out = run_in(tiny_checkout, sys.executable, "-c",
                 "import yaml; from simstats.config import validate_config, DEFAULT_CONFIG_PATH; "
                 "from simstats.report.replication import scale_summary; "
                 "s = validate_config(yaml.safe_load(DEFAULT_CONFIG_PATH.read_text())); "
                 "print(s.tiny.rows, s.studies['tiny'].rows); print(scale_summary(s))")
    assert out.returncode == 0, out.stderr
    first, summary = out.stdout.splitlines()
    assert first == "3 3" and summary.endswith("tiny: 3 rows")


def test_the_tiny_study_runs_in_the_pipeline(tiny_checkout):
    dry = run_in(tiny_checkout, "snakemake", "-n", "--cores", "1")
    assert dry.returncode == 0, dry.stderr
    assert "tiny_table" in dry.stdout
    target = "results/tiny/table.csv"
    run = run_in(tiny_checkout, "snakemake", "--cores", "1", target)
    assert run.returncode == 0, run.stderr
    assert (tiny_checkout / target).read_text() == "0\n1\n2\n"
    # the replication report depends on every study's outputs, the tiny one's among them
    dag = run_in(tiny_checkout, "snakemake", "--rulegraph", "dot", "--", "results/REPORT.md")
    assert dag.returncode == 0, dag.stderr
    nodes = dict(re.findall(r'^\s*(\d+)\[label = "(\w+)"', dag.stdout, re.M))
    edges = {(nodes[a], nodes[b]) for a, b in re.findall(r"^\s*(\d+) -> (\d+)", dag.stdout, re.M)}
    assert ("tiny_table", "replication_report") in edges
    lint = run_in(tiny_checkout, "snakemake", "--lint")
    assert lint.returncode == 0 and "Congratulations" in lint.stdout + lint.stderr, lint.stdout + lint.stderr
