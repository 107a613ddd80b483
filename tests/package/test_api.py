"""The public API: exports, result objects, distinct-row resampling, corrections, Monte Carlo
summaries and output permissions, against enumeration, closed forms and statsmodels."""
import math
import os
import stat

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

import simstats
from simstats.io import write as io
from simstats.stats import metrics, montecarlo
from simstats.stats.engine import orient_by_winner
from conftest import acc_stats, exact_bootstrap_pvalue


def test_public_api_lists_tests_metrics_corrections_aso_and_competition():
    for name in ("paired_bootstrap", "randomization_test", "mcnemar_test", "welch_t_test", "mann_whitney_test",
                 "aso", "multi_aso", "accuracy", "f1", "classification_f1", "custom_metric", "adjust_pvalues",
                 "analyse_competition", "BootstrapResult", "ConfidenceInterval"):
        assert name in simstats.__all__
    for name in simstats.__all__:
        assert hasattr(simstats, name), name


@pytest.mark.parametrize("old, method", [("approximate_randomization", "approximate"), ("exact_randomization", "exact"),
                                         ("exact_stratified_randomization", "exact-stratified")])
def test_the_old_randomization_functions_warn_and_equal_randomization_test(old, method):
    rows = acc_stats([1, 1, 0, 1, 0, 1, 1, 0], [0, 1, 0, 1, 1, 0, 0, 0])
    options = {"rng": 3, "n_resamples": 999} if method == "approximate" else {}
    with pytest.warns(FutureWarning, match=f"{old} is replaced by randomization_test"):
        before = getattr(simstats, old)(rows, simstats.accuracy, **options)
    after = simstats.randomization_test(rows, simstats.accuracy, method=method, **options)
    assert before.pvalue[0] == after.pvalue[0] and before.method == after.method


def test_renamed_keywords_warn_and_give_the_same_answer():
    rows = acc_stats([1, 1, 0, 1, 0, 1, 1, 0], [0, 1, 0, 1, 1, 0, 0, 0])
    with pytest.warns(FutureWarning, match="paired_bootstrap: convention is renamed pvalue_method"):
        old = simstats.paired_bootstrap(rows, simstats.accuracy, convention="percentile", rng=1, n_resamples=500)
    new = simstats.paired_bootstrap(rows, simstats.accuracy, pvalue_method="percentile", rng=1, n_resamples=500)
    assert old.pvalue[0] == new.pvalue[0] and new.pvalue_method == "percentile"
    with pytest.raises(TypeError, match="give pvalue_method only"):
        simstats.paired_bootstrap(rows, simstats.accuracy, convention="shift", pvalue_method="percentile", rng=1)


@pytest.mark.parametrize("function, old, new", [
    ("paired_bootstrap", "convention", "pvalue_method"), ("approach_bootstrap", "convention", "pvalue_method"),
    ("approach_bootstrap", "seed", "seed_id"), ("approach_t_test", "seed", "seed_id"),
    ("approach_margin_test", "seed", "seed_id"), ("simstats.stats.power.variance_components", "seed", "seed_id"),
    ("simstats.compare.compare_systems", "seed", "rng"), ("simstats.compare.compare_systems", "convention", "pvalue_method"),
    ("simstats.compare.compare_score_distributions", "seed", "rng"),
    ("simstats.compare.compare_approach_runs", "seed", "rng")])
def test_renamed_keywords_are_in_the_signature(function, old, new):
    import importlib
    import inspect
    module, _, name = function.rpartition(".")
    func = getattr(importlib.import_module(module) if module else simstats, name)
    parameters = inspect.signature(func).parameters
    assert new in parameters and repr(parameters[old].default) == f"<renamed {new}>"
    assert not hasattr(func, "__wrapped__")


def expand(rows, weights):
    """Distinct rows with multiplicities -> one row per item."""
    return np.repeat(rows, np.asarray(weights, dtype=int), axis=1)


def test_distinct_row_bootstrap_matches_enumeration_of_the_expanded_items():
    # 6 items as 3 distinct (A, B) rows: (1, 0) x 3, (0, 1) x 1, (1, 1) x 2
    rows = np.array([[[1, 1], [0, 1], [1, 1]], [[0, 1], [1, 1], [1, 1]]], float)
    weights = [3, 1, 2]
    items = expand(rows, weights)
    for alternative in ("greater", "two-sided"):
        exact = exact_bootstrap_pvalue(items, simstats.accuracy, "shift", alternative)
        B = 100_000
        res = simstats.paired_bootstrap(rows, simstats.accuracy, weights=weights, alternative=alternative,
                                        n_resamples=B, confidence_level=None, rng=4)
        assert res.statistic[0] == pytest.approx(2 / 6)
        assert abs(res.pvalue[0] - exact) < 4 * math.sqrt(exact * (1 - exact) / B) + 1e-9


