"""Every default test of the commands holds alpha on simulated null data, and no default is one-sided.

Null data: two systems (or approaches) drawn from one recipe.  For each default test, R simulated
data sets; the rejection rate at alpha = 0.05 must lie within alpha +- 3 Monte Carlo standard errors
(binomial at alpha: 3 sqrt(0.05 * 0.95 / R)).  A one-sided default against the observed best would
reject about 2 alpha of the time and fail the upper bound (the last-but-one test shows it does).
"""
import io
import math

import numpy as np
import pandas as pd
import pytest

from simstats.cli import main
from simstats.io.runs import Runs
from simstats.compare import Comparisons, compare_approach_runs, compare_score_distributions, compare_systems
from simstats.stats.metrics import accuracy

ALPHA = 0.05
R = 400
BOUND = 3 * math.sqrt(ALPHA * (1 - ALPHA) / R)          # 0.033


def _within(rate: float, name: str) -> None:
    print(f"{name}: size {rate:.4f} (MCSE at alpha {BOUND / 3:.4f}, R = {R})")
    assert ALPHA - BOUND <= rate <= ALPHA + BOUND, f"{name}: size {rate:.3f} outside {ALPHA} +- {BOUND:.3f}"


def _one_run_each(rng, n=300, p=0.8):
    """Two systems with the same accuracy; each item's correctness independent (one run each)."""
    correct = (rng.random((2, n)) < p).astype(float)
    return np.stack([correct, np.ones_like(correct)], axis=2)


@pytest.mark.parametrize("test, n", [("adjusted", 300), ("adjusted", 60), ("bootstrap", 300), ("randomization", 300),
                                     ("bootstrap", 60)])
def test_compare_default_holds_alpha_with_one_run_per_system(test, n):
    """300 items, and a small test set of 60 items: accuracy's default (adjusted), and the resampling tests."""
    rng = np.random.default_rng(20261127)
    pvalues = [compare_systems(["a", "b"], _one_run_each(rng, n), accuracy, test=test, n_resamples=499, rng=r)
               .pvalue_adjusted.dropna().iloc[0] for r in range(R)]
    pvalues = np.asarray(pvalues)
    if test != "adjusted":
        assert pvalues.min() >= 1 / 500                   # add-one: never below 1/(B + 1)
    _within(float(np.mean(pvalues < ALPHA)), f"compare --test {test}, {n} items")


def test_compare_from_scores_holds_alpha_with_epochs_and_clusters():
    """`--from scores`' default: 3 samples per item averaged, items of 20 subjects of 15 (each subject
    shifts both models' chance alike), the subjects resampled whole; item-dominant variation."""
    from simstats.io.paired import paired_scores
    from simstats.io.scores import read_scores

    rng = np.random.default_rng(31)
    subject = np.repeat(np.arange(20), 15)
    hits = []
    for r in range(R):
        chance = np.clip(rng.uniform(0.3, 0.95, 300) + rng.normal(0, 0.1, 20)[subject], 0, 1)
        rows = pd.DataFrame({"model": np.repeat(["a", "b"], 900), "item": np.tile(np.repeat(np.arange(300), 3), 2),
                             "subject": np.tile(np.repeat(subject, 3), 2),
                             "score": (rng.random(1800) < np.tile(np.repeat(chance, 3), 2)).astype(float)})
        paired = paired_scores(read_scores(rows, cluster_column="subject"))
        out = compare_systems(paired.names, paired.stats, paired.metric, n_resamples=499, rng=r,
                              clusters=paired.clusters)
        hits.append(out[out.role == "system"].pvalue_adjusted.iloc[0] < ALPHA)
    _within(float(np.mean(hits)), "compare --from scores (epochs, clusters)")


def test_compare_scores_defaults_hold_alpha_and_are_two_sided():
    """Ten runs of one recipe per system (same score distribution); Welch, Mann-Whitney U and the
    seed-paired Wilcoxon test, each at its default."""
    rng = np.random.default_rng(7)
    hits = {"welch": [], "mwu": [], "wilcoxon": []}
    for _ in range(R):
        scores = rng.normal(0.8, 0.01, (2, 10))
        table = pd.DataFrame({"seed": np.arange(10), "a": scores[0], "b": scores[1]})
        out = compare_score_distributions(table, tests=("welch", "mwu", "wilcoxon"))
        two = compare_score_distributions(table, tests=("welch", "mwu", "wilcoxon"),
                                          comparisons=Comparisons(alternative="two-sided"))
        pd.testing.assert_frame_equal(out, two)               # the default is the two-sided test
        row = out[out.role == "system"].iloc[0]
        for test in hits:
            hits[test].append(row[f"pvalue_{test}_adjusted"] < ALPHA)
    for test, h in hits.items():
        _within(float(np.mean(h)), f"compare-scores {test}")


def test_one_sided_against_the_observed_best_is_not_the_default_and_is_liberal():
    """The measurement can fail: 'greater' against the observed best rejects about 2 alpha."""
    rng = np.random.default_rng(7)
    hits = []
    for _ in range(R):
        scores = rng.normal(0.8, 0.01, (2, 10))
        table = pd.DataFrame({"a": scores[0], "b": scores[1]})
        out = compare_score_distributions(table, tests=("welch",), comparisons=Comparisons(alternative="greater"))
        hits.append(out[out.role == "system"].pvalue_welch.iloc[0] < ALPHA)
    assert np.mean(hits) > ALPHA + BOUND


def test_compare_approach_t_test_default_holds_alpha():
    """Two approaches of one recipe over 5 seeds x 200 items: seed effects (sd 0.01 in accuracy),
    item difficulty shared by both, run x item noise; the default approach t-test."""
    rng = np.random.default_rng(11)
    k, n = 5, 200
    hits = []
    for _ in range(R):
        difficulty = rng.normal(0, 1.0, n)
        logits = 1.4 + difficulty[None, :] + rng.normal(0, 0.05, (2 * k, 1))
        correct = (rng.random((2 * k, n)) < 1 / (1 + np.exp(-logits))).astype(float)
        stats = np.stack([correct, np.ones_like(correct)], axis=2)
        runs = Runs(["A", "B"], np.repeat(["A", "B"], k), np.tile(np.arange(k), 2), stats, accuracy, "long")
        out = compare_approach_runs(runs, paired_seeds=False)
        hits.append(out[out.role == "system"].pvalue_adjusted.iloc[0] < ALPHA)
    _within(float(np.mean(hits)), "compare (approach t-test)")


def test_the_cli_defaults_equal_their_two_sided_versions(tmp_path, capsys):
    """Two groups of 5 runs of one recipe: no default prints a p-value its two-sided version would not."""
    rng = np.random.default_rng(3)
    path = tmp_path / "runs.csv"
    pd.DataFrame({"seed": range(5), "a": rng.normal(0.9, 0.01, 5), "b": rng.normal(0.9, 0.01, 5)}).to_csv(
        path, index=False)
    outputs = []
    for extra in ([], ["--alternative", "two-sided"]):
        assert main(["compare-scores", str(path), "--format", "csv", *extra]) == 0
        outputs.append(pd.read_csv(io.StringIO(capsys.readouterr().out)))
    pd.testing.assert_frame_equal(*outputs)
    assert set(outputs[0].alternative) == {"two-sided"}
