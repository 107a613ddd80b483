"""`simstats compare --from scores`: an evaluation's per-item scores (long: model, item, score, optionally
task, epoch and a cluster column) give the same paired results as the same data as predictions, epochs
are averaged per item, and bad tables stop with one line naming the value and its row."""
import io

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from statsmodels.stats.multitest import multipletests

from conftest import run_cli, write_table

NUMBERS = ["score", "score_ci_low", "score_ci_high", "difference", "difference_ci_low", "difference_ci_high",
           "pvalue", "pvalue_adjusted"]


def _compare_csv(capsys, *args):
    code, out, err = run_cli(capsys, "compare", *args, "--n-resamples", 1000, "--format", "csv")
    assert code == 0, err
    return pd.read_csv(io.StringIO(out))


def test_scores_give_the_paired_results_of_the_same_predictions(tmp_path, capsys):
    rng = np.random.default_rng(12)
    n = 400
    gold = np.arange(n) % 2
    right = {"a": rng.random(n) < 0.75, "b": rng.random(n) < 0.70}
    wide = pd.DataFrame({"y": gold, **{k: np.where(v, gold, 1 - gold) for k, v in right.items()}})
    long = pd.DataFrame([{"model": k, "item": i, "score": float(v[i])} for k, v in right.items() for i in range(n)])
    for test in ("bootstrap", "randomization"):
        from_predictions = _compare_csv(capsys, write_table(tmp_path, wide, "wide.csv"), "--test", test)
        from_scores = _compare_csv(capsys, write_table(tmp_path, long, "long.csv"), "--from", "scores", "--test", test)
        pd.testing.assert_frame_equal(from_scores[NUMBERS], from_predictions[NUMBERS], rtol=0, atol=1e-15)
        assert from_scores.system.tolist() == from_predictions.system.tolist()


def test_epochs_are_averaged_per_item_and_clusters_resampled_whole(tmp_path, capsys):
    rng = np.random.default_rng(13)
    n, epochs = 240, 3
    p = {"a": rng.uniform(0.4, 0.95, n), "b": rng.uniform(0.35, 0.9, n)}
    rows = [{"model": m, "task": "t1", "item": f"q{i:03d}", "epoch": e, "score": float(rng.random() < p[m][i]),
             "subject": f"s{i // 20}"} for m in p for i in range(n) for e in range(epochs)]
    long = pd.DataFrame(rows)
    means = long.groupby(["model", "item"], as_index=False).agg(score=("score", "mean"), subject=("subject", "first"))
    with_epochs = _compare_csv(capsys, write_table(tmp_path, long, "epochs.csv"), "--from", "scores",
                               "--clusters", "subject")
    averaged = _compare_csv(capsys, write_table(tmp_path, means, "means.csv"), "--from", "scores",
                            "--clusters", "subject")
    pd.testing.assert_frame_equal(with_epochs[NUMBERS], averaged[NUMBERS], rtol=1e-12, atol=1e-15)
    assert set(with_epochs.samples_per_item) == {3} and set(averaged.samples_per_item) == {1}
    assert set(with_epochs.task) == {"t1"}
    assert "samples per item" in with_epochs.claim.iloc[0] and set(with_epochs.test.str.contains("clusters")) == {True}


