"""Classical tests, from scipy and statsmodels, with the inputs system comparisons have.

Paired (valid for two systems on one test set): McNemar / sign test on the discordant
items, Wilcoxon signed-rank and matched-pair t on per-item scores.  Independence-assuming
(Yeh 2000's point: wrong for two systems on one test set, as they are positively
correlated): two-sample t, two-proportion z, chi-square on the 2x2 precision table.
Score distributions over training runs (seeds): Welch t, Mann-Whitney U, Wilcoxon on
matched seeds.  Nothing is re-implemented; these only adapt inputs and outputs.
"""
from __future__ import annotations

import numpy as np

from simstats.stats.results import ClassicalTestResult, check_alternative
from simstats.stats.lazy import lazy_module

stats = lazy_module("scipy.stats")
_contingency_tables = lazy_module("statsmodels.stats.contingency_tables")
_proportion = lazy_module("statsmodels.stats.proportion")


def _vector(x, name: str, min_size: int = 1) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {x.shape}")
    if x.size < min_size:
        raise ValueError(f"{name} needs at least {min_size} values, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return x


def _paired(x, y, min_size=2):
    x, y = _vector(x, "x", min_size), _vector(y, "y", min_size)
    if x.shape != y.shape:
        raise ValueError(f"paired samples must have equal length, got {x.size} and {y.size}")
    return x, y


def mcnemar_test(correct_a, correct_b, *, exact: bool = True) -> ClassicalTestResult:
    """McNemar's test on two systems' per-item correctness (two-sided; exact = binomial)."""
    a, b = _paired(correct_a, correct_b, 1)
    a, b = a.astype(bool), b.astype(bool)
    return mcnemar_counts(int(np.sum(a & ~b)), int(np.sum(~a & b)), exact=exact)


def mcnemar_counts(only_a: int, only_b: int, *, exact: bool = True) -> ClassicalTestResult:
    """McNemar's test from the discordant counts alone (items only A / only B got right)."""
    if min(only_a, only_b) < 0:
        raise ValueError(f"discordant counts must be >= 0, got {only_a} and {only_b}")
    res = _contingency_tables.mcnemar([[0, only_a], [only_b, 0]], exact=exact, correction=not exact)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided",
                               "McNemar (exact binomial)" if exact else "McNemar (chi2)",
                               counts={"only_a": int(only_a), "only_b": int(only_b)})


def sign_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Sign test on per-item score differences (ties dropped): binomial test of #(A > B)."""
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b, 1)
    wins, losses = int(np.sum(a > b)), int(np.sum(a < b))
    if wins + losses == 0:
        return ClassicalTestResult(0, 1.0, alternative, "sign test", counts={"wins": 0, "losses": 0})
    res = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    return ClassicalTestResult(wins, float(res.pvalue), alternative, "sign test",
                               counts={"wins": wins, "losses": losses})


def wilcoxon_test(scores_a, scores_b, *, alternative: str = "two-sided", **kwargs) -> ClassicalTestResult:
    """Wilcoxon signed-rank test on paired scores (per item, or per matched seed)."""
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b)
    if np.all(a == b):
        return ClassicalTestResult(0.0, 1.0, alternative, "Wilcoxon signed-rank")
    res = stats.wilcoxon(a, b, alternative=alternative, **kwargs)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "Wilcoxon signed-rank")


def paired_t_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Matched-pair t test on per-item scores."""
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b)
    if np.all(a - b == (a - b)[0]):
        same = bool(np.all(a == b))
        return ClassicalTestResult(0.0 if same else np.sign((a - b)[0]) * np.inf, 1.0 if same else float("nan"),
                                   alternative, "matched-pair t", df=a.size - 1)
    res = stats.ttest_rel(a, b, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "matched-pair t",
                               df=float(res.df))


def two_sample_t_test(scores_a, scores_b, *, alternative: str = "two-sided", equal_var: bool = True) -> ClassicalTestResult:
    """Two-sample t test, treating the two samples as independent (Welch if equal_var=False)."""
    check_alternative(alternative)
    a, b = _vector(scores_a, "scores_a", 2), _vector(scores_b, "scores_b", 2)
    res = stats.ttest_ind(a, b, equal_var=equal_var, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative,
                               "Welch t" if not equal_var else "two-sample t", df=float(res.df))


def welch_t_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Welch's t test on two score distributions (Reimers & Gurevych's Evaluation 3)."""
    return two_sample_t_test(scores_a, scores_b, alternative=alternative, equal_var=False)


def mann_whitney_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Mann-Whitney U test on two independent score distributions (Evaluation 4)."""
    check_alternative(alternative)
    a, b = _vector(scores_a, "scores_a", 1), _vector(scores_b, "scores_b", 1)
    res = stats.mannwhitneyu(a, b, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "Mann-Whitney U")


def two_proportion_z_test(count_a: int, n_a: int, count_b: int, n_b: int, *, alternative: str = "two-sided"
                          ) -> ClassicalTestResult:
    """Two-proportion z test (pooled variance), assuming independent samples."""
    check_alternative(alternative)
    alt = {"greater": "larger", "less": "smaller", "two-sided": "two-sided"}[alternative]
    if min(n_a, n_b) < 1:
        raise ValueError("both proportions need at least one trial")
    z, p = _proportion.proportions_ztest([count_a, count_b], [n_a, n_b], alternative=alt)
    return ClassicalTestResult(float(z), float(p), alternative, "two-proportion z")


def precision_chi2_test(recalled_a: int, spurious_a: int, recalled_b: int, spurious_b: int) -> ClassicalTestResult:
    """Chi-square (no continuity correction) on the 2x2 table of correct/spurious responses."""
    table = np.array([[recalled_a, spurious_a], [recalled_b, spurious_b]], dtype=float)
    res = stats.chi2_contingency(table, correction=False)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided",
                               "chi-square 2x2 (precision, no Yates)", df=int(res.dof))
