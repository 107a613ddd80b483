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


# --- cells: per-task comparisons and suite means against scipy and statsmodels ------------------------------------

from statsmodels.stats.multitest import multipletests  # noqa: E402

from simstats.stats.suite import compare_within_tasks, suite_mean  # noqa: E402


def item_cells(seed: int, tasks: int = 5, models: int = 4):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(30, 80, tasks)
    return [(rng.random((n, models)) < 0.55 + 0.05 * np.arange(models)).astype(float) for n in sizes]


def run_cells(seed: int, tasks: int = 6, models: int = 4, runs: int = 5):
    rng = np.random.default_rng(seed)
    return [rng.normal(0.7 + 0.01 * np.arange(models) + rng.normal(0, 0.1), rng.uniform(0.005, 0.03, models),
                       size=(runs, models)) for _ in range(tasks)]


@pytest.mark.parametrize("paired", [True, False])
def test_within_task_comparisons_equal_scipy_and_statsmodels(paired):
    cells = item_cells(1) if paired else run_cells(2)
    k = cells[0].shape[1]
    res = compare_within_tasks(cells, paired=paired)
    everything = []                                             # every pair on every task: the family
    for t, x in enumerate(cells):
        for i in range(k):
            for j in range(i + 1, k):
                ref = (sps.ttest_1samp(x[:, i] - x[:, j], 0.0) if paired
                       else sps.ttest_ind(x[:, i], x[:, j], equal_var=False))
                everything.append((t, i, j, float(ref.pvalue), ref.confidence_interval()))
    assert res.family == len(everything) == len(cells) * k * (k - 1) // 2
    adjusted = multipletests([e[3] for e in everything], method="holm")[1]
    lookup = {(t, i, j): (p, ci, q) for (t, i, j, p, ci), q in zip(everything, adjusted)}
    assert len(res.table) == len(cells) * (k - 1)
    for row in res.table.itertuples():
        best = int(np.argmax(cells[row.task].mean(axis=0)))
        assert row.model_a == best and row.difference >= 0
        i, j = sorted((row.model_a, row.model_b))
        p, ci, q = lookup[(row.task, i, j)]
        sign = 1 if row.model_a == i else -1
        assert row.pvalue == pytest.approx(p, rel=1e-10)
        assert row.pvalue_adjusted == pytest.approx(q, rel=1e-10)
        low, high = sorted((sign * ci.low, sign * ci.high))
        assert (row.ci_low, row.ci_high) == (pytest.approx(low, rel=1e-10), pytest.approx(high, rel=1e-10))


def test_within_task_comparisons_against_a_reference_and_by_bh():
    cells = run_cells(3)
    res = compare_within_tasks(cells, paired=False, reference=2, correction="bh")
    raw = [float(sps.ttest_ind(x[:, 2], x[:, j], equal_var=False).pvalue) for x in cells for j in (0, 1, 3)]
    assert res.family == len(raw) == 18
    assert (res.table.model_a == 2).all()
    np.testing.assert_allclose(res.table.pvalue, raw, rtol=1e-10)
    np.testing.assert_allclose(res.table.pvalue_adjusted, multipletests(raw, method="fdr_bh")[1], rtol=1e-10)
    lower = compare_within_tasks(cells, paired=False, higher_is_better=False)
    assert all(row.model_a == int(np.argmin(cells[row.task].mean(axis=0))) for row in lower.table.itertuples())


