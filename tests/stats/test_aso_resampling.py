"""ASO's bootstrap building blocks: a replicate's violation ratio is the same whatever the block size or the
other replicates computed with it (by construction: sums per replicate are fixed pairwise trees of
element-wise additions, no BLAS), and agrees with plain references (a direct sum per replicate, a fine-grid
integral, deepsig's own violation ratio)."""
import functools
import math

import numpy as np
import pytest

import simstats.stats.aso as aso_module
from simstats.stats.aso import (
    METHODS,
    aso,
    quantile_layout,
    resampled_violation_ratios,
    sorted_resample_indices,
)
from simstats.stats.engine import column_sums
from simstats.studies.dror2019.conventions import dror2019_aso, dror2019_layout


def pairwise_fold(column):
    """The documented tree of column_sums, one Python float (an IEEE double) at a time."""
    values = [float(v) for v in column]
    while len(values) > 1:
        h = (len(values) + 1) // 2
        values = [values[i] + values[i + h] if i + h < len(values) else values[i] for i in range(h)]
    return values[0]


@pytest.mark.parametrize("rows", [1, 2, 3, 7, 8, 9, 199, 1000])
def test_column_sums_contract(rows):
    """Each column's sum: the fold of the docstring bit for bit, whatever the other columns, their number or the
    memory layout; within its error bound, ceil(log2 rows) x 2^-53 of the sum of magnitudes, of the correctly
    rounded sum (math.fsum) - a sequential sum's bound would be rows x 2^-53."""
    rng = np.random.default_rng(rows)
    x = rng.normal(0, 1, (rows, 23)) * 10.0 ** rng.integers(-8, 8, (rows, 23))
    sums = column_sums(x.copy())
    assert sums.shape == (23,)
    assert np.array_equal(column_sums(np.asfortranarray(x)), sums)
    for j in range(x.shape[1]):
        assert sums[j] == pairwise_fold(x[:, j])
        assert column_sums(x[:, [j]].copy())[0] == sums[j]
        assert column_sums(x[:, [j, 0, j]].copy())[0] == sums[j]
        bound = max(1, math.ceil(math.log2(rows))) * 2.0 ** -53 * np.abs(x[:, j]).sum()
        assert abs(sums[j] - math.fsum(x[:, j])) <= bound


def samples(n, m, seed):
    """Sorted scores with a failure tail in A (large violations at the bottom) and ties in B."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0.9, 0.01, n), np.round(rng.normal(0.9, 0.012, m), 3)
    a[: n // 10 + 1] -= 0.02
    return np.sort(a), np.sort(b)


#: (layout of the resample sizes, value where the quantile functions coincide, draws per resample)
LAYOUTS = [*(pytest.param(lambda n, m, method=method: quantile_layout(n, m, method, 0.005), 0.5, None, id=method)
             for method in METHODS),
           pytest.param(dror2019_layout, 0.0, 200, id="dror2019")]


@pytest.mark.parametrize("layout_of, coincide, draws", LAYOUTS)
@pytest.mark.parametrize("n, m, n_rep", [(5, 5, 9), (41, 87, 66), (300, 120, 257)])
def test_a_replicates_ratio_does_not_depend_on_the_block_size(layout_of, coincide, draws, n, m, n_rep):
    a, b = samples(n, m, n + m)
    rng = np.random.default_rng(n_rep)
    idx_a, idx_b = sorted_resample_indices(n, n_rep, rng, draws), sorted_resample_indices(m, n_rep, rng, draws)
    layout = layout_of(idx_a.shape[1], idx_b.shape[1])
    whole = resampled_violation_ratios(a, idx_a, b, idx_b, layout, coincide=coincide)
    for block_values in (1, 37, 1000, 5 * layout.ia.size + 3, 10 ** 9):
        assert np.array_equal(resampled_violation_ratios(a, idx_a, b, idx_b, layout, coincide=coincide,
                                                         block_values=block_values), whole), block_values
    alone = [resampled_violation_ratios(a, idx_a[[r]], b, idx_b[[r]], layout, coincide=coincide)[0]
             for r in range(n_rep)]
    assert np.array_equal(alone, whole)
    shuffled = np.random.default_rng(0).permutation(n_rep)
    assert np.array_equal(resampled_violation_ratios(a, idx_a[shuffled], b, idx_b[shuffled], layout,
                                                     coincide=coincide), whole[shuffled])


def plain_ratio(sa, sb, layout, coincide):
    """The layout's two weighted sums, written out for one pair of sorted samples."""
    d = sb[layout.ib] - sa[layout.ia]
    total = math.fsum(layout.w_total * d * d)
    violation = math.fsum(layout.w_violation * np.where(d > 0, d * d, 0.0))
    return violation / total if total > 0 else coincide


