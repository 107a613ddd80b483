"""The noise study: what the noise model of a scenario produces, beside its closed forms.

Per scenario: one row per simulated model (scores, truth, X) and a summary of the spread
of true scores and of X, the dev-test correlation and the item-level correlation r12 of
two models of one approach, each with a bootstrap (over models) or analytic uncertainty
and with the exact value the model implies.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.sim.closed_forms import implied_values
from simstats.sim.model_tables import PAIR_COLUMNS, SCORE_COLUMNS, model_tables, pair_item_counts
from simstats.sim.noise import make_item_set, simulate_models
from simstats.sim.scenario import SPLITS, Scenario
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import ItemIndices
from simstats.studies.reference import paper_value
from simstats.io.write import markdown_table

special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

#: |z| up to which a simulated statistic "agrees" with the value the model implies.
VERDICT_Z = 3.0
STATISTICS = ["sd_psi_true_dev", "sd_psi_true_test", "sd_x_dev", "sd_x_test",
              "pearson_dev_test", "spearman_dev_test", "mean_r12"]


def simulate_chunk(scenario: Scenario, root_seed: int, start: int, stop: int, stream: str = "noise",
                   progress=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Models start..stop-1 of every approach: score rows and r12 of pairs (2k, 2k+1).

    ``progress``, if given, is called with a message after each approach.
    """
    if start % 2:
        raise ValueError(f"chunks must start at an even model index, got {start}")
    items = {s: make_item_set(scenario, s, root_seed, stream) for s in SPLITS}
    counts = pair_item_counts(scenario, items, root_seed, stream)
    score_frames, pair_frames = [], []
    for spec in scenario.approaches:
        batch = simulate_models(scenario, spec.name, start, stop, root_seed, stream=stream,
                                item_sets=items, keep_outcomes=("test",))
        scores, pairs = model_tables(batch, items, counts)
        score_frames.append(scores)
        pair_frames.append(pairs)
        if progress is not None:
            progress(f"approach {spec.name}: {stop - start} models, {len(pairs)} pairs done")
    return (pd.concat(score_frames, ignore_index=True)[SCORE_COLUMNS],
            pd.concat(pair_frames, ignore_index=True)[PAIR_COLUMNS])


