import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simstats.stats.metrics import f1_of as f1, metric_from_sums, precision_of as precision, recall_of as recall


@settings(max_examples=200, deadline=None)
@given(g=st.integers(1, 1000), r_frac=st.floats(0, 1), s=st.integers(0, 1000))
def test_f1_in_yeh_form_is_the_harmonic_mean(g, r_frac, s):
    r = int(round(r_frac * g))
    p, rc = precision(r, g, s), recall(r, g, s)
    expected = 0.0 if p + rc == 0 else 2 * p * rc / (p + rc)
    assert np.isclose(f1(r, g, s), expected, rtol=1e-12, atol=1e-15)


def test_metrics_from_label_arrays():
    gold = np.array([1, 1, 1, 0, 0, 1, 0, 1])
    pred = np.array([1, 0, 1, 1, 0, 1, 1, 0])
    tp = int(((gold == 1) & (pred == 1)).sum())
    fp = int(((gold == 0) & (pred == 1)).sum())
    sums = {"recalled": tp, "gold": int(gold.sum()), "spurious": fp}
    assert metric_from_sums("precision", sums) == tp / (tp + fp)
    assert metric_from_sums("recall", sums) == tp / gold.sum()
    assert metric_from_sums("accuracy", {"correct": int((gold == pred).sum()), "items": 8}) == 4 / 8


def test_zero_denominators_give_zero():
    assert precision(0, 10, 0) == 0.0
    assert f1(np.array([0]), np.array([0]), np.array([0]))[0] == 0.0


def test_builtin_metrics_are_metric_objects():
    from simstats.stats import metrics

    assert metrics.accuracy(np.array([3.0, 4.0])) == 0.75
    assert metrics.f1(np.array([2.0, 4.0, 2.0])) == 0.5          # 2R / (G + R + S) = 4 / 8
    assert metrics.mae.higher_is_better is False
    assert metrics.get_metric("precision") is metrics.precision
    assert metrics.get_metric("bleu") is metrics.bleu
    with pytest.raises(ValueError, match="unknown metric 'chrf'"):
        metrics.get_metric("chrf")
