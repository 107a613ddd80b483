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

#: Statistics each metric is computed from, in their canonical order.
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
    """Accuracy from summed statistics (elementwise)."""
    return _ratio(correct, items)


def recall_of(recalled, gold, spurious=0):
    """Recall R / G from summed statistics (elementwise)."""
    return _ratio(recalled, gold)


def precision_of(recalled, gold, spurious):
    """Precision R / (R + S) from summed statistics (elementwise)."""
    return _ratio(recalled, np.add(recalled, spurious))


def f1_of(recalled, gold, spurious):
    """F1 = 2R / (G + R + S) from summed statistics (elementwise)."""
    return _ratio(np.multiply(2.0, recalled), np.add(np.add(gold, recalled), spurious))


def bleu_of(sys_len, ref_len, correct, total):
    """Corpus BLEU (0-100) from summed statistics, as ``sacrebleu.corpus_bleu`` with its defaults.

    ``correct`` and ``total`` have the n-gram orders 1..4 on their last axis; every argument
    broadcasts, so one call scores many bootstrap replicates.  sacrebleu's
    ``BLEU.compute_bleu(..., smooth_method="exp", effective_order=False)`` step by step:
    brevity penalty exp(1 - ref_len / sys_len) if sys_len < ref_len (0 if sys_len = 0), else 1;
    precision p_n = 100 correct_n / total_n, or, where correct_n = 0, 100 / (2^k total_n) with k
    the number of orders up to n without a match ("exp" smoothing, mteval-v13a); BLEU =
    penalty x exp(mean of log p_n).  BLEU is 0 when no n-gram matches at all or some
    total_n = 0 (sacrebleu then leaves p_n = 0, whose floored log makes the score 0).
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
    """Evaluate ``metric`` on a mapping of summed statistics (see :data:`STATISTICS`)."""
    try:
        function = _FUNCTIONS[metric]
    except KeyError:
        raise ValueError(f"unknown metric {metric!r} (known: {', '.join(_FUNCTIONS)})") from None
    missing = [s for s in STATISTICS[metric] if s not in sums]
    if missing:
        raise ValueError(f"metric {metric!r} needs statistics {missing} that were not given")
    return function(*(sums[s] for s in STATISTICS[metric]))


# --------------------------------------------------------------------------- metric objects
class Metric:
    """A metric of summed per-item statistics, for the test engine.

    ``statistics`` names the columns of the per-item statistics array; ``function`` maps
    summed statistics of shape (..., k) to metric values of shape (...).  Lower-is-better
    metrics (MAE) set ``higher_is_better=False``: the engine then measures improvement as
    a decrease.
    """

    def __init__(self, name: str, statistics, function, higher_is_better: bool = True, ratio_of=None,
                 elementwise: bool = False):
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

    def __call__(self, sums) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        if sums.shape[-1] != len(self.statistics):
            raise ValueError(f"metric {self.name!r} needs {len(self.statistics)} statistics "
                             f"{self.statistics}, got {sums.shape[-1]}")
        return np.asarray(self.function(sums), dtype=np.float64)

    def __repr__(self) -> str:
        return f"Metric({self.name!r}, statistics={self.statistics})"


#: Accuracy from per-item (correct, items).
accuracy = Metric("accuracy", ("correct", "items"), lambda s: _ratio(s[..., 0], s[..., 1]), ratio_of=(0, 1),
                  elementwise=True)
#: Recall, precision and F1 in Yeh (2000)'s form, from per-item (recalled, gold, spurious).
recall = Metric("recall", STATISTICS["recall"], lambda s: recall_of(s[..., 0], s[..., 1], s[..., 2]), ratio_of=(0, 1),
                elementwise=True)
precision = Metric("precision", STATISTICS["precision"], lambda s: precision_of(s[..., 0], s[..., 1], s[..., 2]),
                   elementwise=True)
f1 = Metric("f1", STATISTICS["f1"], lambda s: f1_of(s[..., 0], s[..., 1], s[..., 2]), elementwise=True)
#: Mean absolute error (lower is better) from per-item (abs_error, items).
mae = Metric("mae", ("abs_error", "items"), lambda s: _ratio(s[..., 0], s[..., 1]), higher_is_better=False,
             ratio_of=(0, 1), elementwise=True)

#: Corpus BLEU in BLEU points (0-100), exactly sacrebleu's default corpus BLEU, from per-sentence
#: (sys_len, ref_len, correct_1..4, total_1..4): the rows of sacrebleu's
#: ``BLEU()._extract_corpus_statistics(hypotheses, [references])``, or per sentence
#: ``BLEU().sentence_score(h, refs)``'s sys_len, ref_len, counts and totals.
bleu = Metric("bleu", STATISTICS["bleu"], lambda s: bleu_of(s[..., 0], s[..., 1], s[..., 2:6], s[..., 6:10]))

_METRICS = {"accuracy": accuracy, "recall": recall, "precision": precision, "f1": f1, "mae": mae, "bleu": bleu}
#: Metrics that ``simstats compare --statistics`` reads from per-item statistics.
STATISTICS_METRICS = dict(_METRICS)


def get_metric(name: str) -> Metric:
    """The built-in metric called ``name`` (accuracy, recall, precision, f1, mae, bleu)."""
    try:
        return _METRICS[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r} (built in: {', '.join(_METRICS)}; "
                         "macro/weighted F1 via classification_f1, anything else via custom_metric)") from None


def classification_f1(classes, average: str = "macro", subset=None) -> Metric:
    """F1 from per-class confusion counts (tp_c, gold_c, pred_c for each class c).

    average: "macro" (unweighted mean over ``subset`` of classes, default all),
    "weighted" (mean weighted by gold support, as scikit-learn's average="weighted"),
    or a class label for that class's F1.  F1_c = 2 tp_c / (gold_c + pred_c), 0 if both 0.
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


def custom_metric(name: str, statistics, function, higher_is_better: bool = True) -> Metric:
    """Any metric of summed statistics, e.g. corpus BLEU from per-segment n-gram counts."""
    return Metric(name, statistics, function, higher_is_better)


def label_statistics(metric: Metric, gold, pred, *, positive=None, classes=None) -> np.ndarray:
    """Per-item statistics (n x k) of one system's predictions for ``metric``.

    accuracy: (correct, 1); recall/precision/f1 (binary, Yeh form; ``positive`` label):
    (recalled, is_gold, spurious); classification F1 (``classes``): one-hot tp/gold/pred per
    class; mae: (|gold - pred|, 1).
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
