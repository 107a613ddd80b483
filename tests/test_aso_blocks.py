"""ASO's bootstrap in blocks of replicates and the batched size/power claims give, bit for bit / claim
for claim, what the one-shot expressions give."""
import warnings
from itertools import pairwise

import numpy as np
import pytest

from simstats.stats.aso import (
    _blocks,
    _layout,
    _ratio,
    _resample_ratios,
    _sorted_resample_indices,
)


@pytest.mark.parametrize("n_rep", [2, 3, 7, 8, 9, 50, 63, 64, 65, 130, 1000])
@pytest.mark.parametrize("points", [5, 200, 1700, 9000])
def test_blocks_cover_the_replicates_and_keep_the_last_rows_together(n_rep, points):
    blocks = _blocks(n_rep, points)
    assert blocks[0][0] == 0 and blocks[-1][1] == n_rep
    assert all(stop == start for (_, stop), (start, _) in pairwise(blocks))
    sizes = [stop - start for start, stop in blocks]
    assert all(s % 4 == 0 and s >= 8 for s in sizes[:-1])      # BLAS treats rows in fours
    assert sizes[-1] >= min(8, n_rep)


@pytest.mark.parametrize("method", ["exact", "grid", "deepsig", "dror2019"])
@pytest.mark.parametrize("n, m", [(5, 5), (41, 87), (300, 120), (1500, 900)])
@pytest.mark.parametrize("n_rep", [2, 9, 50, 66, 1000])
def test_resample_ratios_equal_the_one_shot_expression_bit_for_bit(method, n, m, n_rep):
    rng = np.random.default_rng(n * m + n_rep)
    a, b = np.sort(rng.normal(0.9, 0.01, n)), np.sort(rng.normal(0.9, 0.012, m))
    a[: n // 10] -= 0.1
    layout = _layout(n, m, method, 0.005)
    ia, ib = layout[0], layout[1]
    idx_a, idx_b = _sorted_resample_indices(n, n_rep, rng), _sorted_resample_indices(m, n_rep, rng)
    coincide = 0.0 if method == "dror2019" else 0.5
    one_shot = _ratio(a[idx_a[:, ia]], b[idx_b[:, ib]], layout, coincide)
    assert np.array_equal(_resample_ratios(a, idx_a, b, idx_b, layout, coincide), one_shot)


@pytest.mark.parametrize("n, m", [(5, 7), (41, 87), (1500, 900)])
@pytest.mark.parametrize("draws", [37, 200, 1000])
@pytest.mark.parametrize("n_rep", [9, 66, 1000])
def test_dror2019_replicates_in_blocks_equal_the_one_shot_expression_bit_for_bit(n, m, draws, n_rep):
    """method="dror2019" draws ``draws`` scores per replicate whatever the sample sizes, and reads their
    sorted indices at the positions of the (draws, draws) grid: in blocks, the ratios of the one-shot
    expression bit for bit."""
    rng = np.random.default_rng(n + m + draws + n_rep)
    a, b = np.sort(rng.normal(0.9, 0.01, n)), np.sort(rng.normal(0.9, 0.012, m))
    a[: n // 10 + 1] -= 0.1
    layout = _layout(draws, draws, "dror2019", 0.005)
    idx_a = _sorted_resample_indices(n, n_rep, rng, draws)
    idx_b = _sorted_resample_indices(m, n_rep, rng, draws)
    one_shot = _ratio(a[idx_a[:, layout[0]]], b[idx_b[:, layout[1]]], layout, 0.0)
    assert np.array_equal(_resample_ratios(a, idx_a, b, idx_b, layout, 0.0), one_shot)


def test_layouts_are_cached_and_read_only():
    first = _layout(40, 60, "exact", 0.005)
    assert _layout(40, 60, "exact", 0.005) is first
    with pytest.raises(ValueError):
        first[0][0] = 1
    with pytest.raises(ValueError, match="dt must be"):
        _layout(40, 60, "grid", 1.5)
    with pytest.raises(ValueError, match="method must be"):
        _layout(40, 60, "nope", 0.005)


@pytest.mark.parametrize("n", [3, 5, 8, 9, 20])
def test_batched_claims_equal_one_comparison_at_a_time(n):
    """Welch and the U test along axis 1 (ties and exact U tests apart) claim what compare_once claims."""
    from simstats.studies.dror2019.size_power import _claims, compare_once

    rng = np.random.default_rng(n)
    pool = np.round(rng.normal(0.8, 0.01, 200), 3)          # rounded: ties within many comparisons
    a = pool[rng.integers(0, pool.size, (60, n))]
    b = pool[rng.integers(0, pool.size, (60, n))] + rng.choice([0.0, 0.005, 0.01], (60, 1))
    single = []
    for r in range(60):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # scipy: nearly identical samples
            single.append(compare_once(a[r], b[r], np.random.default_rng(r), alpha=0.05, alpha_aso=0.01,
                                       n_resamples=50))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        batched = _claims(a, b, np.ones(60), np.ones(60), alpha=0.05)     # ASO: claimed per comparison
    for method in ("welch", "mannwhitney"):
        assert list(batched[method]) == [s[method] for s in single], method
