"""Yeh study, vectorised cells: every p-value against the per-test-set computation it replaces."""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.sim.seeding import generator
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.metrics import get_metric
from functools import partial

from simstats.stats.randomization import randomization_test

approximate_randomization = partial(randomization_test, method="approximate")
exact_stratified_randomization = partial(randomization_test, method="exact-stratified")
from simstats.studies.yeh2000 import kinds
from simstats.studies.yeh2000.simulate import (
    KIND_STATS,
    TESTS,
    _classical,
    _stats_of,
    cell_pvalues,
    kind_pvalues,
    make_population,
    simulate_cell,
)

RECALL_TESTS = ("two_sample_t", "two_proportion_z", "paired_t", "sign_mcnemar", "wilcoxon")
EDGE_GOLD = [
    [5, 0, 0, 5, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0, 0, 0], [0, 0, 4, 0, 0, 0, 0, 0], [2, 1, 1, 0, 0, 0, 0, 0],
    [60, 0, 0, 0, 0, 0, 0, 0], [0, 60, 0, 0, 0, 0, 0, 0], [0, 0, 0, 60, 0, 0, 0, 0], [30, 30, 0, 0, 0, 0, 0, 0],
    [0, 30, 30, 0, 0, 0, 0, 0], [0, 1, 0, 99, 0, 0, 0, 0], [0, 100, 1, 0, 0, 0, 0, 0], [0, 26, 25, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 0, 0, 0], [40, 7, 7, 40, 0, 0, 0, 0],
]
EDGE_ALL = EDGE_GOLD + [
    [0, 0, 0, 0, 5, 0, 0, 3], [0, 0, 0, 0, 0, 4, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0, 4, 0],
    [0, 0, 0, 2, 0, 0, 0, 9], [10, 5, 5, 10, 3, 2, 2, 8], [0, 1, 0, 0, 0, 0, 1, 0], [0, 2, 1, 3, 0, 1, 2, 0],
    [0, 0, 0, 0, 0, 1, 1, 0], [7, 0, 0, 0, 7, 0, 0, 0],
]


