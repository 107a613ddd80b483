"""The suite figures (simstats.io.suite_figures): the critical-difference diagram's groups are autorank's; the
means figure and the rank-interval figure draw each model's interval (or rank interval) where the numbers say."""
import numpy as np
import pandas as pd
import pytest

from simstats.io.suite_figures import cd_diagram, rank_groups
from simstats.stats.suite import nemenyi_test

autorank = pytest.importorskip("autorank")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_groups_equal_autoranks(seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(7, 20)) + np.linspace(0, 1.2, 7)[:, None]
    frame = pd.DataFrame(scores.T, columns=[f"m{i}" for i in range(7)])
    result = autorank.autorank(frame, alpha=0.05, verbose=False, force_mode="nonparametric")
    # autorank's rankdf lists the worst mean rank first; reversed it is the order of ranks 1..k used here
    _, _, reference = autorank._util.get_sorted_rank_groups(result, reverse=True)
    nemenyi = nemenyi_test(scores)
    assert rank_groups(nemenyi.average_ranks, result.cd) == [tuple(g) for g in reference]


def test_the_diagram_draws_every_model_and_group():
    ranks = np.array([1.2, 2.0, 3.5, 3.6])
    fig = cd_diagram(["a", "b", "c", "d"], ranks, 1.0, tasks=10)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert {"a (1.20)", "b (2.00)", "c (3.50)", "d (3.60)", "CD = 1.00"} <= set(texts)
    assert rank_groups(ranks, 1.0) == [(0, 1), (2, 3)]


def test_the_means_figure_sorts_the_models_and_draws_their_intervals():
    from simstats.io.suite_figures import suite_means_figure

    fig = suite_means_figure(["a", "b", "c"], [0.70, 0.80, 0.75], [0.66, 0.78, 0.70], [0.74, 0.82, 0.80],
                             claim="95% t intervals over tasks like these")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "c", "b"]          # bottom to top: the best at the top
    assert ax.get_xlabel() == "mean score over tasks" and "tasks like these" in fig.get_suptitle()
    (bars,) = ax.collections
    segments = [tuple(np.round(s[:, 0], 6)) for s in bars.get_segments()]
    assert segments == [(0.66, 0.74), (0.70, 0.80), (0.78, 0.82)]
    lower = suite_means_figure(["a", "b"], [0.1, 0.2], [0.0, 0.1], [0.2, 0.3], higher_is_better=False)
    assert [t.get_text() for t in lower.axes[0].get_yticklabels()] == ["b", "a"] and "lower" in lower.get_suptitle()


def test_the_rank_figure_draws_each_interval_and_the_observed_rank():
    from simstats.io.suite_figures import rank_intervals_figure

    fig = rank_intervals_figure(["a", "b", "c", "d"], [0.6, 0.9, 0.88, 0.5], [3, 1, 1, 3], [4, 2, 2, 4])
    ax = fig.axes[0]
    assert ax.get_xlabel() == "rank (1 = best)"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["d", "a", "c", "b"]     # bottom to top
    spans = sorted((round(p.get_y() + p.get_height() / 2), round(p.get_x() + 0.3, 9),
                    round(p.get_x() + p.get_width() - 0.3, 9)) for p in ax.patches)
    assert spans == [(0, 3, 4), (1, 3, 4), (2, 1, 2), (3, 1, 2)]                      # d, a, c, b
    observed = sorted((line.get_ydata()[0], line.get_xdata()[0]) for line in ax.lines)
    assert observed == [(0, 4), (1, 3), (2, 2), (3, 1)]                              # d 4th, ..., b 1st
    assert {t.get_text() for t in ax.texts} == {"1-2", "3-4"}
