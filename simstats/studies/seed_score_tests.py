"""Tests of two approaches from their runs' scores, shared by the studies that simulate such comparisons (the
approach-level validation and the per-scenario trust pages): Welch's t and Mann-Whitney U row by row as scipy
computes them, ASO's eps_min of the observed better approach, and the rejection rule of each."""
from __future__ import annotations

import warnings

import numpy as np

from simstats.stats.aso import aso
from simstats.stats.lazy import lazy_module

sps = lazy_module("scipy.stats")


def winner_aso(scores_a: np.ndarray, scores_b: np.ndarray, rng: np.random.Generator) -> float:
    """eps_min of the observed better approach over the other (deepsig convention)."""
    first, second = (scores_b, scores_a) if scores_b.mean() >= scores_a.mean() else (scores_a, scores_b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(aso(first, second, n_resamples=200, rng=rng).statistic)


def seed_score_tests(scores_a: np.ndarray, scores_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welch's t test and the two-sided Mann-Whitney U test (scipy) of each row of ``scores_a`` against the
    same row of ``scores_b`` ((studies, k) each): (Welch p-values, Mann-Whitney p-values), those of one scipy
    call per row bit for bit (scipy's value where all scores are equal too).

    Mann-Whitney U runs on all rows in at most two calls: its p-value is built from ranks, whose sums are
    exact, and correctly rounded arithmetic, so a row's value does not depend on the other rows.  scipy picks
    the method once per call (exact when one side has at most 8 scores and there are no ties, else
    asymptotic), so the rows are grouped by the method it picks for each row alone.  Welch's t stays one
    call per row: numpy sums the rows of a matrix in another order than a single row, which changes some
    p-values in the last bit."""
    a = np.asarray(scores_a, dtype=np.float64)
    b = np.asarray(scores_b, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        welch = np.array([sps.ttest_ind(x, y, equal_var=False).pvalue for x, y in zip(a, b)], dtype=np.float64)
    pooled = np.sort(np.concatenate([a, b], axis=1), axis=1)
    ties = (np.diff(pooled, axis=1) == 0).any(axis=1)
    exact = ~ties & (a.shape[1] <= 8 or b.shape[1] <= 8)
    mannwhitney = np.empty(a.shape[0])
    for rows, method in ((exact, "exact"), (~exact, "asymptotic")):
        if rows.any():
            mannwhitney[rows] = sps.mannwhitneyu(a[rows], b[rows], axis=1, alternative="two-sided",
                                                 method=method).pvalue
    return welch, mannwhitney


def rejects(test: str, value: float, alpha: float) -> bool:
    """Whether a test's value rejects: an ``aso_<threshold>`` test when eps_min is below the threshold, every other
    test when its p-value is below alpha."""
    if test.startswith("aso_"):
        return bool(value < float(test.split("_")[1]))
    return bool(np.isfinite(value) and value < alpha)


def fill_seed_score_tests(seed_scores: dict) -> None:
    """Set the Welch and Mann-Whitney U p-values of every study, all studies of one k at once
    (:func:`seed_score_tests`): ``seed_scores`` maps k -> (A's seed scores per study, B's, the studies' rows by
    test, each with a ``"welch"`` and a ``"mannwhitney"`` row)."""
    for a_rows, b_rows, studies in seed_scores.values():
        if not studies:
            continue
        welch, mannwhitney = seed_score_tests(np.array(a_rows), np.array(b_rows))
        for study, w, m in zip(studies, welch, mannwhitney):
            study["welch"]["value"], study["mannwhitney"]["value"] = float(w), float(m)
