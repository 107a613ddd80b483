"""Size of every paired test at alpha = 0.05 on exchangeable (null) paired data."""
import math

import numpy as np
import pytest

from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.classical import mcnemar_test, paired_t_test, sign_test, wilcoxon_test
from simstats.stats.metrics import accuracy
from functools import partial

from simstats.stats.randomization import randomization_test

approximate_randomization = partial(randomization_test, method="approximate")
exact_randomization = partial(randomization_test, method="exact")
exact_stratified_randomization = partial(randomization_test, method="exact-stratified")

R, N, ALPHA = 2000, 300, 0.05
MCSE = math.sqrt(ALPHA * (1 - ALPHA) / R)


@pytest.fixture(scope="module")
def null_pvalues():
    rng = np.random.default_rng(2024)
    # per item: both correct .6, only A .1, only B .1, neither .2 - A and B exchangeable
    u = rng.random((R, N))
    a, b = u < 0.7, (u < 0.6) | ((u >= 0.7) & (u < 0.8))
    stats = np.zeros((2 * R, N, 2))
    stats[0::2, :, 0], stats[1::2, :, 0], stats[:, :, 1] = a, b, 1
    pairs = np.stack([np.arange(0, 2 * R, 2), np.arange(1, 2 * R, 2)], axis=1)
    m = accuracy
    return {
        "bootstrap shift": paired_bootstrap(stats, m, pairs, n_resamples=2000, rng=1, confidence_level=None).pvalue,
        "bootstrap percentile": paired_bootstrap(stats, m, pairs, n_resamples=2000, rng=1, confidence_level=None,
                                                 pvalue_method="percentile").pvalue,
        "approximate randomization": approximate_randomization(stats, m, pairs, n_resamples=2000, rng=1).pvalue,
        "exact stratified randomization": exact_stratified_randomization(stats, m, pairs).pvalue,
        "McNemar": np.array([mcnemar_test(a[r], b[r]).pvalue for r in range(R)]),
        "sign": np.array([sign_test(a[r], b[r]).pvalue for r in range(R)]),
        "Wilcoxon": np.array([wilcoxon_test(a[r] * 1.0, b[r] * 1.0).pvalue for r in range(R)]),
        "matched-pair t": np.array([paired_t_test(a[r] * 1.0, b[r] * 1.0).pvalue for r in range(R)]),
    }


@pytest.mark.parametrize("test", ["bootstrap shift", "bootstrap percentile", "approximate randomization",
                                  "exact stratified randomization", "McNemar", "sign", "Wilcoxon", "matched-pair t"])
def test_size_within_three_mcse(null_pvalues, test):
    size = np.mean(null_pvalues[test] <= ALPHA)
    assert abs(size - ALPHA) <= 3 * MCSE, f"{test}: size {size:.4f}, MCSE {MCSE:.4f}"
