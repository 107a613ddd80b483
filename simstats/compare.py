"""Comparing real systems: read predictions or statistics, test against a reference, correct.

Used by ``simstats compare`` and ``simstats compare-scores``; every problem with the
input raises :class:`InputError` with a one-line message naming it.
"""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pandas as pd

from simstats.io.checks import InputError, check_names, not_usable, show_value, usable
from simstats.io.runs import Runs
from simstats.stats import classical, conventions
from simstats.stats.aso import MIN_SCORES as ASO_MIN_SCORES, WARN_SCORES, SmallSampleWarning, aso, aso_methods
from simstats.stats.bootstrap import PAIRED_PVALUE_METHODS, PVALUE_RULES, bootstrap_scores, paired_bootstrap
from simstats.stats.multitest import adjust_pvalues, adjust_tested
from simstats.stats.tolerance import data_scale, negligible
from simstats.stats.analytic import bounded_items, default_item_test
from simstats.stats.renamed import Renamed, renamed
from simstats.stats.results import ALTERNATIVES
from simstats.stats.metrics import (Metric)
from simstats.stats.randomization import randomization_test
from simstats.stats.lazy import lazy_module
from simstats.stats.approaches import (TARGETS, approach_bootstrap, approach_margin_test, approach_t_test)

sps = lazy_module("scipy.stats")

__all__ = ["Comparisons", "compare_systems", "compare_score_distributions", "compare_approach_runs", "score_tests"]



TESTS = ("bootstrap", "randomization", "exact-randomization", "t", "adjusted")


#: The built-in score-distribution tests; wilcoxon pairs the scores by seed id, aso is ASO's eps_min.
SCORE_TESTS = {"welch": classical.welch_t_test, "mwu": classical.mann_whitney_test,
               "wilcoxon": classical.wilcoxon_test, "aso": None}


def score_tests() -> tuple[str, ...]:
    """The tests :func:`compare_score_distributions` offers: the built-in ones (:data:`SCORE_TESTS`) and the
    two-sample tests registered as ``score_tests`` in :mod:`simstats.stats.conventions`.

    Returns
    -------
    tuple of str
        The tests' names, the built-in ones first.

    Examples
    --------
    >>> score_tests()[:4]
    ('welch', 'mwu', 'wilcoxon', 'aso')
    """
    return tuple(SCORE_TESTS) + tuple(n for n in conventions.names("score_tests") if n not in SCORE_TESTS)


def _score_test(name: str):
    return SCORE_TESTS[name] if name in SCORE_TESTS else conventions.get("score_tests", name)




CORRECTIONS = {"none": None, "bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh", "fdr_bh": "fdr_bh"}
#: The corrections the command line offers (``fdr_bh`` is ``bh``'s other spelling).
CORRECTION_CHOICES = ("none", "bonferroni", "holm", "bh")


@dataclasses.dataclass(frozen=True)
class Comparisons:
    """How every system is compared with the reference: shared by :func:`compare_systems`,
    :func:`compare_score_distributions` and :func:`compare_approach_runs`.

    Parameters
    ----------
    reference : str
        The system every other is compared with; "best" (default) picks the best observed score.
    alternative : {"two-sided", "greater", "less"}
        H1 about the reference's improvement over each system; two-sided by default.  With
        ``reference="best"`` the data choose the reference, so "greater" is one-sided in the
        direction the data chose and rejects about 2 alpha of the time under no difference.
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the p-values over the comparisons with the reference.
    confidence_level : float
        Level of the two-sided intervals.
    alpha : float
        Level of the verdicts, where a function states them (:func:`compare_approach_runs`).

    Raises
    ------
    InputError
        An unknown alternative or correction, or a level outside (0, 1).

    Examples
    --------
    >>> Comparisons(correction="holm").correction
    'holm'
    >>> Comparisons(correction="sidak")
    Traceback (most recent call last):
    ...
    simstats.io.checks.InputError: unknown correction 'sidak' (choose from none, bonferroni, holm, bh, fdr_bh)
    """

    reference: str = "best"
    alternative: str = "two-sided"
    correction: str = "none"
    confidence_level: float = 0.95
    alpha: float = 0.05

    def __post_init__(self):
        if self.alternative not in ALTERNATIVES:
            raise InputError(f"unknown alternative {self.alternative!r} (choose from {', '.join(ALTERNATIVES)})")
        if self.correction not in CORRECTIONS:
            raise InputError(f"unknown correction {self.correction!r} (choose from {', '.join(CORRECTIONS)})")
        if not 0 < self.confidence_level < 1:
            raise InputError(f"confidence level must be in (0, 1), got {self.confidence_level}")
        if not 0 < self.alpha < 1:
            raise InputError(f"alpha must be in (0, 1), got {self.alpha}")


DEFAULT_COMPARISONS = Comparisons()


