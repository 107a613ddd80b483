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
from simstats.stats.tolerance import data_scale, negligible

stats = lazy_module("scipy.stats")
_contingency_tables = lazy_module("statsmodels.stats.contingency_tables")
_proportion = lazy_module("statsmodels.stats.proportion")

__all__ = ["mcnemar_test", "mcnemar_counts", "sign_test", "wilcoxon_test", "paired_t_test", "two_sample_t_test",
           "welch_t_test", "mann_whitney_test", "two_proportion_z_test", "precision_chi2_test"]


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
    """McNemar's test of two systems' accuracy on the same test items.

    Only the discordant items count: those system A gets right and B wrong, and those B gets
    right and A wrong.  Under the null hypothesis of equal accuracy each discordant item is
    equally likely to fall either way.  This is the paired test for two classifiers scored on
    one test set; the items both systems get right (or wrong) carry no information about
    which one is better.

    Parameters
    ----------
    correct_a, correct_b : array_like of bool, shape (n,)
        Per-item correctness of system A and system B on the same ``n`` items (1/0 or
        True/False, item i of both arrays is the same item).
    exact : bool, optional
        True (default): the exact binomial test of the discordant counts.  False: the
        chi-square statistic with continuity correction, (|b - c| - 1)^2 / (b + c) on 1 degree
        of freedom.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (for the exact test the smaller discordant count, else chi-square),
        two-sided ``pvalue``, ``method`` and ``counts`` (``only_a``, ``only_b``).

    Raises
    ------
    ValueError
        If the arrays are not one-dimensional, have different lengths, are empty or contain
        NaN.

    See Also
    --------
    mcnemar_counts : the same test from the two discordant counts.
    sign_test : the same binomial test on per-item scores, with one-sided alternatives.

    Notes
    -----
    The computation is statsmodels' ``mcnemar`` on the 2x2 table of discordant counts.  The
    exact test is the two-sided binomial test of ``only_a`` successes in ``only_a + only_b``
    trials with probability 1/2.

    Examples
    --------
    Two systems whose errors share the items' difficulty:

    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import mcnemar_test
    >>> rng = np.random.default_rng(0)
    >>> easy = rng.random(300)
    >>> correct_a = easy + rng.normal(0, 0.1, 300) > 0.25
    >>> correct_b = easy + rng.normal(0, 0.1, 300) > 0.30
    >>> res = mcnemar_test(correct_a, correct_b)
    >>> res.counts
    {'only_a': 20, 'only_b': 6}
    >>> round(res.pvalue, 4)
    0.0094

    The exact test is the binomial test of the discordant counts:

    >>> round(float(stats.binomtest(20, 26, 0.5).pvalue), 4)
    0.0094
    """
    a, b = _paired(correct_a, correct_b, 1)
    a, b = a.astype(bool), b.astype(bool)
    return mcnemar_counts(int(np.sum(a & ~b)), int(np.sum(~a & b)), exact=exact)


def mcnemar_counts(only_a: int, only_b: int, *, exact: bool = True) -> ClassicalTestResult:
    """McNemar's test from the discordant counts alone.

    Use it when only the summary counts are known, e.g. from a paper's contingency table.

    Parameters
    ----------
    only_a : int
        Number of items system A gets right and system B gets wrong.
    only_b : int
        Number of items system B gets right and system A gets wrong.
    exact : bool, optional
        True (default): exact binomial test; False: chi-square with continuity correction.

    Returns
    -------
    ClassicalTestResult
        ``statistic``, two-sided ``pvalue``, ``method`` and ``counts`` (``only_a``,
        ``only_b``).

    Raises
    ------
    ValueError
        If a count is negative.

    See Also
    --------
    mcnemar_test : the same test from per-item correctness.

    Examples
    --------
    >>> from scipy import stats
    >>> from simstats.stats.classical import mcnemar_counts
    >>> res = mcnemar_counts(30, 14)
    >>> res.method, round(res.pvalue, 4)
    ('McNemar (exact binomial)', 0.0226)
    >>> round(float(stats.binomtest(30, 44, 0.5).pvalue), 4)
    0.0226

    The chi-square version with continuity correction, (|30 - 14| - 1)^2 / 44:

    >>> res = mcnemar_counts(30, 14, exact=False)
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (5.1136, 0.0237)
    >>> round(float(stats.chi2.sf(15**2 / 44, 1)), 4)
    0.0237
    """
    if min(only_a, only_b) < 0:
        raise ValueError(f"discordant counts must be >= 0, got {only_a} and {only_b}")
    if only_a + only_b == 0:           # no item tells the systems apart: nothing against the null
        return ClassicalTestResult(0.0, 1.0, "two-sided", "McNemar (exact binomial)" if exact else "McNemar (chi2)",
                                   counts={"only_a": 0, "only_b": 0})
    res = _contingency_tables.mcnemar([[0, only_a], [only_b, 0]], exact=exact, correction=not exact)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided",
                               "McNemar (exact binomial)" if exact else "McNemar (chi2)",
                               counts={"only_a": int(only_a), "only_b": int(only_b)})