@pytest.mark.parametrize("layout_of, coincide, draws", LAYOUTS)
@pytest.mark.parametrize("n, m", [(5, 7), (41, 87), (300, 120)])
def test_resampled_ratios_agree_with_a_plain_sum_per_replicate(layout_of, coincide, draws, n, m):
    """Against fsum of the weighted integrands of each sorted resample: within 1e-12 (the pairwise sums' error
    is below points x 2^-52 relative, 5e-13 for the 2,000 points here)."""
    a, b = samples(n, m, 7 * n + m)
    rng = np.random.default_rng(n * m)
    idx_a, idx_b = sorted_resample_indices(n, 60, rng, draws), sorted_resample_indices(m, 60, rng, draws)
    layout = layout_of(idx_a.shape[1], idx_b.shape[1])
    ours = resampled_violation_ratios(a, idx_a, b, idx_b, layout, coincide=coincide)
    plain = [plain_ratio(a[idx_a[r]], b[idx_b[r]], layout, coincide) for r in range(60)]
    assert np.allclose(ours, plain, rtol=0, atol=1e-12)
    assert 0 < np.mean(ours) < 1 and np.ptp(ours) > 0.01        # the samples give informative ratios


def test_exact_layout_integrates_the_quantile_functions():
    """On each resample, "exact" is the integral of the empirical quantile functions: within 2e-4 of a
    midpoint rule with 400,000 points (the fine grid misplaces at most one step per breakpoint)."""
    a, b = samples(13, 29, 1)
    rng = np.random.default_rng(2)
    idx_a, idx_b = sorted_resample_indices(13, 5, rng), sorted_resample_indices(29, 5, rng)
    ours = resampled_violation_ratios(a, idx_a, b, idx_b, quantile_layout(13, 29))
    t = (np.arange(400_000) + 0.5) / 400_000
    for r in range(5):
        d = b[idx_b[r]][np.ceil(29 * t).astype(int) - 1] - a[idx_a[r]][np.ceil(13 * t).astype(int) - 1]
        assert ours[r] == pytest.approx(np.sum(np.where(d > 0, d * d, 0)) / np.sum(d * d), abs=2e-4)


