"""`simstats suite`: its tables are the library's (simstats.stats.suite), and bad tables stop with one line."""
import io
import json

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli, write_table

from simstats.stats.suite import (average_ranks, interquartile_mean, nemenyi_test, probability_of_improvement,
                                  stratified_bootstrap, wilcoxon_holm)


def long_suite(seed: int = 0, models: int = 4, tasks: int = 12, runs: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"model": f"m{k}", "task": f"t{t:02d}", "seed": s,
                          "score": 0.6 + 0.03 * k + 0.1 * np.sin(t) + rng.normal(0, 0.03)}
                         for k in range(models) for t in range(tasks) for s in range(runs)])


def csv_of(capsys, *args) -> pd.DataFrame:
    code, out, err = run_cli(capsys, "suite", *args, "--format", "csv")
    assert code == 0, err
    return pd.read_csv(io.StringIO(out))


def test_tables_equal_the_library(tmp_path, capsys):
    rows = long_suite()
    path = write_table(tmp_path, rows)
    models = csv_of(capsys, path, "--n-resamples", "300").set_index("model")
    pairs = csv_of(capsys, path, "--n-resamples", "300", "--pairs")
    names = ["m0", "m1", "m2", "m3"]
    runs = {m: rows[rows.model == m].pivot(index="seed", columns="task", values="score").to_numpy() for m in names}
    means = np.stack([runs[m].mean(axis=0) for m in names])
    ranks = dict(zip(names, average_ranks(means)))
    for m in names:
        assert models.loc[m, "average_rank"] == pytest.approx(ranks[m], rel=1e-12)
        assert models.loc[m, "iqm"] == pytest.approx(interquartile_mean(runs[m]), rel=1e-12)
        assert models.loc[m, "iqm_ci_low"] < models.loc[m, "iqm"] < models.loc[m, "iqm_ci_high"]
    assert list(models.index) == sorted(names, key=lambda m: ranks[m])      # best average rank first
    nemenyi, wilcoxon = nemenyi_test(means), wilcoxon_holm(means)
    assert len(pairs) == 6
    for _, row in pairs.iterrows():
        i, j = names.index(row.model_a), names.index(row.model_b)
        assert row.nemenyi_pvalue == pytest.approx(nemenyi.pvalues[i, j], rel=1e-12)
        assert row.wilcoxon_pvalue_holm == pytest.approx(wilcoxon.pvalues_adjusted[i, j], rel=1e-12)
        assert row.rank_difference == pytest.approx(ranks[row.model_b] - ranks[row.model_a], rel=1e-12)
        assert row.probability_of_improvement == pytest.approx(
            probability_of_improvement(runs[row.model_a], runs[row.model_b]), rel=1e-12)
    # the first model's IQM interval is the stratified bootstrap with the documented seeding
    _, (low, high) = stratified_bootstrap([runs["m0"]], interquartile_mean, n_resamples=300, rng=[0, 0])
    assert (models.loc["m0", "iqm_ci_low"], models.loc["m0", "iqm_ci_high"]) == pytest.approx((low, high))


def test_one_run_per_task_and_lower_is_better(tmp_path, capsys):
    rows = long_suite(runs=1).drop(columns="seed")
    path = write_table(tmp_path, rows)
    models = csv_of(capsys, path).set_index("model")
    assert "iqm" not in models.columns and set(models.runs_per_task) == {1}
    flipped = csv_of(capsys, path, "--lower-is-better").set_index("model")
    np.testing.assert_allclose(flipped.loc[models.index, "average_rank"], 5 - models.average_rank, rtol=1e-12)
    code, out, _ = run_cli(capsys, "suite", path, "--format", "json")
    settings = json.loads(out)["settings"]
    assert code == 0 and settings["claim_runs"] is None and settings["friedman_pvalue"] < 0.05


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.drop(columns="task"), "suite table: column(s) 'task' not found"),
    (lambda t: t.assign(score=t.score.where(t.index != 4, np.nan)),
     "suite table: score nan (row 6, model 'm0', task 't01') is not a finite number"),
    (lambda t: t[~((t.model == "m2") & (t.task == "t03"))], "model 'm2' has no score on task 't03'"),
    (lambda t: t[~((t.model == "m1") & (t.task == "t00") & (t.seed == 2))], "models have 2 to 3 runs per task"),
    (lambda t: pd.concat([t, t.iloc[[0]]]), "suite table: model 'm0', task 't00', seed 0 appears twice"),
])
def test_bad_tables_stop_with_one_line(tmp_path, capsys, edit, message):
    path = write_table(tmp_path, edit(long_suite()))
    code, out, err = run_cli(capsys, "suite", path)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_figure_writes_png_and_pdf(tmp_path, capsys):
    path = write_table(tmp_path, long_suite(runs=1).drop(columns="seed"))
    code, _, err = run_cli(capsys, "suite", path, "--figure", tmp_path / "figs" / "cd")
    assert code == 0, err
    assert (tmp_path / "figs/cd.png").stat().st_size > 10_000 and (tmp_path / "figs/cd.pdf").stat().st_size > 5_000
