"""`simstats compare --from lm-eval|inspect|helm`: evaluation logs give the paired results of the same scores
written as simstats' long table (--from scores), the default paired t-test equals scipy's ttest_rel on the item
means (and, with --clusters, statsmodels' cluster-robust OLS of the item differences on a constant), several
tasks are one table with Holm over every comparison, and bad logs stop with one line naming the problem.

Fixtures: tests/data/harness (README.md in each folder). inspect logs are chosen by their header (model, task,
task_args, status), never by file name."""
import io
import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from conftest import inspect_logs, one_inspect_log, run_cli, write_table
from simstats.io.lm_eval import read_lm_eval

HARNESS = Path(__file__).resolve().parents[1] / "data" / "harness"
LM_EVAL = HARNESS / "lm_eval"
RUNS = LM_EVAL / "runs"
INSPECT = HARNESS / "inspect"
HELM = HARNESS / "helm" / "benchmark_output" / "runs"

NUMBERS = ["score", "score_ci_low", "score_ci_high", "difference", "difference_ci_low", "difference_ci_high",
           "pvalue", "pvalue_adjusted"]


def compare_csv(capsys, *args):
    """``simstats compare ... --format csv``: (table, stderr); asserts exit 0."""
    code, out, err = run_cli(capsys, "compare", *args, "--format", "csv")
    assert code == 0, err
    return pd.read_csv(io.StringIO(out)), err


