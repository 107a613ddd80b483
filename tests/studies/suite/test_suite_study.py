"""The suite study: its truth, its generators, its seeding and its rates (simstats.studies.suite)."""
import numpy as np
import pandas as pd
import pytest
import scipy.integrate as integrate
import scipy.special as special
import scipy.stats as sps

from simstats.sim.closed_forms import logistic_normal_mean
from simstats.sim.scenario import ScenarioError
from simstats.stats.suite import compare_within_tasks, suite_mean
from simstats.studies.suite.settings import parse_settings
from simstats.studies.suite.simulate import (Variant, evaluate, population_truth, simulate_cell, simulate_suite,
                                             study_markdown, summarise, true_improvement, true_iqm)

RUNS = Variant("runs", unit="runs", model_effects=(0.0, 0.0, 0.02, 0.05), accuracy=0.72, task_sd=0.14,
               task_specific_sd=0.03, runs=4, run_sd=(0.003, 0.05), failure_rate=0.1)


@pytest.mark.parametrize("mu, sd", [(0.0, 1.5), (0.85, 1.8), (4.0, 2.5), (-2.0, 0.3)])
def test_logistic_normal_mean_is_the_integral(mu, sd):
    expected = integrate.quad(lambda z: special.expit(mu + sd * z) * sps.norm.pdf(z), -40, 40, epsabs=1e-13)[0]
    assert float(logistic_normal_mean(mu, sd)) == pytest.approx(expected, abs=1e-11)


def test_the_truths_are_the_simulated_means():
    """Over many simulated suites the task means average to the population truth; in each suite the run means
    average to the per-task truth (tolerance 4 standard errors)."""
    rng = np.random.default_rng(1)
    items = Variant("items", items=(400, 400))
    for variant in (items, RUNS):
        means, truths = [], []
        for _ in range(300):
            cells, truth, _ = simulate_suite(variant, 10, rng)
            means.append(np.stack([x.mean(axis=0) for x in cells]))
            truths.append(truth)
        means, truths = np.concatenate(means), np.concatenate(truths)
        se = means.std(axis=0) / np.sqrt(len(means))
        assert np.all(np.abs(means.mean(axis=0) - population_truth(variant)) < 4 * se)
        gap = means - truths
        assert np.all(np.abs(gap.mean(axis=0)) < 4 * gap.std(axis=0) / np.sqrt(len(gap)))


def test_clones_are_equal_on_every_task():
    cells, truth, _ = simulate_suite(Variant("items"), 12, np.random.default_rng(2))
    assert np.array_equal(truth[:, 0], truth[:, 1]) and np.array_equal(truth[:, 2], truth[:, 3])
    assert not np.array_equal(cells[0][:, 0], cells[0][:, 1])            # their answers are their own


def test_iqm_and_improvement_truths_equal_large_samples():
    rng = np.random.default_rng(3)
    means, sds, f, c = np.array([0.5, 0.62, 0.8, 0.71]), np.array([0.01, 0.05, 0.03, 0.02]), 0.05, 0.3
    n = 2_000_000
    task = rng.integers(0, 4, n)
    x = np.where(rng.random(n) < f, c, rng.normal(means[task], sds[task]))
    assert true_iqm(means, sds, f, c) == pytest.approx(sps.trim_mean(x, 0.25), abs=5e-4)
    y = np.where(rng.random(n) < f, c, rng.normal(means[task] - 0.02, sds[task]))
    wins = ((x > y) + 0.5 * (x == y)).mean()
    assert true_improvement(means, means - 0.02, sds, f, c) == pytest.approx(wins, abs=2e-3)


