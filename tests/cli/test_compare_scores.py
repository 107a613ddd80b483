"""compare-scores: pairing by seed id, intervals, effect sizes, recorded settings, bad input."""
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.cli import main
from simstats.io.checks import InputError
from simstats.compare import Comparisons, compare_score_distributions


def long_table(rng, k=8):
    seeds = np.arange(k)
    shared = rng.normal(0, 0.01, k)                       # what a seed does to both approaches
    a = 0.90 + shared + rng.normal(0, 0.002, k)
    b = 0.897 + shared + rng.normal(0, 0.002, k)
    return pd.DataFrame({"system": ["a"] * k + ["b"] * k, "seed": np.r_[seeds, seeds], "score": np.r_[a, b]})


def test_wilcoxon_pairs_by_seed_whatever_the_row_order():
    t = long_table(np.random.default_rng(1))
    shuffled = t.sample(frac=1, random_state=3).reset_index(drop=True)
    assert not shuffled.seed.is_monotonic_increasing
    p_sorted = compare_score_distributions(t, tests=["wilcoxon"]).set_index("system").pvalue_wilcoxon["b"]
    p_shuffled = compare_score_distributions(shuffled, tests=["wilcoxon"]).set_index("system").pvalue_wilcoxon["b"]
    a = t[t.system == "a"].sort_values("seed").score.to_numpy()
    b = t[t.system == "b"].sort_values("seed").score.to_numpy()
    assert p_sorted == p_shuffled == stats.wilcoxon(a, b).pvalue                 # two-sided by default


def test_wilcoxon_needs_matching_seeds():
    t = long_table(np.random.default_rng(2))
    t.loc[t.index[-1], "seed"] = 99
    with pytest.raises(InputError, match="different seeds .*unmatched: 7, 99"):
        compare_score_distributions(t, tests=["wilcoxon"])
    with pytest.raises(InputError, match="give a 'seed' column"):
        compare_score_distributions(t.drop(columns="seed"), tests=["wilcoxon"])


def test_difference_interval_effect_size_and_settings():
    t = long_table(np.random.default_rng(4))
    out = compare_score_distributions(t, comparisons=Comparisons(confidence_level=0.9)).set_index("system")
    a = t[t.system == "a"].score.to_numpy()
    b = t[t.system == "b"].score.to_numpy()
    ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.9)
    assert out.loc["b", "difference_ci_low"] == pytest.approx(ci.low)
    assert out.loc["b", "difference_ci_high"] == pytest.approx(ci.high)
    pooled = np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    assert out.loc["b", "cohens_d"] == pytest.approx((a.mean() - b.mean()) / pooled)


def test_json_records_settings(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    long_table(np.random.default_rng(5)).to_csv(path, index=False)
    assert main(["compare-scores", str(path), "--tests", "welch", "wilcoxon", "--format", "json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["pairing"] == "by seed id" and settings["tests"] == ["welch", "wilcoxon"]
    assert settings["confidence_level"] == 0.95 and "simstats_version" in settings and "version" not in settings
    assert "seed" not in settings and "aso_method" not in settings        # ASO was not run


@pytest.mark.parametrize("cells, message", [
    ({"a": [0.9, 0.91, "high"], "b": [0.8, 0.81, 0.82]}, "system 'a': score 'high' (row 4) is not a number"),
    ({"a": [0.9, 0.91, np.inf], "b": [0.8, 0.81, 0.82]}, "system 'a': score inf in row 4 is not a finite number"),
    ({"a": [0.9, 0.91, None], "b": [0.8, 0.81, 0.82]}, "system 'a': missing score in row 4"),
])
def test_wide_tables_name_the_bad_cell(tmp_path, capsys, cells, message):
    path = tmp_path / "wide.csv"
    pd.DataFrame(cells).to_csv(path, index=False)
    assert main(["compare-scores", str(path), "--min-scores", "2"]) != 0
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