def test_distinct_row_bootstrap_f1_agrees_with_the_item_bootstrap_within_mcse():
    rng = np.random.default_rng(3)
    kinds = np.array([[[1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], [[0, 1, 0], [1, 1, 0], [0, 0, 0], [1, 1, 0]]],
                     float)
    weights = rng.integers(5, 40, size=4)
    B = 40_000
    by_rows = simstats.paired_bootstrap(kinds, simstats.f1, weights=weights, n_resamples=B, rng=1)
    by_items = simstats.paired_bootstrap(expand(kinds, weights), simstats.f1, n_resamples=B, rng=2)
    assert by_rows.statistic[0] == pytest.approx(by_items.statistic[0], abs=1e-14)
    p = by_items.pvalue[0]
    assert abs(by_rows.pvalue[0] - p) < 4 * math.sqrt(2 * p * (1 - p) / B)
    assert by_rows.confidence_interval.low[0] == pytest.approx(by_items.confidence_interval.low[0], abs=0.02)


def test_distinct_row_randomization_matches_the_exact_distribution():
    # recall: 30 items recalled only by A, 10 only by B, 5 by both -> exact p = P(Bin(40, 1/2) >= 30)
    rows = np.array([[[1, 1, 0], [0, 1, 0], [1, 1, 0]], [[0, 1, 0], [1, 1, 0], [1, 1, 0]]], float)
    weights = [30, 10, 5]
    exact = sps.binom.sf(29, 40, 0.5)
    assert simstats.randomization_test(expand(rows, weights), simstats.recall, method="exact-stratified",
                                       alternative="greater").pvalue[0] == pytest.approx(exact, rel=1e-10)
    B = 200_000
    res = simstats.randomization_test(rows, simstats.recall, weights=weights, alternative="greater",
                                      n_resamples=B, rng=9)
    assert abs(res.pvalue[0] - exact) < 4 * math.sqrt(exact * (1 - exact) / B) + 2 / B
    assert res.n_resamples == B and res.n_extreme[0] == round(res.pvalue[0] * (B + 1)) - 1


def test_weights_are_checked():
    rows = acc_stats([1, 0], [0, 1])
    with pytest.raises(ValueError, match="one multiplicity per row"):
        simstats.paired_bootstrap(rows, simstats.accuracy, weights=[1, 2, 3], rng=0)
    with pytest.raises(ValueError, match="non-negative integers"):
        simstats.paired_bootstrap(rows, simstats.accuracy, weights=[1.5, 2], rng=0)
    with pytest.raises(ValueError, match="either clusters or weights"):
        simstats.randomization_test(rows, simstats.accuracy, weights=[1, 2], clusters=[0, 1], rng=0)


def test_result_objects_index_unpack_and_name_their_method():
    rng = np.random.default_rng(0)
    s = acc_stats(*(rng.random(300) < p for p in (0.7, 0.6, 0.65)))
    res = simstats.paired_bootstrap(s, simstats.accuracy, [(0, 1), (0, 2)], n_resamples=500, rng=1)
    assert isinstance(res, simstats.BootstrapResult) and len(res) == 2
    assert res.alternative == "two-sided" and "shift" in res.method
    one = res[1]
    stat_, p = one
    assert stat_ == res.statistic[1] and p == res.pvalue[1]
    low, high = one.confidence_interval
    assert low == res.confidence_interval.low[1] and high == res.confidence_interval.high[1]
    assert list(one.pairs) == [0, 2] and one.n_resamples == 500
    t = simstats.welch_t_test(rng.normal(size=10), rng.normal(size=12))
    assert isinstance(t, simstats.ClassicalTestResult) and t.alternative == "two-sided" and t.df > 0


def test_orient_by_winner_puts_the_observed_winner_first():
    s = acc_stats([1, 1, 0, 1], [0, 1, 0, 0], [1, 1, 1, 1])
    oriented, flipped = orient_by_winner(s, simstats.accuracy, np.array([[0, 1], [0, 2], [1, 1]]))
    assert oriented.tolist() == [[0, 1], [2, 0], [1, 1]] and flipped.tolist() == [False, True, False]


def test_aso_reverse_comes_from_the_same_bootstrap():
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.0, 1, 500), rng.normal(0, 1, 400)
    res = simstats.aso(a, b, confidence_level=0.8, n_resamples=500, rng=2)
    margin = res.statistic - res.violation_ratio
    assert 0 < res.statistic < 1 and 0 < res.statistic_reverse < 1
    assert margin == pytest.approx(sps.norm.ppf(0.8) * res.sigma / math.sqrt(500 * 400 / 900), rel=1e-12)
    assert res.statistic_reverse == pytest.approx(1 - res.violation_ratio + margin, abs=1e-12)
    assert res.confidence_level == pytest.approx(0.8)
    with pytest.raises(TypeError, match="rng"):
        simstats.aso(a, b)


