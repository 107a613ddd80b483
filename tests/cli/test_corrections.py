"""Every command corrects through one function, and each correction is the statsmodels one.

Holm and Bonferroni differ whenever the second-smallest p-value is not the largest adjusted one, so
each case below has at least three comparisons where the two corrections give different numbers:
mapping one correction to another anywhere makes a test here fail.
"""
import io
import json

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from simstats.cli import main
from simstats.io.runs import Runs
from simstats.compare import Comparisons, compare_approach_runs, compare_score_distributions, compare_systems
from simstats.stats.competition import analyse_competition
from simstats.stats.metrics import accuracy

STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}


def _check(raw, adjusted, correction):
    raw, adjusted = np.asarray(raw, float), np.asarray(adjusted, float)
    np.testing.assert_allclose(adjusted, multipletests(raw, method=STATSMODELS[correction])[1], rtol=0, atol=1e-15)
    others = [c for c in STATSMODELS if c != correction]
    for other in others:      # the case tells the corrections apart
        assert not np.allclose(adjusted, multipletests(raw, method=STATSMODELS[other])[1]), (correction, other)


def _systems(seed=4, n=400):
    rng = np.random.default_rng(seed)
    correct = (rng.random((5, n)) < np.array([0.80, 0.76, 0.75, 0.73, 0.70])[:, None]).astype(float)
    return [f"s{k}" for k in range(5)], np.stack([correct, np.ones_like(correct)], axis=2)


@pytest.mark.parametrize("correction", list(STATSMODELS))
def test_compare_systems_corrects_as_statsmodels(correction):
    names, stats = _systems()
    out = compare_systems(names, stats, accuracy, n_resamples=2000, comparisons=Comparisons(correction=correction))
    rows = out[out.role == "system"]
    _check(rows.pvalue, rows.pvalue_adjusted, correction)


@pytest.mark.parametrize("correction", list(STATSMODELS))
def test_compare_scores_corrects_as_statsmodels(correction):
    rng = np.random.default_rng(2)
    table = pd.DataFrame({f"s{k}": rng.normal(0.8 - 0.004 * k, 0.01, 8) for k in range(5)})
    out = compare_score_distributions(table, tests=("welch", "mwu"), comparisons=Comparisons(correction=correction))
    rows = out[out.role == "system"]
    for test in ("welch", "mwu"):
        _check(rows[f"pvalue_{test}"], rows[f"pvalue_{test}_adjusted"], correction)


@pytest.mark.parametrize("correction", list(STATSMODELS))
def test_compare_approaches_corrects_as_statsmodels(correction):
    rng = np.random.default_rng(5)
    k, n = 4, 300
    skill = np.repeat([0.80, 0.78, 0.77, 0.75], k)
    correct = (rng.random((4 * k, n)) < (skill + rng.normal(0, 0.01, 4 * k))[:, None]).astype(float)
    stats = np.stack([correct, np.ones_like(correct)], axis=2)
    names = ["A", "B", "C", "D"]
    runs = Runs(names, np.repeat(names, k), np.tile(np.arange(k), 4), stats, accuracy, "long")
    out = compare_approach_runs(runs, comparisons=Comparisons(correction=correction), paired_seeds=False)
    rows = out[out.role == "system"]
    _check(rows.pvalue, rows.pvalue_adjusted, correction)


@pytest.mark.parametrize("correction", list(STATSMODELS))
@pytest.mark.parametrize("scope", ["all", "group"])
def test_competition_corrects_as_statsmodels(correction, scope):
    names, stats = _systems()
    res = analyse_competition(names, stats, accuracy, n_resamples=2000, rng=1, correction=correction, scope=scope)
    decisions = res.decisions()
    pairs = res.pairs(intervals=False)
    families = [pairs.index] if scope == "all" else [g.index for _, g in pairs.groupby("reference", sort=False)]
    big = max(families, key=len)
    _check(decisions.pvalue[big], decisions.pvalue_adjusted[big], correction)
    for family in families:
        np.testing.assert_allclose(decisions.pvalue_adjusted[family],
                                   multipletests(pairs.pvalue[family], method=STATSMODELS[correction])[1])
        np.testing.assert_allclose(pairs[f"pvalue_{correction}"][family], decisions.pvalue_adjusted[family])


def test_the_cli_reports_the_same_corrections(tmp_path, capsys):
    names, stats = _systems()
    gold = np.arange(stats.shape[1]) % 2
    table = pd.DataFrame({"y": gold, **{n: np.where(stats[k, :, 0] == 1, gold, 1 - gold)
                                        for k, n in enumerate(names)}})
    path = tmp_path / "predictions.csv"
    table.to_csv(path, index=False)
    for correction in STATSMODELS:
        assert main(["compare", str(path), "--correction", correction, "--n-resamples", "2000",
                     "--format", "csv"]) == 0
        out = pd.read_csv(io.StringIO(capsys.readouterr().out))
        rows = out[out.role == "system"]
        assert set(out.correction) == {correction}
        _check(rows.pvalue, rows.pvalue_adjusted, correction)
        assert main(["competition", str(path), "--correction", correction, "--n-resamples", "2000",
                     "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        pairs = pd.DataFrame(doc["tables"]["pairs"])
        np.testing.assert_allclose(pairs[f"pvalue_{correction}"],
                                   multipletests(pairs.pvalue, method=STATSMODELS[correction])[1])
        ranks = pd.DataFrame(doc["tables"]["ranks"])
        best = pairs[pairs.reference == ranks.system.iloc[0]]
        adjusted = multipletests(pairs.pvalue, method=STATSMODELS[correction])[1][best.index]
        assert ranks.possible_winner.iloc[1:].tolist() == (adjusted >= 0.05).tolist()