def sign_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Sign test of paired per-item scores.

    Counts the items on which A scores higher than B (wins) and lower (losses); ties are
    dropped.  Under the null hypothesis a non-tied item is a win with probability 1/2, so the
    number of wins is binomial.  On 0/1 correctness this is McNemar's exact test.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n,)
        Per-item scores of system A and system B on the same items.
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A wins more often than it loses.  Default 'two-sided'.

    Returns
    -------
    ClassicalTestResult
        ``statistic``: the number of wins; ``pvalue``; ``counts`` (``wins``, ``losses``).
        If every item is tied the statistic is 0 and the p-value 1.

    Raises
    ------
    ValueError
        If the inputs are not one-dimensional, differ in length, are empty or contain NaN,
        or ``alternative`` is unknown.

    See Also
    --------
    wilcoxon_test : also uses the size of the differences.
    mcnemar_test : the two-sided sign test on per-item correctness.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import sign_test
    >>> rng = np.random.default_rng(1)
    >>> a = rng.normal(0.62, 0.10, 40)
    >>> b = a - 0.01 + rng.normal(0, 0.05, 40)
    >>> res = sign_test(a, b)
    >>> res.counts, round(res.pvalue, 4)
    ({'wins': 26, 'losses': 14}, 0.0807)
    >>> round(float(stats.binomtest(26, 40, 0.5).pvalue), 4)
    0.0807
    """
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b, 1)
    wins, losses = int(np.sum(a > b)), int(np.sum(a < b))
    if wins + losses == 0:
        return ClassicalTestResult(0, 1.0, alternative, "sign test", counts={"wins": 0, "losses": 0})
    res = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
    return ClassicalTestResult(wins, float(res.pvalue), alternative, "sign test",
                               counts={"wins": wins, "losses": losses})


def wilcoxon_test(scores_a, scores_b, *, alternative: str = "two-sided", **kwargs) -> ClassicalTestResult:
    """Wilcoxon signed-rank test of paired scores.

    For per-item scores of two systems on one test set, or for the scores of two approaches
    trained with the same (matched) seeds.  The test ranks the absolute differences and
    compares the rank sums of the positive and negative differences.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n,)
        Paired scores of A and B (at least 2 pairs).
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A's scores tend to be higher.  Default 'two-sided'.
    **kwargs
        Passed on to ``scipy.stats.wilcoxon`` (e.g. ``zero_method``, ``method``).

    Returns
    -------
    ClassicalTestResult
        ``statistic`` and ``pvalue`` of ``scipy.stats.wilcoxon``.  If all pairs are equal the
        statistic is 0 and the p-value 1, without calling scipy.

    Raises
    ------
    ValueError
        If the inputs are not one-dimensional, differ in length, have fewer than 2 values or
        contain NaN, or ``alternative`` is unknown.

    See Also
    --------
    sign_test, paired_t_test

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import wilcoxon_test
    >>> rng = np.random.default_rng(1)
    >>> a = rng.normal(0.62, 0.10, 40)
    >>> b = a - 0.01 + rng.normal(0, 0.05, 40)
    >>> res = wilcoxon_test(a, b)
    >>> res.statistic, round(res.pvalue, 4)
    (223.0, 0.0111)

    The two-sided statistic is the smaller of the two signed rank sums:

    >>> d = a - b
    >>> ranks = stats.rankdata(np.abs(d))
    >>> float(ranks[d < 0].sum()), float(ranks[d > 0].sum())
    (223.0, 597.0)
    """
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b)
    if np.all(a == b):
        return ClassicalTestResult(0.0, 1.0, alternative, "Wilcoxon signed-rank")
    res = stats.wilcoxon(a, b, alternative=alternative, **kwargs)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "Wilcoxon signed-rank")


def paired_t_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Matched-pair t test of paired scores.

    The one-sample t test of the per-pair differences ``scores_a - scores_b`` against 0, on
    n - 1 degrees of freedom.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n,)
        Paired scores of A and B (at least 2 pairs), e.g. per-item scores on one test set.
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': the mean difference A - B is positive.  Default 'two-sided'.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (t), ``pvalue`` and ``df``.  If all differences are equal up to rounding
        (:mod:`simstats.stats.tolerance`) the t-test has no variance: identical scores get t = 0 and
        p = 1; a constant non-zero difference gets the exact sign test's p-value (scipy's
        ``binomtest``; the statistic is NaN), as its ``method`` says.

    Raises
    ------
    ValueError
        If the inputs are not one-dimensional, differ in length, have fewer than 2 values or
        contain NaN, or ``alternative`` is unknown.

    See Also
    --------
    two_sample_t_test : the same means tested as if the samples were independent.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.classical import paired_t_test
    >>> rng = np.random.default_rng(1)
    >>> a = rng.normal(0.62, 0.10, 40)
    >>> b = a - 0.01 + rng.normal(0, 0.05, 40)
    >>> res = paired_t_test(a, b)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (2.9426, 0.0055, 39.0)

    The statistic by hand, mean difference over its standard error:

    >>> d = a - b
    >>> round(float(d.mean() / (d.std(ddof=1) / np.sqrt(d.size))), 4)
    2.9426
    """
    check_alternative(alternative)
    a, b = _paired(scores_a, scores_b)
    d = a - b
    scale = data_scale(a, b)
    if negligible(d.std(ddof=1), scale):     # every difference the same (up to rounding): no variance
        if negligible(d.mean(), scale):
            return ClassicalTestResult(0.0, 1.0, alternative, "matched-pair t; every pair identical: p = 1",
                                       df=a.size - 1)
        sign = sign_test(a, b, alternative=alternative)
        return ClassicalTestResult(float("nan"), float(sign.pvalue), alternative,
                                   "exact sign test (every difference the same, so the t-test has no variance)",
                                   df=a.size - 1)
    res = stats.ttest_rel(a, b, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "matched-pair t",
                               df=float(res.df))


