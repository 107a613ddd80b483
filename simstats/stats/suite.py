"""Many models over a suite of tasks: rank-based tests across tasks (Demšar 2006).

A suite's scores are a (models, tasks) matrix, one score per model and task.  Across tasks the
scores of different tasks are not comparable, so the tests work on ranks within each task:

* :func:`average_ranks` - each model's rank within every task (1 = best, ties averaged), averaged
  over the tasks;
* :func:`friedman_test` - do the models differ at all? (scipy's ``friedmanchisquare``: models as
  treatments, tasks as blocks);
* :func:`nemenyi_test` - which pairs differ: the critical difference of average ranks and every
  pair's p-value from the studentized range distribution (scipy's ``studentized_range``);
* :func:`wilcoxon_holm` - every pair's Wilcoxon signed-rank test over the tasks (scipy's
  ``wilcoxon``), Holm-corrected over the pairs (statsmodels).

The claim of these is about tasks: "on tasks like these", the tasks drawn from a population of
tasks, each model's score on a task taken as exact.  With several runs (seeds) per model and task,
a (runs, tasks) matrix per model:

* :func:`interquartile_mean` - the 25 % trimmed mean of all runs on all tasks (Agarwal et al. 2021);
* :func:`probability_of_improvement` - per task the probability that a run of X scores above a run of
  Y (ties count half: the Mann-Whitney U statistic over the runs' pairs), averaged over the tasks;
* :func:`stratified_bootstrap` - a percentile interval of any such aggregate, the runs resampled
  within each task ("on these tasks", over new runs).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.stats.lazy import lazy_module
from simstats.stats.multitest import adjust_pvalues, adjust_tested
from simstats.stats.resample import ItemIndices
from simstats.stats.results import ClassicalTestResult
from simstats.stats.tolerance import data_scale, negligible, tied_scores

sps = lazy_module("scipy.stats")

__all__ = ["average_ranks", "friedman_test", "NemenyiResult", "nemenyi_test", "PairwiseResult", "wilcoxon_holm",
           "interquartile_mean", "probability_of_improvement", "stratified_bootstrap",
           "TaskComparisonResult", "compare_within_tasks", "SCOPES", "SuiteMeanResult", "suite_mean"]


def _scores(scores) -> np.ndarray:
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"scores must be a (models, tasks) matrix, got shape {x.shape}")
    models, tasks = x.shape
    if models < 2 or tasks < 2:
        raise ValueError(f"a suite needs at least 2 models and 2 tasks, got {models} models and {tasks} tasks")
    if not np.all(np.isfinite(x)):
        model, task = np.argwhere(~np.isfinite(x))[0]
        raise ValueError(f"score of model {model} on task {task} is {x[model, task]}, not a finite number")
    return tied_scores(x, axis=0)  # scores of a task equal up to rounding are tied, whatever the input's shape


def average_ranks(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Each model's rank within every task (1 = best, ties get their average rank), averaged over the tasks.

    Parameters
    ----------
    scores : array_like
        (models, tasks) scores.
    higher_is_better : bool
        Whether a higher score is better (default) or a lower one (an error rate).

    Returns
    -------
    numpy.ndarray
        (models,) average ranks; they sum to models (models + 1) / 2.

    Examples
    --------
    >>> average_ranks([[0.9, 0.8, 0.7], [0.8, 0.8, 0.6], [0.5, 0.9, 0.9]]).tolist()
    [1.8333333333333333, 2.5, 1.6666666666666667]
    """
    x = _scores(scores)
    return sps.rankdata(-x if higher_is_better else x, axis=0).mean(axis=1)


def friedman_test(scores) -> ClassicalTestResult:
    """Friedman's test that all models have the same distribution of ranks over the tasks.

    Parameters
    ----------
    scores : array_like
        (models, tasks) scores; at least 3 models (scipy's requirement).

    Returns
    -------
    ClassicalTestResult
        The chi-square statistic (with scipy's tie correction) and its p-value.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> scores = rng.normal(size=(4, 20)) + np.array([[0.0], [0.0], [0.5], [1.0]])
    >>> res = friedman_test(scores)
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 5)
    (19.74, 0.00019)
    """
    x = _scores(scores)
    if x.shape[0] < 3:
        raise ValueError(f"Friedman's test needs at least 3 models, got {x.shape[0]} (use wilcoxon_holm for 2)")
    method = f"Friedman test over {x.shape[1]} tasks (scipy.stats.friedmanchisquare)"
    if np.all(np.ptp(x, axis=0) == 0):
        # every model ties on every task: every permutation of the ranks within tasks gives the same ranks, so
        # the exact permutation test has statistic 0 and p = 1 (scipy's tie correction divides 0 by 0)
        return ClassicalTestResult(0.0, 1.0, "two-sided", f"{method}; every model ties on every task, so the "
                                   "exact p = 1")
    res = sps.friedmanchisquare(*x)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided", method)


