"""Metrics as functions of summed per-unit sufficient statistics.

accuracy  : correct / items
recall    : R / G          (R recalled gold items, G gold items)
precision : R / (R + S)    (S spurious candidates produced)
f1        : 2R / (G + R + S)
bleu      : corpus BLEU exactly as sacrebleu computes it with its defaults (4-grams, smoothing
            "exp"), in BLEU points 0-100, from per-sentence (sys_len, ref_len, correct_1..4,
            total_1..4) - the columns, in the order, of sacrebleu's per-sentence statistics
Every function works elementwise on arrays of sums, so the same code gives a model's
score (sums over a split), a population value (expected sums) or a bootstrap replicate.
A ratio with a zero denominator is 0 (no items recalled, nothing produced).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from simstats.stats import conventions

__all__ = ["STATISTICS", "Metric", "accuracy", "mean_score", "recall", "precision", "f1", "mae", "bleu", "get_metric",
           "register_metric", "unregister_metric", "metric_names",
           "classification_f1", "custom_metric", "label_statistics", "metric_from_sums", "accuracy_of", "recall_of",
           "precision_of", "f1_of", "bleu_of"]

STATISTICS: dict[str, tuple[str, ...]] = {
    "accuracy": ("correct", "items"),
    "recall": ("recalled", "gold", "spurious"),
    "precision": ("recalled", "gold", "spurious"),
    "f1": ("recalled", "gold", "spurious"),
    # sacrebleu's per-sentence BLEU statistics, in its order: hypothesis length, (closest)
    # reference length, matched n-grams (clipped counts, BLEUScore.counts) and hypothesis
    # n-grams (BLEUScore.totals) for n = 1..4
    "bleu": ("sys_len", "ref_len", *(f"correct_{n}" for n in range(1, 5)), *(f"total_{n}" for n in range(1, 5))),
}
"""Statistics each metric is computed from, in their canonical order."""


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(num, den)
    if out.ndim == 0:
        return float(out) if den != 0 else 0.0
    zero = den == 0
    if zero.any():
        out[np.broadcast_to(zero, out.shape)] = 0.0
    return out


def accuracy_of(correct, items):
    """Accuracy from summed statistics: correct / items.

    Parameters
    ----------
    correct : float or array_like
        Number of correctly predicted items (summed over a split, a population or a
        bootstrap replicate).
    items : float or array_like
        Number of items; broadcasts with ``correct``.

    Returns
    -------
    float or numpy.ndarray
        The accuracy, elementwise; 0 where ``items`` is 0.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import accuracy_of
    >>> accuracy_of(87, 100)
    0.87
    >>> accuracy_of(np.array([3, 5]), np.array([4, 0])).tolist()
    [0.75, 0.0]
    """
    return _ratio(correct, items)


def recall_of(recalled, gold, spurious=0):
    """Recall R / G from summed statistics.

    Parameters
    ----------
    recalled : float or array_like
        R, gold items the system found.
    gold : float or array_like
        G, gold items.
    spurious : float or array_like, optional
        Spurious candidates; not used by recall (accepted so that every metric of the
        ``recalled, gold, spurious`` statistics takes the same arguments).

    Returns
    -------
    float or numpy.ndarray
        R / G, elementwise; 0 where G is 0.

    Examples
    --------
    >>> from simstats.stats.metrics import recall_of
    >>> recall_of(30, 40)
    0.75
    """
    return _ratio(recalled, gold)


def precision_of(recalled, gold, spurious):
    """Precision R / (R + S) from summed statistics.

    Parameters
    ----------
    recalled : float or array_like
        R, gold items the system found (its correct candidates).
    gold : float or array_like
        G, gold items; not used by precision.
    spurious : float or array_like
        S, spurious candidates the system produced.

    Returns
    -------
    float or numpy.ndarray
        R / (R + S), elementwise; 0 where the system produced nothing.

    Examples
    --------
    >>> from simstats.stats.metrics import precision_of
    >>> precision_of(30, 40, 10)
    0.75
    """
    return _ratio(recalled, np.add(recalled, spurious))


def f1_of(recalled, gold, spurious):
    """F1 = 2R / (G + R + S) from summed statistics.

    The harmonic mean of recall R / G and precision R / (R + S), written in Yeh (2000)'s form.

    Parameters
    ----------
    recalled : float or array_like
        R, gold items the system found.
    gold : float or array_like
        G, gold items.
    spurious : float or array_like
        S, spurious candidates.

    Returns
    -------
    float or numpy.ndarray
        F1, elementwise; 0 where G + R + S is 0.

    Examples
    --------
    >>> from simstats.stats.metrics import f1_of, precision_of, recall_of
    >>> round(f1_of(30, 40, 20), 4)
    0.6667
    >>> r, p = recall_of(30, 40), precision_of(30, 40, 20)
    >>> round(2 * r * p / (r + p), 4)
    0.6667
    """
    return _ratio(np.multiply(2.0, recalled), np.add(np.add(gold, recalled), spurious))


def bleu_of(sys_len, ref_len, correct, total):
    """Corpus BLEU (0-100) from summed statistics, as ``sacrebleu.corpus_bleu`` with its defaults.

    Every argument broadcasts, so one call scores many bootstrap replicates.

    Parameters
    ----------
    sys_len : float or array_like
        Hypothesis length (tokens), summed over the sentences.
    ref_len : float or array_like
        (Closest) reference length, summed over the sentences.
    correct : array_like, shape (..., 4)
        Matched (clipped) n-grams of the orders 1..4 on the last axis.
    total : array_like, shape (..., 4)
        Hypothesis n-grams of the orders 1..4 on the last axis.

    Returns
    -------
    float or numpy.ndarray
        BLEU in points (0-100), elementwise over the leading axes.

    Raises
    ------
    ValueError
        If ``correct`` or ``total`` does not have the 4 n-gram orders on its last axis.

    Notes
    -----
    sacrebleu's ``BLEU.compute_bleu(..., smooth_method="exp", effective_order=False)`` step by
    step: brevity penalty exp(1 - ref_len / sys_len) if sys_len < ref_len (0 if sys_len = 0),
    else 1; precision p_n = 100 correct_n / total_n, or, where correct_n = 0,
    100 / (2^k total_n) with k the number of orders up to n without a match ("exp" smoothing,
    mteval-v13a); BLEU = penalty x exp(mean of log p_n).  BLEU is 0 when no n-gram matches at
    all or some total_n = 0 (sacrebleu then leaves p_n = 0, whose floored log makes the score
    0).

    Examples
    --------
    >>> import math
    >>> from simstats.stats.metrics import bleu_of
    >>> correct, total = [7, 4, 2, 1], [9, 8, 7, 6]
    >>> round(bleu_of(9, 10, correct, total), 4)
    33.0101

    The same by hand: brevity penalty times the geometric mean of the n-gram precisions.

    >>> logs = [math.log(c / t) for c, t in zip(correct, total)]
    >>> round(math.exp(1 - 10 / 9) * 100 * math.exp(sum(logs) / 4), 4)
    33.0101

    Without a 4-gram match the "exp" smoothing takes 100 / (2 total_4) as its precision:

    >>> round(bleu_of(9, 10, [7, 4, 2, 0], total), 4)
    27.7581
    """
    sys_len = np.asarray(sys_len, dtype=np.float64)
    ref_len = np.asarray(ref_len, dtype=np.float64)
    correct = np.asarray(correct, dtype=np.float64)
    total = np.asarray(total, dtype=np.float64)
    if correct.shape[-1:] != (4,) or total.shape[-1:] != (4,):
        raise ValueError(f"BLEU needs correct and total counts of the n-gram orders 1..4 on the last axis, got "
                         f"shapes {correct.shape} and {total.shape}")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        penalty = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)
        unmatched = correct == 0
        halvings = np.cumsum(unmatched, axis=-1)                  # sacrebleu's smooth_mteval = 2^halvings
        precision = np.where(unmatched, 100.0 / (2.0 ** halvings * total), 100.0 * correct / total)
        logs = np.log(precision)
        # summed left to right, as sacrebleu's sum() of the four logs
        mean_log = (((logs[..., 0] + logs[..., 1]) + logs[..., 2]) + logs[..., 3]) / 4
        score = penalty * np.exp(mean_log)
    defined = np.all(total > 0, axis=-1) & np.any(~unmatched, axis=-1)
    score = np.where(defined, score, 0.0)
    return float(score) if score.ndim == 0 else score


def _bleu_from_columns(sys_len, ref_len, *counts):
    """BLEU from the ten statistics of :data:`STATISTICS` ``["bleu"]`` given one by one."""
    return bleu_of(sys_len, ref_len, np.stack(np.broadcast_arrays(*counts[:4]), axis=-1),
                   np.stack(np.broadcast_arrays(*counts[4:]), axis=-1))


_FUNCTIONS = {"accuracy": accuracy_of, "recall": recall_of, "precision": precision_of, "f1": f1_of,
              "bleu": _bleu_from_columns}


def metric_from_sums(metric: str, sums: Mapping[str, np.ndarray]):
    """Evaluate a metric, by name, on a mapping of summed statistics.

    Parameters
    ----------
    metric : str
        The metric's name: 'accuracy', 'recall', 'precision', 'f1', 'bleu' or a registered one
        (:func:`register_metric`; 'mae' too).
    sums : mapping of str to float or array_like
        Summed statistics by name; it needs at least the names :data:`STATISTICS` lists for
        ``metric`` (further entries are ignored).

    Returns
    -------
    float or numpy.ndarray
        The metric's value, elementwise over the arrays given.

    Raises
    ------
    ValueError
        If the metric is unknown or a statistic it needs is missing.

    Examples
    --------
    >>> from simstats.stats.metrics import STATISTICS, metric_from_sums
    >>> STATISTICS["f1"]
    ('recalled', 'gold', 'spurious')
    >>> round(metric_from_sums("f1", {"recalled": 30, "gold": 40, "spurious": 20}), 4)
    0.6667
    """
    if metric not in _FUNCTIONS:           # a registered metric: its function of the stacked sums
        registered = get_metric(metric)
        missing = [s for s in registered.statistics if s not in sums]
        if missing:
            raise ValueError(f"metric {metric!r} needs statistics {missing} that were not given")
        return registered(np.stack(np.broadcast_arrays(*(np.asarray(sums[s], dtype=np.float64)
                                                         for s in registered.statistics)), axis=-1))
    missing = [s for s in STATISTICS[metric] if s not in sums]
    if missing:
        raise ValueError(f"metric {metric!r} needs statistics {missing} that were not given")
    return _FUNCTIONS[metric](*(sums[s] for s in STATISTICS[metric]))


# --------------------------------------------------------------------------- metric objects
class Metric:
    """A metric of summed per-item statistics, as the tests of simstats take it.

    Each system's output on a test set is described by k statistics per item (e.g. correct
    and 1 for accuracy); the metric is a function of their sums over the items.  Written that
    way, a system's score, a population value and every bootstrap replicate are the same
    function of different sums.  Calling the metric evaluates it on sums.

    Parameters
    ----------
    name : str
        The metric's name, used in messages and tables.
    statistics : sequence of str
        Names of the k columns of the per-item statistics array, in order.
    function : callable
        Maps summed statistics of shape (..., k) to metric values of shape (...).
    higher_is_better : bool, optional
        False for error metrics (MAE): the tests then measure an improvement as a decrease.
        Default True.
    ratio_of : tuple of int, optional
        (numerator, denominator) column indices if the metric is sum(num) / sum(den), with 0
        when the denominator is 0.  A difference between two systems with the same
        denominator column then needs one matrix column, sum(num_a - num_b) / sum(den).
    elementwise : bool, optional
        True if ``function`` combines the statistics s[..., j] element by element with +, -,
        * and / only (no sum or mean over them, no exp or log): its values then do not depend
        on how the sums are laid out in memory, and the engine may hand it each statistic as
        a contiguous array.  Default False.
    counts : sequence of str, optional
        The statistics that are counts (integers >= 0). Default: all of them.  All seven are kept
        as attributes of the same names (``statistics``, ``ratio_of`` and ``counts`` as tuples).

    See Also
    --------
    custom_metric, classification_f1, get_metric

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import Metric
    >>> mse = Metric("mse", ("squared_error", "items"), lambda s: s[..., 0] / s[..., 1],
    ...              higher_is_better=False)
    >>> per_item = np.array([[0.25, 1], [1.0, 1], [0.0, 1], [0.75, 1]])
    >>> float(mse(per_item.sum(axis=0)))
    0.5
    >>> mse
    Metric('mse', statistics=('squared_error', 'items'))
    """

    def __init__(self, name: str, statistics, function, higher_is_better: bool = True, ratio_of=None,
                 elementwise: bool = False, counts=None, at_most=(), positive=()):
        self.name = name
        self.statistics = tuple(statistics)
        self.function = function
        self.higher_is_better = bool(higher_is_better)
        #: (numerator, denominator) statistic indices if the metric is sum(num) / sum(den)
        #: (0 when the denominator is 0): then a difference between two systems with the same
        #: denominator column needs one matrix column, sum(num_a - num_b) / sum(den).
        self.ratio_of = tuple(ratio_of) if ratio_of is not None else None
        #: True if ``function`` combines the statistics s[..., j] element by element with +, -, * and /
        #: only (no sum or mean over them, no exp or log): its values then do not depend on how the
        #: sums are laid out in memory, and the engine may hand it each statistic as a contiguous array.
        self.elementwise = bool(elementwise)
        #: The statistics that are counts (integers >= 0); a table of per-item statistics must hold them as such.
        self.counts = self.statistics if counts is None else tuple(counts)
        #: (smaller, larger) statistic names: on every item the first is at most the second (correct <= items).
        self.at_most = tuple(tuple(pair) for pair in at_most)
        #: Statistics whose sum over a system's items must be positive for its score to be defined (a denominator).
        self.positive = tuple(positive)

    def __call__(self, sums) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        if sums.shape[-1] != len(self.statistics):
            raise ValueError(f"metric {self.name!r} needs {len(self.statistics)} statistics "
                             f"{self.statistics}, got {sums.shape[-1]}")
        return np.asarray(self.function(sums), dtype=np.float64)

    def __repr__(self) -> str:
        return f"Metric({self.name!r}, statistics={self.statistics})"


accuracy = Metric("accuracy", ("correct", "items"), lambda s: _ratio(s[..., 0], s[..., 1]), ratio_of=(0, 1),
                  at_most=(("correct", "items"),), positive=("items",),
                  elementwise=True)
"""Accuracy from per-item (correct, items)."""
mean_score = Metric("mean_score", ("score", "items"), lambda s: _ratio(s[..., 0], s[..., 1]), ratio_of=(0, 1),
                    elementwise=True, counts=("items",), positive=("items",))
"""The mean item score from per-item (score, 1): an item's score is any number (a judge's grade, partial
credit, the mean of its samples), summed like accuracy's correct counts."""
recall = Metric("recall", STATISTICS["recall"], lambda s: recall_of(s[..., 0], s[..., 1], s[..., 2]), ratio_of=(0, 1),
                elementwise=True, at_most=(("recalled", "gold"),), positive=("gold",))
