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

from simstats.stats.lazy import lazy_module
from simstats.stats.multitest import adjust_pvalues
from simstats.stats.results import ClassicalTestResult

sps = lazy_module("scipy.stats")

__all__ = ["average_ranks", "friedman_test", "NemenyiResult", "nemenyi_test", "PairwiseResult", "wilcoxon_holm",
           "interquartile_mean", "probability_of_improvement", "stratified_bootstrap"]


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
    return x


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
    res = sps.friedmanchisquare(*x)
    return ClassicalTestResult(float(res.statistic), float(res.pvalue), "two-sided",
                               f"Friedman test over {x.shape[1]} tasks (scipy.stats.friedmanchisquare)")


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
        res = sps.wilcoxon(x[i], x[j], zero_method=zero_method)
        statistics[i, j] = statistics[j, i] = float(res.statistic)
        found.append(float(res.pvalue))
    adjusted = np.ones((k, k))
    for (i, j), p, q in zip(pairs, found, adjust_pvalues(np.array(found), correction)):
        pvalues[i, j] = pvalues[j, i] = p
        adjusted[i, j] = adjusted[j, i] = q
    return PairwiseResult(statistics, pvalues, adjusted, correction,
                          f"Wilcoxon signed-rank test over {x.shape[1]} tasks (scipy.stats.wilcoxon), {correction} "
                          f"over the {len(pairs)} pairs")


def _runs(scores, name: str = "scores") -> np.ndarray:
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise ValueError(f"{name} must be a (runs, tasks) matrix, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        run, task = np.argwhere(~np.isfinite(x))[0]
        raise ValueError(f"{name}: run {run} on task {task} is {x[run, task]}, not a finite number")
    return x


def interquartile_mean(scores) -> float:
    """The interquartile mean (IQM) of all runs on all tasks: the mean of the middle 50 % of the scores.

    Parameters
    ----------
    scores : array_like
        (runs, tasks) scores of one model.

    Returns
    -------
    float
        scipy's ``trim_mean`` with 25 % cut from each end, over every score.

    Examples
    --------
    >>> interquartile_mean([[0.1, 0.5], [0.6, 0.7], [0.8, 0.9], [1.0, 0.0]])
    0.65
    """
    return float(sps.trim_mean(_runs(scores), proportiontocut=0.25, axis=None))


def probability_of_improvement(scores_x, scores_y) -> float:
    """The probability that X improves on Y: per task P(X > Y) + P(X = Y) / 2 over pairs of runs, averaged over
    the tasks.

    Parameters
    ----------
    scores_x, scores_y : array_like
        (runs, tasks) scores of X and Y (the numbers of runs may differ; the tasks are the same).

    Returns
    -------
    float
        In [0, 1]; 0.5 when X and Y do not differ.

    Examples
    --------
    >>> probability_of_improvement([[0.9, 0.5], [0.8, 0.5]], [[0.7, 0.5], [0.85, 0.5]])
    0.625
    """
    x, y = _runs(scores_x, "scores_x"), _runs(scores_y, "scores_y")
    if x.shape[1] != y.shape[1]:
        raise ValueError(f"X has {x.shape[1]} tasks and Y {y.shape[1]}: the tasks must be the same")
    wins = (np.sign(x[:, None, :] - y[None, :, :]) + 1).mean(axis=(0, 1)) / 2       # per task, over run pairs
    return float(np.mean(wins))


def stratified_bootstrap(scores, statistic, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                         rng=None) -> tuple[float, tuple[float, float]]:
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
    """
    matrices = [_runs(m, f"scores[{k}]") for k, m in enumerate(scores)]
    if len({m.shape[1] for m in matrices}) != 1:
        raise ValueError("every model's scores must cover the same tasks")
    rng = np.random.default_rng(rng)
    estimate = float(statistic(*matrices))
    draws = np.empty(n_resamples)
    tasks = matrices[0].shape[1]
    for b in range(n_resamples):
        resampled = []
        for m in matrices:
            rows = rng.integers(0, m.shape[0], size=(m.shape[0], tasks))     # runs drawn within each task
            resampled.append(np.take_along_axis(m, rows, axis=0))
        draws[b] = statistic(*resampled)
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return estimate, (float(low), float(high))