def random_counts(seed: int, size: int, gold_only: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(size):
        n = int(rng.choice([2, 3, 5, 13, 14, 30, 50, 51, 60, 100, 300, 748]))
        p = rng.dirichlet(np.ones(8) * rng.choice([0.2, 1.0, 5.0]))
        if gold_only:
            p[4:] = 0
            p /= p.sum()
        out.append(rng.multinomial(n, p))
    return np.array(out + (EDGE_GOLD if gold_only else EDGE_ALL), dtype=np.float64)


def reference(test, counts):
    try:
        return float(_classical(test, counts))
    except ValueError:
        return None


@pytest.mark.parametrize("test", RECALL_TESTS + ("chi2_2x2",))
def test_classical_closed_forms_equal_the_per_test_set_wrappers(test):
    counts = random_counts(1, 400, gold_only=test != "chi2_2x2")
    if test == "wilcoxon":
        # on at most 13 items scipy runs a permutation test (slow); one such test set is enough
        # to check the fall-back
        small = counts[:, :4].sum(axis=1) <= 13
        counts = np.concatenate([counts[~small], [[2, 1, 1, 0, 0, 0, 0, 0]]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [reference(test, c) for c in counts]
        regular = np.array([e is not None for e in expected])
        ours = kinds.classical_pvalues(test, counts[regular], reference=_classical)
        for c in counts[~regular]:                      # where the wrappers raise, so do we
            with pytest.raises(ValueError):
                kinds.classical_pvalues(test, c, reference=_classical)
    expected = np.array([e for e in expected if e is not None])
    assert np.isnan(ours).tolist() == np.isnan(expected).tolist()
    both = ~np.isnan(expected)
    np.testing.assert_allclose(ours[both], expected[both], rtol=0, atol=1e-10)
    # the closed forms themselves (not the per-test-set fallback) carry the large test sets
    assert (counts[regular][:, :4].sum(axis=1) >= kinds.WILCOXON_CLOSED_FORM_MIN).sum() > 80


def test_classical_closed_forms_without_reference_raise_on_small_test_sets():
    with pytest.raises(ValueError, match="reference"):
        kinds.classical_pvalues("wilcoxon", np.array([[3, 2, 1, 4, 0, 0, 0, 0]], float))
    ok = kinds.classical_pvalues("sign_mcnemar", np.array([[3, 2, 1, 4, 0, 0, 0, 0]], float))
    assert ok[0] == pytest.approx(stats.binomtest(2, 3).pvalue, abs=1e-12)


@pytest.mark.parametrize("metric", ["recall", "precision", "f1"])
def test_exact_stratified_pvalues_equal_the_engine_on_the_expanded_units(metric):
    counts = random_counts(2, 300, gold_only=metric == "recall")
    counts = counts[(counts[:, [1, 2]].sum(1) + 1) * (counts[:, [5, 6]].sum(1) + 1) <= 40_000]
    m = get_metric(metric)
    ours = kinds.exact_stratified_pvalues(counts, m)
    engine = np.array([exact_stratified_randomization(_stats_of(c), m, alternative="two-sided").pvalue[0]
                       for c in counts])
    np.testing.assert_allclose(ours, engine, rtol=1e-12, atol=1e-15)
    # no discordant unit: 1 exactly, as the engine
    none = (counts[:, [1, 2, 5, 6]].sum(axis=1) == 0)
    assert none.any() and np.all(ours[none] == 1.0)
    # the tolerance leaves out tail rows: p lower by less than 2 tolerance
    loose = kinds.exact_stratified_pvalues(counts, m, tolerance=1e-6)
    assert np.all(loose <= ours + 1e-15) and np.all(ours - loose < 2e-6)


@pytest.mark.parametrize("metric, n", [("precision", 5000), ("f1", 5000), ("recall", 5000), ("f1", 100)])
def test_exact_stratified_pvalues_on_simulated_cells(metric, n):
    """Large grids (the cells of the study): the closed-form guesses and the shared tables agree
    with the engine, and the approximate-randomization tolerance stays below 2e-14."""
    pop = make_population(metric, 0.3, 0.0, recall=0.5, spurious=0.4, gold_share=0.65)
    counts = np.random.default_rng(3).multinomial(n, pop.kind_probs, size=12).astype(float)
    m = get_metric(metric)
    ours = kinds.exact_stratified_pvalues(counts, m)
    engine = [exact_stratified_randomization(_stats_of(c), m).pvalue[0] for c in counts[:3]]
    np.testing.assert_allclose(ours[:3], engine, rtol=1e-12, atol=1e-15)
    loose = kinds.exact_stratified_pvalues(counts, m, tolerance=kinds.RANDOMIZATION_TOLERANCE)
    assert np.all(np.abs(loose - ours) < 2 * kinds.RANDOMIZATION_TOLERANCE + 1e-15)


@pytest.mark.parametrize("metric", ["recall", "precision", "f1"])
def test_pooled_bootstrap_kinds_give_the_metric_difference(metric):
    counts = random_counts(4, 200, gold_only=False)
    m = get_metric(metric)
    groups = kinds.BOOTSTRAP_GROUPS[metric]
    assert sorted(k for g in groups for k in g) == list(range(8))
    pooled = np.stack([counts[:, list(g)].sum(axis=1) for g in groups], axis=1)
    rep = [g[-1] for g in groups]
    pooled_delta = m(pooled @ KIND_STATS[0, rep]) - m(pooled @ KIND_STATS[1, rep])
    values = m(kinds.kind_sums(counts))
    np.testing.assert_allclose(pooled_delta, values[:, 0] - values[:, 1], rtol=0, atol=1e-15)


def _count_distribution(ps, n_resamples, plus_one):
    c = np.rint(np.asarray(ps) * (n_resamples + plus_one) - plus_one).astype(int)
    return np.bincount(c, minlength=n_resamples + 1)


def _homogeneous(a, b):
    """chi-square test of equal distributions of two count histograms (sparse bins pooled)."""
    keep = (a + b) >= 20
    table = np.array([np.append(a[keep], a[~keep].sum()), np.append(b[keep], b[~keep].sum())])
    table = table[:, table.sum(axis=0) > 0]
    return stats.chi2_contingency(table).pvalue


@pytest.mark.parametrize("metric, counts", [
    ("recall", [40, 9, 4, 47, 0, 0, 0, 0]),
    ("precision", [20, 9, 5, 30, 4, 9, 3, 20]),
    ("f1", [20, 9, 5, 30, 4, 3, 9, 20]),
])
def test_resampling_pvalues_are_distributed_as_the_engines(metric, counts):
    """Given a test set, our bootstrap and approximate-randomization p-values have the
    distribution of the engine's (paired_bootstrap / approximate_randomization with the counts
    as weights): compared over 3000 seeds each with 20 resamples."""
    counts = np.array(counts, float)
    m = get_metric(metric)
    B, seeds = 20, 3000
    rngs = [np.random.default_rng([7, s]) for s in range(seeds)]
    ours = cell_pvalues(np.repeat(counts[None], seeds, axis=0), metric, rngs, n_resamples=B)
    boot = [paired_bootstrap(KIND_STATS, m, weights=counts, n_resamples=B, confidence_level=None,
                             pvalue_rule="fraction", rng=np.random.default_rng([8, s])).pvalue[0]
            for s in range(seeds)]
    ar = [approximate_randomization(KIND_STATS, m, weights=counts, n_resamples=B,
                                    rng=np.random.default_rng([9, s])).pvalue[0] for s in range(seeds)]
    assert _homogeneous(_count_distribution(ours.paired_bootstrap, B, 0), _count_distribution(boot, B, 0)) > 1e-3
    assert _homogeneous(_count_distribution(ours.approximate_randomization, B, 1),
                        _count_distribution(ar, B, 1)) > 1e-3
    # and the engine's randomization count is Binomial(B, exact p)
    exact = ours.exact_stratified_randomization.iloc[0]
    engine_counts = _count_distribution(ar, B, 1)
    expected = stats.binom.pmf(np.arange(B + 1), B, exact) * seeds
    keep = expected >= 5
    obs = np.append(engine_counts[keep], engine_counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(obs[exp > 0], exp[exp > 0] * obs.sum() / exp[exp > 0].sum()).pvalue > 1e-3


@pytest.mark.parametrize("metric", ["recall", "precision", "f1"])
def test_cells_are_chunk_invariant_and_keep_the_test_sets_and_exact_classical_pvalues(metric):
    pop = make_population(metric, 0.5, 0.0, recall=0.5, spurious=0.4, gold_share=0.65)
    kw = {"root_seed": 3, "key": ("chunks", metric), "n_resamples": 200, "max_exact_cells": 3000}
    whole = simulate_cell(pop, 300, range(12), **kw)
    parts = pd.concat([simulate_cell(pop, 300, r, **kw) for r in (range(5), [5], range(6, 12))], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts, check_exact=True)
    alone = simulate_cell(pop, 300, [7], **kw)
    pd.testing.assert_frame_equal(alone.reset_index(drop=True), whole.iloc[[7]].reset_index(drop=True),
                                  check_exact=True)
    assert list(whole.columns[:4]) == ["replicate", "score_1", "score_2", "delta"]
    assert set(TESTS[metric]) <= set(whole.columns)
    # each replicate's test set is the first draw of its generator, as before the vectorisation:
    # its classical and exact p-values are the per-test-set ones
    m = get_metric(metric)
    for row in whole.itertuples():
        c = generator(3, "yeh", "chunks", metric, row.replicate).multinomial(300, pop.kind_probs).astype(float)
        scores = m(c @ KIND_STATS)
        assert (row.score_1, row.score_2) == (scores[0], scores[1])
        cells = (c[1] + c[2] + 1) * (c[5] + c[6] + 1)
        if cells <= 3000:
            exact = exact_stratified_randomization(_stats_of(c), m).pvalue[0]
            assert row.exact_stratified_randomization == pytest.approx(exact, rel=1e-12, abs=1e-15)
        else:
            assert np.isnan(row.exact_stratified_randomization)
        for test in TESTS[metric]:
            if test in RECALL_TESTS + ("chi2_2x2",):
                assert getattr(row, test) == pytest.approx(_classical(test, c), rel=0, abs=1e-10)
        assert 0 <= row.paired_bootstrap <= 1 and 1 / 201 <= row.approximate_randomization <= 1


def test_kind_pvalues_is_one_row_of_cell_pvalues():
    counts = np.array([60, 25, 12, 50, 8, 20, 9, 30], float)
    one = kind_pvalues(counts, "f1", np.random.default_rng(5), n_resamples=300)
    table = cell_pvalues(counts[None], "f1", [np.random.default_rng(5)], n_resamples=300)
    assert one == {k: float(v) for k, v in table.iloc[0].items()}
    assert set(one) == {"score_1", "score_2", "delta", *TESTS["f1"]}
    with pytest.raises(ValueError, match="one generator per test set"):
        cell_pvalues(np.array([counts, counts]), "f1", [np.random.default_rng(5)])