"""Recall in Yeh (2000)'s form, from per-item (recalled, gold, spurious)."""
precision = Metric("precision", STATISTICS["precision"], lambda s: precision_of(s[..., 0], s[..., 1], s[..., 2]),
                   elementwise=True, at_most=(("recalled", "gold"),))
"""Precision in Yeh (2000)'s form, from per-item (recalled, gold, spurious)."""
f1 = Metric("f1", STATISTICS["f1"], lambda s: f1_of(s[..., 0], s[..., 1], s[..., 2]), elementwise=True,
            at_most=(("recalled", "gold"),))
"""F1 in Yeh (2000)'s form, from per-item (recalled, gold, spurious)."""
mae = Metric("mae", ("abs_error", "items"), lambda s: _ratio(s[..., 0], s[..., 1]), higher_is_better=False,
             ratio_of=(0, 1), elementwise=True, counts=("items",), positive=("items",))
"""Mean absolute error (lower is better) from per-item (abs_error, items)."""

bleu = Metric("bleu", STATISTICS["bleu"], lambda s: bleu_of(s[..., 0], s[..., 1], s[..., 2:6], s[..., 6:10]),
              at_most=tuple((f"correct_{n}", f"total_{n}") for n in range(1, 5)), positive=("ref_len",))
"""Corpus BLEU in BLEU points (0-100), exactly sacrebleu's default corpus BLEU, from per-sentence
(sys_len, ref_len, correct_1..4, total_1..4): the rows of sacrebleu's
``BLEU()._extract_corpus_statistics(hypotheses, [references])``, or per sentence
``BLEU().sentence_score(h, refs)``'s sys_len, ref_len, counts and totals."""

