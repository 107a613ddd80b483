"""The critical-difference diagram's groups are autorank's (simstats.report.suite_figures)."""
import numpy as np
import pandas as pd
import pytest

from simstats.report.suite_figures import cd_diagram, rank_groups
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