def test_replicates_do_not_depend_on_the_chunks():
    whole = simulate_cell(RUNS, 6, range(4), 7, n_resamples=99)
    parts = pd.concat([simulate_cell(RUNS, 6, range(0, 1), 7, n_resamples=99),
                       simulate_cell(RUNS, 6, range(1, 4), 7, n_resamples=99)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)


def test_evaluate_judges_the_library_results():
    rng = np.random.default_rng(4)
    variant = Variant("items", items=(60, 120))
    cells, truth, _ = simulate_suite(variant, 8, rng)
    row = evaluate(variant, cells, truth, None, alpha=0.05, confidence_level=0.95, n_resamples=99, rng=rng)
    res = suite_mean(cells, paired=True)
    target = population_truth(variant)
    assert row["cover:mean_like_these:2"] == float(res.ci_low[2] <= target[2] <= res.ci_high[2])
    table = compare_within_tasks(cells, paired=True).table
    a, b, t = table.model_a.to_numpy(), table.model_b.to_numpy(), table.task.to_numpy()
    wrong = (table.pvalue_adjusted < 0.05) & (variant.clones[a, b] | (np.sign(truth[t, a] - truth[t, b])
                                                                      != np.sign(table.difference)))
    assert row["fwer:best_holm"] == float(wrong.any())
    assert "p:friedman" not in row and "cover:iqm" not in row


def test_summarise_gives_rates_mcse_and_verdicts():
    n = 400
    rows = pd.DataFrame({"variant": "runs", "tasks": 8, "replicate": range(n),
                         "fwer:best_holm": np.r_[np.ones(40), np.zeros(n - 40)],          # 10 %: liberal
                         "cover:mean_like_these:0": np.r_[np.zeros(20), np.ones(n - 20)],  # 95 %
                         "cover:mean_like_these:1": np.r_[np.zeros(60), np.ones(n - 60)],  # 85 %: the worst
                         "cover:improvement": np.ones(n)})
    summary = summarise(rows).set_index("check")
    assert summary.loc["fwer:best_holm", "rate"] == 0.1 and summary.loc["fwer:best_holm", "verdict"] == "liberal"
    assert summary.loc["fwer:best_holm", "mcse"] == pytest.approx(np.sqrt(0.1 * 0.9 / n))
    assert summary.loc["cover:mean_like_these", "rate"] == 0.85
    assert summary.loc["cover:mean_like_these", "verdict"] == "undercovers"
    assert not summary.loc["cover:improvement", "default"]                   # on request only
    settings = type("S", (), {"replicates": n, "n_resamples": 99, "alpha": 0.05, "confidence_level": 0.95,
                              "variants": (RUNS,)})
    assert "0.100 ± 0.015 ▲" in study_markdown(summary.reset_index(), settings)


def test_configuration_errors_name_the_field():
    context = None
    with pytest.raises(ScenarioError, match=r"suite.variants.x.runs: belongs to a variant of runs"):
        parse_settings({"variants": {"x": {"runs": 4}}}, context)
    with pytest.raises(ScenarioError, match=r"suite.variants.x.item_sd: belongs to a variant of items"):
        parse_settings({"variants": {"x": {"unit": "runs", "item_sd": 1.0}}}, context)
    with pytest.raises(ScenarioError, match=r"suite.variants.x.items: the range \[900, 50\] runs backwards"):
        parse_settings({"variants": {"x": {"items": [900, 50]}}}, context)
    with pytest.raises(ScenarioError, match="suite.tasks"):
        parse_settings({"tasks": [3]}, context)
    settings = parse_settings({"variants": {"x": {"unit": "runs", "runs": 3}}, "chunk_size": 50, "replicates": 120},
                              context)
    assert [len(c) for c in settings.chunks()] == [50, 50, 20]


def test_the_worst_of_several_models_is_judged_with_a_wider_band():
    """0.928 is below 0.95 - 3 MCSE (0.929) but, as the lowest of five models' coverages, within 0.95 - 3.46 MCSE
    (0.926); 0.925 is outside both."""
    n = 1000
    for low, verdict in ((928, "covers"), (925, "undercovers")):
        rows = pd.DataFrame({"variant": "runs", "tasks": 8, "replicate": range(n),
                             **{f"cover:mean_like_these:{m}": np.r_[np.zeros(n - low), np.ones(low)] if m == 0
                                else np.r_[np.zeros(50), np.ones(n - 50)] for m in range(5)}})
        summary = summarise(rows).set_index("check")
        assert summary.loc["cover:mean_like_these", "rate"] == low / n
        assert summary.loc["cover:mean_like_these", "verdict"] == verdict
