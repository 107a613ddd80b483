"""Suites of tasks (simstats.stats.suite): the rank tests against scipy, scikit-posthocs and autorank; the
aggregates over runs against rliable (tests/data/suite)."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

from simstats.stats.suite import (average_ranks, friedman_test, interquartile_mean, nemenyi_test,
                                  probability_of_improvement, stratified_bootstrap, wilcoxon_holm)

sp = pytest.importorskip("scikit_posthocs")
autorank = pytest.importorskip("autorank")


def suite(seed: int, models: int = 5, tasks: int = 30, ties: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(models, tasks)) + np.linspace(0, 1, models)[:, None]
    return np.round(scores, 1) if ties else scores


@pytest.mark.parametrize("seed, ties", [(1, False), (2, True), (3, False)])
def test_nemenyi_and_wilcoxon_holm_equal_scikit_posthocs(seed, ties):
    scores = suite(seed, ties=ties)
    nemenyi = nemenyi_test(scores)
    reference = sp.posthoc_nemenyi_friedman(scores.T).to_numpy()
    np.testing.assert_allclose(nemenyi.pvalues, reference, rtol=1e-12, atol=1e-15)
    pairs = wilcoxon_holm(scores)
    reference = sp.posthoc_wilcoxon(list(scores), p_adjust="holm").to_numpy()
    np.testing.assert_allclose(pairs.pvalues_adjusted, reference, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(pairs.pvalues[0, 1], sps.wilcoxon(scores[0], scores[1]).pvalue, rtol=1e-12)


@pytest.mark.parametrize("seed, ties", [(4, False), (5, True)])
def test_ranks_critical_difference_and_friedman_equal_autorank(seed, ties):
    """autorank's mean ranks exactly; its critical difference within 1e-4 relative (it takes the studentized
    range's quantile from statsmodels' qsturng approximation, simstats from scipy's exact distribution)."""
    scores = suite(seed, ties=ties)
    frame = pd.DataFrame(scores.T, columns=[f"m{i}" for i in range(scores.shape[0])])
    result = autorank.autorank(frame, alpha=0.05, verbose=False, force_mode="nonparametric")
    assert result.omnibus == "friedman"
    ranks = dict(zip(frame.columns, average_ranks(scores)))
    for name, row in result.rankdf.iterrows():
        assert ranks[name] == pytest.approx(row.meanrank, rel=1e-12)
    nemenyi = nemenyi_test(scores)
    assert nemenyi.critical_difference == pytest.approx(result.cd, rel=1e-4)
    friedman = friedman_test(scores)
    assert friedman.pvalue == pytest.approx(result.pvalue, rel=1e-12)
    assert friedman.statistic == pytest.approx(sps.friedmanchisquare(*scores).statistic, rel=1e-12)


def test_ranks_follow_the_direction_and_average_ties():
    scores = np.array([[0.9, 0.8, 0.7], [0.8, 0.8, 0.6], [0.5, 0.9, 0.9]])
    np.testing.assert_allclose(average_ranks(scores), [(1 + 2.5 + 2) / 3, (2 + 2.5 + 3) / 3, (3 + 1 + 1) / 3])
    np.testing.assert_allclose(average_ranks(scores, higher_is_better=False), 4 - average_ranks(scores))
    k, n = 3, 3
    assert average_ranks(scores).sum() == pytest.approx(k * (k + 1) / 2)
    res = nemenyi_test(scores, alpha=0.1)
    q = sps.studentized_range.ppf(0.9, k, np.inf) / np.sqrt(2)
    assert res.critical_difference == pytest.approx(q * np.sqrt(k * (k + 1) / (6 * n)), rel=1e-12)
    assert not res.different().any()


def test_bad_suites_are_refused():
    with pytest.raises(ValueError, match="at least 2 models and 2 tasks"):
        average_ranks([[0.5, 0.6]])
    with pytest.raises(ValueError, match="model 1 on task 0 is nan"):
        nemenyi_test([[0.5, 0.6], [np.nan, 0.7]])
    with pytest.raises(ValueError, match="at least 3 models"):
        friedman_test([[0.5, 0.6], [0.4, 0.7]])


