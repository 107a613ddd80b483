"""The per-model tables of a simulated batch: one score row per model (truth, scores, X) and the
item-level correlation r12 of pairs of models (2k, 2k+1) with its item-bootstrap replicates.

The noise study writes these tables; any study that simulates the same models (same scenario, stream
and item sets) can produce the same rows as a by-product.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.sim.scenario import Scenario
from simstats.sim.seeding import generator
from simstats.stats.resample import RowCounts

__all__ = ["PAIR_COLUMNS", "PAIR_DTYPES", "R12_ITEM_BOOT", "SCORE_COLUMNS", "SCORE_DTYPES", "item_resample_counts",
           "model_tables", "pair_item_counts", "phi_correlation", "phi_correlation_weighted"]

SCORE_COLUMNS = ["approach", "index", "theta", "delta", "failed", "psi_true_dev", "psi_true_test",
                 "psi_dev", "psi_test", "x_dev", "x_test"]


PAIR_COLUMNS = ["approach", "pair", "r12", "r12_item_boot"]


#: Column types of the score and pair tables (:func:`model_tables`), e.g. for an empty table.
SCORE_DTYPES = {"approach": "str", "index": "int64", "theta": "float64", "delta": "float64", "failed": "bool",
                **{c: "float64" for c in SCORE_COLUMNS[5:]}}


PAIR_DTYPES = {"approach": "str", "pair": "int64", "r12": "float64", "r12_item_boot": "object"}


#: Bootstrap replicates over test items used for the item-sampling part of r12's uncertainty.
R12_ITEM_BOOT = 200


def phi_correlation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise Pearson (phi) correlation of two boolean matrices (NaN if a row is constant)."""
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    n = a.shape[1]
    sa, sb, sab = a.sum(1), b.sum(1), (a * b).sum(1)
    den = np.sqrt(sa * (n - sa) * sb * (n - sb))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (n * sab - sa * sb) / den, np.nan)


def phi_correlation_weighted(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """phi of rows of a and b under item weights (resample counts): result (rows, replicates)."""
    a32, b32, w = a.astype(np.float32), b.astype(np.float32), weights.astype(np.float32).T
    n = weights.sum(axis=1, dtype=np.float64)[None, :]
    sa, sb, sab = (a32 @ w).astype(np.float64), (b32 @ w).astype(np.float64), ((a32 * b32) @ w).astype(np.float64)
    den = np.sqrt(sa * (n - sa) * sb * (n - sb))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (n * sab - sa * sb) / den, np.nan)


def item_resample_counts(root_seed: int, scenario: Scenario, clusters: np.ndarray, n_resamples: int = R12_ITEM_BOOT,
                         stream: str = "noise") -> np.ndarray:
    """Bootstrap resample counts of the given test items (n_resamples x items), shared by all chunks.

    Items are resampled independently, or whole clusters (documents) when the scenario has
    clusters, so that the interval reflects the dependence within documents.
    """
    rng = generator(root_seed, stream, scenario.name, "r12-item-bootstrap")
    if scenario.clusters is None:
        return RowCounts(rng, n_resamples, np.ones(clusters.size)).draw(n_resamples).astype(np.uint16)
    ids, members = np.unique(clusters, return_inverse=True)
    per_cluster = RowCounts(rng, n_resamples, np.ones(ids.size)).draw(n_resamples).astype(np.uint16)
    return per_cluster[:, members]


def pair_item_counts(scenario: Scenario, items, root_seed: int, stream: str = "noise") -> np.ndarray:
    """The item bootstrap counts of r12's uncertainty on the test set's gold items (shared by all chunks)."""
    gold = items["test"].is_gold
    return item_resample_counts(root_seed, scenario, items["test"].cluster[gold], stream=stream)


def model_tables(batch, items, counts: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The noise study's rows of one simulated batch (one approach, models start..stop-1, start even,
    simulated with ``keep_outcomes=("test",)``): a score row per model and r12 of pairs (2k, 2k+1).

    The rows depend only on each model's own draws, so any study that simulates the same models (the
    Reimers chunks: same scenario, stream and item sets) gives the same rows.
    """
    a = batch.abilities
    start = int(a.index[0]) if a.index.size else 0
    if start % 2:
        raise ValueError(f"a batch must start at an even model index, got {start}")
    scores = pd.DataFrame({
        "approach": batch.approach, "index": a.index, "theta": a.theta, "delta": a.delta, "failed": a.failed,
        "psi_true_dev": batch.psi_true["dev"], "psi_true_test": batch.psi_true["test"],
        "psi_dev": batch.psi["dev"], "psi_test": batch.psi["test"],
        "x_dev": batch.x("dev"), "x_test": batch.x("test")})
    y = batch.outcomes["test"][:, items["test"].is_gold]
    n_pairs = a.index.size // 2
    first, second = y[0:2 * n_pairs:2], y[1:2 * n_pairs:2]
    r12 = phi_correlation(first, second)
    r12_boot = phi_correlation_weighted(first, second, counts).astype(np.float32)
    pairs = pd.DataFrame({"approach": batch.approach, "pair": start // 2 + np.arange(n_pairs), "r12": r12,
                          "r12_item_boot": list(r12_boot)})
    return scores[SCORE_COLUMNS], pairs[PAIR_COLUMNS]
