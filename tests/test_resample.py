"""The resamplers' weight matrices (simstats.stats.resample)."""
import numpy as np
import pytest

from simstats.stats import resample
from simstats.stats.resample import item_counts


def one_shot_item_counts(rng, n_resamples, n):
    """The counts of one draw of the whole (replicates, items) matrix and one bincount: the reference."""
    dtype = np.int32 if n_resamples * n < 2**31 else np.int64
    draws = rng.integers(0, n, size=(n_resamples, n), dtype=dtype).astype(np.int64)
    draws += (np.arange(n_resamples, dtype=np.int64) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=n_resamples * n).reshape(n_resamples, n).astype(np.float32)


@pytest.mark.parametrize("n_resamples, n", [(1, 1), (3, 2), (1000, 7), (257, 312), (40, 2208), (9, 40_000),
                                            (3, 100_000)])
def test_blocked_item_counts_are_the_one_shot_counts_bit_for_bit(n_resamples, n):
    ours, ref = np.random.default_rng(11), np.random.default_rng(11)
    counts = item_counts(ours, n_resamples, n)
    expected = one_shot_item_counts(ref, n_resamples, n)
    assert counts.dtype == np.float32 and counts.shape == (n_resamples, n)
    assert np.array_equal(counts, expected)
    assert (counts.sum(axis=1) == n).all()
    # the generator is left where the one-shot draw leaves it (including PCG64's buffered 32-bit half)
    assert ours.bit_generator.state == ref.bit_generator.state


def test_item_counts_block_boundaries_do_not_matter(monkeypatch):
    # a block size that does not divide the replicates, down to one row per block
    expected = item_counts(np.random.default_rng(4), 50, 300)
    for block in (1, 299, 301, 7 * 300 + 1):
        monkeypatch.setattr(resample, "COUNT_BLOCK", block)
        assert np.array_equal(item_counts(np.random.default_rng(4), 50, 300), expected)



@pytest.mark.parametrize("n_resamples, n", [(5, 1), (300, 40), (9, 40_000)])
def test_counts_and_swaps_of_chosen_columns_are_those_of_the_whole_draw(n_resamples, n):
    columns = np.flatnonzero(np.random.default_rng(n).random(n) < 0.6)
    for draw in (item_counts, resample.swap_indicators):
        ours, ref = np.random.default_rng(3), np.random.default_rng(3)
        part = draw(ours, n_resamples, n, columns)
        assert part.dtype == np.float32 and part.shape == (n_resamples, columns.size)
        assert np.array_equal(part, draw(ref, n_resamples, n)[:, columns])
        assert ours.bit_generator.state == ref.bit_generator.state