@dataclass(frozen=True)
class NemenyiResult:
    """Nemenyi's post-hoc comparison of average ranks (:func:`nemenyi_test`).

    Attributes
    ----------
    average_ranks : numpy.ndarray
        (models,) average ranks (1 = best).
    critical_difference : float
        Two models differ at ``alpha`` when their average ranks differ by more than this.
    pvalues : numpy.ndarray
        (models, models) p-values of every pair (1 on the diagonal; where scipy's studentized range
        underflows to 0, the union bound k (k - 1) P(Z > z), an upper bound, never 0).
    alpha : float
        The level of ``critical_difference``.
    tasks : int
        The number of tasks.
    method : str
        The computation, in words.

    Examples
    --------
    >>> res = nemenyi_test([[0.9, 0.8, 0.7, 0.9], [0.5, 0.6, 0.4, 0.5]])
    >>> res.average_ranks.tolist(), res.different().tolist()
    ([1.0, 2.0], [[False, True], [True, False]])
    """

    average_ranks: np.ndarray
    critical_difference: float
    pvalues: np.ndarray
    alpha: float
    tasks: int
    method: str = "Nemenyi test of average ranks (studentized range, infinite df)"

    def different(self) -> np.ndarray:
        """(models, models) booleans: the average ranks differ by more than the critical difference."""
        gap = np.abs(self.average_ranks[:, None] - self.average_ranks[None, :])
        return gap > self.critical_difference


def nemenyi_test(scores, *, alpha: float = 0.05, higher_is_better: bool = True) -> NemenyiResult:
    """Nemenyi's test: every pair of models compared by their average ranks over the tasks.

    With k models and N tasks the standard error of a difference of average ranks is
    sqrt(k (k + 1) / (6 N)); a difference divided by it, times sqrt(2), follows the studentized range
    of k means with infinite degrees of freedom under the null hypothesis.  The critical difference
    is q_alpha sqrt(k (k + 1) / (6 N)) with q_alpha the range's 1 - alpha quantile over sqrt(2).

    Parameters
    ----------
    scores : array_like
        (models, tasks) scores.
    alpha : float
        Level of the critical difference.
    higher_is_better : bool
        Whether a higher score is better.

    Returns
    -------
    NemenyiResult

    Examples
    --------
    >>> res = nemenyi_test([[0.9, 0.8, 0.7, 0.9], [0.8, 0.8, 0.6, 0.7], [0.5, 0.9, 0.5, 0.6]])
    >>> res.average_ranks.tolist(), round(res.critical_difference, 4)
    ([1.375, 2.125, 2.5], 1.6572)
    """
    x = _scores(scores)
    k, n = x.shape
    ranks = average_ranks(x, higher_is_better=higher_is_better)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    q = float(sps.studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2)
    z = np.abs(ranks[:, None] - ranks[None, :]) / se
    pvalues = sps.studentized_range.sf(z * math.sqrt(2), k, np.inf)
    # far in the tail scipy's integral underflows to 0: there the union bound over the k (k - 1) / 2 pairs of
    # P(|Z_i - Z_j| > z sqrt(2)) is reported instead, an upper bound of the p-value, never 0
    bound = np.minimum(1.0, k * (k - 1) * sps.norm.sf(z))
    pvalues = np.where(pvalues > 0, pvalues, bound)
    np.fill_diagonal(pvalues, 1.0)
    return NemenyiResult(ranks, q * se, np.clip(pvalues, 0.0, 1.0), alpha, n)


@dataclass(frozen=True)
class PairwiseResult:
    """Every pair of models tested over the tasks (:func:`wilcoxon_holm`).

    Attributes
    ----------
    statistics : numpy.ndarray
        (models, models) test statistics (NaN on the diagonal).
    pvalues : numpy.ndarray
        (models, models) p-values (1 on the diagonal).
    pvalues_adjusted : numpy.ndarray
        (models, models) p-values corrected over the k (k - 1) / 2 pairs.
    correction : str
        The correction.
    method : str
        The computation, in words.

    Examples
    --------
    >>> res = wilcoxon_holm([[0.9, 0.8, 0.7, 0.9, 0.6, 0.8], [0.5, 0.6, 0.4, 0.5, 0.3, 0.7]])
    >>> float(res.pvalues[0, 1]), res.correction
    (0.03125, 'holm')
    """

    statistics: np.ndarray
    pvalues: np.ndarray
    pvalues_adjusted: np.ndarray
    correction: str
    method: str


