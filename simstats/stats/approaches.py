"""Compare training approaches, not single runs: one bootstrap over seeds and test items.

Each approach (A, B) is trained with several seeds; every run (one seed of one approach) is
scored on the same test items.  The statistic is the difference of the approaches' mean
metric over their runs,

    delta = mean_{r in A} metric(sum_i S_{r,i}) - mean_{r in B} metric(sum_i S_{r,i}),

and the question decides what is resampled (the multi-bootstrap of Sellam et al. 2022 when
both are):

* ``resample=("seeds", "items")``: would A beat B on new seeds *and* new test items from the
  same populations?  Each replicate resamples the items once (shared by every run: one new
  test set) and, independently, the seeds of each approach (with replacement);
* ``("items",)``: with these trained models, would A's runs beat B's runs on new items?
  (ignores seed variance: the claim is about these models);
* ``("seeds",)``: on this test set, would new seeds of A beat new seeds of B?
  (ignores item variance: the claim is about this test set).

Paired seeds: when both approaches were run with the same seed ids (one run per approach and
seed), ``paired_seeds=True`` (the default where the ids match) resamples seed ids once for
both approaches, which removes what a shared seed does to both (data order, initialisation
of shared parts).  p-values use the same conventions as :func:`paired_bootstrap`
("shift" by default), the interval is the percentile interval of delta*.

``variance`` of the result splits the bootstrap variance of delta: ``seeds`` (seeds only),
``items`` (items only), ``both``, and ``residual`` = both - seeds - items: what neither source
explains alone (a run x item interaction: runs err on different items, so a run drawn twice
does not average its item noise away).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from simstats.stats.bootstrap import check_bootstrap_options, extreme_counts, item_bootstrap, pvalues_from_counts
from simstats.stats.crossed import (MIN_VALIDATED_RUNS, StudentisedReference, bootstrap_variance, cluster_values,
                                    crossed_variance,
                                    fitted_mean_squares, linearised_item_values)
from simstats.stats.engine import as_generator, improvement, replicates, system_totals
from simstats.stats.metrics import Metric
from simstats.stats.resample import Joint, SeedCounts, aggregate_clusters
from simstats.stats.lazy import lazy_module
from simstats.stats.renamed import Renamed, renamed
from simstats.stats.results import ConfidenceInterval, TestResult, check_alternative, check_confidence_level
from simstats.stats.tolerance import data_scale, negligible

distributions = lazy_module("scipy.stats")

__all__ = ["compare_approaches", "approach_bootstrap", "ApproachComparisonResult", "approach_t_test", "ApproachTTestResult",
           "approach_margin_test", "paired_margin_test", "MarginTestResult", "REFERENCES", "VARIANCE_ESTIMATES",
           "MARGIN_HYPOTHESES"]

TARGETS = {("items", "seeds"): "new seeds and new test items",
           ("items",): "these trained runs on new test items",
           ("seeds",): "new seeds on this test set"}


@dataclass(frozen=True)
class ApproachComparisonResult(TestResult):
    """Result of :func:`approach_bootstrap` (scalars).

    Attributes
    ----------
    statistic : float
        Difference of mean metric, A minus B (improvement of A for a lower-is-better metric).
    pvalue : float
        The p-value of the claim ``resample`` names.
    alternative : str
        "two-sided", "greater" (A is better) or "less".
    method : str
        The computation, in words.
    confidence_interval : ConfidenceInterval or None
        Percentile interval of the difference (None when no level was asked for).
    scores : tuple of float
        (mean A, mean B).
    runs : tuple of int
        Runs per approach.
    variance : dict
        Bootstrap variance of delta by source: ``seeds``, ``items``, ``both`` and ``residual``
        (module docstring).
    target : str
        The population the claim is about.
    paired_seeds : bool
        Whether seed ids were resampled jointly for both approaches.
    n_resamples : int
        Bootstrap replicates B.
    pvalue_method, pvalue_rule : str
        The p-value conventions (as :func:`simstats.paired_bootstrap`).
    effect_size : float
        Delta over the sd of the run scores pooled within approaches (NaN with one run per
        approach).
    pvalues : dict
        The p-value of each source's resampling (``seeds``, ``items``, ``both``) on this call's
        replicates - each equal to the ``pvalue`` a call with that ``resample`` and the same
        generator state gives (one call answers all three claims; ``seeds`` needs at least 2 runs
        per approach, else NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, approach_bootstrap
    >>> correct = (np.random.default_rng(1).random((6, 200)) < 0.8).astype(float)    # 3 runs each
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = approach_bootstrap(stats, accuracy, ["A"] * 3 + ["B"] * 3, n_resamples=1000, rng=0)
    >>> res.target, res.runs, sorted(res.pvalues)
    ('new seeds and new test items', (3, 3), ['both', 'items', 'seeds'])
    >>> v = res.variance
    >>> bool(np.isclose(v["residual"], v["both"] - v["seeds"] - v["items"]))
    True
    """

    confidence_interval: ConfidenceInterval | None = None
    scores: tuple = ()
    runs: tuple = ()
    variance: dict | None = None
    target: str = ""
    paired_seeds: bool = False
    n_resamples: int = 0
    pvalue_method: str = "shift"
    pvalue_rule: str = "add-one"
    effect_size: float = float("nan")
    pvalues: dict | None = None


def _labels(approach, approaches):
    approach = np.asarray(approach)
    if approaches is None:
        approaches = list(dict.fromkeys(approach.tolist()))
    approaches = list(approaches)
    if len(approaches) != 2 or approaches[0] == approaches[1]:
        raise ValueError(f"need exactly two approaches to compare, got {approaches}")
    for name in approaches:
        if not np.any(approach == name):
            raise ValueError(f"approach {name!r} has no runs")
    extra = sorted(set(approach.tolist()) - set(approaches), key=str)
    if extra:
        raise ValueError(f"runs of approaches {extra} that are not compared (give approaches=[...] or drop them)")
    return approaches, [np.flatnonzero(approach == name) for name in approaches]


def _pairing(seed, runs, paired_seeds):
    """Run indices of A and B ordered by shared seed id, or None when seeds are not paired."""
    if seed is None:
        if paired_seeds:
            raise ValueError("paired_seeds=True needs the seed id of every run")
        return None
    seed = np.asarray(seed)
    ids = [seed[r] for r in runs]
    for name, s in zip("AB", ids):
        if len(set(s.tolist())) != s.size:
            raise ValueError(f"approach {name} has several runs with the same seed id")
    same = set(ids[0].tolist()) == set(ids[1].tolist())
    if paired_seeds is None:
        paired_seeds = same
    if not paired_seeds:
        return None
    if not same:
        missing = sorted(set(ids[0].tolist()) ^ set(ids[1].tolist()), key=str)
        raise ValueError(f"paired seeds need the same seed ids in both approaches; {len(missing)} unmatched: "
                         f"{', '.join(map(str, missing[:5]))}{', ...' if len(missing) > 5 else ''}")
    order_b = {s: k for k, s in enumerate(ids[1].tolist())}
    return runs[0], runs[1][[order_b[s] for s in ids[0].tolist()]]


def _by_seed(runs, seed):
    """Each approach's runs in seed-id order, so that the answer does not depend on row order."""
    if seed is None:
        return runs
    seed = np.asarray(seed)
    return [r[np.argsort(seed[r], kind="stable")] for r in runs]


def checked_runs(stats, metric: Metric, approach, seed, approaches, paired_seeds):
    """Checked statistics, approach names, each approach's run indices (seed-id order) and the
    seed pairing (or None)."""
    stats = np.asarray(stats)
    if stats.dtype.kind not in "iufb":
        stats = stats.astype(np.float64)
    if stats.ndim != 3 or stats.shape[1] < 1:
        raise ValueError(f"statistics must have shape (runs, items, k), got {stats.shape}")
    if stats.shape[2] != len(metric.statistics):
        raise ValueError(f"metric {metric.name!r} needs {len(metric.statistics)} statistics per item, "
                         f"got {stats.shape[2]}")
    if stats.dtype.kind == "f" and not np.isfinite(stats).all():
        raise ValueError("statistics contain NaN or infinite values")
    if np.asarray(approach).shape != (stats.shape[0],):
        raise ValueError(f"approach must give one label per run ({stats.shape[0]})")
    if seed is not None and np.asarray(seed).shape != (stats.shape[0],):
        raise ValueError(f"seed_id must give one id per run ({stats.shape[0]})")
    names, runs = _labels(approach, approaches)
    runs = _by_seed(runs, seed)
    pairing = _pairing(seed, runs, paired_seeds)
    return stats, names, runs, pairing


def approach_bootstrap(stats, metric: Metric, approach, seed_id=None, *, approaches=None,
                       resample=("seeds", "items"), alternative: str = "two-sided", n_resamples: int = 10_000,
                       confidence_level: float | None = 0.95, pvalue_method: str = "shift",
                       pvalue_rule: str = "add-one", paired_seeds=None, clusters=None, compress_items: bool = True,
                       rng, seed=Renamed("seed_id"), convention=Renamed("pvalue_method")) -> ApproachComparisonResult:
    """The seeds x items bootstrap of approach A against approach B (the multi-bootstrap).

    :func:`approach_bootstrap` calls it when asked for the bootstrap; its default is the approach t-test
    (:func:`approach_t_test`), as ``simstats compare``'s is.

    Parameters
    ----------
    stats : array (runs, items, k)
        Per-item statistics of every run (one trained model per seed and approach).
    metric : Metric
        Metric of summed statistics; each run is scored by it, approaches by their mean score.
    approach : array (runs,)
        Approach label of every run.
    seed_id : array (runs,), optional
        Training seed id of every run (for paired seeds).
    approaches : (A, B), optional
        Which labels are A and B (default: in order of first appearance).
    resample : tuple of {"seeds", "items"}
        What is resampled (module docstring): the population the claim is about.
    alternative, n_resamples, confidence_level, pvalue_method, pvalue_rule
        As in :func:`simstats.paired_bootstrap`.
    paired_seeds : bool, optional
        Resample shared seed ids jointly (default: when both approaches have the same ids).
    clusters : array (items,), optional
        Cluster id per item: whole clusters are resampled.
    compress_items : bool
        As in :func:`simstats.paired_bootstrap` (items grouped over all runs compared).
    rng : numpy.random.Generator or int
        Seeded generator (required).

    Returns
    -------
    ApproachComparisonResult
        The difference, its p-value and percentile interval, and the bootstrap variance of the
        difference by source.

    Raises
    ------
    ValueError
        If an option is invalid (as :func:`simstats.paired_bootstrap`; ``resample`` names
        neither seeds nor items), the labels do not name exactly two approaches, seeds are
        resampled with fewer than 2 runs per approach, or paired seeds do not match.

    See Also
    --------
    approach_t_test : the t-test of the same difference over new seeds and new items.
    simstats.paired_bootstrap : one run per system, resampling items.

    Examples
    --------
    Four runs (seeds) of each approach, scored on the same 300 items:

    >>> import numpy as np
    >>> from simstats import accuracy, approach_bootstrap, paired_bootstrap
    >>> rng = np.random.default_rng(7)
    >>> hard = rng.random(300) < 0.3
    >>> def run(skill):                                     # one seed: correct (1) or not per item
    ...     return (rng.random(300) < np.where(hard, skill - 0.4, skill)).astype(float)
    >>> correct = np.stack([run(0.88 + d) for d in rng.normal(0, 0.01, 4)]
    ...                    + [run(0.84 + d) for d in rng.normal(0, 0.01, 4)])
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = approach_bootstrap(stats, accuracy, ["A"] * 4 + ["B"] * 4, n_resamples=2000, rng=0)
    >>> round(res.statistic, 4), round(res.pvalue, 3), [round(x, 3) for x in res.confidence_interval]
    (0.0458, 0.086, [-0.004, 0.101])

    The statistic is the difference of the approaches' mean accuracies:

    >>> round(float(correct[:4].mean() - correct[4:].mean()), 4)
    0.0458

    With one run per approach and ``resample=("items",)`` the test is the paired bootstrap, on the
    same draws:

    >>> one = stats[[0, 4]]
    >>> items = approach_bootstrap(one, accuracy, ["A", "B"], resample=("items",), n_resamples=2000, rng=3)
    >>> bool(items.pvalue == paired_bootstrap(one, accuracy, n_resamples=2000, rng=3).pvalue[0])
    True
    """
    seed_id = renamed("approach_bootstrap", "seed", "seed_id", seed, seed_id, None)
    pvalue_method = renamed("approach_bootstrap", "convention", "pvalue_method", convention, pvalue_method, "shift")
    check_bootstrap_options(alternative, pvalue_method, n_resamples, confidence_level, pvalue_rule=pvalue_rule)
    resample = tuple(sorted(set(resample)))
    if resample not in TARGETS:
        raise ValueError(f"resample must name 'seeds', 'items' or both, got {resample}")
    stats, names, runs, pairing = checked_runs(stats, metric, approach, seed_id, approaches, paired_seeds)
    if pairing is not None:
        runs = list(pairing)
    if "seeds" in resample and min(r.size for r in runs) < 2:
        raise ValueError("resampling seeds needs at least 2 runs per approach "
                         f"(got {[r.size for r in runs]}); use resample=('items',)")
    rng = as_generator(rng)
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    stats = stats.astype(np.float64, copy=False) if stats.dtype.kind == "b" else stats
    order = np.concatenate(runs)
    ka, kb = runs[0].size, runs[1].size
    observed = metric(system_totals(stats[order]))                         # (runs,) in A-then-B order
    mean_a, mean_b = observed[:ka].mean(), observed[ka:].mean()
    delta = float(improvement(metric, mean_a, mean_b))
    pack, items = item_bootstrap(stats, order, rng, n_resamples, compress_items, clusters)
    # items are drawn from rng exactly as paired_bootstrap draws them (so one run per approach
    # with resample=("items",) is the paired bootstrap); seeds from a child stream of rng
    seeds = SeedCounts(rng.spawn(1)[0], n_resamples, ka, kb, paired=pairing is not None)

    def diff(v_a, v_b, w_a, w_b):
        return improvement(metric, (v_a * w_a).sum(axis=-1) / ka, (v_b * w_b).sum(axis=-1) / kb)

    def statistic(sums, counts):
        values = metric(sums)                                   # (b, runs): new test sets
        ca, cb = counts[:, :ka], counts[:, ka:]
        return np.stack([diff(values[:, :ka], values[:, ka:], ca, cb),
                         diff(observed[:ka], observed[ka:], ca, cb),
                         diff(values[:, :ka], values[:, ka:], 1.0, 1.0)], axis=1)
    stars, _ = replicates(Joint(items, seeds), pack, statistic, elementwise=metric.elementwise)
    keep = {k: np.ascontiguousarray(stars[:, j]) for j, k in enumerate(("both", "seeds", "items"))}
    key = "both" if resample == ("items", "seeds") else resample[0]
    pvalues = {}
    for k, star in keep.items():
        counts = extreme_counts(star[:, None], np.array([delta]), alternative, pvalue_method)
        pvalues[k] = float(np.ravel(pvalues_from_counts(counts, n_resamples, alternative, pvalue_method,
                                                        pvalue_rule))[0])
    if min(ka, kb) < 2:          # one run per approach: resampling seeds is not defined
        pvalues["seeds"] = pvalues["both"] = float("nan")
    pvalue = pvalues[key]
    ci = None
    if confidence_level is not None:
        a = (1 - confidence_level) / 2
        lo, hi = np.quantile(keep[key], [a, 1 - a])
        ci = ConfidenceInterval(float(lo), float(hi))
    var = {k: float(v.var(ddof=1)) if n_resamples > 1 else float("nan") for k, v in keep.items()}
    var["residual"] = var["both"] - var["seeds"] - var["items"]
    pooled = np.sqrt(((ka - 1) * observed[:ka].var(ddof=1) + (kb - 1) * observed[ka:].var(ddof=1)) / (ka + kb - 2)) \
        if ka + kb > 2 and min(ka, kb) > 1 else float("nan")
    effect = delta / pooled if pooled and np.isfinite(pooled) and pooled > 0 else float("nan")
    method = (f"approach bootstrap over {' and '.join(resample)} ({pvalue_method} p-value, "
              f"{'(c + 1)/(B + 1)' if pvalue_rule == 'add-one' else 'c/B'}"
              f"{', paired seeds' if pairing is not None else ''})")
    return ApproachComparisonResult(delta, pvalue, alternative, method, confidence_interval=ci,
                                    scores=(float(mean_a), float(mean_b)), runs=(ka, kb), variance=var,
                                    target=TARGETS[resample], paired_seeds=pairing is not None,
                                    n_resamples=n_resamples, pvalue_method=pvalue_method,
                                    pvalue_rule=pvalue_rule, effect_size=float(effect),
                                    pvalues=pvalues)


def oriented_unit_values(stats: np.ndarray, metric: Metric, clusters=None) -> np.ndarray:
    """(runs, units) per-unit values whose mean over units is each run's metric value (linearised for
    ratio metrics; units are clusters when ``clusters`` is given), negated for a lower-is-better
    metric so that differences are improvements."""
    values = linearised_item_values(stats, metric)
    if clusters is not None:
        values = cluster_values(values, clusters)
    return values if metric.higher_is_better else -values


@dataclass(frozen=True)
class ApproachTTestResult(TestResult):
    """Result of :func:`approach_t_test`.

    Attributes
    ----------
    statistic : float
        Difference of mean metric, A minus B (improvement of A for a lower-is-better metric).
    pvalue : float
        The p-value.
    alternative : str
        "two-sided", "greater" (A is better) or "less".
    method : str
        The computation, in words.
    confidence_interval : ConfidenceInterval or None
        Two-sided interval of the difference.
    t_statistic : float
        statistic / standard_error, referred to ``reference``.
    df : float
        Satterthwaite's degrees of freedom of the variance estimate (descriptive with the default
        reference).
    standard_error : float
        Square root of the estimated Var(difference).
    scores : tuple of float
        (mean A, mean B).
    runs : tuple of int
        Runs per approach.
    n_units : int
        Test items (or clusters).
    variance : dict
        The estimated Var(difference) split into ``seeds``, ``units``, ``residual`` and their
        ``total`` (:mod:`simstats.stats.crossed`; each part is unbiased and can be negative).
    floored : bool
        The total was not positive and was set to the residual part.
    paired_seeds : bool
        Whether the seeds were paired.
    reference : str
        The reference distribution ("parametric" or "satterthwaite").
    target : str
        The population the claim is about (new seeds and new test items).

    Examples
    --------
    Runs whose per-item values do not vary over items (3 and 4 runs): the test with
    ``reference="satterthwaite"`` is Welch's t-test on the run scores.

    >>> import numpy as np
    >>> import scipy.stats
    >>> from simstats import accuracy, approach_t_test
    >>> score_a, score_b = np.array([0.81, 0.83, 0.80]), np.array([0.78, 0.80, 0.76, 0.79])
    >>> values = np.repeat(np.r_[score_a, score_b][:, None], 20, axis=1)        # 7 runs x 20 items
    >>> stats = np.stack([values, np.ones_like(values)], axis=2)
    >>> res = approach_t_test(stats, accuracy, ["A"] * 3 + ["B"] * 4, reference="satterthwaite")
    >>> round(res.t_statistic, 4), round(res.df, 3), round(res.pvalue, 4), res.runs, res.n_units
    (2.5117, 4.734, 0.0564, (3, 4), 20)
    >>> welch = scipy.stats.ttest_ind(score_a, score_b, equal_var=False)
    >>> round(float(welch.statistic), 4), round(float(welch.df), 3), round(float(welch.pvalue), 4)
    (2.5117, 4.734, 0.0564)
    """

    confidence_interval: ConfidenceInterval | None = None
    t_statistic: float = float("nan")
    df: float = float("nan")
    standard_error: float = float("nan")
    scores: tuple = ()
    runs: tuple = ()
    n_units: int = 0
    variance: dict | None = None
    floored: bool = False
    paired_seeds: bool = False
    reference: str = "parametric"
    target: str = TARGETS[("items", "seeds")]


#: Reference distributions of the approach t statistic (:func:`approach_t_test`).
REFERENCES = ("parametric", "satterthwaite")


def t_reference(estimate, reference: str = "parametric"):
    """The reference distribution (``sf``, ``cdf``, ``isf``) of the studentised difference for a
    :class:`~simstats.stats.crossed.CrossedVariance` ``estimate``: the fitted-components parametric
    reference (:class:`~simstats.stats.crossed.StudentisedReference`) or Student's t on the
    estimate's Satterthwaite degrees of freedom."""
    if reference not in REFERENCES:
        raise ValueError(f"reference must be one of {REFERENCES}, got {reference!r}")
    if reference == "satterthwaite":
        return distributions.t(estimate.df)
    return StudentisedReference(fitted_mean_squares(estimate))


def approach_t_test(stats, metric: Metric, approach, seed_id=None, *, approaches=None, alternative: str = "two-sided",
                    confidence_level: float | None = 0.95, paired_seeds=None, clusters=None,
                    reference: str = "parametric", variance: str = "moments", n_resamples: int = 10_000,
                    rng=None, seed=Renamed("seed_id")) -> ApproachTTestResult:
    """Test whether approach A is better than approach B over new seeds and new test items.

    The difference of the approaches' mean scores, its variance over new seeds and new items
    estimated without bias from the runs x items table by the method of moments
    (:mod:`simstats.stats.crossed`), and the studentised difference referred to its null
    distribution under the fitted variance components (``reference="parametric"``), or to
    Student's t on Satterthwaite's degrees of freedom (``"satterthwaite"``, conservative with few
    seeds or few items).  With runs whose scores do not vary over items both are Welch's t-test on
    the run scores when one approach's runs vary (the paired t-test with paired seeds); with runs of
    one approach that agree on every item, the paired t-test over items.  Validated from 3 runs per
    approach (a warning below: with 2, each approach's seed variance rests on 1 degree of freedom).

    Parameters
    ----------
    stats, metric, approach, seed_id, approaches
        As in :func:`approach_bootstrap`; at least 2 runs per approach.  Ratio metrics (F1, BLEU, ...)
        enter through their linearisation at each run's statistics.
    alternative : {"two-sided", "greater", "less"}
        "greater": A is better than B.
    confidence_level : float or None
        Level of the two-sided t interval of the difference, whatever ``alternative`` (as
        :func:`approach_bootstrap`' interval); None: no interval.
    paired_seeds : bool, optional
        Both approaches ran the same seed ids and a seed shares something between them (default:
        when both approaches have the same ids).
    clusters : array (items,), optional
        Cluster id per item: clusters are the sampling units.
    reference : {"parametric", "satterthwaite"}
        Reference distribution of the studentised difference (above).
    variance : {"moments", "bootstrap"}
        How Var(difference) is estimated: the method of moments (default), or the multi-bootstrap
        (:func:`approach_bootstrap` resampling seeds, items and both from one set of ``n_resamples``
        draws) corrected for the crossed design
        (:func:`simstats.stats.crossed.bootstrap_variance`: the same estimate up to Monte Carlo
        error, with ratio metrics resampled rather than linearised).  The reference is the same.
    n_resamples, rng
        Bootstrap resamples and seeded generator (required) of ``variance="bootstrap"``.

    Returns
    -------
    ApproachTTestResult
        The difference, its standard error, t statistic, p-value and interval, and the variance
        of the difference by source.

    Warns
    -----
    UserWarning
        With fewer than 3 runs per approach (the validated minimum).

    Raises
    ------
    ValueError
        With fewer than 2 runs per approach, an unknown option, ``variance="bootstrap"`` without
        ``rng``, or approaches that differ while nothing varies over seeds or items.

    See Also
    --------
    approach_bootstrap : the multi-bootstrap of the same difference.
    approach_margin_test : non-inferiority and equivalence from the same difference.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, approach_t_test
    >>> rng = np.random.default_rng(1)
    >>> gold_hard = rng.random(500) < 0.3                  # items some runs get wrong
    >>> def run(skill):                                     # one seed: correct (1) or not per item
    ...     return (rng.random(500) < np.where(gold_hard, skill - 0.4, skill)).astype(float)
    >>> correct = np.stack([run(0.90 + d) for d in rng.normal(0, 0.01, 5)]
    ...                    + [run(0.85 + d) for d in rng.normal(0, 0.01, 5)])
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = approach_t_test(stats, accuracy, ["A"] * 5 + ["B"] * 5)
    >>> round(res.statistic, 3), round(res.df, 1), res.pvalue < 0.05
    (0.048, 10.8, True)
    """
    seed_id = renamed("approach_t_test", "seed", "seed_id", seed, seed_id, None)
    return _approach_t(stats, metric, approach, seed_id, approaches=approaches, alternative=alternative,
                       confidence_level=confidence_level, paired_seeds=paired_seeds, clusters=clusters,
                       reference=reference, variance=variance, n_resamples=n_resamples, rng=rng)[0]


#: Estimates of Var(difference) of :func:`approach_t_test`.
VARIANCE_ESTIMATES = ("moments", "bootstrap")


def _approach_t(stats, metric, approach, seed_id, *, approaches, alternative, confidence_level, paired_seeds, clusters,
                reference, variance="moments", n_resamples=10_000, rng=None):
    """:func:`approach_t_test`'s result and its reference distribution (None when nothing varies)."""
    check_alternative(alternative)
    if confidence_level is not None:
        check_confidence_level(confidence_level)
    stats, names, runs, pairing = checked_runs(stats, metric, approach, seed_id, approaches, paired_seeds)
    if pairing is not None:
        runs = list(pairing)
    if min(r.size for r in runs) < 2:
        raise ValueError("the variance over new seeds needs at least 2 runs per approach "
                         f"(got {[r.size for r in runs]}); with one run per approach compare the runs on items "
                         "(paired_bootstrap)")
    values = oriented_unit_values(stats, metric, clusters)
    a, b = values[runs[0]], values[runs[1]]
    scores = tuple(float(metric(system_totals(stats[r])).mean()) for r in runs)
    delta = float(improvement(metric, *scores))
    if variance not in VARIANCE_ESTIMATES:
        raise ValueError(f"variance must be one of {VARIANCE_ESTIMATES}, got {variance!r}")
    if variance == "bootstrap" and rng is None:
        raise ValueError("variance='bootstrap' needs a seeded generator: pass rng (an int or a numpy Generator)")
    est = crossed_variance(a, b, paired=pairing is not None)
    parts = {"seeds": est.seeds, "units": est.units, "residual": est.residual, "total": est.variance}
    floored = est.floored
    if variance == "bootstrap":
        boot = approach_bootstrap(stats, metric, approach, seed_id, approaches=approaches, n_resamples=n_resamples,
                                  confidence_level=None, paired_seeds=paired_seeds, clusters=clusters, rng=rng)
        total, *split, floored = bootstrap_variance(boot.variance["seeds"], boot.variance["items"],
                                                    boot.variance["both"], runs=est.runs, n_units=est.n_units,
                                                    paired=est.paired)
        parts = dict(zip(("seeds", "units", "residual"), split), total=total)
    se = float(np.sqrt(max(parts["total"], 0.0)))
    if negligible(se, data_scale(values)):      # rounding residue of exactly no variation
        se = 0.0
    if se == 0 and delta != 0:
        raise ValueError(f"the approaches differ by {delta:.6g} but nothing varies over seeds or items (variance of "
                         "the difference 0): there is nothing to test against")
    if reference not in REFERENCES:
        raise ValueError(f"reference must be one of {REFERENCES}, got {reference!r}")
    if min(est.runs) < MIN_VALIDATED_RUNS:
        warnings.warn(f"{min(est.runs)} runs per approach: the seed variance rests on {min(est.runs) - 1} degree of "
                      f"freedom per approach (or per seed-by-seed difference) and the test is validated from "
                      f"{MIN_VALIDATED_RUNS} runs per approach (with 2 it rejected identical approaches in up to 0.12 "
                      "of simulated studies)", stacklevel=3)
    t_stat = delta / se if se > 0 else 0.0       # no variation and no difference: p = 1
    if se == 0:     # identical on every item of every seed: no difference, and no variance for an interval
        pvalue, half = 1.0, float("nan")
    else:
        dist = t_reference(est, reference)
        if alternative == "two-sided":
            pvalue = 2 * float(dist.sf(abs(t_stat)))
        else:
            pvalue = float(dist.sf(t_stat) if alternative == "greater" else dist.cdf(t_stat))
        half = float(dist.isf((1 - confidence_level) / 2)) * se if confidence_level is not None else 0.0
    ci = ConfidenceInterval(delta - half, delta + half) if confidence_level is not None else None
    ref_name = "fitted-components reference" if reference == "parametric" else "t on Satterthwaite df"
    how = ("method of moments" if variance == "moments" else
           f"crossed-design corrected bootstrap variance, {n_resamples} resamples")
    method = (f"approach t-test over seeds and {'clusters' if clusters is not None else 'items'} "
              f"({how}, {ref_name}{', paired seeds' if pairing is not None else ''})")
    result = ApproachTTestResult(delta, min(float(pvalue), 1.0), alternative, method, confidence_interval=ci,
                                 t_statistic=t_stat, df=est.df if se > 0 else float("nan"), standard_error=se,
                                 scores=scores, runs=est.runs,
                                 n_units=est.n_units, variance=parts, floored=floored,
                                 paired_seeds=pairing is not None, reference=reference)
    return result, (dist if se > 0 else None)


#: Claims a margin test can show (:func:`approach_margin_test`).
MARGIN_HYPOTHESES = ("non-inferiority", "equivalence")


@dataclass(frozen=True)
class MarginTestResult(TestResult):
    """Result of :func:`approach_margin_test` and :func:`paired_margin_test`.

    Attributes
    ----------
    statistic : float
        The difference (A minus B, A's improvement).
    pvalue : float
        p-value of the margin hypothesis (the larger of the two one-sided p-values for
        equivalence).
    alternative : str
        "greater" (non-inferiority) or "two-sided" (equivalence).
    method : str
        The computation, in words.
    margin : float
        The margin, in metric units.
    hypothesis : str
        "non-inferiority" or "equivalence".
    alpha : float
        The level.
    shown : bool
        pvalue < alpha.
    confidence_interval : ConfidenceInterval
        The two-sided 1 - 2 alpha t interval, which lies above -margin (non-inferiority) or
        inside (-margin, margin) (equivalence) exactly when ``shown``.
    df : float
        Degrees of freedom of the t reference.
    standard_error : float
        Standard error of the difference.
    verdict : str
        The answer in words.

    Examples
    --------
    The non-inferiority p-value of two runs is the one-sided one-sample t-test of the per-item
    differences against -margin:

    >>> import numpy as np
    >>> import scipy.stats
    >>> from simstats import accuracy, paired_margin_test
    >>> rng = np.random.default_rng(1)
    >>> easy = rng.random(400) < 0.8                            # items both runs tend to get right
    >>> a, b = (rng.random((2, 400)) < np.where(easy, 0.95, 0.4)).astype(float)
    >>> stats = np.stack([np.stack([x, np.ones(400)], 1) for x in (a, b)])
    >>> res = paired_margin_test(stats, accuracy, margin=0.04)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.shown
    (0.02, 0.0046, True)
    >>> ref = scipy.stats.ttest_1samp(a - b, -0.04, alternative="greater")
    >>> round(float(ref.pvalue), 4)
    0.0046

    The 90 % interval (1 - 2 alpha) lies above -margin, as the test decides:

    >>> [round(x, 4) for x in res.confidence_interval]
    [-0.0178, 0.0578]
    >>> res.verdict
    'A is non-inferior to B (margin 0.04): p = 0.0046 < 0.05'
    """

    margin: float = float("nan")
    hypothesis: str = "non-inferiority"
    alpha: float = 0.05
    shown: bool = False
    confidence_interval: ConfidenceInterval | None = None
    df: float = float("nan")
    standard_error: float = float("nan")
    verdict: str = ""


def approach_margin_test(stats, metric: Metric, approach, seed_id=None, *, margin: float,
                         hypothesis: str = "non-inferiority", alpha: float = 0.05, approaches=None,
                         paired_seeds=None, clusters=None, reference: str = "parametric", variance: str = "moments",
                         n_resamples: int = 10_000, rng=None, seed=Renamed("seed_id")) -> MarginTestResult:
    """Test that approach A is non-inferior, or equivalent, to approach B within a margin.

    Is approach A at most ``margin`` worse than B (non-inferiority), or within ``margin`` of B
    (equivalence, two one-sided tests), over new seeds and new test items?

    The difference, its standard error and reference distribution (``reference``, ``variance``,
    ``n_resamples``, ``rng``) are those of :func:`approach_t_test`.  Non-inferiority tests H0: difference <= -margin against
    H1: difference > -margin, with p = P(T > (difference + margin) / se); equivalence tests
    H0: |difference| >= margin with p = max of P(T > (difference + margin) / se) and
    P(T < (difference - margin) / se) (Schuirmann 1987).  ``margin`` is in metric units (> 0); the difference is A's improvement, so a
    lower-is-better metric is handled as in :func:`approach_t_test`.

    Parameters
    ----------
    stats, metric, approach, seed_id
        As in :func:`approach_t_test`: per-item statistics of every run, the metric, each run's
        approach label and (optionally) seed id.
    margin : float
        Margin in metric units (> 0).
    hypothesis : {"non-inferiority", "equivalence"}
        The claim to show (:data:`MARGIN_HYPOTHESES`).
    alpha : float
        Level, in (0, 0.5); the interval has level 1 - 2 alpha.
    approaches, paired_seeds, clusters, reference, variance, n_resamples, rng
        As in :func:`approach_t_test`.

    Returns
    -------
    MarginTestResult
        The difference, the p-value of the claim, whether it is ``shown`` at ``alpha``, and the
        verdict in words.

    Raises
    ------
    ValueError
        If ``margin`` is not a positive number, ``hypothesis`` is unknown, ``alpha`` is outside
        (0, 0.5), or for the reasons :func:`approach_t_test` gives.

    See Also
    --------
    paired_margin_test : the same claims for one run per system, over items.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, approach_margin_test
    >>> rng = np.random.default_rng(3)
    >>> correct = (rng.random((10, 2000)) < 0.8).astype(float)      # 5 runs each of two equal approaches
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> res = approach_margin_test(stats, accuracy, ["A"] * 5 + ["B"] * 5, margin=0.02)
    >>> res.verdict
    'A is non-inferior to B (margin 0.02): p = 0.00014 < 0.05'

    With runs whose values do not vary over items and ``reference="satterthwaite"``, the
    non-inferiority p-value is Welch's one-sided t-test of A's scores shifted up by the margin:

    >>> import scipy.stats
    >>> score_a, score_b = np.array([0.81, 0.83, 0.80]), np.array([0.82, 0.84, 0.80, 0.83])
    >>> values = np.repeat(np.r_[score_a, score_b][:, None], 20, axis=1)
    >>> flat = np.stack([values, np.ones_like(values)], axis=2)
    >>> res = approach_margin_test(flat, accuracy, ["A"] * 3 + ["B"] * 4, margin=0.03, reference="satterthwaite")
    >>> round(res.pvalue, 4)
    0.0769
    >>> welch = scipy.stats.ttest_ind(score_a + 0.03, score_b, equal_var=False, alternative="greater")
    >>> round(float(welch.pvalue), 4)
    0.0769
    """
    seed_id = renamed("approach_margin_test", "seed", "seed_id", seed, seed_id, None)
    _check_margin(margin, hypothesis, alpha)
    base, dist = _approach_t(stats, metric, approach, seed_id, approaches=approaches, alternative="two-sided",
                             confidence_level=1 - 2 * alpha, paired_seeds=paired_seeds, clusters=clusters,
                             reference=reference, variance=variance, n_resamples=n_resamples, rng=rng)
    names = approaches or list(dict.fromkeys(np.asarray(approach).tolist()))
    ref_name = "fitted-components reference" if reference == "parametric" else "t on Satterthwaite df"
    method = f"approach {hypothesis} test over seeds and items ({ref_name}{', TOST' if hypothesis == 'equivalence' else ''})"
    return _margin_result(base.statistic, base.standard_error, dist, margin, hypothesis, alpha, names, method,
                          base.confidence_interval, base.df)


def _check_margin(margin: float, hypothesis: str, alpha: float) -> None:
    if not (np.isfinite(margin) and margin > 0):
        raise ValueError(f"margin must be a positive number in metric units, got {margin}")
    if hypothesis not in MARGIN_HYPOTHESES:
        raise ValueError(f"hypothesis must be one of {MARGIN_HYPOTHESES}, got {hypothesis!r}")
    if not 0 < alpha < 0.5:
        raise ValueError(f"alpha must be in (0, 0.5), got {alpha}")


def _margin_result(delta, se, dist, margin, hypothesis, alpha, names, method, interval, df) -> MarginTestResult:
    """The margin test of a difference ``delta`` with standard error ``se`` whose studentised form has the
    reference ``dist`` (``sf``, ``cdf``; None when se = 0): p-values, verdict and result.  With a standard
    error of 0 (nothing varies) the margin cannot be judged: no difference in these data says nothing of how
    far apart the two are on new items or seeds, so the claim is not tested (p NaN) and not shown."""
    claim = "non-inferior to" if hypothesis == "non-inferiority" else "equivalent to"
    if not se > 0:
        return MarginTestResult(delta, float("nan"), "greater" if hypothesis == "non-inferiority" else "two-sided",
                                method, margin=float(margin), hypothesis=hypothesis, alpha=alpha, shown=False,
                                confidence_interval=ConfidenceInterval(float("nan"), float("nan")), df=float("nan"),
                                standard_error=0.0,
                                verdict=f"{names[0]} is not shown {claim} {names[1]} (margin {margin:g}): not tested, "
                                        "nothing varies over the items (variance of the difference 0), so the data "
                                        "cannot bound the difference")
    lower = float(dist.sf((delta + margin) / se))
    pvalue = lower
    if hypothesis == "equivalence":
        pvalue = max(lower, float(dist.cdf((delta - margin) / se)))
    shown = bool(pvalue < alpha)
    verdict = (f"{names[0]} is {claim} {names[1]} (margin {margin:g}): p = {pvalue:.2g} < {alpha:g}" if shown else
               f"{names[0]} is not shown {claim} {names[1]} (margin {margin:g}): p = {pvalue:.2g} >= {alpha:g}")
    return MarginTestResult(delta, pvalue, "greater" if hypothesis == "non-inferiority" else "two-sided", method,
                            margin=float(margin), hypothesis=hypothesis, alpha=alpha, shown=shown,
                            confidence_interval=interval, df=float(df), standard_error=se, verdict=verdict)


def paired_margin_test(stats, metric: Metric, *, margin: float, hypothesis: str = "non-inferiority",
                       alpha: float = 0.05, clusters=None, names=("A", "B")) -> MarginTestResult:
    """Test that run A is non-inferior, or equivalent, to run B within a margin, over test items.

    Is run A at most ``margin`` worse than run B (non-inferiority), or within ``margin`` of it
    (equivalence, two one-sided tests), on new test items?  One run per system.

    The paired t-test over items on the per-item differences d_i = y_Ai - y_Bi (per cluster with
    ``clusters``; ratio metrics through their linearisation at each run's statistics, so that the mean
    of d_i is the difference of the runs' scores; a lower-is-better metric is negated, so d is A's
    improvement): non-inferiority p = P(T_(n-1) > (mean d + margin) / se), equivalence the larger of
    that and P(T_(n-1) < (mean d - margin) / se) (Schuirmann 1987); ``confidence_interval`` is the
    1 - 2 alpha t interval, which decides as the test does.

    Parameters
    ----------
    stats : array (2, items, k)
        Per-item statistics of run A and run B on the same items.
    metric : Metric
        Metric of summed statistics.
    margin : float
        Margin in metric units (> 0).
    hypothesis : {"non-inferiority", "equivalence"}
        The claim to show (:data:`MARGIN_HYPOTHESES`).
    alpha : float
        Level, in (0, 0.5); the interval has level 1 - 2 alpha.
    clusters : array (items,), optional
        Cluster id per item: the t-test runs over clusters.
    names : (str, str)
        Names of A and B in the verdict.

    Returns
    -------
    MarginTestResult
        The mean difference, the p-value of the claim, whether it is ``shown`` at ``alpha``, and
        the verdict in words.

    Raises
    ------
    ValueError
        If ``margin``, ``hypothesis`` or ``alpha`` is invalid, ``stats`` does not hold exactly two
        runs, or there are fewer than 2 items (clusters).

    See Also
    --------
    approach_margin_test : the same claims for approaches with several seeds.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, paired_margin_test
    >>> rng = np.random.default_rng(0)
    >>> gold_easy = rng.random(3000) < 0.8
    >>> a = (rng.random(3000) < np.where(gold_easy, 0.95, 0.40)).astype(float)
    >>> b = (rng.random(3000) < np.where(gold_easy, 0.95, 0.42)).astype(float)
    >>> stats = np.stack([np.stack([a, np.ones(3000)], 1), np.stack([b, np.ones(3000)], 1)])
    >>> paired_margin_test(stats, accuracy, margin=0.02).verdict
    'A is non-inferior to B (margin 0.02): p = 0.0021 < 0.05'
    """
    _check_margin(margin, hypothesis, alpha)
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 3 or stats.shape[0] != 2:
        raise ValueError(f"stats must hold exactly two runs (2, items, k), got shape {stats.shape}")
    values = oriented_unit_values(stats, metric, clusters)
    d = values[0] - values[1]
    n = d.size
    if n < 2:
        raise ValueError(f"the margin test needs at least 2 test {'clusters' if clusters is not None else 'items'}")
    delta, se, df = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)), n - 1
    if negligible(se, data_scale(values)):     # every item difference the same: no variance (rounding residue)
        se = 0.0
    dist = distributions.t(df)
    half = float(dist.isf(alpha)) * se
    method = (f"paired {hypothesis} test of two runs over {'clusters' if clusters is not None else 'items'} "
              f"(t on {df} df{', TOST' if hypothesis == 'equivalence' else ''})")
    return _margin_result(delta, se, dist, margin, hypothesis, alpha, names, method,
                          ConfidenceInterval(delta - half, delta + half), df)


