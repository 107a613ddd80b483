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

from simstats.sim.noise import (BootstrapShape, Population, make_item_set, mixture_spearman, seed_quadrature,
                               simulate_models)
from simstats.studies.reference import paper_value
from simstats.sim.scenario import SPLITS, Scenario
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module

interpolate = lazy_module("scipy.interpolate")
special = lazy_module("scipy.special")

SCORE_COLUMNS = ["approach", "index", "theta", "delta", "failed", "psi_true_dev", "psi_true_test",
                 "psi_dev", "psi_test", "x_dev", "x_test"]
PAIR_COLUMNS = ["approach", "pair", "r12", "r12_item_boot"]
#: Column types of the score and pair tables (:func:`model_tables`), e.g. for an empty table.
SCORE_DTYPES = {"approach": "str", "index": "int64", "theta": "float64", "delta": "float64", "failed": "bool",
                **{c: "float64" for c in SCORE_COLUMNS[5:]}}
PAIR_DTYPES = {"approach": "str", "pair": "int64", "r12": "float64", "r12_item_boot": "object"}
#: Bootstrap replicates over test items used for the item-sampling part of r12's uncertainty.
R12_ITEM_BOOT = 200
#: |z| up to which a simulated statistic "agrees" with the value the model implies.
VERDICT_Z = 3.0
STATISTICS = ["sd_psi_true_dev", "sd_psi_true_test", "sd_x_dev", "sd_x_test",
              "pearson_dev_test", "spearman_dev_test", "mean_r12"]


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


def item_resample_counts(root_seed: int, scenario: Scenario, clusters: np.ndarray, n_boot: int = R12_ITEM_BOOT,
                         stream: str = "noise") -> np.ndarray:
    """Bootstrap resample counts of the given test items (n_boot x items), shared by all chunks.

    Items are resampled independently, or whole clusters (documents) when the scenario has
    clusters, so that the interval reflects the dependence within documents.
    """
    rng = generator(root_seed, stream, scenario.name, "r12-item-bootstrap")
    if scenario.clusters is None:
        n = clusters.size
        return rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(np.uint16)
    ids, members = np.unique(clusters, return_inverse=True)
    per_cluster = rng.multinomial(ids.size, np.full(ids.size, 1.0 / ids.size), size=n_boot).astype(np.uint16)
    return per_cluster[:, members]


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


def pair_item_counts(scenario: Scenario, items, root_seed: int, stream: str = "noise") -> np.ndarray:
    """The item bootstrap counts of r12's uncertainty on the test set's gold items (shared by all chunks)."""
    gold = items["test"].is_gold
    return item_resample_counts(root_seed, scenario, items["test"].cluster[gold], stream=stream)


def model_tables(batch, items, counts: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The noise study's rows of one simulated batch (one approach, models start..stop-1, start even,
    simulated with ``keep_outcomes=("test",)``): a score row per model and r12 of pairs (2k, 2k+1).

    The rows depend only on each model's own draws, so any study that simulates the same models (the
    Reimers chunks: same scenario, stream and item sets) gives the same rows (tests/test_noise_from_reimers.py).
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