def wilcoxon_holm(scores, *, correction: str = "holm", zero_method: str = "wilcox") -> PairwiseResult:
    """Every pair of models compared by Wilcoxon's signed-rank test over the tasks, corrected over the pairs.

    Parameters
    ----------
    scores : array_like
        (models, tasks) scores.
    correction : {"holm", "bonferroni", "bh", "none"}
        Correction over the k (k - 1) / 2 pairs (default Holm).
    zero_method : str
        scipy's treatment of tasks where the two models tie (default "wilcox": left out).

    Returns
    -------
    PairwiseResult

    Examples
    --------
    >>> import numpy as np
    >>> scores = np.array([[0.91, 0.85, 0.77, 0.88, 0.92, 0.81], [0.90, 0.83, 0.70, 0.85, 0.90, 0.80],
    ...                    [0.70, 0.60, 0.65, 0.72, 0.68, 0.66]])
    >>> res = wilcoxon_holm(scores)
    >>> np.round(res.pvalues_adjusted, 4).tolist()
    [[1.0, 0.0938, 0.0938], [0.0938, 1.0, 0.0938], [0.0938, 0.0938, 1.0]]
    """
    x = _scores(scores)
    k = x.shape[0]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    statistics = np.full((k, k), np.nan)
    pvalues = np.ones((k, k))
    found = []
    for i, j in pairs:
        if np.all(x[i] == x[j]):      # tied on every task (up to rounding): every sign arrangement is the same,
            statistics[i, j] = statistics[j, i] = 0.0       # so the exact p = 1 (scipy divides 0 by 0)
            found.append(1.0)
            continue
        res = sps.wilcoxon(x[i], x[j], zero_method=zero_method)
        statistics[i, j] = statistics[j, i] = float(res.statistic)
        found.append(float(res.pvalue))
    adjusted = np.ones((k, k))
    for (i, j), p, q in zip(pairs, found, adjust_pvalues(np.array(found), correction)):
        pvalues[i, j] = pvalues[j, i] = p
        adjusted[i, j] = adjusted[j, i] = q
    return PairwiseResult(statistics, pvalues, adjusted, correction,
                          f"Wilcoxon signed-rank test over {x.shape[1]} tasks (scipy.stats.wilcoxon), {correction} "
                          f"over {'the pair' if len(pairs) == 1 else f'the {len(pairs)} pairs'}")


def _runs(scores, name: str = "scores") -> np.ndarray:
    x = np.asarray(scores, dtype=float)
    if x.ndim < 2 or x.shape[-2] < 1 or x.shape[-1] < 1:
        raise ValueError(f"{name} must be a (runs, tasks) matrix, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        where = tuple(np.argwhere(~np.isfinite(x))[0])
        raise ValueError(f"{name}: run {where[-2]} on task {where[-1]} is {x[where]}, not a finite number")
    return x


def interquartile_mean(scores) -> float:
    """The interquartile mean (IQM) of all runs on all tasks: the mean of the middle 50 % of the scores.

    Parameters
    ----------
    scores : array_like
        (runs, tasks) scores of one model, or a stack of them (..., runs, tasks).

    Returns
    -------
    float or numpy.ndarray
        scipy's ``trim_mean`` with 25 % cut from each end, over every score (one per stacked matrix).

    Examples
    --------
    >>> interquartile_mean([[0.1, 0.5], [0.6, 0.7], [0.8, 0.9], [1.0, 0.0]])
    0.65
    """
    x = _runs(scores)
    if x.ndim == 2:
        return float(sps.trim_mean(x, proportiontocut=0.25, axis=None))
    return sps.trim_mean(x.reshape(*x.shape[:-2], -1), proportiontocut=0.25, axis=-1)


def probability_of_improvement(scores_x, scores_y) -> float:
    """The probability that X improves on Y: per task P(X > Y) + P(X = Y) / 2 over pairs of runs, averaged over
    the tasks.

    Parameters
    ----------
    scores_x, scores_y : array_like
        (runs, tasks) scores of X and Y (the numbers of runs may differ; the tasks are the same), or stacks of
        them (..., runs, tasks).

    Returns
    -------
    float or numpy.ndarray
        In [0, 1]; 0.5 when X and Y do not differ (one per stacked pair).

    Examples
    --------
    >>> probability_of_improvement([[0.9, 0.5], [0.8, 0.5]], [[0.7, 0.5], [0.85, 0.5]])
    0.625
    """
    x, y = _runs(scores_x, "scores_x"), _runs(scores_y, "scores_y")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"X has {x.shape[-1]} tasks and Y {y.shape[-1]}: the tasks must be the same")
    wins = (np.sign(x[..., :, None, :] - y[..., None, :, :]) + 1).mean(axis=(-3, -2)) / 2   # per task, over run pairs
    return float(np.mean(wins)) if wins.ndim == 1 else wins.mean(axis=-1)