APPROACH_TESTS = ("t", "bootstrap")


def compare_approaches(stats, metric: Metric, approach, seed_id=None, *, test: str | None = None, resample=None,
                       approaches=None, alternative: str = "two-sided", confidence_level: float | None = 0.95,
                       paired_seeds=None, clusters=None, n_resamples: int = 10_000, rng=None, **options):
    """Compare approach A with approach B over seeds and test items, with the defaults of ``simstats compare``.

    The default is the approach t-test (:func:`approach_t_test`), which holds its level over new seeds and
    new test items in the approaches study, also with 3 seeds when seed variance dominates.  The seeds x items
    bootstrap (:func:`approach_bootstrap`) runs only on request: ``test="bootstrap"``, or ``resample=``
    naming what to resample (as ``--resample`` does on the command line).

    Parameters
    ----------
    stats, metric, approach, seed_id, approaches, alternative, confidence_level, paired_seeds, clusters
        As in :func:`approach_t_test`.
    test : {"t", "bootstrap"}, optional
        The test (default: ``"t"``, or ``"bootstrap"`` when ``resample`` is given).
    resample : tuple of {"seeds", "items"}, optional
        The bootstrap's claim (:func:`approach_bootstrap`; default there: seeds and items).
    n_resamples, rng
        The bootstrap's resamples and seeded generator (required for the bootstrap, and for the t-test's
        ``variance="bootstrap"``).
    **options
        Further keywords of the chosen test (e.g. ``variance``, ``reference`` of the t-test;
        ``pvalue_method``, ``pvalue_rule`` of the bootstrap).

    Returns
    -------
    ApproachTTestResult or ApproachComparisonResult
        The chosen test's result.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, approach_t_test, compare_approaches
    >>> correct = (np.random.default_rng(1).random((6, 200)) < 0.8).astype(float)    # 3 runs each
    >>> stats = np.stack([correct, np.ones_like(correct)], axis=2)
    >>> labels = ["A"] * 3 + ["B"] * 3
    >>> res = compare_approaches(stats, accuracy, labels)
    >>> res.pvalue == approach_t_test(stats, accuracy, labels).pvalue
    True
    >>> compare_approaches(stats, accuracy, labels, resample=("items",), n_resamples=500, rng=0).target
    'these trained runs on new test items'
    """
    test = ("bootstrap" if resample is not None else "t") if test is None else test
    if test not in APPROACH_TESTS:
        raise ValueError(f"test must be one of {APPROACH_TESTS}, got {test!r}")
    common = dict(approaches=approaches, alternative=alternative, confidence_level=confidence_level,
                  paired_seeds=paired_seeds, clusters=clusters, n_resamples=n_resamples, rng=rng)
    if test == "t":
        if resample is not None:
            raise ValueError("resample= is the bootstrap's claim; the t-test's claim is new seeds and new test items")
        return approach_t_test(stats, metric, approach, seed_id, **common, **options)
    if rng is None:
        raise ValueError("the bootstrap needs a seeded generator: pass rng (an int or a numpy Generator)")
    return approach_bootstrap(stats, metric, approach, seed_id, resample=("seeds", "items") if resample is None
                              else resample, **common, **options)

