"""Nava-Muñoz et al. (2024)'s Table 4 marks and matrix, and the named analysis settings (presets)."""
import numpy as np
import pytest

from simstats.stats.competition import CompetitionAnalysis, analyse_competition, competition_settings, presets
from simstats.studies.navamunoz2024.conventions import PRESET as PAPER
from simstats.stats.metrics import accuracy, label_statistics
from simstats.io.competition import difference_matrix, marked_significance, significance_mark


def _toy(seed=3, n=60, m=4):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < acc, gold, 1 - gold) for acc in np.linspace(0.85, 0.6, m)]
    return accuracy, np.stack([label_statistics(accuracy, gold, p) for p in preds])


def test_significance_marks():
    assert [significance_mark(p) for p in (0.0, 0.0009, 0.005, 0.03, 0.07, 0.1, 0.5)] == \
        ["***", "***", "**", "*", "†", "", ""]


def _mark(p: float) -> str:          # the paper's Table 4 legend, written out
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else "†" if p < 0.1 else ""


@pytest.mark.parametrize("correction, scope", [("none", "group"), ("holm", "group"), ("bonferroni", "all")])
def test_difference_matrix_cells_are_the_pairs_difference_and_mark(correction, scope):
    metric, stats = _toy(n=200, m=5)
    analysis = analyse_competition(list("ABCDE"), stats, metric, n_resamples=400, rng=7)
    matrix = difference_matrix(analysis, correction, scope=scope).set_index("system")
    assert matrix.index.tolist() == list("BCDE") and matrix.columns.tolist() == list("ABCD")
    pairs = analysis.pairs(scope=scope, intervals=False)
    marks = set()
    for row in pairs.itertuples(index=False):
        mark = _mark(getattr(row, f"pvalue_{correction}"))
        marks.add(mark)
        assert matrix.loc[row.system, row.reference] == f"{row.difference:.3f} {mark}".strip()
    assert len(marks) > 1                            # the case has marked and unmarked cells
    filled = sum(cell != "" for cell in matrix.to_numpy().ravel())
    assert filled == len(pairs) == 10                # lower triangle only


@pytest.mark.parametrize("marks", ["none", "holm", "bh"])
def test_marked_significance_adds_the_mark_of_the_chosen_correction(marks):
    metric, stats = _toy(n=200, m=5)
    analysis = analyse_competition(list("ABCDE"), stats, metric, n_resamples=400, rng=7, correction=marks)
    plain = analysis.difference_significance(alpha=0.05, scope="all")
    marked = marked_significance(analysis, alpha=0.05, scope="all")
    assert "mark" not in plain.columns
    columns = marked.columns.tolist()
    assert columns == plain.columns.tolist()[:9] + ["mark"] + plain.columns.tolist()[9:]
    assert plain.columns[9] == "significant_none"
    pvalues = marked["pvalue" if marks == "none" else f"pvalue_{marks}"]
    assert marked["mark"].tolist() == [_mark(p) for p in pvalues]
    assert marked.drop(columns="mark").equals(plain)



def test_library_defaults_are_the_recommended_settings_and_the_paper_is_opt_in():
    metric, stats = _toy()
    res = analyse_competition(list("ABCD"), stats, metric, n_resamples=50, rng=1, correction="none")
    assert (res.pvalue_rule, res.alternative, res.correction, res.scope) == ("add-one", "two-sided", "none", "all")
    assert CompetitionAnalysis.__dataclass_fields__["pvalue_rule"].default == "add-one"
    assert PAPER == {"alternative": "greater", "pvalue_rule": "fraction", "correction": "none", "scope": "group"}
    assert set(presets()) == {"recommended", "paper"}          # "paper": registered by the study (entry point)
    assert competition_settings("paper") == PAPER


def test_competition_settings_and_overrides():
    assert competition_settings() == {"alternative": "two-sided", "pvalue_rule": "add-one", "correction": "holm",
                                      "scope": "all"}
    assert competition_settings("recommended", scope="group", correction=None)["scope"] == "group"
    assert competition_settings("paper", correction="holm")["correction"] == "holm"
    with pytest.raises(ValueError, match="preset"):
        competition_settings("default")
    with pytest.raises(ValueError, match="scope"):
        competition_settings("paper", scope="pairs")
    with pytest.raises(ValueError, match="unknown settings"):
        competition_settings("paper", marks="holm")