#: The registry of metrics by name: the built-in ones and those added with :func:`register_metric`.
_METRICS = {"accuracy": accuracy, "recall": recall, "precision": precision, "f1": f1, "mae": mae, "bleu": bleu}
_BUILT_IN = tuple(_METRICS)


def register_metric(metric: Metric, *, replace: bool = False) -> Metric:
    """Register a metric under its name: :func:`get_metric`, :func:`metric_names`, :func:`metric_from_sums`
    and the command line's per-item statistics input (``simstats compare --statistics --metric NAME``,
    ``simstats competition --statistics``) then know it.

    Parameters
    ----------
    metric : Metric
        The metric, e.g. from :func:`custom_metric`.
    replace : bool
        Whether it may replace a registered metric of the same name (never a built-in one).

    Returns
    -------
    Metric
        ``metric`` itself.

    Raises
    ------
    ValueError
        If the name is taken (and ``replace`` is False) or is a built-in metric's.

    Examples
    --------
    >>> from simstats.stats.metrics import custom_metric, get_metric, register_metric, unregister_metric
    >>> brier = register_metric(custom_metric("brier", ("squared_error", "items"), lambda s: s[..., 0] / s[..., 1],
    ...                                       higher_is_better=False))
    >>> get_metric("brier") is brier
    True
    >>> unregister_metric("brier")
    """
    if metric.name in _BUILT_IN or (metric.name in _METRICS and not replace):
        raise ValueError(f"a metric named {metric.name!r} is already registered")
    _METRICS[metric.name] = metric
    return metric