# --------------------------------------------------------------------------- exact values
def _given_items(pop: Population, items, theta: np.ndarray, n_grid: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Population.given_items on a grid of theta, interpolated by cubic splines (both are smooth in theta).

    41 spline knots put the interpolation error of tau, Delta95, rho and Evaluation 2's % significant
    below 1e-7 on the realised sets of all seven Reimers tasks (9e-8 for ACE Events, 1e-9 or less for
    the others; against 2,561 knots, ``tests/test_reimers.py``), where 161 linearly interpolated points
    left 2e-7 to 2e-5, at a quarter of the item-level work (one normal cdf per item and knot).
    Without model noise (sigma_e = 0) both are step functions: 161 points, linear interpolation.
    """
    n_grid = n_grid or (161 if pop.scenario.sigma_e == 0 else 41)
    lo, hi = float(theta.min()), float(theta.max())
    grid = np.linspace(lo, hi, n_grid) if hi > lo else np.array([lo])
    parts = [pop.given_items(grid[i:i + 16], items) for i in range(0, grid.size, 16)]
    mean = np.concatenate([p[0] for p in parts])
    var = np.concatenate([p[1] for p in parts])
    if grid.size == 1:
        return np.full(theta.shape, mean[0]), np.full(theta.shape, var[0])
    if pop.scenario.sigma_e == 0 or np.any(np.diff(grid) <= 0):   # step functions, or a range of rounding size
        return np.interp(theta, grid, mean), np.interp(theta, grid, var)
    spline = interpolate.CubicSpline(grid, np.stack([mean, var], axis=1))
    values = spline(theta)
    return values[..., 0], values[..., 1]


def node_moments(scenario: Scenario, approach: str, item_sets: dict | None = None, *,
                 with_r12: bool = False) -> dict[str, np.ndarray]:
    """Per quadrature node of (theta, test shift): weights and a model's expected dev / test score
    and its within-set variance, over the population or on the realised ``item_sets`` (and the
    item-level correlation r12 of two such models if ``with_r12``)."""
    pop = Population(scenario)
    nodes, weights, shifts, components = seed_quadrature(scenario, approach)
    gh_x, gh_w = np.polynomial.hermite_e.hermegauss(41)
    gh_w = gh_w / gh_w.sum()
    theta_test = nodes[:, None] + shifts[:, None] + scenario.sigma_shift * gh_x[None, :]
    out = {"weights": weights, "w2": weights[:, None] * gh_w[None, :], "component": components, "theta_test": theta_test,
           "psi_dev": np.asarray(pop.psi_true(nodes, "dev")), "psi_test": np.asarray(pop.psi_true(theta_test, "test"))}
    if item_sets is None:
        out["e_dev"], out["e_test"] = out["psi_dev"], out["psi_test"]
        out["v_dev"], out["v_test"] = pop.x_variance(nodes, "dev"), pop.x_variance(theta_test, "test")
    else:  # expected scores and their variance on the realised sets, not the population's
        out["e_dev"], out["v_dev"] = _given_items(pop, item_sets["dev"].for_approach(approach), nodes)
        out["e_test"], out["v_test"] = _given_items(pop, item_sets["test"].for_approach(approach), theta_test)
    if with_r12:
        out["r12"] = pop.pair_correlation(theta_test, "gold")
    return out


def bootstrap_shape(scenario: Scenario, approach: str, item_sets: dict | None, *,
                    nodes: dict | None = None) -> BootstrapShape | None:
    """The paired bootstrap's departure from normal on the realised test set (:class:`BootstrapShape`),
    at the typical test ability of ``approach``'s runs; None without realised sets or without model noise
    (the closed forms then use the normal approximation exactly)."""
    if item_sets is None or scenario.sigma_e == 0:      # no model noise: no shape, the exact normal formulas
        return None
    nodes = node_moments(scenario, approach, item_sets) if nodes is None else nodes
    typical = float(np.sum(nodes["w2"] * nodes["theta_test"]))
    shape = Population(scenario).bootstrap_shape(typical, item_sets["test"].for_approach(approach))
    return None if shape == BootstrapShape() else shape


def components_and_shape(scenario: Scenario, approach: str, item_sets: dict | None):
    """(nodes, :func:`component_moments`, :func:`bootstrap_shape`) from one quadrature: what the closed
    forms of Evaluations 1 and 2 need."""
    nodes = node_moments(scenario, approach, item_sets)
    return (nodes, component_moments(scenario, approach, nodes=nodes),
            bootstrap_shape(scenario, approach, item_sets, nodes=nodes))


def score_moments(nodes: dict[str, np.ndarray], mask=None) -> dict[str, float]:
    """Mean and covariance of (dev score, test score) of one model over the nodes (``mask``: a subset,
    e.g. one mixture component): expected scores on the set plus their within-set variance."""
    w, w2 = nodes["weights"], nodes["w2"]
    if mask is not None:
        w, w2 = w * mask, w2 * mask[:, None]
    total = w.sum()
    w, w2 = w / total, w2 / total
    e_dev, e_test = nodes["e_dev"], nodes["e_test"]
    m_dev, m_test = np.sum(w * e_dev), np.sum(w2 * e_test)
    return {"weight": float(total), "mean_dev": float(m_dev), "mean_test": float(m_test),
            "var_dev": float(np.sum(w * (e_dev - m_dev) ** 2) + np.sum(w * nodes["v_dev"])),
            "var_test": float(np.sum(w2 * (e_test - m_test) ** 2) + np.sum(w2 * nodes["v_test"])),
            "cov": float(np.sum(w2 * (e_dev[:, None] - m_dev) * (e_test - m_test))),
            "var_x_test": float(np.sum(w2 * nodes["v_test"]))}


def component_moments(scenario: Scenario, approach: str, item_sets: dict | None = None, *,
                      nodes: dict | None = None) -> list[dict[str, float]]:
    """:func:`score_moments` of each component of the seed distribution: one for ``normal``, two for
    ``test_shift_mixture``; each component's scores are then treated as bivariate normal, which the
    other families' are not (ValueError)."""
    family = scenario.seed_distribution.family
    if family not in ("normal", "test_shift_mixture"):
        raise ValueError(f"scenario {scenario.name!r}: component moments need a normal or test_shift_mixture "
                         f"seed distribution, got {family!r}")
    nodes = node_moments(scenario, approach, item_sets) if nodes is None else nodes
    return [score_moments(nodes, (nodes["component"] == c).astype(float))
            for c in range(len(scenario.seed_distribution.components))]


def component_spearman(parts: list[dict[str, float]]) -> float:
    """Spearman's rho of dev and test scores with each component's scores bivariate normal."""
    return mixture_spearman([p["weight"] for p in parts], [[p["mean_dev"], p["mean_test"]] for p in parts],
                            [[[p["var_dev"], p["cov"]], [p["cov"], p["var_test"]]] for p in parts])


def implied_values(scenario: Scenario, approach: str, item_sets: dict | None = None) -> dict[str, float]:
    """What the model implies for each summary statistic (quadrature over theta and delta).

    sd of X is the within-set sd (delta method for ratio metrics).  With ``item_sets`` the
    sd of X and the dev-test correlations are those the realised dev and test sets imply
    (a model's expected score on a fixed set is not exactly Psi_true); without, their
    expectation over item sets.  The correlations treat X_dev and X_test as independent
    of each other and of theta.  Spearman's value is (6/pi) asin(rho/2), exact for bivariate
    normal scores (normal seed distribution); for a ``test_shift_mixture`` it is the
    mixture's Spearman with each component's scores bivariate normal; other families: NaN.
    """
    nodes = node_moments(scenario, approach, item_sets, with_r12=True)
    w, w2 = nodes["weights"], nodes["w2"]
    f_dev, f_test = nodes["psi_dev"], nodes["psi_test"]
    m_dev, m_test = np.sum(w * f_dev), np.sum(w2 * f_test)
    var_dev = np.sum(w * (f_dev - m_dev) ** 2)
    var_test = np.sum(w2 * (f_test - m_test) ** 2)
    whole = score_moments(nodes)
    pearson = whole["cov"] / math.sqrt(whole["var_dev"] * whole["var_test"])
    family = scenario.seed_distribution.family
    if family == "normal":
        spearman = 6 / math.pi * math.asin(pearson / 2)
    elif family == "test_shift_mixture":
        spearman = component_spearman(component_moments(scenario, approach, nodes=nodes))
    else:
        spearman = float("nan")
    return {
        "sd_psi_true_dev": math.sqrt(var_dev), "sd_psi_true_test": math.sqrt(var_test),
        "sd_x_dev": math.sqrt(np.sum(w * nodes["v_dev"])), "sd_x_test": math.sqrt(whole["var_x_test"]),
        "pearson_dev_test": pearson, "spearman_dev_test": spearman,
        "mean_r12": float(np.sum(w2 * nodes["r12"])),
    }


# --------------------------------------------------------------------------- summary
def _resampled_ranks(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Average ranks within each row of ``values[idx]`` (rows of resample indices): the values of
    scipy.stats.rankdata(values[idx], axis=1), bit for bit (ranks and tied averages are exact halves),
    counted instead of sorted, in time linear in the size of ``idx``.  A NaN stays NaN and the rest of
    its row is ranked among themselves (scipy gives a row of NaN); the correlation of such a row is NaN
    either way.

    Each value's rank in a row is (values of the row below it) + (its copies in the row + 1) / 2, from
    the counts of the row's distinct values (``np.unique`` puts NaN last, so it counts below nothing)."""
    distinct, key = np.unique(values, return_inverse=True)
    k = distinct.size
    rows = idx.shape[0]
    codes = key.ravel()[idx]
    codes += (np.arange(rows, dtype=codes.dtype) * k)[:, None]
    counts = np.bincount(codes.ravel(), minlength=rows * k)
    below = np.cumsum(counts)
    below -= counts
    below -= np.repeat(below[::k], k)          # counts of the row's own values only
    ranks = (below + (counts + 1) / 2)[codes]
    if np.isnan(distinct[-1]):
        ranks[np.isnan(values)[idx]] = np.nan
    return ranks


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
    out["spearman_dev_test"] = _row_corr(_resampled_ranks(frame["psi_dev"], idx),
                                         _resampled_ranks(frame["psi_test"], idx))
    return out


def summarise(scenario: Scenario, scores: pd.DataFrame, pairs: pd.DataFrame, root_seed: int,
              n_boot: int = 1000, level: float = 0.95, max_block: int = 4_000_000,
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
        for lo in range(0, n_boot, block):
            idx = rng.integers(0, n, size=(min(block, n_boot - lo), n))
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
    from simstats.io import markdown_table

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
