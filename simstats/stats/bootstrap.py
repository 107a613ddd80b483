"""Paired bootstrap test of metric differences, for many system pairs at once.

Every pair of a call shares the same resamples of the test items (or of whole clusters
when ``clusters`` is given), drawn from the generator passed in.  Which replicates count as
"at least as extreme" as observed (``pvalue_method``), for the improvement delta of A over B
and its bootstrap replicates delta*:

``shift`` (Berg-Kirkpatrick et al. 2012; CompStats' default)
    greater: P*(delta* >= 2 delta); less: P*(delta* <= 2 delta);
    two-sided: P*(|delta* - delta| >= |delta|).  The bootstrap distribution shifted to
    mean 0 stands in for the null distribution.
``percentile`` (Koehn 2004's rule: A is better at 95 % when it wins in 95 % of the resamples)
    greater: P*(delta* <= 0); less: P*(delta* >= 0); two-sided: twice the smaller, at most 1.
``sacrebleu`` (``sacrebleu --paired-bs``; :func:`paired_bootstrap` only, two-sided only)
    p = (c + 1) / (B + 1), c = #{ |delta*| - mean(|delta*|) > |delta| }: the absolute replicate
    differences centred at their mean, compared strictly with the absolute observed one
    (sacrebleu's ``_paired_bs_test``, which follows Moses' bootstrap-hypothesis-difference-significance.pl).

How a count c of the B replicates becomes a p-value (``pvalue_rule``, shift and percentile):
``"add-one"`` (c + 1) / (B + 1), never 0 (Davison & Hinkley 1997; Phipson & Smyth 2010), the
default; ``"fraction"`` c / B, the convention of several papers (it can print p = 0, which
passes any threshold).  shift and percentile use ">=" / "<=": identical systems
(delta* = delta = 0) get p = 1.  sacrebleu's strict ">" gives identical systems the smallest p,
1 / (B + 1), as sacrebleu does.
With ``rng`` a fresh generator seeded s, no clusters and no weights, the resamples are those of
sacrebleu's ``numpy.random.default_rng(s).choice(n, size=(B, n))`` (sacrebleu: s = 12345,
B = 1000), so pvalue_method="sacrebleu" reproduces sacrebleu's p-values for the same statistics.
"""
from __future__ import annotations

import numpy as np

from simstats.stats.engine import (BOOTSTRAP_COMPRESS_FACTOR, TIE_TOL, ColumnPack, as_generator, check_stats,
                                   improvement, item_groups, replicates, system_totals)
from simstats.stats.metrics import Metric
from simstats.stats.resample import ClusterCounts, ItemCounts, RowCounts, aggregate_clusters, check_weights
from simstats.stats.renamed import Renamed, renamed
from simstats.stats.results import (BootstrapResult, ConfidenceInterval, ScoreIntervals, check_alternative,
                                    check_confidence_level)

__all__ = ["paired_bootstrap", "bootstrap_scores", "bootstrap_score_matrix", "extreme_counts", "pvalues_from_counts",
           "PVALUE_METHODS", "PAIRED_PVALUE_METHODS", "PVALUE_RULES"]

#: Which replicates count as extreme, for every bootstrap test (paired_bootstrap, approach_bootstrap).
PVALUE_METHODS = ("shift", "percentile")
#: paired_bootstrap also takes sacrebleu's.
PAIRED_PVALUE_METHODS = PVALUE_METHODS + ("sacrebleu",)
#: How a count of extreme replicates becomes a p-value: (c + 1)/(B + 1) (default, never 0) or c/B.
PVALUE_RULES = ("add-one", "fraction")