def compare_systems(names, stats, metric: Metric, *, test: str = "bootstrap",
                    comparisons: Comparisons = DEFAULT_COMPARISONS, n_resamples: int = 10_000, rng=0,
                    pvalue_method: str = "shift", pvalue_rule: str = "add-one", clusters=None,
                    seed=Renamed("rng"), convention=Renamed("pvalue_method")) -> pd.DataFrame:
    """Each system against the reference (default: the best by observed score) on one test set.

    Parameters
    ----------
    names : sequence of str
        System names, one per row of ``stats``.
    stats : array (systems, items, k)
        Per-item statistics of ``metric`` (one run per system).
    metric : Metric
        Metric of summed statistics.
    test : {"bootstrap", "randomization", "exact-randomization", "t"}
        Paired bootstrap (:func:`simstats.paired_bootstrap`), approximate randomization, the exact
        stratified randomization test (:func:`simstats.randomization_test`), or the paired t-test
        over items (:func:`simstats.paired_difference`; cluster-robust over ``clusters``, t on C - 1
        degrees of freedom) for a metric that is the mean of per-item values (accuracy, a mean item
        score).  With ``"t"`` the scores' intervals are analytic too: Clopper-Pearson's for a proportion
        (every item 0 or 1, no clusters), else the t interval (:func:`simstats.mean_interval`); the
        intervals of the differences are the paired t-test's.
    comparisons : Comparisons
        The reference (default: the best observed score), the alternative about its improvement
        over each system, the correction over the m - 1 comparisons with it and the level of the
        two-sided intervals of the scores and differences (percentile bootstrap; with ``test="t"``
        Clopper-Pearson's or the t intervals).
    n_resamples : int
        Bootstrap resamples (intervals, and the bootstrap's p-values) or shuffles (randomization).
    rng : int or numpy.random.Generator
        Seed of the resampling (default 0).  With ``pvalue_method="sacrebleu"`` the test's resamples
        come from a fresh generator seeded ``rng``, so ``rng=12345, n_resamples=1000`` gives
        ``sacrebleu --paired-bs``'s p-values.
    pvalue_method : {"shift", "percentile", "sacrebleu"}
        Which bootstrap replicates count as extreme (``test="bootstrap"`` only).
    pvalue_rule : {"add-one", "fraction"}
        (c + 1)/(B + 1), never 0 (default), or c/B (bootstrap, shift and percentile).
    clusters : array (items,), optional
        Cluster (document) id per item: the bootstrap resamples whole clusters; the t-test is
        cluster-robust over them.

    Returns
    -------
    pandas.DataFrame
        One row per system, sorted by score (best first): ``role`` (reference or system), score
        and its interval, ``difference`` (reference minus system, as its improvement for a
        lower-is-better metric) with its interval, ``pvalue`` and ``pvalue_adjusted``.  ``attrs``
        holds the claim and every setting.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, label_statistics
    >>> gold = np.arange(300) % 2
    >>> right = np.random.default_rng(0).random((3, 300)) < [[0.80], [0.78], [0.70]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(r, gold, 1 - gold)) for r in right])
    >>> out = compare_systems(["a", "b", "c"], stats, accuracy, n_resamples=2000,
    ...                       comparisons=Comparisons(correction="holm"))
    >>> print(out[["system", "role", "score", "pvalue_adjusted"]].round(4).to_string(index=False))
    system      role  score  pvalue_adjusted
         b reference 0.8033              NaN
         a    system 0.7367           0.0605
         c    system 0.6800           0.0010
    """
    rng = renamed("compare_systems", "seed", "rng", seed, rng, 0)
    reference, alternative, correction, confidence_level = _settings(comparisons)
    pvalue_method = renamed("compare_systems", "convention", "pvalue_method", convention, pvalue_method, "shift")
    if test not in TESTS:
        raise InputError(f"unknown test {test!r} (choose from {', '.join(TESTS)})")
    if pvalue_method not in PAIRED_PVALUE_METHODS:
        raise InputError(f"unknown p-value method {pvalue_method!r} (choose from {', '.join(PAIRED_PVALUE_METHODS)})")
    if pvalue_method != "shift" and test != "bootstrap":
        raise InputError(f"--pvalue-method {pvalue_method} is a method of --test bootstrap, not of --test {test}")
    if pvalue_method == "sacrebleu" and alternative != "two-sided":
        raise InputError(f"--pvalue-method sacrebleu is two-sided (sacrebleu's paired bootstrap tests |difference|); "
                         f"got --alternative {alternative}")
    if pvalue_rule not in PVALUE_RULES:
        raise InputError(f"unknown p-value rule {pvalue_rule!r} (choose from {', '.join(PVALUE_RULES)})")
    if pvalue_rule != "add-one" and (test != "bootstrap" or pvalue_method == "sacrebleu"):
        raise InputError(f"--pvalue-rule {pvalue_rule} applies to --test bootstrap with --pvalue-method shift or "
                         "percentile (approximate randomization and sacrebleu's method use (c + 1)/(B + 1); the "
                         "exact randomization test counts every arrangement, so its p-value is exact)")
    if clusters is not None and (test not in ("bootstrap", "t") or pvalue_method == "sacrebleu"):
        if test == "adjusted":
            raise InputError("--test adjusted takes the items as independent; with --clusters use --test t "
                             "(cluster-robust) or bootstrap")
        raise InputError(f"--clusters resamples whole clusters in the bootstrap (--test bootstrap, --pvalue-method "
                         f"shift or percentile) or is the cluster-robust t-test's unit (--test t); got --test {test}"
                         + (f" --pvalue-method {pvalue_method}" if test == "bootstrap" else ""))
    names = list(names)
    if test in ("t", "adjusted"):
        return _compare_systems_t(names, stats, metric, reference=reference, correction=correction,
                                  alternative=alternative, confidence_level=confidence_level, clusters=clusters,
                                  adjusted_wald=test == "adjusted")
    scores = metric(stats.sum(axis=1))
    ref = reference_index(names, scores, metric, reference)
    others = [i for i in range(len(names)) if i != ref]
    pairs = [(ref, i) for i in others]
    seed = rng
    rng = np.random.default_rng(seed)
    intervals = bootstrap_scores(stats, metric, n_resamples=n_resamples, rng=rng,
                                 confidence_level=confidence_level, clusters=clusters)
    low, high = intervals.confidence_interval
    if test == "bootstrap":
        res = paired_bootstrap(stats, metric, pairs, n_resamples=n_resamples, alternative=alternative,
                               rng=np.random.default_rng(seed) if pvalue_method == "sacrebleu" else rng,
                               confidence_level=confidence_level, pvalue_method=pvalue_method,
                               pvalue_rule=pvalue_rule, clusters=clusters)
    else:
        boot = paired_bootstrap(stats, metric, pairs, n_resamples=n_resamples, rng=rng, alternative=alternative,
                                confidence_level=confidence_level)
        try:
            res = randomization_test(stats, metric, pairs, method="approximate" if test == "randomization"
                                     else "exact-stratified", n_resamples=n_resamples, rng=rng,
                                     alternative=alternative)
        except ValueError as err:  # too many discordant-item kinds for the exact distribution
            raise InputError(f"--test exact-randomization: {str(err).split('; use ')[0]}; "
                             "use --test randomization (approximate) instead") from None
        res = dataclasses.replace(res, confidence_interval=boot.confidence_interval)
    pvalues = np.asarray(res.pvalue, dtype=float)
    adjusted = adjust_pvalues(pvalues, correction)
    rows = [{"system": names[ref], "role": "reference", "score": scores[ref], "score_ci_low": low[ref],
             "score_ci_high": high[ref], "reference": names[ref], "difference": 0.0, "difference_ci_low": np.nan,
             "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan}]
    for j, i in enumerate(others):
        rows.append({"system": names[i], "role": "system", "score": scores[i], "score_ci_low": low[i],
                     "score_ci_high": high[i], "reference": names[ref], "difference": res.statistic[j],
                     "difference_ci_low": res.confidence_interval.low[j],
                     "difference_ci_high": res.confidence_interval.high[j],
                     "pvalue": pvalues[j], "pvalue_adjusted": adjusted[j]})
    out = sorted_by_score(pd.DataFrame(rows), metric.higher_is_better)
    unit = "clusters" if clusters is not None else "items"
    out.attrs.update(metric=metric.name, test=res.method, correction=correction,
                     correction_scope=comparisons_with_reference(len(others)),
                     n_resamples=n_resamples, seed=seed if isinstance(seed, (int, np.integer)) else None,
                     alternative=alternative, confidence_level=confidence_level,
                     intervals="percentile bootstrap, two-sided",
                     claim=f"these runs differ on the population of test {unit} (one run per system; "
                           "not their training procedures)",
                     clusters=int(len(np.unique(clusters))) if clusters is not None else None)
    if test == "bootstrap":
        out.attrs.update(pvalue_method=pvalue_method,
                         pvalue_rule="add-one" if pvalue_method == "sacrebleu" else pvalue_rule)
    else:
        out.attrs["pvalue_rule"] = "add-one" if test == "randomization" else "exact"
    return out


def item_values(stats: np.ndarray, metric: Metric) -> np.ndarray:
    """(systems, items) per-item values of a metric that is their mean (statistics (value, 1) per item, as
    accuracy and a mean item score have); an :class:`InputError` for any other metric."""
    if metric.ratio_of != (0, 1) or stats.shape[-1] != 2 or not np.all(stats[..., 1] == 1):
        raise InputError(f"--test t compares means of per-item values (accuracy, a mean item score); metric "
                         f"{metric.name} is not one (use --test bootstrap)")
    return stats[..., 0]


def _compare_systems_t(names, stats, metric, *, reference, correction, alternative, confidence_level, clusters,
                       adjusted_wald: bool = False):
    """:func:`compare_systems` with ``test="t"``: analytic intervals and the paired t-test over items or clusters;
    with ``adjusted_wald`` (``test="adjusted"``) the differences by Bonett-Price's adjusted Wald instead."""
    from simstats.stats.analytic import adjusted_paired_difference, paired_difference, score_interval

    values = item_values(stats, metric)
    if adjusted_wald and not bounded_items(values):
        raise InputError("--test adjusted needs item scores in [0, 1] (accuracy, mean item scores of such "
                         "outputs); use --test t")
    scores = values.mean(axis=1)
    ref = reference_index(names, scores, metric, reference)
    n_clusters = int(len(np.unique(clusters))) if clusters is not None else None
    level = confidence_level
    intervals = [score_interval(row, clusters=clusters, confidence_level=level) for row in values]
    exact = [interval.method.startswith("Clopper") for interval in intervals]
    others = [i for i in range(len(names)) if i != ref]
    try:
        # the difference is the reference's improvement: reference minus system, system minus reference for a
        # lower-is-better metric (mae)
        tests = [adjusted_paired_difference(*((values[ref], values[i]) if metric.higher_is_better
                                              else (values[i], values[ref])),
                                            alternative=alternative, confidence_level=level) if adjusted_wald else
                 paired_difference(*((values[ref], values[i]) if metric.higher_is_better else (values[i], values[ref])),
                                   clusters=clusters, alternative=alternative, confidence_level=level)
                 for i in others]
    except ValueError as err:
        raise InputError(f"--test t: {err}") from None
    pvalues = np.array([t.pvalue for t in tests], dtype=float)
    adjusted = adjust_pvalues(pvalues, correction)
    rows = [{"system": names[ref], "role": "reference", "score": scores[ref],
             "score_ci_low": intervals[ref].confidence_interval.low,
             "score_ci_high": intervals[ref].confidence_interval.high, "reference": names[ref], "difference": 0.0,
             "difference_ci_low": np.nan, "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan}]
    for j, i in enumerate(others):
        rows.append({"system": names[i], "role": "system", "score": scores[i],
                     "score_ci_low": intervals[i].confidence_interval.low,
                     "score_ci_high": intervals[i].confidence_interval.high, "reference": names[ref],
                     "difference": tests[j].difference, "difference_ci_low": tests[j].confidence_interval.low,
                     "difference_ci_high": tests[j].confidence_interval.high, "pvalue": pvalues[j],
                     "pvalue_adjusted": adjusted[j]})
    out = sorted_by_score(pd.DataFrame(rows), metric.higher_is_better)
    unit = "clusters" if clusters is not None else "items"
    scores_by = ("Clopper-Pearson intervals (every item scores 0 or 1)" if all(exact) else
                 f"t intervals{' (cluster-robust)' if clusters is not None else ''}" if not any(exact) else
                 "Clopper-Pearson intervals where every item scores 0 or 1, else t intervals")
    over = (f"over {n_clusters} clusters (cluster-robust, C / (C - 1), t on C - 1 df)" if clusters is not None
            else "over items (t on n - 1 df)")
    test_name = ("Bonett-Price adjusted Wald test of the paired difference over items (two pseudo-items of "
                 "difference +1 and -1, normal reference)" if adjusted_wald else f"paired t-test {over}")
    out.attrs.update(metric=metric.name, test=test_name,
                     correction=correction, correction_scope=comparisons_with_reference(len(others)),
                     n_resamples=None, seed=None, alternative=alternative, confidence_level=confidence_level,
                     intervals=f"scores: {scores_by}; differences: "
                               + ("Bonett-Price's adjusted Wald" if adjusted_wald else "the paired t-test's"),
                     claim=f"these runs differ on the population of test {unit} (one run per system; "
                           "not their training procedures)",
                     clusters=n_clusters, pvalue_rule=None)
    return out


def _settings(comparisons: Comparisons) -> tuple[str, str, str, float]:
    if not isinstance(comparisons, Comparisons):
        raise TypeError(f"comparisons must be a Comparisons object, got {type(comparisons).__name__}")
    return comparisons.reference, comparisons.alternative, comparisons.correction, comparisons.confidence_level


def reference_index(names: list, scores, metric: Metric, reference: str) -> int:
    """The index of the reference system: ``reference`` by name, or "best" - the best observed score (the
    lowest for a lower-is-better metric)."""
    if reference == "best":
        return int(np.argmax(scores) if metric.higher_is_better else np.argmin(scores))
    if reference in names:
        return names.index(reference)
    raise InputError(f"reference system {reference!r} not found (systems: {', '.join(names)})")


def comparisons_with_reference(count: int) -> str:
    """The family of a correction over the comparisons with the reference, in words."""
    return f"the {count} comparison{'' if count == 1 else 's'} with the reference"


def sorted_by_score(table: pd.DataFrame, higher_is_better: bool = True, score: str = "score") -> pd.DataFrame:
    """Rows best score first (stable: ties keep their order), the index renumbered; attrs kept."""
    order = np.argsort(-table[score].to_numpy(float) if higher_is_better else table[score].to_numpy(float),
                       kind="stable")
    out = table.iloc[order].reset_index(drop=True)
    out.attrs = dict(table.attrs)
    return out


def _infinite(system, scores: pd.Series) -> None:
    bad = scores[~usable(scores)]
    if len(bad):
        raise InputError(f"system {system!r}: score {bad.iloc[0]} in row {bad.index[0] + 2} {not_usable(bad.iloc[0])}")


def _score_groups(table: pd.DataFrame) -> tuple[dict[str, pd.Series], bool]:
    """Scores per system as Series indexed by seed id, and whether seed ids were given.

    Long tables (columns system, score[, seed]): a ``seed`` column names each run's seed;
    without one, runs are numbered in order and cannot be paired.  Wide tables (one column of
    scores per system): a row is one seed (``seed`` column if present, else the row number)."""
    if {"system", "score"} <= set(table.columns):
        has_seed = "seed" in table.columns
        check_names(table, ("system",), "scores")
        groups = {}
        for s, g in table.groupby("system", sort=False):
            scores = pd.to_numeric(g.score, errors="coerce")
            bad = g.score[scores.isna()]
            if len(bad):
                what = "missing score" if pd.isna(bad.iloc[0]) else f"score {bad.iloc[0]!r}"
                raise InputError(f"system {s!r}: {what} (row {bad.index[0] + 2}) is not a number")
            _infinite(s, scores)
            index = g.seed.to_numpy() if has_seed else np.arange(len(g))
            if has_seed and g.seed.isna().any():
                raise InputError(f"system {s!r}: missing seed (row {g.index[np.flatnonzero(g.seed.isna())[0]] + 2})")
            if has_seed and pd.Index(index).has_duplicates:
                j = int(np.flatnonzero(pd.Index(index).duplicated())[0])
                earlier = int(np.flatnonzero(index == index[j])[0])
                raise InputError(f"system {s!r} has several scores for seed {show_value(index[j])} (rows "
                                 f"{g.index[earlier] + 2} and {g.index[j] + 2})")
            groups[str(s)] = pd.Series(scores.to_numpy(float), index=index)
        return groups, has_seed
    if "system" in table.columns and not pd.api.types.is_numeric_dtype(table.system):
        raise InputError(f"long table: column 'score' not found (a long table has columns system, score and "
                         f"optionally seed; columns: {', '.join(map(str, table.columns))})")
    if "seed" in table.columns:
        missing = np.flatnonzero(table.seed.isna().to_numpy())
        if missing.size:
            raise InputError(f"column 'seed': missing seed (row {missing[0] + 2})")
        repeated = np.flatnonzero(table.seed.duplicated().to_numpy())
        if repeated.size:
            j = int(repeated[0])
            earlier = int(np.flatnonzero((table.seed == table.seed.iloc[j]).to_numpy())[0])
            raise InputError(f"column 'seed': seed {show_value(table.seed.iloc[j])} (row {j + 2}) repeats row "
                             f"{earlier + 2} (a wide table has one row per seed)")
    seeds = table["seed"].to_numpy() if "seed" in table.columns else np.arange(len(table))
    groups = {}
    for c in table.columns:
        if c == "seed":
            continue
        col = pd.to_numeric(table[c], errors="coerce")
        bad = table[c][col.isna() & table[c].notna()]
        if len(bad):
            raise InputError(f"system {c!r}: score {bad.iloc[0]!r} (row {bad.index[0] + 2}) is not a number")
        if col.isna().any():
            raise InputError(f"system {c!r}: missing score in row {int(np.flatnonzero(col.isna())[0]) + 2} "
                             "(a wide table needs one score per system and seed; use a long table for unequal runs)")
        _infinite(c, col)
        groups[str(c)] = pd.Series(col.to_numpy(float), index=seeds)
    return groups, True


def _checked_score_groups(table, tests, min_scores, aso_threshold, aso_method) -> tuple[dict, bool]:
    """The input checks of :func:`compare_score_distributions`; each system's scores, and whether they
    carry seed ids."""
    if min_scores < 2:
        raise InputError(f"the fewest scores a system may have (--min-scores) must be at least 2, got {min_scores}")
    if aso_threshold is not None and not 0 < aso_threshold <= 0.5:
        raise InputError(f"the ASO threshold (--aso-threshold) must be in (0, 0.5], got {aso_threshold}")
    groups, has_seed = _score_groups(table)
    if len(groups) < 2:
        raise InputError(f"need at least two systems to compare, got {len(groups)}")
    if "aso" in tests:
        few = [s for s, v in groups.items() if v.size < ASO_MIN_SCORES]
        if few:
            raise InputError(f"--tests aso needs at least {ASO_MIN_SCORES} scores per system; "
                             f"{', '.join(repr(s) for s in few)} {'has' if len(few) == 1 else 'have'} "
                             f"{', '.join(str(groups[s].size) for s in few)}")
    small = [s for s, v in groups.items() if v.size < min_scores]
    if small:
        raise InputError(f"system(s) {', '.join(map(str, small))} have fewer than {min_scores} scores")
    unknown = [t for t in tests if t not in score_tests()]
    if unknown:
        raise InputError(f"unknown score test(s) {unknown} (choose from {', '.join(score_tests())})")
    if aso_method not in aso_methods():
        raise InputError(f"unknown ASO method {aso_method!r} (choose from {', '.join(aso_methods())})")
    return groups, has_seed


def compare_score_distributions(table: pd.DataFrame, *, tests=("welch", "mwu"),
                                comparisons: Comparisons = DEFAULT_COMPARISONS, min_scores: int = 3,
                                aso_alpha: float = 0.05, aso_threshold: float | None = None, rng: int = 0,
                                aso_method: str = "exact",
                                seed=Renamed("rng")) -> pd.DataFrame:
    """Score distributions (one score per run, e.g. per training seed) of each system vs a reference.

    Parameters
    ----------
    table : pandas.DataFrame
        Long (columns system, score and optionally seed) or wide (one column of scores per
        system, one row per seed, optional seed column).
    tests : sequence of {"welch", "mwu", "wilcoxon", "aso"} or a registered test
        Welch's t-test, Mann-Whitney U (independent runs), Wilcoxon signed-rank (scores paired
        by seed id: an error when a system's seeds differ from the reference's), ASO's eps_min, or
        a two-sample test registered as ``score_tests`` (:func:`score_tests`).
    comparisons : Comparisons
        The reference ("best": the highest mean score), the alternative about its scores against
        each system's, the correction of each test's p-values over the comparisons with it (ASO:
        the level is divided by their number unless "none") and the level of the two-sided Welch
        interval of the difference of means.
    min_scores : int
        Fewest scores a system may have (at least 2; default 3, as the command).
    aso_alpha : float
        1 - confidence level of ASO's eps_min bound.
    aso_threshold : float, optional
        When given, an ``aso_decision`` column: the reference is declared almost stochastically
        larger when eps_min < threshold.  ASO is not a test at level alpha
        (:data:`simstats.stats.aso.NOT_A_TEST`), so no decision is made without a threshold.
    rng : int
        Seed of ASO's bootstrap.
    aso_method : str
        ASO computation: one of :func:`simstats.stats.aso.aso_methods` (the generic ones and those
        registered in :mod:`simstats.stats.conventions`).

    Returns
    -------
    pandas.DataFrame
        One row per system, sorted by mean score (best first): ``role``, n, mean, sd, median,
        min, max, ``difference_mean`` (reference minus system) with its Welch interval, Cohen's d
        (pooled sd), ``pvalue_<test>`` and ``pvalue_<test>_adjusted``, ``eps_min_aso``.
        ``attrs`` holds the claim and every setting.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"system": ["a"] * 5 + ["b"] * 5,
    ...                      "score": [0.80, 0.82, 0.81, 0.79, 0.83, 0.78, 0.80, 0.79, 0.77, 0.81]})
    >>> out = compare_score_distributions(runs)
    >>> print(out[["system", "role", "mean", "pvalue_welch"]].round(4).to_string(index=False))
    system      role  mean  pvalue_welch
         a reference  0.81           NaN
         b    system  0.79        0.0805
    >>> import scipy.stats
    >>> round(float(scipy.stats.ttest_ind(runs.score[:5], runs.score[5:], equal_var=False).pvalue), 4)
    0.0805
    """
    rng = renamed("compare_score_distributions", "seed", "rng", seed, rng, 0)
    reference, alternative, correction, confidence_level = _settings(comparisons)
    seed = rng
    groups, has_seed = _checked_score_groups(table, tests, min_scores, aso_threshold, aso_method)
    names = list(groups)
    means = {s: float(v.mean()) for s, v in groups.items()}
    ref = max(means, key=means.get) if reference == "best" else reference
    if ref not in groups:
        raise InputError(f"reference system {ref!r} not found")
    if "wilcoxon" in tests and not has_seed:
        raise InputError("wilcoxon pairs scores by seed: give a 'seed' column (or a wide table, one row per seed)")
    method = CORRECTIONS[correction]
    rows = []
    aso_comparisons = max(1, len(names) - 1) if method else 1
    tests = list(dict.fromkeys(tests))
    few = [s for s in names if groups[s].size < WARN_SCORES]
    if "aso" in tests and few:
        warnings.warn(f"aso: system(s) {', '.join(map(repr, few))} have fewer than {WARN_SCORES} scores; "
                      "eps_min's bootstrap sd is unreliable", SmallSampleWarning, stacklevel=2)
    r = groups[ref].to_numpy()
    for s in names:
        v = groups[s].to_numpy()
        row = {"system": s, "role": "reference" if s == ref else "system", "n": v.size, "mean": v.mean(),
               "sd": v.std(ddof=1), "median": np.median(v),
               "min": v.min(), "max": v.max(), "reference": ref, "difference_mean": means[ref] - v.mean()}
        if s == ref:
            row.update({"difference_ci_low": np.nan, "difference_ci_high": np.nan, "cohens_d": np.nan})
        else:
            pooled = math.sqrt(((r.size - 1) * r.var(ddof=1) + (v.size - 1) * v.var(ddof=1)) / (r.size + v.size - 2))
            if negligible(pooled, data_scale(r, v)):    # neither varies: no interval, no effect size
                row.update({"difference_ci_low": np.nan, "difference_ci_high": np.nan, "cohens_d": np.nan})
            else:
                ci = sps.ttest_ind(r, v, equal_var=False).confidence_interval(confidence_level)
                row.update({"difference_ci_low": float(ci.low), "difference_ci_high": float(ci.high),
                            "cohens_d": (means[ref] - v.mean()) / pooled})
        for t in tests:
            if s == ref:
                row["eps_min_aso" if t == "aso" else f"pvalue_{t}"] = np.nan
                if t == "aso" and aso_threshold is not None:
                    row["aso_decision"] = "reference"
                continue
            if t == "aso":
                with warnings.catch_warnings():  # warned above, naming the systems
                    warnings.simplefilter("ignore", SmallSampleWarning)
                    res = aso(r, v, confidence_level=1 - aso_alpha, num_comparisons=aso_comparisons,
                              method=aso_method, rng=np.random.default_rng(seed))
                row["eps_min_aso"] = res.statistic
                if aso_threshold is not None:
                    row["aso_decision"] = (f"{ref} almost stochastically larger (eps_min < {aso_threshold:g})"
                                           if res.almost_stochastically_larger(aso_threshold) else
                                           f"not shown (eps_min >= {aso_threshold:g})")
                continue
            if t == "wilcoxon":
                a_seeds, b_seeds = groups[ref].index, groups[s].index
                if set(a_seeds) != set(b_seeds):
                    only = sorted(set(a_seeds) ^ set(b_seeds), key=str)
                    raise InputError(f"wilcoxon pairs scores by seed: {s!r} and {ref!r} have different seeds "
                                     f"({len(only)} unmatched: {', '.join(map(str, only[:5]))}"
                                     f"{', ...' if len(only) > 5 else ''})")
                paired = groups[s].reindex(a_seeds).to_numpy()
                row[f"pvalue_{t}"] = _score_test(t)(r, paired, alternative=alternative).pvalue
                continue
            pvalue = float(_score_test(t)(r, v, alternative=alternative).pvalue)
            if t not in SCORE_TESTS and not 0 <= pvalue <= 1:       # a registered test answers in [0, 1] or not at all
                raise InputError(f"score test {t!r} gave p = {pvalue} for {ref!r} vs {s!r} (not a p-value)")
            row[f"pvalue_{t}"] = pvalue
        rows.append(row)
    out = pd.DataFrame(rows)
    for t in tests:
        if t == "aso":
            continue
        mask = (out.system != ref).to_numpy()
        adjusted = np.full(len(out), np.nan)
        adjusted[mask] = adjust_tested(out.loc[mask, f"pvalue_{t}"].to_numpy(float), correction)
        out[f"pvalue_{t}_adjusted"] = adjusted
    untested = [t for t in tests if t != "aso" and out.loc[(out.system != ref).to_numpy(), f"pvalue_{t}"].isna().any()]
    out = sorted_by_score(out, score="mean")
    out.attrs.update({"note_untested": (f"{', '.join(untested)}: comparisons whose scores do not vary at all "
                                        "(deterministic runs) are not tested: their difference has no run-to-run "
                                        "variance to be judged against (compare their item-level outputs)"
                                        if untested else None),
                      "tests": list(tests), "reference": ref, "alternative": alternative, "correction": correction,
                      "correction_scope": comparisons_with_reference(len(names) - 1) + ", per test",
                      "claim": "the systems' training procedures differ in score over new seeds, on this test set "
                               "(one score per run)",
                      "confidence_level": confidence_level, "difference_ci": "Welch t interval, two-sided",
                      "effect_size": "Cohen's d (pooled sd)", "pairing": "by seed id" if has_seed else "none",
                      **({"aso_alpha": aso_alpha, "aso_method": aso_method, "aso_threshold": aso_threshold,
                          "seed": seed} if "aso" in tests else {})})
    return out


#: --resample choice -> approach_bootstrap's resample= and the claim it supports.
RESAMPLE = {"both": ("seeds", "items"), "items": ("items",), "seeds": ("seeds",)}


CLAIMS = {"both": "new seeds and new test items: the approaches on the population of items (and of seeds)",
          "items": "these trained runs on new test items: these models on the population of items "
                   "(seed variance ignored)",
          "seeds": "new seeds on this test set: the approaches on this test set (item variance ignored)"}


#: What the shift convention counts as "at least as extreme" (d: observed difference, d*: replicate).
SHIFT_RULE = {"greater": "replicates with d* >= 2d", "less": "replicates with d* <= 2d",
              "two-sided": "replicates with |d* - d| >= |d|"}


def _one_seed(runs: Runs, resample: str, test: str = "bootstrap") -> None:
    few = [name for name in runs.names if runs.count(name) < 2]
    if few and test == "t":
        raise InputError(f"approach {few[0]!r} has one seed (run): the approach t-test estimates the seed variance "
                         "and needs at least 2 per approach (give more seeds, or --test bootstrap --resample items "
                         "for these runs on new items)")
    if few and "seeds" in RESAMPLE[resample]:
        raise InputError(f"approach {few[0]!r} has one seed (run): --resample {resample} resamples seeds and needs "
                         "at least 2 per approach (give more seeds, or --resample items for these runs on new items)")


#: Tests of approaches over seeds x items (``compare --test``).
APPROACH_TESTS = ("t", "bootstrap")


def _check_approach_options(test: str, resample: str, variance: str, margin) -> None:
    if variance not in ("moments", "bootstrap"):
        raise InputError(f"--variance must be moments or bootstrap, got {variance!r}")
    if variance != "moments" and test != "t":
        raise InputError("--variance applies to the approach t-test (--test t)")
    if margin is not None and test != "t":
        raise InputError("--margin applies to the approach t-test (--test t)")
    if test not in APPROACH_TESTS:
        raise InputError(f"the approach test must be one of {', '.join(APPROACH_TESTS)}, got {test!r}")
    if resample not in RESAMPLE:
        raise InputError(f"--resample must be one of {', '.join(RESAMPLE)}, got {resample!r}")
    if test == "t" and resample != "both":
        raise InputError(f"--resample {resample} applies to --test bootstrap; the t-test's claim is about new seeds "
                         "and new test items")


def _approach_settings(runs, test, resample, results, compared, comparisons, margin, claim, variance, n_resamples,
                       seed) -> dict:
    """The ``attrs`` of :func:`compare_approach_runs`: the claim, the methods and every setting."""
    correction, alternative, alpha = comparisons.correction, comparisons.alternative, comparisons.alpha
    confidence_level = comparisons.confidence_level
    settings = {}
    common_attrs = dict(metric=runs.metric.name, correction=correction,
                        correction_scope=comparisons_with_reference(compared), alternative=alternative, alpha=alpha,
                        margin=margin, margin_claim=claim if margin is not None else None,
                        confidence_level=confidence_level, items=int(runs.stats.shape[1]),
                        clusters=int(runs.clusters.max() + 1) if runs.clusters is not None else None,
                        difference="reference minus system: difference of the approaches' mean scores over seeds")
    if test == "t":
        settings.update(test="approach t-test (approach_t_test)", claim=CLAIMS["both"], variance_estimate=variance,
                         **({"n_resamples": n_resamples, "seed": seed} if variance == "bootstrap" else {}),
                         target=TARGETS[("items", "seeds")], **common_attrs,
                         pvalue_method="fitted-components reference: the null distribution of difference / se "
                                       "under the fitted variance components (approach_t_test, "
                                       "reference='parametric')",
                         df="Satterthwaite's degrees of freedom of the variance estimate, a summary",
                         intervals="two-sided, from the same reference distribution",
                         variance="estimated variance of the difference over new seeds and new items (method of "
                                  "moments): var_seeds (seed effects), var_items (approach x item effects), "
                                  "var_residual (run x item noise); the three sum to it unless floored")
    else:
        settings.update(test="approach bootstrap (approach_bootstrap)", resample=resample,
                         target=results[0].target if results else "", claim=CLAIMS[resample], pvalue_method="shift",
                         pvalue_rule="add-one", extreme=f"c = {SHIFT_RULE[alternative]}: p = (c + 1)/(B + 1)",
                         n_resamples=n_resamples, seed=seed, **common_attrs,
                         intervals="percentile bootstrap, two-sided",
                         variance="bootstrap variance of the difference: var_seeds (seeds only), var_items (items "
                                  "only), var_residual (the seeds x items variance minus the two; the three sum to "
                                  "it)")
    return settings


def compare_approach_runs(runs: Runs, *, test: str = "t", resample: str = "both",
                          comparisons: Comparisons = DEFAULT_COMPARISONS, n_resamples: int = 10_000, rng: int = 0,
                          paired_seeds=None, margin: float | None = None, claim: str = "non-inferiority",
                          variance: str = "moments", seed=Renamed("rng")) -> pd.DataFrame:
    """Each approach against the reference approach, over new seeds and new test items.

    Parameters
    ----------
    runs : Runs
        The runs of every approach (:func:`runs_from_long`, :func:`runs_from_approaches`).
    test : {"t", "bootstrap"}
        ``"t"``: :func:`simstats.approach_t_test` (the default); ``"bootstrap"``:
        :func:`simstats.approach_bootstrap`, resampling what ``resample`` names.
    resample : {"both", "items", "seeds"}
        What the bootstrap resamples (the t-test's claim is about both).
    comparisons : Comparisons
        The reference approach ("best": the best mean score), the alternative about its
        improvement over each approach, the correction over the comparisons with it, the level of
        the intervals of the differences and ``alpha``, the level of the verdicts.
    n_resamples : int
        Bootstrap resamples (``test="bootstrap"`` or ``variance="bootstrap"``).
    rng : int
        The bootstrap uses ``rng`` (an int seed) in every comparison, as a direct call would.
    paired_seeds : bool, optional
        As in :func:`simstats.approach_t_test`.
    margin : float, optional
        With ``margin`` (t-test only) each row also tests the ``claim`` that the reference is
        non-inferior to the approach (at most ``margin`` worse) or equivalent to it (within
        ``margin``), :func:`simstats.approach_margin_test` at ``comparisons.alpha``: ``claim_pvalue``,
        ``claim_shown``.
    claim : {"non-inferiority", "equivalence"}
        The claim tested with ``margin``.
    variance : {"moments", "bootstrap"}
        ``"bootstrap"`` (t-test only): the variance of the difference from the seeds x items
        bootstrap corrected for the crossed design (``n_resamples``, ``rng``).

    Returns
    -------
    pandas.DataFrame
        One row per approach: runs, mean score over its runs and their sd; for the others, the
        reference's improvement (difference of approach means) with its interval, the p-value,
        the corrected p-value and the variance of the difference by source (``var_seeds``,
        ``var_items``, ``var_residual``); the t-test adds its degrees of freedom (``df``) and
        whether its variance was floored.  The column ``verdict`` states each row's answer in
        words (the difference at ``alpha``, or the claim).  Rows are sorted by score (best
        first), the reference marked in column ``role``; ``attrs`` holds the claim and every
        setting.

    Raises
    ------
    InputError
        If an option is invalid or does not apply to ``test``, the reference is unknown, an
        approach has one run where seeds are resampled (or for the t-test), or a comparison fails.

    Examples
    --------
    Three seeds of each of two approaches on 60 items, seeds paired by position:

    >>> import numpy as np
    >>> import pandas as pd
    >>> from simstats.io.runs import runs_from_approaches
    >>> from simstats.stats.approaches import approach_t_test
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 2, 60)
    >>> table = pd.DataFrame({"gold": gold})
    >>> for name, skill in (("A", 0.85), ("B", 0.75)):
    ...     for seed in (1, 2, 3):
    ...         table[f"{name}{seed}"] = np.where(rng.random(60) < skill, gold, 1 - gold)
    >>> runs = runs_from_approaches(table, "gold", ["A=A1,A2,A3", "B=B1,B2,B3"], paired_by_position=True)
    >>> out = compare_approach_runs(runs)
    >>> print(out[["system", "role", "runs", "score", "difference", "pvalue"]].round(4).to_string(index=False))
    system      role  runs  score  difference  pvalue
         A reference     3 0.7889      0.0000     NaN
         B    system     3 0.7222      0.0667  0.3465

    The difference is that of the mean accuracies, the p-value :func:`simstats.approach_t_test`'s:

    >>> correct = table.iloc[:, 1:].eq(table.gold, axis=0)
    >>> round(float(correct.iloc[:, :3].mean().mean() - correct.iloc[:, 3:].mean().mean()), 4)
    0.0667
    >>> round(approach_t_test(runs.stats, runs.metric, runs.approach, runs.seed).pvalue, 4)
    0.3465
    """
    rng = renamed("compare_approach_runs", "seed", "rng", seed, rng, 0)
    reference, alternative, correction, confidence_level = _settings(comparisons)
    alpha = comparisons.alpha
    seed = rng
    _check_approach_options(test, resample, variance, margin)
    _one_seed(runs, resample, test)
    scores = runs.scores()
    means = {name: float(scores[runs.approach == name].mean()) for name in runs.names}
    if reference == "best":
        pick = max if runs.metric.higher_is_better else min
        ref = pick(runs.names, key=means.get)
    elif reference in runs.names:
        ref = reference
    else:
        raise InputError(f"reference {reference!r} not found (systems: {', '.join(runs.names)})")
    others = [name for name in runs.names if name != ref]
    results, claims = [], []
    for name in others:
        idx = np.flatnonzero((runs.approach == ref) | (runs.approach == name))
        common = dict(approaches=(ref, name), alternative=alternative, confidence_level=confidence_level,
                      paired_seeds=paired_seeds, clusters=runs.clusters)
        try:
            if test == "t":
                how = dict(variance=variance, n_resamples=n_resamples, rng=seed)
                results.append(approach_t_test(runs.stats[idx], runs.metric, runs.approach[idx], runs.seed[idx],
                                               **common, **how))
                if margin is not None:
                    claims.append(approach_margin_test(runs.stats[idx], runs.metric, runs.approach[idx],
                                                       runs.seed[idx], margin=margin, hypothesis=claim, alpha=alpha,
                                                       approaches=(ref, name), paired_seeds=paired_seeds,
                                                       clusters=runs.clusters, **how))
            else:
                results.append(approach_bootstrap(runs.stats[idx], runs.metric, runs.approach[idx], runs.seed[idx],
                                                  resample=RESAMPLE[resample], n_resamples=n_resamples, rng=seed,
                                                  **common))
        except ValueError as err:
            raise InputError(f"{ref} vs {name}: {err}") from None
    adjusted = adjust_pvalues(np.array([r.pvalue for r in results], dtype=float), correction)

    def spread(name):
        s = scores[runs.approach == name]
        if s.size < 2:
            return np.nan
        return 0.0 if negligible(s.std(ddof=1), data_scale(s)) else float(s.std(ddof=1))

    def variance_part(res, source):
        return res.variance["units" if test == "t" and source == "items" else source]

    blank = {"difference_ci_low": np.nan, "difference_ci_high": np.nan, "pvalue": np.nan, "pvalue_adjusted": np.nan,
             **({"df": np.nan} if test == "t" else {}), "var_seeds": np.nan, "var_items": np.nan,
             "var_residual": np.nan, "paired_seeds": np.nan, **({"floored": np.nan} if test == "t" else {}),
             **({"claim_pvalue": np.nan, "claim_shown": np.nan} if claims else {}), "verdict": "reference"}
    rows = [{"system": ref, "role": "reference", "runs": runs.count(ref), "score": means[ref], "score_sd": spread(ref), "reference": ref,
             "difference": 0.0, **blank}]
    for name, res, adj in zip(others, results, adjusted):
        row = {"system": name, "role": "system", "runs": runs.count(name), "score": means[name], "score_sd": spread(name),
               "reference": ref, "difference": res.statistic, "difference_ci_low": res.confidence_interval.low,
               "difference_ci_high": res.confidence_interval.high, "pvalue": res.pvalue,
               "pvalue_adjusted": float(adj)}
        if test == "t":
            row["df"] = res.df
        row.update({f"var_{source}": variance_part(res, source) for source in ("seeds", "items", "residual")})
        row["paired_seeds"] = res.paired_seeds
        if test == "t":
            row["floored"] = res.floored
        if claims:
            c = claims[len(rows) - 1]
            row.update(claim_pvalue=c.pvalue, claim_shown=c.shown, verdict=c.verdict)
        else:
            row["verdict"] = (f"{ref} and {name} differ: adjusted p = {adj:.2g} < {alpha:g}" if adj < alpha else
                              f"{ref} and {name} are not shown to differ: adjusted p = {adj:.2g} >= {alpha:g}")
        rows.append(row)
    out = sorted_by_score(pd.DataFrame(rows), runs.metric.higher_is_better)
    out.attrs.update(_approach_settings(runs, test, resample, results, len(others), comparisons, margin, claim,
                                        variance, n_resamples, seed))
    return out