def unregister_metric(name: str) -> None:
    """Remove a metric added with :func:`register_metric` (built-in ones stay).

    Parameters
    ----------
    name : str
        The metric's name.

    Returns
    -------
    None

    Examples
    --------
    >>> unregister_metric("no such metric")
    """
    if name not in _BUILT_IN:
        _METRICS.pop(name, None)


def metric_names() -> tuple[str, ...]:
    """The names of the registered metrics, built-in ones first, then those added with :func:`register_metric`
    and those of the entry-point group ``simstats.metrics`` (:mod:`simstats.stats.conventions`).

    Returns
    -------
    tuple of str
        What :func:`get_metric` accepts.

    Examples
    --------
    >>> metric_names()[:6]
    ('accuracy', 'recall', 'precision', 'f1', 'mae', 'bleu')
    """
    return tuple(_METRICS) + tuple(n for n in conventions.names("metrics") if n not in _METRICS)


def get_metric(name: str) -> Metric:
    """The registered metric called ``name`` (:func:`metric_names`).

    Parameters
    ----------
    name : str
        The metric's name: 'accuracy', 'recall', 'precision', 'f1', 'mae', 'bleu' or one added with
        :func:`register_metric`.

    Returns
    -------
    Metric
        The module's metric object of that name.

    Raises
    ------
    ValueError
        For any other name (macro or weighted F1: :func:`classification_f1`; anything else:
        :func:`custom_metric`).

    Examples
    --------
    >>> from simstats.stats.metrics import get_metric, mae
    >>> get_metric("mae") is mae
    True
    >>> get_metric("mae").statistics, get_metric("mae").higher_is_better
    (('abs_error', 'items'), False)
    """
    if name not in _METRICS and name in conventions.names("metrics"):     # an entry point, loaded on first use
        register_metric(conventions.get("metrics", name))
    try:
        return _METRICS[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r} (registered: {', '.join(_METRICS)}; "
                         "macro/weighted F1 via classification_f1, anything else via custom_metric and "
                         "register_metric)") from None