def extreme_counts(delta_star: np.ndarray, delta: np.ndarray, alternative: str, pvalue_method: str) -> np.ndarray:
    """Count the bootstrap replicates at least as extreme as observed, per pair.

    The counting half of a bootstrap p-value (module docstring); :func:`pvalues_from_counts`
    turns the counts into p-values.

    Parameters
    ----------
    delta_star : numpy.ndarray, shape (replicates, pairs)
        Bootstrap replicates of each pair's improvement.
    delta : numpy.ndarray, shape (pairs,)
        Observed improvement of each pair.
    alternative : {"two-sided", "greater", "less"}
        The alternative (``pvalue_method="shift"``; the percentile counts serve every alternative).
    pvalue_method : {"shift", "percentile"}
        What counts as extreme.

    Returns
    -------
    numpy.ndarray
        ``"shift"``: one count per pair, shape (pairs,); ``"percentile"``: shape (2, pairs), the
        counts of delta* <= 0 and of delta* >= 0.

    Notes
    -----
    Comparisons allow a relative tolerance of TIE_TOL, so exact ties count as extreme.

    Examples
    --------
    Five replicates of one pair whose observed improvement is 0.1:

    >>> import numpy as np
    >>> delta_star = np.array([[0.3], [0.05], [0.25], [-0.1], [0.2]])
    >>> delta = np.array([0.1])

    greater counts delta* >= 2 delta = 0.2 (0.3, 0.25 and the tie 0.2); two-sided counts
    |delta* - delta| >= |delta| (all but 0.05):

    >>> extreme_counts(delta_star, delta, "greater", "shift"), extreme_counts(delta_star, delta, "two-sided", "shift")
    (array([3]), array([4]))
    >>> extreme_counts(delta_star, delta, "two-sided", "percentile")
    array([[1],
           [4]])
    >>> pvalues_from_counts(extreme_counts(delta_star, delta, "greater", "shift"), 5).round(4)
    array([0.6667])
    """
    tol = TIE_TOL * np.maximum(1.0, np.abs(delta))
    if pvalue_method == "shift":
        if alternative == "greater":
            hit = delta_star >= 2 * delta - 2 * tol
        elif alternative == "less":
            hit = delta_star <= 2 * delta + 2 * tol
        else:
            hit = np.abs(delta_star - delta) >= np.abs(delta) - tol
        return np.count_nonzero(hit, axis=0)
    low = np.count_nonzero(delta_star <= tol, axis=0)
    high = np.count_nonzero(delta_star >= -tol, axis=0)
    return np.stack([low, high])


def check_bootstrap_options(alternative: str, pvalue_method: str, n_resamples: int, confidence_level,
                            pvalue_methods=PVALUE_METHODS, pvalue_rule: str = "add-one") -> None:
    """ValueError naming the first bad option of a bootstrap test."""
    check_alternative(alternative)
    if pvalue_method not in pvalue_methods:
        raise ValueError(f"pvalue_method must be one of {tuple(pvalue_methods)}, got {pvalue_method!r}")
    check_pvalue_rule(pvalue_rule)
    if pvalue_method == "sacrebleu" and alternative != "two-sided":
        raise ValueError(f"pvalue_method 'sacrebleu' is two-sided (sacrebleu's paired bootstrap tests |difference|), "
                         f"got alternative={alternative!r}")
    if pvalue_method == "sacrebleu" and pvalue_rule != "add-one":
        raise ValueError("pvalue_method 'sacrebleu' has its own rule, (c + 1)/(B + 1): pvalue_rule must be 'add-one'")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if confidence_level is not None:
        check_confidence_level(confidence_level)


def check_pvalue_rule(pvalue_rule: str) -> str:
    """``pvalue_rule`` if it is one of :data:`PVALUE_RULES`, else a ValueError naming it."""
    if pvalue_rule not in PVALUE_RULES:
        raise ValueError(f"pvalue_rule must be one of {PVALUE_RULES}, got {pvalue_rule!r}")
    return pvalue_rule


def pvalues_from_counts(counts, n_resamples: int, alternative: str = "two-sided", pvalue_method: str = "shift",
                        pvalue_rule: str = "add-one") -> np.ndarray:
    """p-values from counts of replicates at least as extreme as observed.

    Parameters
    ----------
    counts : array_like
        For ``pvalue_method="shift"``: the count per pair (:func:`extreme_counts`); for
        ``"percentile"``: (2, pairs) counts of delta* <= 0 and delta* >= 0.
    n_resamples : int
        The number B of replicates the counts are out of.
    alternative : {"two-sided", "greater", "less"}
        The alternative the counts were made for (percentile: which count is the p-value).
    pvalue_method : {"shift", "percentile"}
        How the counts were made (module docstring).
    pvalue_rule : {"add-one", "fraction"}
        (c + 1)/(B + 1), never 0 (default), or c/B.

    Returns
    -------
    numpy.ndarray
        One p-value per pair, in (0, 1] with ``"add-one"``.

    Raises
    ------
    ValueError
        If ``pvalue_rule`` is not one of :data:`PVALUE_RULES`.

    See Also
    --------
    extreme_counts : the counts this function takes.

    Examples
    --------
    >>> pvalues_from_counts([0, 5, 300], 300).round(4)
    array([0.0033, 0.0199, 1.    ])
    >>> pvalues_from_counts([0, 5, 300], 300, pvalue_rule="fraction").round(4)
    array([0.    , 0.0167, 1.    ])
    """
    counts = np.asarray(counts, dtype=float)
    if check_pvalue_rule(pvalue_rule) == "add-one":
        p = (counts + 1) / (n_resamples + 1)
    else:
        p = counts / n_resamples
    if pvalue_method == "shift":
        return p
    low, high = p
    return {"greater": low, "less": high, "two-sided": np.minimum(1.0, 2 * np.minimum(low, high))}[alternative]


