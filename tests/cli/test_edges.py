"""Right or refused at every edge: degenerate variance, ties, impossible counts, hostile names, outputs that
exist, and a property test that any table of valid counts gives finite, in-range, strictly parsable output."""
import contextlib
import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy import stats as sps

from simstats.cli import main


def run(*argv) -> tuple[int, str, str]:
    """``simstats argv`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def strict_json(text: str):
    """Parse with a strict parser: NaN, Infinity and -Infinity are refused (RFC 8259)."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def numbers(value):
    """Every number in parsed JSON."""
    if isinstance(value, dict):
        for v in value.values():
            yield from numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from numbers(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


def pvalues(value, key=""):
    """Every number under a key naming a p-value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from pvalues(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from pvalues(v, key)
    elif "pvalue" in key and isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


def one_line_error(code, out, err) -> str:
    assert code == 2 and out == "" and err.startswith("simstats: error: ") and err.count("\n") == 1, err
    return err


# --- degenerate variance -----------------------------------------------------------------------------------------

def test_deterministic_runs_are_not_evidence(tmp_path):
    """Models whose runs do not vary (LogReg, SVC, KNN in a scikit-learn suite): no within-task p-value made of
    rounding residue; each such comparison is stated as not tested."""
    rows = [(m, f"t{t}", s, 0.7 + 0.01 * t + (0.002 if m == "svc" else 0.0))
            for m in ("logreg", "svc") for t in range(5) for s in range(5)]
    path = tmp_path / "suite.csv"
    pd.DataFrame(rows, columns=["model", "task", "seed", "score"]).to_csv(path, index=False)
    code, out, err = run("suite", path, "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert all(p is None for p in (row["pvalue"] for row in result["tasks"]))
    assert all("do not vary" in row["note"] for row in result["tasks"])
    assert "not tested" in result["settings"]["method_tasks"]
    code, out, _ = run("suite", path, "--scope", "these", "--format", "json")
    pair = strict_json(out)["pairs"][0]
    assert pair["mean_difference_pvalue"] is None and pair["mean_different"] is False


def test_identical_approaches_with_a_margin_are_not_shown_equivalent(tmp_path):
    gold = np.arange(40) % 2
    pred = gold.copy()
    pred[:6] = 1 - pred[:6]
    rows = [(a, s, i, pred[i], gold[i]) for a in ("A", "B") for s in range(3) for i in range(40)]
    path = tmp_path / "runs.csv"
    pd.DataFrame(rows, columns=["system", "seed", "item", "pred", "gold"]).to_csv(path, index=False)
    for claim in ("non-inferiority", "equivalence"):
        code, out, err = run("compare", path, "--gold", "gold", "--margin", "0.01", "--claim", claim, "--format",
                             "json")
        assert code == 0, err
        row = strict_json(out)["rows"][1]
        assert row["claim_shown"] is False and row["claim_pvalue"] is None and "not tested" in row["verdict"]
        assert row["df"] is None and row["pvalue"] == 1.0
    code, out, err = run("compare", path, "--gold", "gold", "--margin", "0.01")
    assert "df inf" not in out and " inf " not in out and "p = 0 " not in out
    one_line_error(*run("plan", path, "--gold", "gold"))


def test_friedman_over_identical_models_is_exact_not_nan(tmp_path):
    path = tmp_path / "suite.csv"
    pd.DataFrame([(m, f"t{t}", 0.7 + 0.01 * t) for m in "abc" for t in range(6)],
                 columns=["model", "task", "score"]).to_csv(path, index=False)
    code, out, err = run("suite", path)
    assert code == 0 and not re.search(r"\bnan\b", out.lower()) and err == ""
    assert "chi-square 0, p = 1" in out


# --- the same counts in any shape: the same ranks and Friedman statistic -----------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(0, 12), min_size=4, max_size=4), min_size=3, max_size=4),
       st.integers(12, 20))
def test_item_run_and_score_shapes_give_the_same_ranks(correct, items):
    """Counts of correct items per (model, task), given as 0/1 items, as one score per task, and as 20 equal runs
    (whose mean differs from the count's ratio in the last digit): identical ranks and Friedman statistics."""
    models = [f"m{k}" for k in range(len(correct))]
    tasks = [f"t{j}" for j in range(4)]
    item_rows, score_rows, run_rows = [], [], []
    for model, row in zip(models, correct):
        for task, count in zip(tasks, row):
            item_rows += [(model, task, i, float(i < count)) for i in range(items)]
            score_rows.append((model, task, count / items))
            run_rows += [(model, task, s, count / items) for s in range(20)]
    results = []
    for shape, frame in (("items", pd.DataFrame(item_rows, columns=["model", "task", "item", "score"])),
                         ("scores", pd.DataFrame(score_rows, columns=["model", "task", "score"])),
                         ("runs", pd.DataFrame(run_rows, columns=["model", "task", "seed", "score"]))):
        buffer = io.StringIO()
        frame.to_csv(buffer, index=False)
        path = f"/tmp/simstats-edges-{shape}.csv"
        with open(path, "w") as handle:
            handle.write(buffer.getvalue())
        code, out, err = run("suite", path, "--format", "json")
        assert code == 0, err
        result = strict_json(out)
        ranks = {row["model"]: row["average_rank"] for row in result["models"]}
        results.append((ranks, result["settings"]["friedman_statistic"], result["settings"]["friedman_pvalue"]))
    assert results[0] == results[1] == results[2]
    ranked = sps.rankdata(-np.array(correct, dtype=float), axis=0).mean(axis=1)
    assert [results[0][0][m] for m in models] == pytest.approx(ranked.tolist(), abs=1e-12)


# --- any valid counts: finite, in range, strict JSON ------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(
    st.just(k), st.lists(st.tuples(*[st.integers(0, 3)] * k, st.integers(1, 3)), min_size=2, max_size=25))))