def two_sample_t_test(scores_a, scores_b, *, alternative: str = "two-sided", equal_var: bool = True) -> ClassicalTestResult:
    """Two-sample t test of two independent samples.

    With ``equal_var=True`` (default) Student's t test with the pooled variance, else Welch's
    test.  Yeh (2000) points out that for two systems on one test set the samples are not
    independent (the systems' scores are positively correlated), so that this test is wrong
    there; use :func:`paired_t_test` instead.  For score distributions over independent
    training runs it is the appropriate setting.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A and of B (at least 2 each; the lengths may differ).
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A's mean is higher.  Default 'two-sided'.
    equal_var : bool, optional
        True: pooled variance (Student); False: Welch's unequal-variance test.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (t), ``pvalue``, ``df`` and ``method`` ('two-sample t' or 'Welch t').  When
        neither sample varies (up to rounding, :mod:`simstats.stats.tolerance`) there is no variance
        to test against: equal scores get t = 0 and p = 1, different ones are not tested (statistic,
        p-value and df NaN; the ``method`` says so) rather than given a p-value made of rounding
        residue.

    Raises
    ------
    ValueError
        If a sample is not one-dimensional, has fewer than 2 values or contains NaN, or
        ``alternative`` is unknown.

    See Also
    --------
    welch_t_test, paired_t_test

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import two_sample_t_test
    >>> rng = np.random.default_rng(2)
    >>> a = rng.normal(0.80, 0.010, 10)
    >>> b = rng.normal(0.79, 0.020, 10)
    >>> res = two_sample_t_test(a, b)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (2.2063, 0.0406, 18.0)

    The pooled-variance t by hand:

    >>> pooled = np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    >>> t = (a.mean() - b.mean()) / (pooled * np.sqrt(2 / 10))
    >>> round(float(t), 4), round(float(2 * stats.t.sf(t, 18)), 4)
    (2.2063, 0.0406)
    """
    check_alternative(alternative)
    a, b = _vector(scores_a, "scores_a", 2), _vector(scores_b, "scores_b", 2)
    name = "Welch t" if not equal_var else "two-sample t"
    scale = data_scale(a, b)
    if negligible(a.std(ddof=1), scale) and negligible(b.std(ddof=1), scale):   # neither sample varies
        if negligible(a.mean() - b.mean(), scale):
            return ClassicalTestResult(0.0, 1.0, alternative, f"{name}; every score the same: p = 1",
                                       df=float(a.size + b.size - 2))
        return ClassicalTestResult(float("nan"), float("nan"), alternative,
                                   f"{name}; not tested: neither sample varies, so the difference has no variance "
                                   "to be judged against", df=float("nan"))
    res = stats.ttest_ind(a, b, equal_var=equal_var, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, name, df=float(res.df))