@pytest.mark.parametrize("method, sm", [("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh"),
                                        ("fdr_bh", "fdr_bh")])
def test_adjust_pvalues_is_statsmodels(method, sm):
    p = np.array([0.001, 0.04, 0.03, 0.2, 0.5, 0.012])
    assert np.array_equal(simstats.adjust_pvalues(p, method), multipletests(p, method=sm)[1])


def test_adjust_pvalues_rejects_bad_input():
    assert np.array_equal(simstats.adjust_pvalues([0.2, 0.01], "none"), [0.2, 0.01])
    with pytest.raises(ValueError, match="unknown correction 'sidak2'"):
        simstats.adjust_pvalues([0.1], "sidak2")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        simstats.adjust_pvalues([0.1, np.nan])


def test_monte_carlo_rates_and_size_verdicts():
    hits = np.r_[np.ones(30, bool), np.zeros(570, bool)]
    rate, se, n = montecarlo.proportion_with_se(hits)
    assert (rate, n) == (0.05, 600) and se == pytest.approx(math.sqrt(0.05 * 0.95 / 600))
    assert montecarlo.rejection_rate([0.05, 0.01, np.nan, 0.2], 0.05)[:1] == (1 / 3,)   # p < alpha, NaN dropped
    mean, se, n = montecarlo.mean_with_se([0.0, 0.5, 1.0])
    assert mean == 0.5 and se == pytest.approx(0.5 / math.sqrt(3))
    band = 3 * math.sqrt(0.05 * 0.95 / 400)
    assert montecarlo.size_verdict(0.05 + band * 1.01, 0.05, 400) == "liberal"
    assert montecarlo.size_verdict(0.05 - band * 1.01, 0.05, 400) == "conservative"
    assert montecarlo.size_verdict(0.05 + band * 0.99, 0.05, 400) == "holds alpha"
    # too few replicates to tell a test that never rejects from one that holds alpha: 9 * 0.95 / 0.05 = 171
    assert montecarlo.size_verdict(0.0, 0.05, 170) == "undetermined"
    assert montecarlo.size_verdict(0.0, 0.05, 172) == "conservative"


def test_metric_objects_of_the_builtin_metrics():
    assert metrics.get_metric("f1") is simstats.f1
    assert simstats.classification_f1(["a", "b"]).name == "macro_f1"


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_outputs_get_the_users_umask(tmp_path, umask, mode):
    import pandas as pd
    old = os.umask(umask)
    try:
        io.write_text("x\n", tmp_path / "a.md")
        io.write_csv(pd.DataFrame({"x": [1]}), tmp_path / "b.csv")
        io.write_parquet(pd.DataFrame({"x": [1]}), tmp_path / "c.parquet")
    finally:
        os.umask(old)
    for name in ("a.md", "b.csv", "c.parquet"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_a_failed_write_leaves_neither_output_nor_temporary_file(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old\n")

    def broken(tmp):
        with open(tmp, "w") as fh:
            fh.write("half")
        raise RuntimeError("disk full")
    with pytest.raises(RuntimeError):
        io.atomic_write(target, broken)
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_a_write_removes_the_temporary_file_of_a_killed_writer_of_the_same_target(tmp_path):
    stale = tmp_path / ".fig.png.4242.tmp"             # a writer SIGKILLed before its os.replace
    stale.write_bytes(b"\x89PNG half")
    other = tmp_path / ".other.png.4242.tmp"           # another target's: not ours to remove
    other.write_bytes(b"x")
    keep = tmp_path / ".fig.png.notes.tmp"             # not a pid-named temporary file
    keep.write_bytes(b"y")
    io.write_text("x\n", tmp_path / "fig.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".fig.png.notes.tmp", ".other.png.4242.tmp", "fig.png"]