def test_any_table_of_valid_counts_gives_finite_in_range_output(data):
    """Per-item (correct, items) counts of 2-4 systems with 0 <= correct <= items: compare and competition answer
    (or refuse in one line) with strict JSON, every number finite, every p-value in (0, 1], every interval
    ordered; identical systems, all-correct and all-wrong tables included."""
    k, cells = data
    rows = []
    for item, cell in enumerate(cells):
        total = cell[-1]
        for s in range(k):
            rows.append((f"s{s}", item, min(cell[s], total), total))
    path = "/tmp/simstats-edges-counts.csv"
    pd.DataFrame(rows, columns=["system", "item", "correct", "items"]).to_csv(path, index=False)
    for argv in (("compare", path, "--statistics", "--n-resamples", 200, "--format", "json"),
                 ("compare", path, "--statistics", "--test", "t", "--format", "json"),
                 ("competition", path, "--statistics", "--n-resamples", 100, "--format", "json")):
        code, out, err = run(*argv)
        if code != 0:
            one_line_error(code, out, err)
            continue
        result = strict_json(out)
        assert all(math.isfinite(x) for x in numbers(result))
        assert all(0 < p <= 1 for p in pvalues(result)), argv
        for row in result.get("rows", []):
            low, high = row.get("difference_ci_low"), row.get("difference_ci_high")
            if low is not None and high is not None:
                assert low <= high


# --- impossible input, hostile names, outputs that exist ---------------------------------------------------------

@pytest.mark.parametrize("rows, message", [
    ([("a", 1, 5, 1), ("b", 1, 1, 1), ("a", 2, 0, 1), ("b", 2, 1, 1)], "system 'a', item 1, column 'correct': 5 "
                                                                       "exceeds items 1 (row 2"),
    ([("a", 1, -1, 1), ("b", 1, 1, 1), ("a", 2, 0, 1), ("b", 2, 1, 1)], "-1 (row 2) is not a count"),
    ([("a", 1, 0, 0), ("b", 1, 1, 1), ("a", 2, 0, 0), ("b", 2, 1, 1)], "system 'a': column 'items' sums to 0"),
])
def test_impossible_counts_are_refused_naming_system_row_and_value(tmp_path, rows, message):
    path = tmp_path / "stats.csv"
    pd.DataFrame(rows, columns=["system", "item", "correct", "items"]).to_csv(path, index=False)
    for command in ("compare", "competition"):
        assert message in one_line_error(*run(command, path, "--statistics"))


def test_hostile_names_are_escaped_and_drawn_literally(tmp_path):
    gold = np.arange(30) % 2
    names = ["=SUM(A1:A9)", "<img src=x onerror=alert(1)>", "a$b$c"]
    table = pd.DataFrame({"y": gold, names[0]: gold, names[1]: 1 - gold, names[2]: np.where(np.arange(30) < 5,
                                                                                             1 - gold, gold)})
    path = tmp_path / "names.csv"
    table.to_csv(path, index=False)
    code, out, _ = run("compare", path, "--format", "csv", "--n-resamples", 200)
    assert code == 0 and "\n'=SUM(A1:A9)," in out and "\n=SUM" not in out
    code, out, _ = run("compare", path, "--n-resamples", 200)
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)>" in out
    out_dir = tmp_path / "report"
    code, _, err = run("competition", path, "--n-resamples", 200, "--out", out_dir)
    assert code == 0, err
    assert "<img" not in (out_dir / "report.md").read_text()
    assert (out_dir / "intervals.png").stat().st_size > 0 and (out_dir / "bootstrap.pdf").stat().st_size > 0
    assert "'=SUM(A1:A9)" in (out_dir / "scores.csv").read_text()


def test_outputs_that_exist_are_kept_unless_forced(tmp_path):
    gold = np.arange(30) % 2
    path = tmp_path / "p.csv"
    pd.DataFrame({"y": gold, "a": gold, "b": 1 - gold}).to_csv(path, index=False)
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "report.md").write_text("mine")
    assert "give --force" in one_line_error(*run("competition", path, "--n-resamples", 100, "--out", existing))
    assert (existing / "report.md").read_text() == "mine"
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert "a file of that name exists" in one_line_error(*run("competition", path, "--out", afile))
    code, _, err = run("competition", path, "--n-resamples", 100, "--out", existing, "--force")
    assert code == 0, err
    assert (existing / "report.md").read_text().startswith("# ") and not list(tmp_path.glob(".existing.*"))


def test_options_that_would_be_ignored_or_exhaust_memory_are_refused(tmp_path):
    gold = np.arange(30) % 2
    path = tmp_path / "p.csv"
    pd.DataFrame({"y": gold, "a": gold, "b": 1 - gold}).to_csv(path, index=False)
    assert "--claim equivalence needs --margin" in one_line_error(*run("compare", path, "--claim", "equivalence"))
    assert "GiB of memory" in one_line_error(*run("competition", path, "--n-resamples", 10 ** 12))
    blank = tmp_path / "blank.csv"
    pd.DataFrame({"model": ["a", " ", "a", " "], "task": ["x", "x", "y", "y"], "score": [0.5, 0.6, 0.7, 0.8]}
                 ).to_csv(blank, index=False)
    assert "missing or blank model name in row 3" in one_line_error(*run("suite", blank))