def welch_t_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Welch's t test of two independent score distributions.

    The test Reimers & Gurevych (2018) use in their Evaluation 3 to compare the scores of two
    approaches over several training runs (seeds): a two-sample t test that does not assume
    equal variances, with Welch-Satterthwaite degrees of freedom.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A's runs and of B's runs (at least 2 each).
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A's mean is higher.  Default 'two-sided'.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (t), ``pvalue``, ``df`` (Welch-Satterthwaite, not an integer).

    Raises
    ------
    ValueError
        As :func:`two_sample_t_test`.

    See Also
    --------
    two_sample_t_test : the pooled-variance version.
    mann_whitney_test : a rank test of the same setting.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import welch_t_test
    >>> rng = np.random.default_rng(3)
    >>> a = rng.normal(0.80, 0.005, 12)
    >>> b = rng.normal(0.79, 0.020, 6)
    >>> res = welch_t_test(a, b)
    >>> round(res.statistic, 4), round(res.pvalue, 4), round(res.df, 4)
    (3.4991, 0.0079, 8.0922)

    The statistic and the degrees of freedom by hand:

    >>> va, vb = a.var(ddof=1) / 12, b.var(ddof=1) / 6
    >>> t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    >>> df = (va + vb) ** 2 / (va**2 / 11 + vb**2 / 5)
    >>> round(float(t), 4), round(float(df), 4), round(float(2 * stats.t.sf(t, df)), 4)
    (3.4991, 8.0922, 0.0079)
    """
    return two_sample_t_test(scores_a, scores_b, alternative=alternative, equal_var=False)


def mann_whitney_test(scores_a, scores_b, *, alternative: str = "two-sided") -> ClassicalTestResult:
    """Mann-Whitney U test of two independent score distributions.

    A rank test of whether one approach's scores tend to be higher than the other's (Reimers
    & Gurevych 2018's Evaluation 4), without assuming normal scores.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Scores of A's runs and of B's runs (at least 1 each).
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A's scores tend to be higher.  Default 'two-sided'.

    Returns
    -------
    ClassicalTestResult
        ``statistic``: U of sample A, the number of pairs (a, b) with a > b plus half the ties;
        ``pvalue`` from ``scipy.stats.mannwhitneyu``.

    Raises
    ------
    ValueError
        If a sample is not one-dimensional, is empty or contains NaN, or ``alternative`` is
        unknown.

    See Also
    --------
    welch_t_test

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.classical import mann_whitney_test
    >>> rng = np.random.default_rng(2)
    >>> a = rng.normal(0.80, 0.010, 10)
    >>> b = rng.normal(0.79, 0.020, 10)
    >>> res = mann_whitney_test(a, b)
    >>> res.statistic, round(res.pvalue, 4)
    (77.0, 0.0452)

    U counts the pairs in which A's score is higher:

    >>> int(np.sum(a[:, None] > b[None, :]))
    77
    """
    check_alternative(alternative)
    a, b = _vector(scores_a, "scores_a", 1), _vector(scores_b, "scores_b", 1)
    res = stats.mannwhitneyu(a, b, alternative=alternative)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), alternative, "Mann-Whitney U")


def two_proportion_z_test(count_a: int, n_a: int, count_b: int, n_b: int, *, alternative: str = "two-sided"
                          ) -> ClassicalTestResult:
    """Two-proportion z test with pooled variance, assuming independent samples.

    Compares two rates, e.g. two systems' accuracies, as if they came from independent samples.
    For two systems evaluated on the same test items that assumption fails (Yeh 2000) and
    :func:`mcnemar_test` is the appropriate test.

    Parameters
    ----------
    count_a, count_b : int
        Successes (e.g. correct items) of A and of B.
    n_a, n_b : int
        Trials (items) of A and of B, at least 1 each.
    alternative : {'two-sided', 'greater', 'less'}, optional
        'greater': A's rate is higher.  Default 'two-sided'.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (z) and ``pvalue`` of statsmodels' ``proportions_ztest``.

    Raises
    ------
    ValueError
        If ``n_a`` or ``n_b`` is below 1, or ``alternative`` is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from simstats.stats.classical import two_proportion_z_test
    >>> res = two_proportion_z_test(170, 200, 155, 200)
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (1.9215, 0.0547)

    The pooled z by hand:

    >>> p = (170 + 155) / 400
    >>> z = (170 / 200 - 155 / 200) / np.sqrt(p * (1 - p) * (1 / 200 + 1 / 200))
    >>> round(float(z), 4), round(float(2 * stats.norm.sf(z)), 4)
    (1.9215, 0.0547)
    """
    check_alternative(alternative)
    alt = {"greater": "larger", "less": "smaller", "two-sided": "two-sided"}[alternative]
    if min(n_a, n_b) < 1:
        raise ValueError("both proportions need at least one trial")
    for count, n, name in ((count_a, n_a, "a"), (count_b, n_b, "b")):
        if not 0 <= count <= n:
            raise ValueError(f"count_{name} must be between 0 and n_{name} = {n}, got {count}")
    z, p = _proportion.proportions_ztest([count_a, count_b], [n_a, n_b], alternative=alt)
    return ClassicalTestResult(float(z), float(p), alternative, "two-proportion z")


def precision_chi2_test(recalled_a: int, spurious_a: int, recalled_b: int, spurious_b: int) -> ClassicalTestResult:
    """Chi-square test of the 2x2 table of correct and spurious responses of two systems.

    Compares two systems' precision as the test of independence of the table
    [[recalled_a, spurious_a], [recalled_b, spurious_b]], without continuity correction.  Like
    :func:`two_proportion_z_test` it treats the two systems' responses as independent samples.

    Parameters
    ----------
    recalled_a, spurious_a : int
        A's correct (recalled) and spurious responses.
    recalled_b, spurious_b : int
        B's correct and spurious responses.

    Returns
    -------
    ClassicalTestResult
        ``statistic`` (chi-square), two-sided ``pvalue`` and ``df`` (1).

    Raises
    ------
    ValueError
        If a count is negative, or a row or column of the table sums to 0 (no chi-square then).

    Examples
    --------
    >>> from scipy import stats
    >>> from simstats.stats.classical import precision_chi2_test
    >>> res = precision_chi2_test(80, 20, 60, 30)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (4.3429, 0.0372, 1)

    The 2x2 chi-square by hand, n (ad - bc)^2 / (row and column sums):

    >>> a, b, c, d = 80, 20, 60, 30
    >>> chi2 = 190 * (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
    >>> round(chi2, 4), round(float(stats.chi2.sf(chi2, 1)), 4)
    (4.3429, 0.0372)
    """
    table = np.array([[recalled_a, spurious_a], [recalled_b, spurious_b]], dtype=float)
    if (table < 0).any():
        raise ValueError(f"counts must be >= 0, got recalled/spurious {table.astype(int).tolist()}")
    if (table.sum(axis=0) == 0).any() or (table.sum(axis=1) == 0).any():
        raise ValueError(f"a row or column of the 2x2 table {table.astype(int).tolist()} sums to 0: the chi-square "
                         "test is not defined")
    res = stats.chi2_contingency(table, correction=False)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided",
                               "chi-square 2x2 (precision, no Yates)", df=int(res.dof))