def test_deepsig_layout_gives_deepsigs_violation_ratio_on_resamples():
    """method="deepsig" on sorted resamples against deepsig 1.2.8's own violation ratio of the same
    resamples (its grid and sums; agreement to 1e-9, the bench's check)."""
    deepsig_aso = pytest.importorskip("deepsig.aso", reason="deepsig (in the [test] extra) is not installed")
    a, b = samples(41, 87, 3)
    rng = np.random.default_rng(4)
    idx_a, idx_b = sorted_resample_indices(41, 12, rng), sorted_resample_indices(87, 12, rng)
    ours = resampled_violation_ratios(a, idx_a, b, idx_b, quantile_layout(41, 87, "deepsig", 0.005))
    theirs = [deepsig_aso.compute_violation_ratio(scores_a=a[idx_a[r]], scores_b=b[idx_b[r]], dt=0.005)
              for r in range(12)]
    assert np.allclose(ours, theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("test", ["aso", "dror2019_aso"])
def test_results_do_not_depend_on_the_block_size(monkeypatch, test):
    a, b = samples(150, 90, 5)
    fn = {"aso": functools.partial(aso, method="exact"), "dror2019_aso": dror2019_aso}[test]
    results = set()
    for block_values in (1, 4096, 10 ** 9):
        monkeypatch.setattr(aso_module, "resampled_violation_ratios",
                            functools.partial(resampled_violation_ratios, block_values=block_values))
        if test == "dror2019_aso":
            import simstats.studies.dror2019.conventions as conventions

            monkeypatch.setattr(conventions, "resampled_violation_ratios",
                                functools.partial(resampled_violation_ratios, block_values=block_values))
        results.add(fn(a, b, n_resamples=300, rng=9))
    assert len(results) == 1


@pytest.mark.parametrize("kind", [None, "stable"])
def test_resample_indices_are_the_same_whichever_sort_is_faster(monkeypatch, kind):
    """The 16-bit sort is the faster of numpy's two on the machine: either gives the sorted draws."""
    assert aso_module._int16_sort_kind() in (None, "stable")
    monkeypatch.setattr(aso_module, "_int16_sort_kind", lambda: kind)
    ours = sorted_resample_indices(90, 50, np.random.default_rng(6), 70)
    draws = np.random.default_rng(6).integers(0, 90, (50, 70), dtype=np.int16)
    assert np.array_equal(ours, np.sort(draws, axis=1))


def test_layouts_are_cached_and_read_only():
    first = quantile_layout(40, 60, "exact", 0.005)
    assert quantile_layout(40, 60, "exact", 0.005) is first
    assert quantile_layout(40, 60, "exact", 0.005, start=0.0) is first          # start: grids only
    assert quantile_layout(40, 60, "grid", 0.005, start=0.0) is not quantile_layout(40, 60, "grid", 0.005)
    with pytest.raises(ValueError):
        first.ia[0] = 1
    with pytest.raises(ValueError, match="dt must be"):
        quantile_layout(40, 60, "grid", 1.5)
    with pytest.raises(ValueError, match="method must be"):
        quantile_layout(40, 60, "dror2019", 0.005)
    with pytest.raises(ValueError, match="start must be"):
        quantile_layout(40, 60, "grid", 0.005, start=1.0)


def test_grid_layouts_weigh_their_points():
    """grid: t = dt, ..., every point weight dt in both integrals; deepsig: the first point out of the violation
    integral; start=0: t = 0 added.  Weights sum to the grid's length."""
    grid, deep = quantile_layout(40, 60, "grid", 0.01), quantile_layout(40, 60, "deepsig", 0.01)
    left = quantile_layout(40, 60, "grid", 0.01, start=0.0)
    assert grid.w_total.sum() == pytest.approx(0.99) and left.w_total.sum() == pytest.approx(1.0)
    assert np.array_equal(grid.w_total, grid.w_violation)
    assert np.array_equal(deep.w_total, grid.w_total) and deep.w_violation.sum() == pytest.approx(0.98)
    assert (grid.ia[0], grid.ib[0]) == (0, 0) and left.w_total[0] == pytest.approx(0.02)   # t = 0 and 0.01 merge


def test_a_layout_checks_its_weights():
    layout = quantile_layout(20, 30, "deepsig", 0.01)
    assert layout.w_violation[0] < layout.w_total[0]          # the first grid point: out of the violation integral
    with pytest.raises(ValueError, match="w_total > 0"):
        type(layout)(layout.ia, layout.ib, layout.w_total, layout.w_total * 1.5)
    with pytest.raises(ValueError, match="one length"):
        type(layout)(layout.ia[1:], layout.ib, layout.w_total, layout.w_violation)