def sacrebleu_pvalues(delta_star: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """sacrebleu's paired-bootstrap p-value per pair (``sacrebleu.significance._paired_bs_test``).

    delta_star: (replicates B, pairs) bootstrap differences; delta: (pairs,) observed ones.
    sample = |delta*|; c = #{sample - mean(sample) > |delta|} (strict, no tolerance);
    p = (c + 1) / (B + 1)."""
    sample = np.abs(delta_star)
    centred = sample - sample.mean(axis=0)
    count = np.count_nonzero(centred > np.abs(delta), axis=0)
    return (count + 1) / (delta_star.shape[0] + 1)


def _shared_ratio(stats: np.ndarray, metric: Metric, systems: np.ndarray):
    """(num, den) if metric is a plain ratio whose denominator column all systems share."""
    if metric.ratio_of is None:
        return None
    num, den = metric.ratio_of
    first = stats[systems[0], :, den]
    if all(np.array_equal(stats[s, :, den], first) for s in systems[1:]):
        return num, den
    return None


def paired_bootstrap(stats, metric: Metric, pairs=None, *, alternative: str = "two-sided", n_resamples: int = 10_000,
                     confidence_level: float | None = 0.95, pvalue_method: str = "shift",
                     pvalue_rule: str = "add-one", clusters=None, weights=None, compress_items: bool = True,
                     rng, convention=Renamed("pvalue_method")) -> BootstrapResult:
    """Paired bootstrap test of the improvement of system A over system B, for each (A, B) pair.

    Parameters
    ----------
    stats : array (systems, items, k)
        Per-item statistics for ``metric`` (e.g. correct/items for accuracy).
    metric : Metric
        Metric of summed statistics (:mod:`simstats.stats.metrics`).
    pairs : array (pairs, 2), optional
        (A, B) system indices; default (0, 1) for two systems.
    alternative : {"two-sided", "greater", "less"}
        "greater": A is better than B.
    n_resamples : int
        Bootstrap replicates B, shared by every pair.
    confidence_level : float or None
        Level of the percentile interval of the improvement (None: no interval).
    pvalue_method : {"shift", "percentile", "sacrebleu"}
        Which replicates count as extreme (module docstring); "sacrebleu" is two-sided only.
    pvalue_rule : {"add-one", "fraction"}
        (c + 1)/(B + 1), never 0 (default), or c/B (shift and percentile; sacrebleu has its own
        add-one rule).
    clusters : array (items,), optional
        Cluster id per item: whole clusters are resampled.
    weights : array (items,), optional
        Item multiplicities: each row of ``stats`` stands for ``weights[i]`` identical items,
        resampled with :class:`simstats.stats.resample.RowCounts` (same distribution as the
        item bootstrap of the expanded items).
    compress_items : bool
        When the items (or clusters) take few distinct joint statistic rows over all systems
        in ``stats`` (at most 1/4 of them), draw Multinomial(n; sizes / n) counts over those rows
        (:func:`simstats.stats.engine.item_groups`): the same distribution as the item
        bootstrap at a cost of O(rows) per replicate, but other random numbers than the
        per-item draw, which False keeps.  The sacrebleu method never compresses, so that
        its resamples stay sacrebleu's.
    rng : numpy.random.Generator or int
        Seeded generator (required; no global random state).

    Returns
    -------
    BootstrapResult
        Arrays over pairs: statistic (observed improvement), pvalue, confidence_interval.

    Raises
    ------
    ValueError
        If an option is invalid (``alternative``, ``pvalue_method``, ``pvalue_rule``,
        ``n_resamples`` < 1, ``confidence_level`` outside (0, 1), "sacrebleu" with a one-sided
        alternative or the fraction rule), if both ``clusters`` and ``weights`` are given, or if
        ``stats`` does not fit ``metric``.

    See Also
    --------
    randomization_test : the randomization test of the same improvement.
    bootstrap_scores : each system's score with its interval, from the same resampling.

    Examples
    --------
    Six test items; A is right on five, B on three, and A is never wrong where B is right:

    >>> import numpy as np
    >>> from scipy import stats as sps
    >>> from simstats import accuracy, paired_bootstrap
    >>> a = np.array([1, 1, 1, 0, 1, 1])
    >>> b = np.array([0, 1, 0, 0, 1, 1])
    >>> stats = np.stack([np.stack([x, np.ones(6)], axis=1) for x in (a, b)])    # (correct, items) per item
    >>> res = paired_bootstrap(stats, accuracy, n_resamples=20000, pvalue_rule="fraction", rng=0)
    >>> round(float(res.statistic[0]), 4), round(float(res.pvalue[0]), 2)
    (0.3333, 0.19)
    >>> res.method
    'paired bootstrap (shift p-value, c/B, resampling items)'

    A resample's improvement is K/6, with K ~ Binomial(6, 1/3) the draws of the two items A
    alone gets right, so the exact two-sided shift p-value is
    P(|K/6 - 1/3| >= 1/3) = P(K = 0) + P(K >= 4), which the c/B estimate approximates:

    >>> k = sps.binom(6, 1 / 3)
    >>> round(float(k.pmf(0) + k.sf(3)), 2)
    0.19

    Several pairs share one set of resamples; ``result[i]`` is pair i's result:

    >>> c = np.array([1, 1, 1, 0, 0, 1])
    >>> stats3 = np.stack([np.stack([x, np.ones(6)], axis=1) for x in (a, b, c)])
    >>> res = paired_bootstrap(stats3, accuracy, [(0, 1), (0, 2)], n_resamples=2000, rng=0)
    >>> len(res), round(float(res[1].statistic), 4), res[1].scores.round(4).tolist()
    (2, 0.1667, [0.8333, 0.6667])
    """
    pvalue_method = renamed("paired_bootstrap", "convention", "pvalue_method", convention, pvalue_method, "shift")
    check_bootstrap_options(alternative, pvalue_method, n_resamples, confidence_level, PAIRED_PVALUE_METHODS,
                            pvalue_rule)
    stats, pairs = check_stats(stats, metric, pairs)
    rng = as_generator(rng)
    if clusters is not None and weights is not None:
        raise ValueError("give either clusters or weights, not both")
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    systems, local = np.unique(pairs, return_inverse=True)
    local = local.reshape(pairs.shape)
    if weights is not None:
        weights = check_weights(weights, stats.shape[1])
        totals = np.einsum("i,sik->sk", weights, stats.astype(np.float64))[systems]
        rows, sizes = None, weights
    else:
        totals = system_totals(stats[systems])
        # keyed on every system given, so a pair's resamples do not depend on the other pairs of the call
        groups = item_groups(stats, np.arange(stats.shape[0]), BOOTSTRAP_COMPRESS_FACTOR) \
            if compress_items and pvalue_method != "sacrebleu" else None
        rows, sizes = (None, None) if groups is None else groups
    # a replicate's weights sum to the items (or weighted rows) drawn, whatever rows they fall on
    total_weight = float(weights.sum()) if weights is not None else float(stats.shape[1])
    observed = metric(totals)
    ratio = _shared_ratio(stats, metric, systems)
    if ratio is not None:
        # sum(num)/sum(den) with one shared denominator: a pair needs only num_a - num_b
        num, den = ratio
        diffs = stats[pairs[:, 0], :, num].astype(np.float64) - stats[pairs[:, 1], :, num]
        if not metric.higher_is_better:
            diffs = -diffs
        columns = np.concatenate([stats[systems[0], :, den][None].astype(np.float64), diffs])[:, :, None]
        if weights is None:
            total_den, total_diff = float(columns[0, :, 0].sum()), diffs.sum(axis=1)
        else:
            total_den, total_diff = float(columns[0, :, 0] @ weights), diffs @ weights
        pack = ColumnPack(columns if rows is None else columns[:, rows], np.arange(columns.shape[0]), total_weight)
        delta = total_diff / total_den if total_den else np.zeros(pairs.shape[0])
        elementwise = False

        def statistic(sums):
            sums = sums[:, :, 0]
            with np.errstate(divide="ignore", invalid="ignore"):
                d = sums[:, 1:] / sums[:, :1]
            return np.where(sums[:, :1] != 0, d, 0.0)
    else:
        delta = improvement(metric, observed[local[:, 0]], observed[local[:, 1]])
        pack = ColumnPack(stats if rows is None else stats[:, rows], systems, total_weight)
        elementwise = metric.elementwise

        def statistic(sums):
            values = metric(sums)
            return improvement(metric, values[:, local[:, 0]], values[:, local[:, 1]])
    if sizes is not None:
        resampler = RowCounts(rng, n_resamples, sizes)
    elif clusters is not None:
        resampler = ClusterCounts(rng, n_resamples, clusters, pack.rows)
    else:
        resampler = ItemCounts(rng, n_resamples, stats.shape[1], pack.rows)
    # sacrebleu's p-value centres at the mean over all replicates: keep them all
    keep, counts = replicates(resampler, pack, statistic, elementwise=elementwise,
                              keep=confidence_level is not None or pvalue_method == "sacrebleu",
                              count=None if pvalue_method == "sacrebleu"
                              else (lambda d: extreme_counts(d, delta, alternative, pvalue_method)))
    if pvalue_method == "sacrebleu":
        pvalue = sacrebleu_pvalues(keep, delta)
    else:
        pvalue = pvalues_from_counts(counts, n_resamples, alternative, pvalue_method, pvalue_rule)
    ci = None
    if confidence_level is not None:
        a = (1 - confidence_level) / 2
        lo, hi = np.quantile(keep, [a, 1 - a], axis=0)
        ci = ConfidenceInterval(lo, hi)
    unit = "clusters" if clusters is not None else "items"
    rule = "(c + 1)/(B + 1)" if pvalue_method == "sacrebleu" or pvalue_rule == "add-one" else "c/B"
    return BootstrapResult(delta, pvalue, alternative,
                           f"paired bootstrap ({pvalue_method} p-value, {rule}, resampling {unit})",
                           confidence_interval=ci, pairs=pairs, scores=observed[local], n_resamples=n_resamples,
                           pvalue_method=pvalue_method,
                           pvalue_rule="add-one" if pvalue_method == "sacrebleu" else pvalue_rule)


def item_bootstrap(stats: np.ndarray, systems, rng: np.random.Generator, n_resamples: int,
                   compress_items: bool = True, clusters=None):
    """The systems' statistic columns and the bootstrap's resampler for them: (ColumnPack, resampler).

    ``stats`` are the items' statistics, or with ``clusters`` (each item's cluster id) the clusters'
    (:func:`simstats.stats.resample.aggregate_clusters`).  With few distinct joint rows over
    ``systems`` (:func:`simstats.stats.engine.item_groups`) the pack holds one row per group and the
    resampler draws Multinomial(n; sizes / n) counts over the groups (:class:`RowCounts`); otherwise
    one row per item (cluster) and item (cluster) counts (:class:`ItemCounts`, :class:`ClusterCounts`)."""
    n = stats.shape[1]
    groups = item_groups(stats, systems, BOOTSTRAP_COMPRESS_FACTOR) if compress_items else None
    if groups is None:
        pack = ColumnPack(stats, systems)
        if clusters is not None:
            return pack, ClusterCounts(rng, n_resamples, clusters, pack.rows)
        return pack, ItemCounts(rng, n_resamples, n, pack.rows)
    first, sizes = groups
    return ColumnPack(stats[:, first], systems, n), RowCounts(rng, n_resamples, sizes)


def bootstrap_score_matrix(stats, metric: Metric, *, n_resamples: int = 10_000, clusters=None,
                           compress_items: bool = True, rng):
    """Every system's score on the same bootstrap resamples.

    All systems see the same resampled items in each replicate, so any column difference
    is a paired-bootstrap replicate of that pair's difference.

    Parameters
    ----------
    stats : array (systems, items, k)
        Per-item statistics of ``metric``.
    metric : Metric
        Metric of summed statistics.
    n_resamples : int
        Bootstrap replicates B.
    clusters : array (items,), optional
        Cluster id per item: whole clusters are resampled.
    compress_items : bool
        As in :func:`paired_bootstrap`.
    rng : numpy.random.Generator or int
        Seeded generator (required).

    Returns
    -------
    observed : numpy.ndarray, shape (systems,)
        Each system's score on the test set.
    replicates : numpy.ndarray, shape (B, systems)
        Each system's score on every resample.

    Raises
    ------
    ValueError
        If ``stats`` is not (systems, items, k) with the metric's k statistics, contains NaN or
        infinite values, or ``n_resamples`` < 1.

    See Also
    --------
    bootstrap_scores : percentile intervals from these replicates.
    simstats.stats.competition.analyse_competition : everything a competition needs from them.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, bootstrap_score_matrix, label_statistics
    >>> gold = np.arange(500) % 2
    >>> right = np.random.default_rng(0).random((2, 500)) < [[0.82], [0.78]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(r, gold, 1 - gold)) for r in right])
    >>> observed, replicates = bootstrap_score_matrix(stats, accuracy, n_resamples=4000, rng=1)
    >>> observed.round(3), replicates.shape
    (array([0.788, 0.794]), (4000, 2))

    The bootstrap sd of an accuracy is close to the binomial standard error sqrt(p (1 - p) / n):

    >>> replicates.std(axis=0).round(3), np.sqrt(observed * (1 - observed) / 500).round(3)
    (array([0.018, 0.018]), array([0.018, 0.018]))
    """
    stats = np.asarray(stats, dtype=np.float64)
    if stats.ndim != 3 or stats.shape[1] < 1:
        raise ValueError(f"statistics must have shape (systems, items, k), got {stats.shape}")
    if stats.shape[2] != len(metric.statistics):
        raise ValueError(f"metric {metric.name!r} needs {len(metric.statistics)} statistics per item, "
                         f"got {stats.shape[2]}")
    if not np.all(np.isfinite(stats)):
        raise ValueError("statistics contain NaN or infinite values")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    rng = as_generator(rng)
    if clusters is not None:
        stats = aggregate_clusters(stats, clusters)
    pack, resampler = item_bootstrap(stats, np.arange(stats.shape[0]), rng, n_resamples, compress_items, clusters)
    values, _ = replicates(resampler, pack, metric, elementwise=metric.elementwise)
    return metric(system_totals(stats)), values


def bootstrap_scores(stats, metric: Metric, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                     clusters=None, compress_items: bool = True, rng) -> ScoreIntervals:
    """Each system's score with its percentile bootstrap confidence interval.

    Parameters
    ----------
    stats : array (systems, items, k)
        Per-item statistics of ``metric``.
    metric : Metric
        Metric of summed statistics.
    n_resamples : int
        Bootstrap replicates B (items, or whole clusters, resampled with replacement).
    confidence_level : float
        Level of the two-sided percentile intervals.
    clusters : array (items,), optional
        Cluster id per item: whole clusters are resampled.
    compress_items : bool
        As in :func:`paired_bootstrap`.
    rng : numpy.random.Generator or int
        Seeded generator.

    Returns
    -------
    ScoreIntervals
        ``scores`` (systems,) and ``confidence_interval`` (low, high arrays); unpacks as
        ``scores, low, high``.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import accuracy, label_statistics
    >>> gold = np.arange(200) % 2
    >>> correct = np.random.default_rng(0).random((2, 200)) < [[0.8], [0.7]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(c, gold, 1 - gold)) for c in correct])
    >>> res = bootstrap_scores(stats, accuracy, n_resamples=2000, rng=1)
    >>> res.scores.round(3), res.confidence_interval.low.round(3), res.confidence_interval.high.round(3)
    (array([0.725, 0.65 ]), array([0.665, 0.585]), array([0.785, 0.72 ]))
    """
    check_confidence_level(confidence_level)
    observed, values = bootstrap_score_matrix(stats, metric, n_resamples=n_resamples, rng=rng, clusters=clusters,
                                              compress_items=compress_items)
    a = (1 - confidence_level) / 2
    low, high = np.quantile(values, [a, 1 - a], axis=0)
    unit = "clusters" if clusters is not None else "items"
    return ScoreIntervals(observed, ConfidenceInterval(low, high), confidence_level, n_resamples,
                          f"percentile bootstrap intervals (resampling {unit})")