def stratified_bootstrap(scores, statistic, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                         rng=None, vectorized: bool = False, batch: int = 250) -> tuple[float, tuple[float, float]]:
    """A percentile bootstrap interval of a suite aggregate, the runs resampled within each task.

    Parameters
    ----------
    scores : sequence of array_like
        One (runs, tasks) matrix per model the statistic takes (the same tasks).
    statistic : callable
        ``statistic(*matrices) -> float``, e.g. :func:`interquartile_mean` or
        :func:`probability_of_improvement`.
    n_resamples : int
        Bootstrap resamples.
    confidence_level : float
        Level of the two-sided percentile interval.
    rng : int or numpy.random.Generator
        Seed of the resampling.
    vectorized : bool
        Whether ``statistic`` takes stacks of resampled matrices, (resamples, runs, tasks), and returns one
        value per resample (as :func:`interquartile_mean` and :func:`probability_of_improvement` do): then
        ``batch`` resamples are computed at once.  The resamples drawn are the same either way, and for any
        ``batch``: each resample draws every model's runs in turn, in the order of ``scores``.
    batch : int
        Resamples computed at once when ``vectorized``.

    Returns
    -------
    estimate : float
        The statistic on the data.
    interval : tuple of float
        The percentile interval.

    Examples
    --------
    >>> import numpy as np
    >>> runs = np.random.default_rng(1).normal(0.8, 0.05, size=(10, 4))
    >>> estimate, (low, high) = stratified_bootstrap([runs], interquartile_mean, n_resamples=2000, rng=0)
    >>> low < estimate < high
    True
    >>> stratified_bootstrap([runs], interquartile_mean, n_resamples=2000, rng=0, vectorized=True)[1] == (low, high)
    True
    """
    matrices = [_runs(m, f"scores[{k}]") for k, m in enumerate(scores)]
    if any(m.ndim != 2 for m in matrices):
        raise ValueError("every model's scores must be a (runs, tasks) matrix")
    if len({m.shape[1] for m in matrices}) != 1:
        raise ValueError("every model's scores must cover the same tasks")
    rng = np.random.default_rng(rng)
    estimate = float(statistic(*matrices))
    draws = np.empty(n_resamples)
    tasks = matrices[0].shape[1]
    # runs drawn within each task, one resample after another and every model in turn (the stream does not depend
    # on the batch); when the models have as many runs, those draws are one stream of indices below that number
    runs = [m.shape[0] for m in matrices]
    if len(set(runs)) == 1:
        together = ItemIndices(rng, n_resamples, runs[0], len(matrices) * runs[0] * tasks)
    else:
        resamplers = [ItemIndices(rng, n_resamples, k, k * tasks, chunk=1) for k in runs]
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        if len(set(runs)) == 1:
            block = together.draw(size).reshape(size, len(matrices), runs[0], tasks)
            rows = [block[:, j] for j in range(len(matrices))]
        else:
            rows = [np.empty((size, k, tasks), dtype=np.int64) for k in runs]
            for b in range(size):
                for drawn, k, resampler in zip(rows, runs, resamplers):
                    drawn[b] = resampler.draw(1).reshape(k, tasks)
        resampled = [np.take_along_axis(m[None], drawn, axis=1) for drawn, m in zip(rows, matrices)]
        if vectorized:
            draws[start:start + size] = statistic(*resampled)
        else:
            for b in range(size):
                draws[start + b] = statistic(*(r[b] for r in resampled))
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return estimate, (float(low), float(high))


# --- cells: item-level outputs or runs per model and task --------------------------------------------------------

def _cells(cells, paired: bool) -> list[np.ndarray]:
    """Checked cells: one (units, models) matrix per task, at least 2 units and 2 models, the same models."""
    out = []
    unit = "item" if paired else "run"
    for t, cell in enumerate(cells):
        x = np.asarray(cell, dtype=float)
        if x.ndim != 2:
            raise ValueError(f"task {t}: a cell must be a (units, models) matrix, got shape {x.shape}")
        if x.shape[1] < 2:
            raise ValueError(f"task {t}: a suite needs at least 2 models, got {x.shape[1]}")
        if x.shape[0] < 2:
            raise ValueError(f"task {t}: {x.shape[0]} {unit} per model; an interval within a task needs at least 2")
        if not np.all(np.isfinite(x)):
            row, model = np.argwhere(~np.isfinite(x))[0]
            raise ValueError(f"task {t}: score of model {model} on {unit} {row} is {x[row, model]}, not a finite "
                             "number")
        out.append(x)
    if len(out) < 2:
        raise ValueError(f"a suite needs at least 2 tasks, got {len(out)}")
    if len({x.shape[1] for x in out}) != 1:
        raise ValueError("every task must have the same models")
    return out


def _pairs(k: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(k) for j in range(i + 1, k)]