def fails(capsys, *args):
    """Run compare; assert exit 2, nothing on stdout, exactly one line `simstats: error: ...`; return the message."""
    code, out, err = run_cli(capsys, "compare", *args)
    assert code == 2, err
    assert out == ""
    assert err.startswith("simstats: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.removeprefix("simstats: error: ").rstrip("\n")


def toy_logs(task):
    """The strong and weak model's .eval logs of a task (finished)."""
    return [one_inspect_log(INSPECT / "logs" / "eval", model=f"mockllm/{m}", task=task, status="success")
            for m in ("strong", "weak")]


def quietly(read, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read(*args, **kwargs)


def lm_eval_values(model, task, metric, filter_name="none", field=None):
    """{doc_id: (value, doc[field])} of a run's samples file, read with json."""
    (path,) = (RUNS / f"simstats__toy-{model}").glob(f"samples_{task}_*.jsonl")
    lines = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    return {line["doc_id"]: (line[metric], line["doc"][field] if field else None)
            for line in lines if line["filter"] == filter_name}


def inspect_item_means(path, scorer, field=None):
    """{sample id: (mean over epochs of inspect's value_to_float of the score, metadata[field])}."""
    from inspect_ai.log import read_eval_log
    from inspect_ai.scorer import value_to_float

    to_float = value_to_float()
    values, groups = {}, {}
    for sample in read_eval_log(str(path)).samples:
        values.setdefault(sample.id, []).append(to_float(sample.scores[scorer].value))
        groups[sample.id] = sample.metadata[field] if field else None
    return {k: (float(np.mean(v)), groups[k]) for k, v in values.items()}


def reference_test(a, b, clusters=None):
    """(difference, ci_low, ci_high, pvalue) of A minus B on aligned item means: scipy's ttest_rel, or statsmodels'
    OLS of the differences on a constant with cluster-robust errors (C / (C - 1)) and t on C - 1 df."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if clusters is None:
        res = stats.ttest_rel(a, b)
        ci = res.confidence_interval(0.95)
        return float(np.mean(a - b)), float(ci.low), float(ci.high), float(res.pvalue)
    import statsmodels.api as sm

    groups = np.unique(np.asarray(clusters, dtype=str), return_inverse=True)[1]
    fit = sm.OLS(a - b, np.ones((a.size, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    low, high = fit.conf_int(0.05)[0]
    return float(fit.params[0]), float(low), float(high), float(fit.pvalues[0])


def row_of(table, system):
    (row,) = table[table.system == system].itertuples()
    return row


def assert_same_results(from_logs, from_scores):
    """Every column equal; numbers to a relative 1e-12."""
    assert list(from_scores.columns) == list(from_logs.columns)
    pd.testing.assert_frame_equal(from_scores, from_logs, check_exact=False, rtol=1e-12, atol=1e-15)
    assert from_logs.pvalue.notna().sum() >= 1


# --- (a) logs and the same scores as a long table give the same results -------------------------------------

@pytest.mark.parametrize("options, read", [
    (["--filter", "strict-match"], {"filter": "strict-match"}),
    (["--task", "toy_mc", "--clusters", "subject"], {"task": "toy_mc", "cluster_field": "subject"}),
    (["--task", "toy_qa", "--filter", "maj@3"], {"task": "toy_qa", "filter": "maj@3"}),
])
def test_lm_eval_gives_the_results_of_the_same_scores_table(tmp_path, capsys, options, read):
    from simstats.io.lm_eval import read_lm_eval

    from_logs, _ = compare_csv(capsys, "--from", "lm-eval", RUNS, *options)
    rows = quietly(read_lm_eval, RUNS, **read).rename(columns={"cluster": "subject"})
    columns = ["model", "task", "item", "score", "epoch"] + (["subject"] if "cluster_field" in read else [])
    table = write_table(tmp_path, rows[columns], "scores.csv")
    scores_options = [o for o in options if o not in ("--filter", "strict-match", "maj@3")]
    from_scores, _ = compare_csv(capsys, "--from", "scores", table, *scores_options)
    assert_same_results(from_logs, from_scores)


@pytest.mark.parametrize("task, scorer, field", [("toy_choice", "choice", "subject"),
                                                 ("toy_graded", "keyword_recall", "document"),
                                                 ("toy_graded", "all_terms", None)])
def test_inspect_gives_the_results_of_the_same_scores_table(tmp_path, capsys, task, scorer, field):
    from simstats.io.inspect import read_inspect

    logs = toy_logs(task)
    clusters = ["--clusters", field] if field else []
    from_logs, _ = compare_csv(capsys, "--from", "inspect", *logs, "--score", scorer, *clusters)
    rows = read_inspect(logs, scorer=scorer, cluster_field=field)
    assert set(rows.epoch) == ({1, 2, 3} if task == "toy_choice" else {1, 2})
    columns = ["model", "task", "item", "score", "epoch"] + (["cluster"] if field else [])
    table = write_table(tmp_path, rows[columns].rename(columns={"cluster": field}), "scores.csv")
    from_scores, _ = compare_csv(capsys, "--from", "scores", table, *clusters)
    assert_same_results(from_logs, from_scores)
    assert set(from_logs.samples_per_item.astype(str)) == {"3" if task == "toy_choice" else "2"}


@pytest.mark.parametrize("suite", ["paired", "trials_perturbation"])
def test_helm_gives_the_results_of_the_same_scores_table(tmp_path, capsys, suite):
    from simstats.io.helm import read_helm

    from_logs, _ = compare_csv(capsys, "--from", "helm", HELM / suite)
    rows = read_helm(HELM / suite)
    table = write_table(tmp_path, rows[["model", "task", "item", "score", "epoch"]], "scores.csv")
    from_scores, _ = compare_csv(capsys, "--from", "scores", table)
    assert_same_results(from_logs, from_scores)


# --- (b) the default test is the paired t-test over items (cluster-robust with --clusters) ------------------

@pytest.mark.parametrize("task, metric, filter_name, field", [
    ("toy_mc", "acc", "none", None), ("toy_mc", "acc", "none", "subject"),
    ("toy_qa", "exact_match", "strict-match", None), ("toy_mc", "acc_norm", "none", "subject"),
])
def test_lm_eval_test_is_the_paired_t_test(capsys, task, metric, filter_name, field):
    options = ["--task", task, "--score", metric, "--filter", filter_name, "--test", "t"] + (
        ["--clusters", field] if field else [])
    out, _ = compare_csv(capsys, "--from", "lm-eval", RUNS, *options)
    strong = lm_eval_values("strong", task, metric, filter_name, field)
    weak = lm_eval_values("weak", task, metric, filter_name)
    items = sorted(strong)
    assert sorted(weak) == items
    expected = reference_test([strong[i][0] for i in items], [weak[i][0] for i in items],
                              [strong[i][1] for i in items] if field else None)
    assert out.reference.iloc[0] == "simstats/toy-strong"
    row = row_of(out, "simstats/toy-weak")
    got = (row.difference, row.difference_ci_low, row.difference_ci_high, row.pvalue)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert ("clusters" in row.test) == (field is not None)


@pytest.mark.parametrize("task, scorer, field", [("toy_choice", "choice", None), ("toy_choice", "choice", "subject"),
                                                 ("toy_graded", "keyword_recall", "document")])
def test_inspect_test_is_the_paired_t_test_on_item_means(capsys, task, scorer, field):
    logs = toy_logs(task)
    out, _ = compare_csv(capsys, "--from", "inspect", *logs, "--score", scorer, "--test", "t",
                         *(["--clusters", field] if field else []))
    strong, weak = (inspect_item_means(path, scorer, field) for path in logs)
    items = sorted(strong)
    assert sorted(weak) == items
    expected = reference_test([strong[i][0] for i in items], [weak[i][0] for i in items],
                              [strong[i][1] for i in items] if field else None)
    row = row_of(out, "mockllm/weak")
    assert out.reference.iloc[0] == "mockllm/strong"
    assert (row.difference, row.difference_ci_low, row.difference_ci_high, row.pvalue) == pytest.approx(
        expected, rel=1e-12, abs=1e-15)
    if field is not None:
        return
    # the epochs are averaged per item, not counted as items: a t-test over the (id, epoch) samples differs
    from inspect_ai.log import read_eval_log
    from inspect_ai.scorer import value_to_float

    to_float = value_to_float()
    per_sample = [{(s.id, s.epoch): to_float(s.scores[scorer].value) for s in read_eval_log(str(p)).samples}
                  for p in logs]
    keys = sorted(per_sample[0])
    samples = stats.ttest_rel([per_sample[0][k] for k in keys], [per_sample[1][k] for k in keys])
    assert abs(samples.pvalue - row.pvalue) > 1e-6


def test_helm_test_is_the_paired_t_test(capsys):
    out, _ = compare_csv(capsys, "--from", "helm", HELM / "paired", "--test", "t")
    values = {}
    for folder in sorted((HELM / "paired").iterdir()):
        if not (folder / "per_instance_stats.json").is_file():
            continue
        model = json.loads((folder / "run_spec.json").read_text())["adapter_spec"]["model"]
        values[model] = {e["instance_id"]: s["mean"] for e in json.loads((folder / "per_instance_stats.json").read_text())
                         for s in e["stats"] if s["name"] == {"name": "exact_match", "split": "test"}}
    a, b = values["fixture/parity-a"], values["fixture/parity-b"]
    items = sorted(a)
    expected = reference_test([a[i] for i in items], [b[i] for i in items])
    row = row_of(out, "fixture/parity-b")
    assert (row.difference, row.difference_ci_low, row.difference_ci_high, row.pvalue) == pytest.approx(
        expected, rel=1e-12, abs=1e-15)
    assert row.difference == pytest.approx((33 - 27) / 40, rel=1e-12)       # the README's counts


def bonett_price(a, b, level=0.95):
    """Bonett & Price (2012)'s adjusted Wald interval from the 2 x 2 counts of 0/1 item scores, and the z-test of
    its centre: (observed difference, low, high, p)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    n, n12, n21 = a.size, int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    p12, p21 = (n12 + 1) / (n + 2), (n21 + 1) / (n + 2)
    se = np.sqrt((p12 + p21 - (p12 - p21) ** 2) / (n + 2))
    z = stats.norm.ppf(0.5 + level / 2)
    return (float(a.mean() - b.mean()), float(p12 - p21 - z * se), float(p12 - p21 + z * se),
            float(2 * stats.norm.sf(abs(p12 - p21) / se)))


@pytest.mark.parametrize("source", ["lm-eval", "helm"])
def test_the_default_for_0_1_items_is_bonett_price(capsys, source):
    """0/1 items, no clusters: the default is Bonett-Price's adjusted Wald, from the counts by hand; with
    --clusters (lm-eval's subject) the cluster-robust t-test stays the default."""
    if source == "lm-eval":
        out, _ = compare_csv(capsys, "--from", "lm-eval", RUNS, "--task", "toy_mc")
        strong, weak = (lm_eval_values(m, "toy_mc", "acc", "none", None) for m in ("strong", "weak"))
        a, b, system = [strong[i][0] for i in sorted(strong)], [weak[i][0] for i in sorted(strong)], "simstats/toy-weak"
    else:
        out, _ = compare_csv(capsys, "--from", "helm", HELM / "paired")
        values = {}
        for folder in sorted((HELM / "paired").iterdir()):
            if (folder / "per_instance_stats.json").is_file():
                model = json.loads((folder / "run_spec.json").read_text())["adapter_spec"]["model"]
                values[model] = {e["instance_id"]: s["mean"] for e in
                                 json.loads((folder / "per_instance_stats.json").read_text()) for s in e["stats"]
                                 if s["name"] == {"name": "exact_match", "split": "test"}}
        first, second = values["fixture/parity-a"], values["fixture/parity-b"]
        a, b, system = [first[i] for i in sorted(first)], [second[i] for i in sorted(first)], "fixture/parity-b"
        if out.reference.iloc[0] != "fixture/parity-a":
            a, b, system = b, a, "fixture/parity-a"
    row = row_of(out, system)
    assert "Bonett-Price" in row.test
    assert (row.difference, row.difference_ci_low, row.difference_ci_high, row.pvalue) == pytest.approx(
        bonett_price(a, b), rel=1e-12, abs=1e-15)
    clustered, _ = compare_csv(capsys, "--from", "lm-eval", RUNS, "--task", "toy_mc", "--clusters", "subject")
    assert "paired t-test over" in clustered.test.iloc[0]


# --- (c) every shared task in one table, Holm over all comparisons ------------------------------------------

def test_every_shared_lm_eval_task_in_one_table_with_holm(capsys):
    from statsmodels.stats.multitest import multipletests

    out, err = compare_csv(capsys, "--from", "lm-eval", RUNS, "--filter", "strict-match")
    assert out.task.tolist() == ["toy_mc", "toy_mc", "toy_qa", "toy_qa"]
    assert err.count("\n") == 2 and err.startswith("simstats: warning: ") and "'toy_mt'" in err, err
    assert "task 'toy_qa': 3 repeats per document" in err
    assert set(out.correction) == {"holm"}
    tested = out[out.pvalue.notna()]
    assert tested.system.tolist() == ["simstats/toy-weak"] * 2
    expected = multipletests(tested.pvalue.to_numpy(), method="holm")[1]
    np.testing.assert_allclose(tested.pvalue_adjusted.to_numpy(), expected, rtol=1e-12, atol=0)
    # each task's p-value is that task's comparison alone (unadjusted)
    for task in ("toy_mc", "toy_qa"):
        alone, _ = compare_csv(capsys, "--from", "lm-eval", RUNS, "--task", task,
                               *(("--filter", "strict-match") if task == "toy_qa" else ()))
        row = row_of(alone, "simstats/toy-weak")
        assert tested[tested.task == task].pvalue.item() == pytest.approx(row.pvalue, rel=1e-12)
        assert set(alone.correction) == {"none"} and row.pvalue_adjusted == row.pvalue


# --- bad logs: one line on stderr, exit code 2 --------------------------------------------------------------

def _copy_run(tmp_path, model="weak"):
    folder = shutil.copytree(RUNS / f"simstats__toy-{model}", tmp_path / f"simstats__toy-{model}")
    return folder


def _edit_samples_line(tmp_path, number, edit):
    folder = _copy_run(tmp_path)
    (path,) = folder.glob("samples_toy_mc_*.jsonl")
    lines = path.read_text().splitlines(keepends=True)
    lines[number - 1] = edit(lines[number - 1])
    path.write_text("".join(lines))
    return folder, path


def case_lm_eval_mismatch(tmp_path):
    return (["--from", "lm-eval", LM_EVAL / "runs_mismatch" / "simstats__toy-strong", RUNS / "simstats__toy-weak",
             "--task", "toy_mc"],
            ["task 'toy_mc': item 5 has different content in model 'simstats/toy-strong' and model "
             "'simstats/toy-weak' (their item hashes differ)"])


def case_inspect_mismatch(tmp_path):
    strong = one_inspect_log(INSPECT / "logs" / "eval", model="mockllm/strong", task="toy_choice")
    reworded = one_inspect_log(INSPECT / "logs" / "mismatch", arg_variant="mismatch")
    return (["--from", "inspect", strong, reworded],
            ["task 'toy_choice': item 17 has different content in model 'mockllm/strong' and model 'mockllm/weak'"])


def case_helm_mismatch(tmp_path):
    suite = shutil.copytree(HELM / "paired", tmp_path / "paired")
    path = suite / "simple_mcqa:model=fixture_parity-b" / "instances.json"
    instances = json.loads(path.read_text())
    target = next(i for i in instances if i["id"] == "id60")
    target["input"]["text"] += " (reworded)"
    path.write_text(json.dumps(instances))
    return ["--from", "helm", suite], ["item 'id60' has different content in model 'fixture/parity-a' and model "
                                       "'fixture/parity-b'"]


def _status_logs(status, suffix):
    def case(tmp_path):
        (path,) = [p for p in inspect_logs(INSPECT / "logs" / "status", status=status) if p.suffix == suffix]
        words = {"error": ["did not finish", "synthetic solver failure on sample 4"],
                 "started": ["still running or was interrupted"]}[status]
        return ["--from", "inspect", path], [str(path), f"status {status!r}", *words, "compare finished logs only"]
    return case


def case_inspect_cancelled(tmp_path):
    path = one_inspect_log(INSPECT / "realdata", status="cancelled")
    return ["--from", "inspect", path], [str(path), "status 'cancelled'"]


def case_inspect_no_scores(tmp_path):
    path = one_inspect_log(INSPECT / "realdata", status="success", scored=False)
    return ["--from", "inspect", path], [str(path), "no sample has a score"]


def case_inspect_unknown_score(tmp_path):
    return (["--from", "inspect", *toy_logs("toy_choice"), "--score", "verdict"],
            ["no scorer 'verdict' (scorers: choice)"])


def case_inspect_several_scorers(tmp_path):
    return (["--from", "inspect", *toy_logs("toy_graded")],
            ["2 scorers (keyword_recall, all_terms): choose one with --score"])


def case_inspect_unknown_task(tmp_path):
    return ["--from", "inspect", *toy_logs("toy_choice"), "--task", "toy_other"], [
        "--task 'toy_other' not found (tasks: toy_choice)"]


def case_inspect_missing_cluster(tmp_path):
    return (["--from", "inspect", *toy_logs("toy_choice"), "--clusters", "topic"],
            ["no metadata key 'topic' for --clusters (keys: subject)"])


def case_lm_eval_unknown_score(tmp_path):
    return (["--from", "lm-eval", RUNS, "--task", "toy_mc", "--score", "f1"],
            ["task 'toy_mc' has no metric 'f1' (metrics: acc, acc_norm)"])


def case_lm_eval_unknown_task(tmp_path):
    return (["--from", "lm-eval", RUNS, "--task", "toy_zz"], ["--task 'toy_zz' not found (tasks: toy_mc, toy_mt, toy_qa)"])


def case_lm_eval_missing_cluster(tmp_path):
    return (["--from", "lm-eval", RUNS, "--task", "toy_mc", "--clusters", "topic"],
            ["the document has no field 'topic' for --clusters", "line 1 (doc_id 0)"])


def case_lm_eval_no_results(tmp_path):
    folder = _copy_run(tmp_path)
    for path in folder.glob("results_*.json"):
        path.unlink()
    return ["--from", "lm-eval", folder], [f"no results_<date>.json in {folder}"]


def case_lm_eval_no_samples(tmp_path):
    folder = _copy_run(tmp_path)
    for path in folder.glob("samples_*.jsonl"):
        path.unlink()
    return ["--from", "lm-eval", folder], ["has no samples_<task>_", "--log_samples"]


def case_lm_eval_malformed_line(tmp_path):
    folder, path = _edit_samples_line(tmp_path, 7, lambda line: line[: len(line) // 2] + "\n")
    return (["--from", "lm-eval", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc"],
            [f"{path}, line 7: not a JSON object"])


def case_lm_eval_line_without_doc_id(tmp_path):
    def drop(line):
        record = json.loads(line)
        del record["doc_id"]
        return json.dumps(record) + "\n"
    folder, path = _edit_samples_line(tmp_path, 3, drop)
    return (["--from", "lm-eval", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc"],
            [f"{path}, line 3: field 'doc_id' missing", "unknown format version"])


def case_lm_eval_results_without_results(tmp_path):
    folder = _copy_run(tmp_path)
    (path,) = folder.glob("results_*.json")
    header = json.loads(path.read_text())
    del header["results"]
    path.write_text(json.dumps(header))
    return (["--from", "lm-eval", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc"],
            [f"{path}: no 'results' field", "unknown format version"])


def case_lm_eval_results_not_json(tmp_path):
    folder = _copy_run(tmp_path)
    (path,) = folder.glob("results_*.json")
    path.write_text('{"results": ')
    return (["--from", "lm-eval", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc"],
            [f"{path}: not a JSON results file"])


def case_helm_no_run_spec(tmp_path):
    suite = shutil.copytree(HELM / "paired", tmp_path / "paired")
    run = suite / "simple_mcqa:model=fixture_parity-b"
    (run / "run_spec.json").unlink()
    return ["--from", "helm", suite], [f"{run} has no run_spec.json"]


def case_helm_unknown_stat(tmp_path):
    return (["--from", "helm", HELM / "paired", "--score", "f1"],
            ["per_instance_stats.json: instance 'id", "has no f1 statistic on split 'test'"])


def case_helm_missing_cluster(tmp_path):
    return ["--from", "helm", HELM / "paired", "--clusters", "topic"], ["has no field 'topic'", "instances.json"]


CASES = {
    "lm-eval doc_hash mismatch": case_lm_eval_mismatch,
    "inspect input mismatch": case_inspect_mismatch,
    "helm instance mismatch": case_helm_mismatch,
    "inspect status error (.eval)": _status_logs("error", ".eval"),
    "inspect status error (.json)": _status_logs("error", ".json"),
    "inspect status started (.eval)": _status_logs("started", ".eval"),
    "inspect status started (.json)": _status_logs("started", ".json"),
    "inspect status cancelled (real)": case_inspect_cancelled,
    "inspect log without scores (real)": case_inspect_no_scores,
    "inspect unknown --score": case_inspect_unknown_score,
    "inspect several scorers": case_inspect_several_scorers,
    "inspect unknown --task": case_inspect_unknown_task,
    "inspect missing --clusters key": case_inspect_missing_cluster,
    "lm-eval unknown --score": case_lm_eval_unknown_score,
    "lm-eval unknown --task": case_lm_eval_unknown_task,
    "lm-eval missing --clusters field": case_lm_eval_missing_cluster,
    "lm-eval folder without results": case_lm_eval_no_results,
    "lm-eval folder without samples": case_lm_eval_no_samples,
    "lm-eval malformed samples line": case_lm_eval_malformed_line,
    "lm-eval samples line without doc_id": case_lm_eval_line_without_doc_id,
    "lm-eval results without results": case_lm_eval_results_without_results,
    "lm-eval results not JSON": case_lm_eval_results_not_json,
    "helm run without run_spec.json": case_helm_no_run_spec,
    "helm unknown --score": case_helm_unknown_stat,
    "helm missing --clusters field": case_helm_missing_cluster,
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_logs_stop_with_one_line(tmp_path, capsys, case):
    args, parts = CASES[case](tmp_path)
    message = fails(capsys, *args, "--strict")
    for part in parts:
        assert part in message, (part, message)


def _third_model(tmp_path, name="simstats/toy-third"):
    """A copy of the strong model's run under another model name: a third usable log."""
    folder = shutil.copytree(RUNS / "simstats__toy-strong", tmp_path / "third")
    (results,) = folder.glob("results_*.json")
    header = json.loads(results.read_text())
    header["model_name"] = name
    results.write_text(json.dumps(header))
    return folder


@pytest.mark.parametrize("case", ["lm-eval malformed samples line", "lm-eval samples line without doc_id",
                                  "lm-eval results without results", "lm-eval results not JSON"])
def test_an_unusable_log_is_left_out_with_one_warning(tmp_path, capsys, case):
    """Without --strict an unusable log is skipped with one warning naming it, and the others are compared as if
    it were absent; with --strict the same input is refused (test above)."""
    args, parts = CASES[case](tmp_path)
    third = _third_model(tmp_path)
    at = args.index("--task")
    code, out, err = run_cli(capsys, "compare", *args[:at], third, *args[at:], "--format", "csv")
    assert code == 0, err
    warnings_ = [line for line in err.splitlines() if line.startswith("simstats: warning:")]
    assert len(warnings_) == 1 and "log left out" in warnings_[0] and all(p in warnings_[0] for p in parts)
    shown = pd.read_csv(io.StringIO(out))
    assert sorted(shown.system) == ["simstats/toy-strong", "simstats/toy-third"]
    _, alone, _ = run_cli(capsys, "compare", RUNS / "simstats__toy-strong", third, "--task", "toy_mc",
                          "--format", "csv")
    assert out == alone                                          # the same as without the unusable log


def test_shared_items_compare_the_items_every_model_scored(tmp_path, capsys):
    folder, path = _edit_samples_line(tmp_path, 1, lambda line: "")           # the weak model lacks one document
    fails_message = fails(capsys, RUNS / "simstats__toy-strong", folder, "--task", "toy_mc")
    assert "lacks 1 of the" in fails_message
    code, out, err = run_cli(capsys, "compare", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc",
                             "--shared-items")
    assert code == 0, err
    assert "1 item not scored by every model left out (--shared-items)" in out
    records = quietly(read_lm_eval, [RUNS / "simstats__toy-strong", folder], task="toy_mc")
    kept = records.groupby("item").model.nunique()
    assert f"items: {int((kept == 2).sum())}, 1 sample per item" in out


# --- a file instead of a folder, bytes that are not UTF-8 ---------------------------------------------------

def test_a_results_file_given_as_the_path_stops_with_one_line(capsys):
    (results,) = (RUNS / "simstats__toy-strong").glob("results_*.json")
    message = fails(capsys, "--from", "lm-eval", results, RUNS / "simstats__toy-weak", "--task", "toy_mc")
    assert str(results) in message


def test_a_samples_file_that_is_not_utf8_is_named(tmp_path, capsys):
    folder = _copy_run(tmp_path)
    (path,) = folder.glob("samples_toy_mc_*.jsonl")
    with open(path, "ab") as handle:
        handle.write(b"\xff\xfe not text\n")
    message = fails(capsys, "--from", "lm-eval", RUNS / "simstats__toy-strong", folder, "--task", "toy_mc",
                    "--strict")
    assert str(path) in message