# --- runs per task: rliable's aggregates on the IBM model-recycling runs --------------------------------------

ROOT = Path(__file__).resolve().parents[2]
RLIABLE = json.loads((ROOT / "tests/data/suite/rliable_reference.json").read_text())


def ibm_runs(model: str) -> np.ndarray:
    """(20 runs, 36 tasks) scores of one base model, as tests/data/suite/rliable_reference.py reads them."""
    table = pd.read_csv(ROOT / f"resources/realdata/ibm_model_recycling_20_seeds/models_results_{model}_pretrain.csv",
                        sep="\t")
    table["score"] = table.accuracy.where(table["dataset name"] != "stsb", table.spearmanr)
    tasks = sorted(table["dataset name"].unique())
    return np.stack([table[table["dataset name"] == t].score.to_numpy()[:20] for t in tasks], axis=1)


def quantile_tolerance(draw_sd: float, reps: int, ours: int, level: float = 0.95) -> float:
    """4 Monte Carlo standard errors of the difference of two bootstrap percentile endpoints (reps and ours
    resamples), for a bootstrap distribution close to normal with sd draw_sd."""
    p = (1 - level) / 2
    density = sps.norm.pdf(sps.norm.ppf(p))
    return 4 * draw_sd * np.sqrt(p * (1 - p) * (1 / reps + 1 / ours)) / density


def test_interquartile_mean_and_probability_of_improvement_equal_rliable():
    scores = {m: ibm_runs(m) for m in RLIABLE["models"]}
    assert scores["roberta_base"].shape == (20, 36)
    for model, value in RLIABLE["iqm"].items():
        assert interquartile_mean(scores[model]) == pytest.approx(value, rel=1e-12)
    for pair, value in RLIABLE["probability_of_improvement"].items():
        x, y = pair.split(">")
        assert probability_of_improvement(scores[x], scores[y]) == pytest.approx(value, rel=1e-12)
        assert probability_of_improvement(scores[y], scores[x]) == pytest.approx(1 - value, rel=1e-12)


def test_stratified_bootstrap_intervals_equal_rliables_within_mcse():
    scores = {m: ibm_runs(m) for m in RLIABLE["models"]}
    ours = 4000
    for model, (low, high) in RLIABLE["iqm_interval"].items():
        estimate, (my_low, my_high) = stratified_bootstrap([scores[model]], interquartile_mean, n_resamples=ours,
                                                           rng=7)
        sd = (high - low) / (2 * 1.96)
        tolerance = quantile_tolerance(sd, RLIABLE["reps"], ours)
        assert my_low == pytest.approx(low, abs=tolerance) and my_high == pytest.approx(high, abs=tolerance)
        assert estimate == pytest.approx(RLIABLE["iqm"][model], rel=1e-12)
    pair = "roberta_base>bert_base_uncased"
    low, high = RLIABLE["probability_of_improvement_interval"][pair]
    x, y = pair.split(">")
    _, (my_low, my_high) = stratified_bootstrap([scores[x], scores[y]], probability_of_improvement, n_resamples=1500,
                                                rng=8)
    tolerance = quantile_tolerance((high - low) / (2 * 1.96), RLIABLE["reps"], 1500)
    assert my_low == pytest.approx(low, abs=tolerance) and my_high == pytest.approx(high, abs=tolerance)


def test_nemenyi_pvalue_is_never_zero():
    """Far in the tail scipy's studentized range underflows to 0; the reported p-value is then the union bound,
    positive and above the exact value's scale."""
    scores = np.vstack([np.arange(60.0), np.arange(60.0) - 100, np.arange(60.0) - 200, np.arange(60.0) - 300])
    res = nemenyi_test(scores)
    assert (res.pvalues > 0).all()
    z = abs(res.average_ranks[0] - res.average_ranks[3]) / np.sqrt(4 * 5 / (6 * 60))
    exact = sps.studentized_range.sf(z * np.sqrt(2), 4, np.inf)
    assert res.pvalues[0, 3] == (exact if exact > 0 else pytest.approx(12 * sps.norm.sf(z), rel=1e-12))