def test_zero_variance_is_a_stated_case_never_a_rounding_residue():
    x = np.column_stack([np.ones(12), np.zeros(12)])           # A right and B wrong on all 12 items: se 0
    res = compare_within_tasks([x, x], paired=True, correction="none")
    np.testing.assert_allclose(res.table.pvalue, sps.binomtest(12, 12).pvalue, rtol=1e-12)   # exact sign test
    assert res.table.ci_low.isna().all() and res.table.note.str.contains("sign test").all()
    nearly = x.copy()
    nearly[0, 1] = 1.0                                          # one item differs: a finite t
    t = sps.ttest_1samp(nearly[:, 0] - nearly[:, 1], 0.0)
    assert compare_within_tasks([nearly, nearly], paired=True).table.pvalue.iloc[0] == pytest.approx(
        t.pvalue, rel=1e-10)                                    # raw p; holm is in pvalue_adjusted
    same = np.column_stack([np.full(4, 0.9), np.full(4, 0.9)])
    assert compare_within_tasks([same, same], paired=False).table.pvalue.tolist() == [1.0, 1.0]
    # runs that do not vary, 0.7 against 0.7 + 0.002: the residue of 0.7's variance (1e-16) is no evidence
    constant = [np.column_stack([np.full(7, 0.7), np.full(7, 0.7) + 0.002]) for _ in range(3)]
    assert constant[0][:, 0].std(ddof=1) > 0                    # the residue the rule removes
    res = compare_within_tasks(constant, paired=False)
    assert res.table.pvalue.isna().all() and res.table.pvalue_adjusted.isna().all() and res.family == 3
    assert "not tested" in res.method and res.table.note.str.contains("do not vary").all()
    these = suite_mean(constant, paired=False, scope="these tasks")
    assert np.isnan(these.pvalues[0, 1]) and np.isnan(these.difference_ci_low[0, 1])
    assert np.isnan(these.ci_low).all() and "not tested" in these.method
    assert (these.rank_low == [1, 1]).all() and (these.rank_high == [2, 2]).all()
    shifted = [np.column_stack([np.full(3, 0.5), np.full(3, 0.25)]) + t for t in (0.0, 1.0, 3.0)]
    like = suite_mean(shifted, paired=False)                    # the same difference on every task: sign test
    assert like.pvalues[0, 1] == pytest.approx(sps.binomtest(3, 3).pvalue, rel=1e-12)


def test_scores_equal_up_to_rounding_tie_whatever_the_shape():
    items = np.mean(np.r_[np.ones(806), np.zeros(49)])          # 806/855 from items
    runs = np.mean(np.full(20, 806 / 855))                      # from 20 equal runs
    assert items != runs
    base = np.array([[items, 0.5, 0.7], [runs, 0.6, 0.7], [0.9, 0.4, 0.1]])   # (models, tasks)
    exact = base.copy()
    exact[1, 0] = exact[0, 0]
    np.testing.assert_array_equal(average_ranks(base), average_ranks(exact))
    friedman_exact, friedman_rounded = friedman_test(exact), friedman_test(base)
    assert friedman_exact.statistic == friedman_rounded.statistic
    assert friedman_exact.statistic == pytest.approx(sps.friedmanchisquare(*exact).statistic, rel=1e-12)
    assert friedman_test(np.full((3, 4), 0.8)).pvalue == 1.0    # every model ties on every task


@pytest.mark.parametrize("paired", [True, False])
def test_suite_mean_over_tasks_like_these_equals_scipy(paired):
    cells = item_cells(4) if paired else run_cells(5)
    res = suite_mean(cells, paired=paired)
    means = np.stack([x.mean(axis=0) for x in cells])
    for m in range(means.shape[1]):
        ci = sps.ttest_1samp(means[:, m], 0.0).confidence_interval()
        assert (res.ci_low[m], res.ci_high[m]) == (pytest.approx(ci.low, rel=1e-12), pytest.approx(ci.high, rel=1e-12))
    ref = sps.ttest_1samp(means[:, 0] - means[:, 3], 0.0)
    assert res.pvalues[0, 3] == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.difference_ci_low[3, 0] == pytest.approx(-ref.confidence_interval().high, rel=1e-10)


@pytest.mark.parametrize("paired", [True, False])
def test_suite_mean_over_these_tasks_is_the_welch_satterthwaite_t(paired):
    cells = item_cells(6) if paired else run_cells(7, runs=4)
    res = suite_mean(cells, paired=paired, scope="these tasks", confidence_level=0.9)
    T = len(cells)
    for m in (0, 2):
        v = np.array([x[:, m].var(ddof=1) / len(x) for x in cells])
        nu = np.array([len(x) - 1 for x in cells])
        se = np.sqrt(v.sum()) / T
        df = v.sum() ** 2 / (v ** 2 / nu).sum()
        est = np.mean([x[:, m].mean() for x in cells])
        half = sps.t.ppf(0.95, df) * se
        assert (res.ci_low[m], res.ci_high[m]) == (pytest.approx(est - half, rel=1e-12),
                                                   pytest.approx(est + half, rel=1e-12))
    if paired:                                                  # the item differences' variances
        v = np.array([(x[:, 0] - x[:, 1]).var(ddof=1) / len(x) for x in cells])
        nu = np.array([len(x) - 1 for x in cells])
    else:                                                       # the two models' runs' variances, added
        v = np.array([x[:, c].var(ddof=1) / len(x) for x in cells for c in (0, 1)])
        nu = np.array([len(x) - 1 for x in cells for _ in (0, 1)])
    t = (res.estimate[0] - res.estimate[1]) / (np.sqrt(v.sum()) / T)
    df = v.sum() ** 2 / (v ** 2 / nu).sum()
    assert res.pvalues[0, 1] == pytest.approx(2 * sps.t.sf(abs(t), df), rel=1e-10)