def test_several_tasks_are_compared_with_holm_across_them(tmp_path, capsys):
    rng = np.random.default_rng(5)
    rows = pd.DataFrame([{"model": m, "task": t, "item": i, "score": float(rng.random() < (0.6 if m == "a" else 0.5))}
                         for m in ("a", "b") for t in ("x", "y") for i in range(80)])
    path = write_table(tmp_path, rows)
    code, out, err = run_cli(capsys, "compare", path, "--from", "scores", "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    tested = table[table.role == "system"]
    assert list(tested.task) == ["x", "y"]
    for task, row in tested.set_index("task").iterrows():    # each task alone: Bonett-Price's test of its 0/1 items
        part = rows[rows.task == task].sort_values("item")
        a, b = (part[part.model == m].score.to_numpy() for m in (row.reference, row.system))
        n, n12, n21 = a.size, int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
        p12, p21 = (n12 + 1) / (n + 2), (n21 + 1) / (n + 2)
        z = (p12 - p21) / np.sqrt((p12 + p21 - (p12 - p21) ** 2) / (n + 2))
        assert row.pvalue == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-10)
    code, out, err = run_cli(capsys, "compare", path, "--from", "scores", "--format", "csv", "--test", "t")
    for task, row in pd.read_csv(io.StringIO(out)).query("role == 'system'").set_index("task").iterrows():
        part = rows[rows.task == task].sort_values("item")            # --test t: the paired t-test of its items
        a, b = (part[part.model == m].score.to_numpy() for m in (row.reference, row.system))
        assert row.pvalue == pytest.approx(sps.ttest_rel(a, b).pvalue, rel=1e-10)
    holm = multipletests(tested.pvalue.to_numpy(), method="holm")[1]
    np.testing.assert_allclose(tested.pvalue_adjusted.to_numpy(), holm, rtol=1e-12)
    assert set(table.correction) == {"holm"} and "over 2 tasks" in table.correction_scope.iloc[0]
    code, _, err = run_cli(capsys, "compare", path, "--from", "scores", "--task", "z")
    assert code == 2 and "--task 'z' not found (tasks: x, y)" in err
    assert run_cli(capsys, "compare", path, "--from", "scores", "--task", "y", "--n-resamples", 200)[0] == 0


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.drop(index=[23, 27, 31]), "task '-': model 'b' lacks 3 of the 20 items scored by another model "
                                            "(first: 3, 7, 11)"),
    (lambda t: t.assign(score=t.score.astype(object).where(t.index != 5, "high")),
     "scores table: score 'high' (row 7, model 'a', item 5) is not a finite number"),
    (lambda t: pd.concat([t, t.iloc[[2]]]).assign(epoch=0),
     "scores table: model 'a', task '-', item 2, epoch 0 appears twice (rows 4 and 42)"),
    (lambda t: t.drop(columns="score"), "scores table: column(s) 'score' not found"),
])
def test_bad_tables_stop_with_one_line(tmp_path, capsys, edit, message):
    rows = pd.DataFrame([{"model": m, "item": i, "score": float(i % 2)} for m in ("a", "b") for i in range(20)])
    code, out, err = run_cli(capsys, "compare", write_table(tmp_path, edit(rows)), "--from", "scores")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err, err


def test_an_item_in_two_clusters_and_flags_that_do_not_apply(tmp_path, capsys):
    rows = pd.DataFrame([{"model": m, "item": i, "score": float(i % 2), "doc": i // 5} for m in "ab" for i in range(20)])
    rows.loc[25, "doc"] = 9                                # model b, item 5
    path = write_table(tmp_path, rows)
    code, _, err = run_cli(capsys, "compare", path, "--from", "scores", "--clusters", "doc")
    assert code == 2 and "item 5 is in more than one cluster (1, 9)" in err
    code, _, err = run_cli(capsys, "compare", path, "--from", "scores", "--statistics")
    assert code == 2 and "--statistics cannot be combined with --from scores" in err


def test_competition_from_scores_equals_the_competition_of_the_same_predictions(tmp_path, capsys):
    import json

    rng = np.random.default_rng(14)
    n = 300
    gold = np.arange(n) % 2
    right = {name: rng.random(n) < p for name, p in (("a", 0.78), ("b", 0.74), ("c", 0.70))}
    wide = pd.DataFrame({"y": gold, **{k: np.where(v, gold, 1 - gold) for k, v in right.items()}})
    long = pd.DataFrame([{"model": k, "item": i, "score": float(v[i])} for k, v in right.items() for i in range(n)])
    docs = []
    for path, extra in ((write_table(tmp_path, wide, "wide.csv"), []),
                        (write_table(tmp_path, long, "long.csv"), ["--from", "scores"])):
        code, out, err = run_cli(capsys, "competition", path, *extra, "--n-resamples", 1000, "--format", "json")
        assert code == 0, err
        docs.append(json.loads(out)["tables"])
    for table in ("pairs", "ranks"):
        a, b = pd.DataFrame(docs[0][table]), pd.DataFrame(docs[1][table])
        pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=0, atol=1e-15)