def _t_test(estimate, se, df, confidence_level: float, scale):
    """Two-sided t p-values and intervals.  A p-value that underflows is the smallest positive float (never 0,
    monotone in |t|).  Where the standard error is zero up to rounding (:func:`~simstats.stats.tolerance.negligible`
    against ``scale``, the data's largest absolute value) there is no variance to test against: a zero estimate
    gets p = 1 (the data show no difference), a non-zero one p = NaN (not tested), and both no interval (NaN)."""
    estimate, se, df, scale = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (estimate, se, df, scale)))
    zero = negligible(se, scale)
    same = zero & negligible(estimate, scale)
    t = estimate / np.where(zero, 1.0, se)
    p = np.where(zero, np.where(same, 1.0, np.nan), np.maximum(2 * sps.t.sf(np.abs(t), df), np.finfo(float).tiny))
    half = np.where(zero, np.nan, sps.t.ppf(0.5 + confidence_level / 2, np.where(zero, 1.0, df)) * se)
    return p, estimate - half, estimate + half


def _sign_test(differences: np.ndarray, scale: float) -> float:
    """The exact two-sided sign test of paired differences (scipy's ``binomtest``), zeros up to rounding dropped;
    1 when every difference is zero."""
    nonzero = differences[~negligible(differences, scale)]
    if nonzero.size == 0:
        return 1.0
    return float(sps.binomtest(int((nonzero > 0).sum()), nonzero.size, 0.5).pvalue)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True)
class TaskComparisonResult:
    """Models compared within each task of a suite (:func:`compare_within_tasks`).

    Attributes
    ----------
    table : pandas.DataFrame
        One row per comparison shown: ``task`` (position), ``model_a`` (the task's best or the
        reference), ``model_b``, their mean scores ``score_a`` and ``score_b``, ``difference`` (a - b) with
        ``ci_low`` and ``ci_high`` (unadjusted), ``pvalue`` and ``pvalue_adjusted`` (over the family).
    family : int
        The number of comparisons corrected together.
    correction : str
        The correction (``holm``, ``bonferroni``, ``bh`` or ``none``).
    method : str
        The test and the family, in words.

    Examples
    --------
    >>> cells = [np.array([[1, 0], [1, 1], [0, 0], [1, 0]]), np.array([[1, 1], [0, 1], [1, 0]])]
    >>> res = compare_within_tasks(cells, paired=True)
    >>> res.family, res.table[["task", "model_a", "model_b", "difference"]].to_numpy().tolist()
    (2, [[0.0, 0.0, 1.0, 0.5], [1.0, 0.0, 1.0, 0.0]])
    """

    table: pd.DataFrame
    family: int
    correction: str
    method: str