def classification_f1(classes, average: str = "macro", subset=None) -> Metric:
    """F1 of a multi-class classifier from per-class confusion counts.

    The metric's statistics are, for each class c in order, tp_c (true positives), gold_c
    (items of class c) and pred_c (items predicted as c); :func:`label_statistics` computes
    them from labels.  The per-class F1 is F1_c = 2 tp_c / (gold_c + pred_c), 0 if both are 0.

    Parameters
    ----------
    classes : sequence
        The class labels (compared as strings).
    average : str, optional
        "macro" (default): the unweighted mean of F1_c over ``subset``; "weighted": the mean
        weighted by gold support, as scikit-learn's ``average="weighted"``; or a class label:
        that class's F1.
    subset : sequence, optional
        For "macro": the classes to average over (default all).

    Returns
    -------
    Metric
        Named ``macro_f1`` (``macro_f1[a,b]`` for a subset), ``weighted_f1`` or ``f1[label]``,
        with statistics ``tp_c, gold_c, pred_c`` per class.

    Raises
    ------
    ValueError
        If ``average`` is none of the above, or ``subset`` is empty or names unknown classes.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import classification_f1, label_statistics
    >>> gold = np.array(["pos", "neg", "pos", "pos", "neg", "neu"])
    >>> pred = np.array(["pos", "pos", "neg", "pos", "neg", "neu"])
    >>> classes = ["pos", "neg", "neu"]
    >>> macro = classification_f1(classes)
    >>> sums = label_statistics(macro, gold, pred, classes=classes).sum(axis=0)
    >>> round(float(macro(sums)), 4)
    0.7222

    By hand: F1 is 4/6 for pos, 2/4 for neg and 1 for neu.

    >>> round((4 / 6 + 2 / 4 + 1) / 3, 4)
    0.7222
    >>> weighted = classification_f1(classes, average="weighted")
    >>> round(float(weighted(sums)), 4), round((3 * 4 / 6 + 2 * 2 / 4 + 1 * 1) / 6, 4)
    (0.6667, 0.6667)
    """
    classes = [str(c) for c in classes]
    k = len(classes)
    names = tuple(f"{stat}_{c}" for c in classes for stat in ("tp", "gold", "pred"))
    if average == "macro":
        chosen = [str(c) for c in subset] if subset is not None else classes
        unknown = [c for c in chosen if c not in classes]
        if unknown or not chosen:
            raise ValueError(f"macro-F1 subset has unknown classes {unknown} (classes: {classes})")
        idx = np.array([classes.index(c) for c in chosen])
    elif average not in ("weighted",) and str(average) not in classes:
        raise ValueError(f"average must be 'macro', 'weighted' or a class label, got {average!r}")

    def per_class(s):
        s = s.reshape(s.shape[:-1] + (k, 3))
        return _ratio(2.0 * s[..., 0], s[..., 1] + s[..., 2]), s[..., 1]

    if average == "macro":
        def function(s):
            f, _ = per_class(s)
            return f[..., idx].mean(axis=-1)
        name = "macro_f1" if subset is None else "macro_f1[" + ",".join(map(str, subset)) + "]"
    elif average == "weighted":
        def function(s):
            f, support = per_class(s)
            return _ratio((f * support).sum(axis=-1), support.sum(axis=-1))
        name = "weighted_f1"
    else:
        j = classes.index(str(average))

        def function(s):
            return per_class(s)[0][..., j]
        name = f"f1[{average}]"
    return Metric(name, names, function)