def test_rank_intervals_and_tie_groups_follow_the_corrected_pairs():
    cells = run_cells(8, tasks=10, models=5)
    cells = [x + np.array([0.0, 0.001, 0.05, 0.051, 0.2]) for x in cells]
    res = suite_mean(cells, paired=False, scope="these tasks")
    k = 5
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    q = multipletests([res.pvalues[i, j] for i, j in pairs], method="holm")[1]
    better = np.zeros((k, k), bool)
    for (i, j), qq in zip(pairs, q):
        if qq < 0.05:
            better[i, j], better[j, i] = res.differences[i, j] > 0, res.differences[j, i] > 0
    for m in range(k):                                          # brute force: count who is surely above and below
        assert res.rank_low[m] == 1 + sum(better[j, m] for j in range(k))
        assert res.rank_high[m] == k - sum(better[m, j] for j in range(k))
    assert res.rank_low.tolist() == [4, 4, 2, 2, 1] and res.rank_high.tolist() == [5, 5, 3, 3, 1]
    assert res.tie_groups() == [[4], [3, 2], [1, 0]]
    flipped = suite_mean([-x for x in cells], paired=False, scope="these tasks", higher_is_better=False)
    assert flipped.rank_low.tolist() == res.rank_low.tolist()


def test_bad_cells_are_refused():
    with pytest.raises(ValueError, match="task 1: 1 run per model"):
        suite_mean([np.ones((3, 2)), np.ones((1, 2))], paired=False)
    with pytest.raises(ValueError, match="task 0: score of model 1 on item 2 is nan"):
        compare_within_tasks([np.array([[1, 0], [0, 1], [1, np.nan]]), np.ones((3, 2))], paired=True)
    with pytest.raises(ValueError, match="same models"):
        suite_mean([np.ones((3, 2)), np.ones((3, 3))], paired=True)
    with pytest.raises(ValueError, match="scope"):
        suite_mean([np.ones((3, 2)), np.ones((3, 2))], paired=True, scope="all")
    with pytest.raises(ValueError, match="reference 5"):
        compare_within_tasks([np.ones((3, 2)), np.ones((3, 2))], paired=True, reference=5)


def test_stratified_bootstrap_draws_do_not_depend_on_the_batch():
    rng = np.random.default_rng(9)
    x, y = rng.normal(0.8, 0.05, size=(6, 5)), rng.normal(0.78, 0.05, size=(4, 5))
    results = {(batch, vectorized): stratified_bootstrap([x, y], probability_of_improvement, n_resamples=300, rng=0,
                                                         batch=batch, vectorized=vectorized)
               for batch in (1, 7, 300) for vectorized in (False, True)}
    assert len(set(results.values())) == 1


@pytest.mark.parametrize("runs_b", [6, 4])
def test_stratified_bootstrap_draws_each_resample_model_by_model(runs_b):
    """The resamples are those of drawing, resample after resample, every model's runs within each task in turn
    (one stream, whether or not the models have as many runs)."""
    rng = np.random.default_rng(4)
    x, y = rng.normal(0.8, 0.05, size=(6, 5)), rng.normal(0.78, 0.05, size=(runs_b, 5))
    source = np.random.default_rng(11)
    expected = []
    for _ in range(200):
        ix = source.integers(0, 6, size=(6, 5))
        iy = source.integers(0, runs_b, size=(runs_b, 5))
        expected.append(np.take_along_axis(x, ix, axis=0).mean() - np.take_along_axis(y, iy, axis=0).mean())
    tail = 0.025
    low, high = np.quantile(expected, [tail, 1 - tail])
    _, interval = stratified_bootstrap([x, y], lambda a, b: float(a.mean() - b.mean()), n_resamples=200, rng=11)
    assert interval == pytest.approx((low, high), rel=1e-12, abs=0)     # floating-point summation order only