def compare_within_tasks(cells, *, paired: bool, reference: int | None = None, correction: str = "holm",
                         higher_is_better: bool = True, confidence_level: float = 0.95) -> TaskComparisonResult:
    """Every model against the task's best (or a reference model) on each task, corrected across tasks and models.

    Within a task, item-level outputs (``paired=True``: every model scored on the same items) are
    compared by the paired t-test over items (:func:`scipy.stats.ttest_1samp` of the item differences),
    runs (``paired=False``: independent runs, e.g. fine-tuning seeds) by Welch's t-test
    (:func:`scipy.stats.ttest_ind`).  The correction's family:

    * with ``reference``: the reference against each other model on each task, (k - 1) T comparisons;
    * without: every pair of models on each task, k (k - 1) / 2 T comparisons, of which the
      comparisons with each task's best are shown.  The best is chosen from the same data, so the
      comparisons with it alone are not a family that holds its level (with many models the largest
      difference is larger than a single one); corrected over all pairs they are.

    No p-value is 0 (one that underflows is the smallest positive float).  A standard error that is zero up to
    rounding (:mod:`simstats.stats.tolerance`) is a stated case, in the table's ``note``: identical scores get
    p = 1; items whose differences are all the same non-zero value get the exact sign test over the items
    (scipy's ``binomtest``); runs of two models that do not vary at all are not tested (p NaN, outside the
    correction's family): their difference has no run-to-run variance to be judged against, and only their
    item-level outputs can say whether it is more than the test set's noise.  The intervals of these cases
    are NaN.  Two models tied for a task's best (up to rounding): the first in model order is its best.

    Parameters
    ----------
    cells : sequence of array_like
        One (units, models) matrix per task: items (rows aligned across models) or runs.
    paired : bool
        Items (True) or independent runs (False).
    reference : int, optional
        Column of the reference model.
    correction : {"holm", "bonferroni", "bh", "none"}
        Correction over the family (statsmodels' ``multipletests``).
    higher_is_better : bool
        Which model is a task's best.
    confidence_level : float
        Level of the (unadjusted) intervals of the differences.

    Returns
    -------
    TaskComparisonResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> cells = [rng.normal([0.8, 0.8, 0.7], 0.05, size=(5, 3)) for _ in range(4)]
    >>> res = compare_within_tasks(cells, paired=False)
    >>> res.family, res.table.shape[0], res.table.model_a.tolist()
    (12, 8, [1, 1, 0, 0, 0, 0, 1, 1])
    """
    cells = _cells(cells, paired)
    k = cells[0].shape[1]
    if reference is not None and not 0 <= reference < k:
        raise ValueError(f"reference {reference} is not a model (0 to {k - 1})")
    pairs = _pairs(k)
    left = np.array([i for i, _ in pairs])
    right = np.array([j for _, j in pairs])
    parts = {name: [] for name in ("estimate", "se", "df", "score_a", "score_b", "scale")}
    for x in cells:
        n = x.shape[0]
        means = x.mean(axis=0)
        parts["scale"].append(np.full(len(pairs), data_scale(x)))
        if paired:
            d = x[:, left] - x[:, right]
            se = d.std(axis=0, ddof=1) / math.sqrt(n)
            df = np.full(len(pairs), n - 1.0)
        else:
            v = x.var(axis=0, ddof=1) / n
            total = v[left] + v[right]
            with np.errstate(divide="ignore", invalid="ignore"):
                df = np.where(total > 0, total ** 2 / ((v[left] ** 2 + v[right] ** 2) / (n - 1)), 2 * n - 2.0)
            se = np.sqrt(total)
        for name, value in (("estimate", means[left] - means[right]), ("se", se), ("df", df),
                            ("score_a", means[left]), ("score_b", means[right])):
            parts[name].append(value)
    flat = {name: np.concatenate(values) for name, values in parts.items()}
    p, low, high = _t_test(flat["estimate"], flat["se"], flat["df"], confidence_level, flat["scale"])
    zero = negligible(flat["se"], flat["scale"]) & ~negligible(flat["estimate"], flat["scale"])
    note = np.full(len(p), "", dtype=object)
    if paired:  # every item difference the same non-zero value: the exact sign test over the items
        for row in np.flatnonzero(zero):
            x, (i, j) = cells[row // len(pairs)], pairs[row % len(pairs)]
            p[row] = _sign_test(x[:, i] - x[:, j], flat["scale"][row])
        note[zero] = "every item difference is the same: exact sign test over the items, no interval"
    else:
        note[zero] = ("the runs of both models do not vary: no run-to-run variance to test against, not tested "
                      "(compare the models' item-level outputs)")
    note[negligible(flat["se"], flat["scale"]) & ~zero] = "identical scores: p = 1, no interval"
    table = pd.DataFrame({"task": np.repeat(np.arange(len(cells)), len(pairs)), "model_a": np.tile(left, len(cells)),
                          "model_b": np.tile(right, len(cells)), "score_a": flat["score_a"], "score_b": flat["score_b"],
                          "difference": flat["estimate"], "ci_low": low, "ci_high": high, "pvalue": p, "note": note})
    sign = 1.0 if higher_is_better else -1.0
    anchor = (np.full(len(cells), reference) if reference is not None
              else np.array([int(np.argmax(tied_scores(sign * x.mean(axis=0)))) for x in cells]))
    at = anchor[table.task.to_numpy()]
    chosen = (table.model_a.to_numpy() == at) | (table.model_b.to_numpy() == at)
    if reference is not None:
        table = table[chosen].reset_index(drop=True)
        table["pvalue_adjusted"] = adjust_tested(table.pvalue.to_numpy(), correction)
        family = len(table)
        scope = f"{correction} over the reference against the {_plural(k - 1, 'other model')} on {len(cells)} tasks"
    else:
        table["pvalue_adjusted"] = adjust_tested(table.pvalue.to_numpy(), correction)
        family = len(table)
        table = table[chosen].reset_index(drop=True)
        scope = (f"{correction} over {'the pair' if len(pairs) == 1 else f'all {len(pairs)} pairs'} of models on "
                 f"{len(cells)} tasks; the comparisons with each task's best shown")
    # orient every row as anchor - other
    flip = table.model_b.to_numpy() == anchor[table.task.to_numpy()]
    columns = {c: table[c].to_numpy().copy() for c in ("model_a", "model_b", "score_a", "score_b", "difference",
                                                         "ci_low", "ci_high")}
    for first, second in (("model_a", "model_b"), ("score_a", "score_b"), ("ci_low", "ci_high")):
        columns[first][flip], columns[second][flip] = table[second].to_numpy()[flip], table[first].to_numpy()[flip]
    for name in ("difference", "ci_low", "ci_high"):
        columns[name][flip] *= -1
    table = table.assign(**columns)
    test = "paired t-test over items" if paired else "Welch's t-test over runs"
    untested = int(np.isnan(p).sum())
    if untested:
        scope += f"; {_plural(untested, 'comparison')} not tested (runs that do not vary), not counted in the family"
    return TaskComparisonResult(table, family, correction, f"{test} within each task; {scope} ({family} comparisons)")


SCOPES = ("tasks like these", "these tasks")
"""The claims of a suite mean's interval: over tasks drawn from a population of tasks like these (the
tasks resampled), or over new items or runs of these tasks (the tasks fixed)."""


@dataclass(frozen=True)
class SuiteMeanResult:
    """Each model's mean score over the tasks, the pairs' differences and the rank intervals
    (:func:`suite_mean`).

    Attributes
    ----------
    estimate, standard_error, df, ci_low, ci_high : numpy.ndarray
        (models,) the mean over tasks of each model's mean score per task, and its t interval.
    differences : numpy.ndarray
        (models, models) estimate[i] - estimate[j].
    pvalues, pvalues_adjusted : numpy.ndarray
        (models, models) the pairs' two-sided p-values, raw and corrected over the k (k - 1) / 2 pairs
        (1 on the diagonal).
    difference_ci_low, difference_ci_high : numpy.ndarray
        (models, models) the unadjusted interval of each difference.
    rank_low, rank_high : numpy.ndarray
        (models,) rank intervals (1 = best): 1 + the number of models significantly better, and k - the
        number significantly worse, by ``pvalues_adjusted < alpha`` (tied models may take any rank of their
        tie; see :func:`suite_mean` for the guarantee).
    alpha : float
        Level of the rank intervals.
    higher_is_better : bool
        Direction of the ranks.
    scope : str
        The claim (one of :data:`SCOPES`).
    method : str
        The computation, in words.

    Examples
    --------
    >>> cells = [np.array([[0.80, 0.70], [0.82, 0.71]]) + [shift, shift + gap]
    ...          for shift, gap in ((0.0, 0.01), (0.05, -0.01), (-0.1, 0.0))]
    >>> res = suite_mean(cells, paired=False)
    >>> np.round(res.estimate, 3).tolist(), res.rank_low.tolist(), res.rank_high.tolist()
    ([0.793, 0.688], [1, 2], [1, 2])
    """

    estimate: np.ndarray
    standard_error: np.ndarray
    df: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    differences: np.ndarray
    pvalues: np.ndarray
    pvalues_adjusted: np.ndarray
    difference_ci_low: np.ndarray
    difference_ci_high: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    alpha: float
    higher_is_better: bool
    scope: str
    method: str

    def significantly_better(self) -> np.ndarray:
        """(models, models) booleans: model i is significantly better than model j."""
        sign = 1.0 if self.higher_is_better else -1.0
        return (self.pvalues_adjusted < self.alpha) & (sign * self.differences > 0)

    def tie_groups(self) -> list[list[int]]:
        """The models in order of their means, in the maximal runs of consecutive models no two of which differ
        significantly (a model may be in two runs; a model that differs from its neighbours is a run of one)."""
        sign = 1.0 if self.higher_is_better else -1.0
        order = [int(m) for m in np.argsort(-sign * self.estimate, kind="stable")]
        different = self.pvalues_adjusted < self.alpha
        spans: list[tuple[int, int]] = []
        for first in range(len(order)):
            last = first
            while last + 1 < len(order) and not any(different[order[last + 1], order[m]]
                                                    for m in range(first, last + 1)):
                last += 1
            if not any(a <= first and last <= b for a, b in spans):
                spans.append((first, last))
        return [order[a:b + 1] for a, b in spans]


def _satterthwaite(variances: np.ndarray, dfs: np.ndarray) -> np.ndarray:
    """Welch-Satterthwaite df of a sum of independent variance estimates (rows) with their own df."""
    total = variances.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = total ** 2 / (variances ** 2 / dfs).sum(axis=0)
    return np.where(total > 0, df, dfs.sum(axis=0))


def suite_mean(cells, *, paired: bool, scope: str = "tasks like these", correction: str = "holm",
               alpha: float = 0.05, higher_is_better: bool = True, confidence_level: float = 0.95) -> SuiteMeanResult:
    """Each model's mean score over a suite's tasks with an interval, every pair's difference, and rank intervals.

    A model's suite mean is the mean over the T tasks of its mean score per task (every task weighs the
    same).  Its interval depends on the claim:

    * ``"tasks like these"`` (default): the tasks drawn from a population of tasks.  The one-sample t
      interval over the T task means, T - 1 df; a difference of two models likewise over their T per-task
      differences.  The tasks' own item or run noise is part of each task's score, so it is counted once.
    * ``"these tasks"``: the tasks fixed, new items or runs.  The standard error is
      sqrt(sum_t v_t) / T with v_t the unbiased variance of task t's mean (of the item differences for
      paired items; of each model's runs, added, for runs), t on Welch-Satterthwaite df.

    Rank intervals come from the pairs' tests corrected over the k (k - 1) / 2 pairs: a model's rank is at
    least 1 + the number of models significantly better and at most k - the number significantly worse.
    They hold every model's true rank together whenever no pair is declared different in the wrong direction
    or between equal models: with Bonferroni with probability at least 1 - alpha; with Holm (default) the
    guarantee against wrong-direction decisions is proven only under conditions (e.g. independent tests,
    Shaffer 1980), and the suite study finds them covering in every population it simulates.

    Parameters
    ----------
    cells : sequence of array_like
        One (units, models) matrix per task: items (rows aligned across models) or runs.
    paired : bool
        Items (True) or independent runs (False).
    scope : {"tasks like these", "these tasks"}
        The claim.
    correction : {"holm", "bonferroni", "bh", "none"}
        Correction over the pairs.
    alpha : float
        Level of the rank intervals and tie groups.
    higher_is_better : bool
        Direction of the ranks.
    confidence_level : float
        Level of the intervals of the means and differences.

    Returns
    -------
    SuiteMeanResult

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> cells = [rng.normal([0.80, 0.79, 0.70], 0.05, size=(10, 3)) + rng.normal(0, 0.1) for _ in range(8)]
    >>> res = suite_mean(cells, paired=False)
    >>> res.rank_low.tolist(), res.rank_high.tolist()
    ([1, 1, 3], [2, 2, 3])
    >>> res.tie_groups()
    [[0, 1], [2]]
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(map(repr, SCOPES))}, got {scope!r}")
    cells = _cells(cells, paired)
    k = cells[0].shape[1]
    tasks = len(cells)
    means = np.stack([x.mean(axis=0) for x in cells])                         # (T, k)
    estimate = means.mean(axis=0)
    pairs = _pairs(k)
    left = np.array([i for i, _ in pairs])
    right = np.array([j for _, j in pairs])
    differences = estimate[left] - estimate[right]
    if scope == "tasks like these":
        se = means.std(axis=0, ddof=1) / math.sqrt(tasks)
        df = np.full(k, tasks - 1.0)
        d_se = (means[:, left] - means[:, right]).std(axis=0, ddof=1) / math.sqrt(tasks)
        d_df = np.full(len(pairs), tasks - 1.0)
        how = f"one-sample t over the {tasks} tasks, {tasks - 1} df"
    else:
        n = np.array([x.shape[0] for x in cells], dtype=float)[:, None]
        v = np.stack([x.var(axis=0, ddof=1) for x in cells]) / n               # (T, k) variance of each mean
        se = np.sqrt(v.sum(axis=0)) / tasks
        df = _satterthwaite(v, n - 1)
        if paired:
            vd = np.stack([(x[:, left] - x[:, right]).var(axis=0, ddof=1) for x in cells]) / n
            d_se = np.sqrt(vd.sum(axis=0)) / tasks
            d_df = _satterthwaite(vd, n - 1)
        else:
            both = np.concatenate([v[:, left], v[:, right]])
            d_se = np.sqrt(both.sum(axis=0)) / tasks
            d_df = _satterthwaite(both, np.concatenate([n, n]) - 1)
        how = ("sqrt(sum of the tasks' unbiased variances of the mean) / T, t on Welch-Satterthwaite df, "
               + ("items paired" if paired else "runs independent"))
    scale = data_scale(*cells)
    half = np.where(negligible(se, scale), np.nan, sps.t.ppf(0.5 + confidence_level / 2, df) * se)
    p, low, high = _t_test(differences, d_se, d_df, confidence_level, scale)
    if scope == "tasks like these":  # the same non-zero difference on every task: the exact sign test over tasks
        for m in np.flatnonzero(np.isnan(p)):
            p[m] = _sign_test(means[:, left[m]] - means[:, right[m]], scale)
    adjusted = adjust_tested(p, correction)
    untested = int(np.isnan(p).sum())
    square = {name: np.full((k, k), fill) for name, fill in
              (("d", 0.0), ("p", 1.0), ("q", 1.0), ("lo", 0.0), ("hi", 0.0))}
    for m, (i, j) in enumerate(pairs):
        square["d"][i, j], square["d"][j, i] = differences[m], -differences[m]
        square["p"][i, j] = square["p"][j, i] = p[m]
        square["q"][i, j] = square["q"][j, i] = adjusted[m]
        square["lo"][i, j], square["hi"][i, j] = low[m], high[m]
        square["lo"][j, i], square["hi"][j, i] = -high[m], -low[m]
    sign = 1.0 if higher_is_better else -1.0
    better = (square["q"] < alpha) & (sign * square["d"] > 0)                  # [i, j]: i significantly better
    rank_low = 1 + better.sum(axis=0)
    rank_high = k - better.sum(axis=1)
    return SuiteMeanResult(estimate, se, df, estimate - half, estimate + half, square["d"], square["p"], square["q"],
                           square["lo"], square["hi"], rank_low, rank_high, alpha, higher_is_better, scope,
                           f"mean over tasks of each model's mean score per task ({scope}): {how}; pairs "
                           f"{correction}-corrected over {'the pair' if len(pairs) == 1 else f'the {len(pairs)} pairs'} "
                           "for the ranks and ties"
                           + (f"; {_plural(untested, 'pair')} not tested (no variance within the tasks to test "
                              "against: runs that do not vary), outside the family" if untested else ""))