def custom_metric(name: str, statistics, function, higher_is_better: bool = True, counts=()) -> Metric:
    """Any metric of summed statistics, e.g. corpus BLEU from per-segment n-gram counts.

    A shorthand for :class:`Metric` for metrics the module does not provide.

    Parameters
    ----------
    name : str
        The metric's name.
    statistics : sequence of str
        Names of the per-item statistics, in column order.
    function : callable
        Maps summed statistics of shape (..., k) to metric values of shape (...).
    higher_is_better : bool, optional
        False for error metrics.  Default True.
    counts : sequence of str, optional
        The statistics that are counts (integers >= 0), which a table of per-item statistics must
        hold as such.  Default none.

    Returns
    -------
    Metric

    Examples
    --------
    Mean squared error from per-item (squared error, 1):

    >>> import numpy as np
    >>> from simstats.stats.metrics import custom_metric
    >>> mse = custom_metric("mse", ("squared_error", "items"), lambda s: s[..., 0] / s[..., 1],
    ...                     higher_is_better=False)
    >>> errors = np.array([0.5, -1.0, 0.0, 1.5])
    >>> per_item = np.stack([errors**2, np.ones(4)], axis=1)
    >>> float(mse(per_item.sum(axis=0))), float(np.mean(errors**2))
    (0.875, 0.875)
    """
    return Metric(name, statistics, function, higher_is_better, counts=counts)