def merge_chunks(score_frames, pair_frames, n_models: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The study's tables from its chunks' (or the Reimers chunks') tables: models 0..n_models-1 of each
    approach and their pairs, sorted by approach and model (pair).  Empty tables (chunks past the study's
    models) are left out, so that they do not change the column types."""
    score_frames = [f for f in score_frames if len(f)] or score_frames[:1]
    pair_frames = [f for f in pair_frames if len(f)] or pair_frames[:1]
    scores = pd.concat(score_frames, ignore_index=True)
    scores = scores[scores["index"] < n_models]
    scores = scores.sort_values(["approach", "index"], kind="stable").reset_index(drop=True)
    pairs = pd.concat(pair_frames, ignore_index=True)
    pairs = pairs[pairs["pair"] < n_models // 2]
    pairs = pairs.sort_values(["approach", "pair"], kind="stable").reset_index(drop=True)
    return scores, pairs


# --------------------------------------------------------------------------- summary
def _row_corr(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a - a.mean(1, keepdims=True)
    b = b - b.mean(1, keepdims=True)
    return (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1))


def _score_statistics(frame: dict[str, np.ndarray], idx: np.ndarray) -> dict[str, np.ndarray]:
    """Statistics of each bootstrap replicate (rows of idx)."""
    out = {}
    for col in ("psi_true_dev", "psi_true_test", "x_dev", "x_test"):
        out["sd_" + col] = frame[col][idx].std(axis=1, ddof=1)
    out["pearson_dev_test"] = _row_corr(frame["psi_dev"][idx], frame["psi_test"][idx])
    # ranks within each replicate; a NaN score stays NaN and the rest of its row is ranked among themselves
    out["spearman_dev_test"] = _row_corr(stats.rankdata(frame["psi_dev"][idx], axis=1, nan_policy="omit"),
                                         stats.rankdata(frame["psi_test"][idx], axis=1, nan_policy="omit"))
    return out


def summarise(scenario: Scenario, scores: pd.DataFrame, pairs: pd.DataFrame, root_seed: int,
              n_resamples: int = 1000, level: float = 0.95, max_block: int = 4_000_000,
              stream: str = "noise") -> pd.DataFrame:
    """Summary rows (approach x statistic): estimate, se, CI, implied value, z and n."""
    rng = generator(root_seed, "noise-summary", scenario.name)
    item_sets = {s: make_item_set(scenario, s, root_seed, stream) for s in SPLITS}
    alpha = 1 - level
    rows = []
    ref_rho = paper_value("reimers2018", "T2_eval2", scenario.reference, "spearman_rho") if scenario.reference else None
    for spec in scenario.approaches:
        sub = scores[scores.approach == spec.name].sort_values("index")
        n = len(sub)
        if n < 3:
            raise ValueError(f"scenario {scenario.name!r}, approach {spec.name!r}: need >= 3 models, got {n}")
        frame = {c: sub[c].to_numpy(float) for c in ("psi_true_dev", "psi_true_test", "x_dev", "x_test",
                                                     "psi_dev", "psi_test")}
        point = {k: float(v[0]) for k, v in _score_statistics(frame, np.arange(n)[None, :]).items()}
        block = max(1, max_block // n)
        reps: dict[str, list] = {k: [] for k in point}
        models = ItemIndices(rng, n_resamples, n)
        for lo in range(0, n_resamples, block):
            idx = models.draw(min(block, n_resamples - lo))
            for k, v in _score_statistics(frame, idx).items():
                reps[k].append(v)
        implied = implied_values(scenario, spec.name, item_sets)
        for k in point:
            r = np.concatenate(reps[k])
            lo_q, hi_q = np.nanquantile(r, [alpha / 2, 1 - alpha / 2])
            rows.append((spec.name, k, point[k], float(np.nanstd(r, ddof=1)), float(lo_q), float(hi_q),
                         "bootstrap over models", n))
        mine = pairs[(pairs.approach == spec.name) & pairs.r12.notna()]
        r12 = mine.r12.to_numpy()
        if r12.size < 2:
            raise ValueError(f"scenario {scenario.name!r}, approach {spec.name!r}: need >= 2 model pairs for r12")
        # Two parts: pair-to-pair Monte Carlo error, and which items the test set happens to hold
        # (bootstrap over items, the same resamples for every pair).
        se_pairs = r12.std(ddof=1) / math.sqrt(r12.size)
        boot_means = np.nanmean(np.stack(mine.r12_item_boot.to_numpy()).astype(np.float64), axis=0)
        se = float(math.sqrt(se_pairs**2 + np.nanvar(boot_means, ddof=1)))
        zq = special.ndtri(1 - alpha / 2)
        mean = float(r12.mean())
        rows.append((spec.name, "mean_r12", mean, se, mean - zq * se, mean + zq * se,
                     "pairs + bootstrap over test items", r12.size))
        for i in range(len(rows) - len(STATISTICS), len(rows)):
            rows[i] = rows[i] + (implied[rows[i][1]],
                                 ref_rho if rows[i][1] == "spearman_dev_test" and ref_rho is not None else float("nan"))
    out = pd.DataFrame(rows, columns=["approach", "statistic", "estimate", "se", "ci_low", "ci_high",
                                      "uncertainty", "n", "implied", "paper"])
    diff = out.estimate - out.implied
    with np.errstate(invalid="ignore", divide="ignore"):
        # equal up to round-off (a zero spread, say) agrees whatever the se
        out["z_vs_implied"] = np.where(diff.abs() <= 1e-12, 0.0, diff / out.se)
    out["verdict"] = np.where(out.z_vs_implied.isna(), "–",
                              np.where(out.z_vs_implied.abs() <= VERDICT_Z, "agrees", "differs"))
    out.insert(0, "scenario", scenario.name)
    order = {s: i for i, s in enumerate(STATISTICS)}
    out["_o"] = out.statistic.map(order)
    return out.sort_values(["approach", "_o"], kind="stable").drop(columns="_o").reset_index(drop=True)


def summary_markdown(summary: pd.DataFrame) -> str:
    """The noise summary of all scenarios as a Markdown document."""
    t = summary.copy()
    t["95% CI"] = [f"[{lo:.4g}, {hi:.4g}]" for lo, hi in zip(t.ci_low, t.ci_high)]
    t = t[["scenario", "approach", "statistic", "estimate", "se", "95% CI", "implied", "z_vs_implied", "verdict",
           "paper"]]
    lines = [
        "# Noise model summary",
        "",
        "Scores are fractions (0.01 = 1 point). sd_x_* is the sd of X = Psi - Psi_true across models on",
        "one fixed dev/test set; mean_r12 is the item-level correlation of two runs of one approach on the",
        "test set's gold (or plain) items. `implied` is the model's exact value (quadrature; delta method",
        "for ratio metrics; for the realised dev/test sets where that matters), `z_vs_implied` =",
        f"(estimate - implied) / se, `verdict` = agrees if |z| <= {VERDICT_Z:g}, `paper` the published value",
        "(Reimers & Gurevych 2018, Table 2 Spearman rho) where the scenario models a paper task - one of",
        "the three numbers the task's noise parameters are calibrated to (results/reimers/calibration.md).",
        "mean_r12's implied value takes both runs at the same ability (averaged over the seed",
        "distribution): where abilities spread widely (failure tails) the simulated r12 is lower.",
        "",
        markdown_table(t),
    ]
    return "\n".join(lines)