def label_statistics(metric: Metric, gold, pred, *, positive=None, classes=None) -> np.ndarray:
    """Per-item statistics of one system's predictions, as ``metric`` needs them.

    Turns gold labels and a system's predictions into the (items, k) array the tests take
    (stack several systems' arrays to (systems, items, k)).

    Parameters
    ----------
    metric : Metric
        The metric; its statistics decide the columns: accuracy (correct, 1);
        recall/precision/f1 (binary, Yeh form) (recalled, is_gold, spurious); classification F1
        (:func:`classification_f1`) one-hot tp/gold/pred per class; mae (|gold - pred|, 1).
    gold, pred : array_like, shape (n,)
        Gold labels and predictions (numbers for mae).
    positive : optional
        The positive label, required by recall, precision and f1.
    classes : sequence, optional
        The class labels, required by classification F1 (in the metric's order).

    Returns
    -------
    numpy.ndarray, shape (n, k)
        float64 statistics per item.

    Raises
    ------
    ValueError
        If ``gold`` and ``pred`` are not 1-D of equal length, or ``positive`` / ``classes``
        is missing where needed.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats.stats.metrics import accuracy, f1, label_statistics
    >>> gold = np.array([1, 0, 1, 1, 0])
    >>> pred = np.array([1, 1, 0, 1, 0])
    >>> label_statistics(accuracy, gold, pred).sum(axis=0).tolist()
    [3.0, 5.0]
    >>> s = label_statistics(f1, gold, pred, positive=1)
    >>> s.sum(axis=0).tolist()                     # recalled, gold, spurious
    [2.0, 3.0, 1.0]
    >>> round(float(f1(s.sum(axis=0))), 4)
    0.6667
    """
    gold = np.asarray(gold)
    pred = np.asarray(pred)
    if gold.shape != pred.shape or gold.ndim != 1:
        raise ValueError(f"gold and predictions must be 1-D of equal length, got {gold.shape} and {pred.shape}")
    if metric.statistics == ("correct", "items"):
        return np.stack([gold == pred, np.ones(gold.size, bool)], axis=1).astype(np.float64)
    if metric.statistics == ("abs_error", "items"):
        return np.stack([np.abs(gold.astype(float) - pred.astype(float)), np.ones(gold.size)], axis=1)
    if metric.statistics == ("recalled", "gold", "spurious"):
        if positive is None:
            raise ValueError(f"metric {metric.name!r} on labels needs the positive label")
        g, p = gold == positive, pred == positive
        return np.stack([g & p, g, ~g & p], axis=1).astype(np.float64)
    if classes is None:
        raise ValueError(f"metric {metric.name!r} on labels needs the list of classes")
    cols = []
    for c in classes:
        g, p = gold == c, pred == c
        cols += [g & p, g, p]
    return np.stack(cols, axis=1).astype(np.float64)
