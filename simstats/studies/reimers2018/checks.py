"""Computed checks behind the explanations of Reimers & Gurevych (2018)'s misses (explanations.yaml)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special, stats

from simstats.studies.reference import judge, paper_value, read_if_present, value_range
from simstats.studies.reimers2018.calibration import EVAL2_N

#: the mean z of a pair whose one-sided shift-convention p lies in (0.04, 0.05): tau = this x se
TAU_Z = float(np.mean(-special.ndtri(np.linspace(0.04, 0.05, 1001))))   # = stats.norm.isf
#: the same for a two-sided p in (0.04, 0.05): one-sided p in (0.02, 0.025)
TAU_Z_TWO_SIDED = float(np.mean(-special.ndtri(np.linspace(0.02, 0.025, 1001))))
#: Readings of the paper's test: (z of its tau band, z of its significance threshold).  "one-sided" and
#: "two-sided" read tau and the threshold alike; "mixed" reads tau one-sided and the threshold two-sided.
READINGS = {"one-sided": (TAU_Z, float(stats.norm.isf(0.05))),
            "two-sided": (TAU_Z_TWO_SIDED, float(stats.norm.isf(0.025))),
            "mixed": (TAU_Z, float(stats.norm.isf(0.025)))}


def implied_rate(tau: float, delta95: float, reading: str) -> float:
    """% significant implied by a tau and Delta95 under a reading of the test: differences
    N(0, (Delta95 / 1.96)^2), a bootstrap se of tau / z_band, significant when |Delta| > z_threshold se."""
    z_band, z_threshold = READINGS[reading]
    se, sd = tau / z_band, delta95 / stats.norm.isf(0.025)
    return float(100 * 2 * stats.norm.sf(z_threshold * se / sd))


def implied_significance(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 1 % significant implied by the paper's own tau and Delta95 under each reading of its test
    (:data:`READINGS`).  Verdict of each missed row under the cause: ours judged against the implied value of
    the two consistent readings (their range widening the tolerance of the row), i.e. the published count
    replaced by what the paper's own tau and Delta95 imply."""
    parts, gaps, verdicts = [], [], {}
    mixed_below = 0
    for index, r in rows.iterrows():
        tau = paper_value("reimers2018", "T1_eval1", r.row, "tau")
        d95 = paper_value("reimers2018", "T1_eval1", r.row, "delta95_test")
        pct = paper_value("reimers2018", "T1_eval1", r.row, "pct_significant")
        if None in (tau, d95, pct):
            continue
        implied = {k: implied_rate(tau, d95, k) for k in READINGS}
        lo, hi = min(implied["one-sided"], implied["two-sided"]), max(implied["one-sided"], implied["two-sided"])
        centre, half = (lo + hi) / 2, (hi - lo) / 2
        tolerance, mcse = (float(r.get(k, float("nan"))) for k in ("tolerance", "mcse"))
        verdict = ""
        if np.isfinite(tolerance):
            # the cause holds only where the published count lies outside what its own tau and Delta95 imply
            # (beyond the row's tolerance); then ours is judged against the implied count instead
            inconsistent = judge(pct, 0.0, centre, tolerance + half) == "misses"
            verdict = judge(float(r.ours), mcse, centre, tolerance + half) if inconsistent else "misses"
            verdicts[index] = verdict
        mixed_below += implied["mixed"] < pct < lo
        parts.append(f"{r.row}: paper {pct:.2f} %, implied {implied['one-sided']:.1f} % one-sided, "
                     f"{implied['two-sided']:.1f} % two-sided, {implied['mixed']:.1f} % mixed; ours "
                     f"{float(r.ours):.1f} %" + (f" -> {verdict}" if verdict else ""))
        gaps.append(lo - pct)
    if not parts:
        return None
    explained = sum(v in ("agrees", "undetermined") for v in verdicts.values())
    return {"gap": value_range(gaps), "tasks": len(parts), "mixed": mixed_below, "explained": explained,
            "verdicts": verdicts, "shown": "; ".join(parts)}


def mixture_reach(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """The calibrated model's closed form for the missed Evaluation 2 cells (reimers/closed_form_curves.csv
    at the row's n; Table 2 is n = 50) beside the paper, the calibration's note on Table 2's fit
    (reimers/calibration_fit.csv), and how many MCSE the simulated value lies from the closed form."""
    fit = read_if_present(results / "reimers" / "calibration_fit.csv")
    curves = read_if_present(results / "reimers" / "closed_form_curves.csv")
    if fit is None or curves is None:
        return None
    parts, closed, zs, notes, verdicts = [], [], [], [], {}
    for r in rows.itertuples():
        digits = re.search(r"_n(\d+)$", str(r.column))
        n = int(digits.group(1)) if digits else EVAL2_N
        curve = curves[(curves.reference == r.row) & (curves.n == n)]
        if curve.empty:
            continue
        value = float(curve.pct_significant.iloc[0])
        target = fit[(fit.reference == r.row) & (fit.kind == "target") & (fit.quantity == "pct_significant_eval2")]
        note = str(target.note.iloc[0]) if len(target) else "Table 2 not fitted"
        z = (float(r.ours) - value) / float(r.mcse) if r.mcse and np.isfinite(r.mcse) and r.mcse > 0 else float("nan")
        parts.append(f"{r.row}, n = {n}: closed form {value:.2f} %, paper {float(r.published):.2f} %, simulated "
                     f"{float(r.ours):.2f} ± {float(r.mcse):.2f} (z = {z:.1f} from the closed form; {note})")
        # Monte Carlo error explains the miss only where ours is within 3 MCSE of the closed form and the closed
        # form agrees with the paper
        verdicts[r.Index] = (judge(value, 0.0, float(r.published), float(r.tolerance)) if abs(z) <= 3
                             else "misses")
        closed.append(value)
        zs.append(z)
        notes.append(note)
    if not parts:
        return None
    reach = ("meets it exactly" if all(k == "fit exact" for k in notes)
             else "cannot reach it while keeping tau, Delta95 and rho (closest fit)" if all(k != "fit exact" for k in notes)
             else "meets it exactly in some of these tasks and not in others (see the computation)")
    return {"closed": value_range(closed), "z": value_range(zs), "reach": reach, "shown": "; ".join(parts),
            "verdicts": verdicts}


def _config_scenarios() -> dict:
    """The built-in scenarios by reference task (the default configuration shipped with the package)."""
    import yaml

    from simstats.sim.scenario import BUILTIN_CONFIG_PATH, parse_scenarios

    config = yaml.safe_load(BUILTIN_CONFIG_PATH.read_text())
    return {sc.reference: sc for sc in parse_scenarios(config["scenarios"]).values() if sc.reference}


def dev_delta95(parts: list[dict], n: int, extra_dev_var: float = 0.0) -> float:
    """Delta95 (metric points) of the dev-score difference of the best-by-dev runs of n per approach, each
    component's dev score normal (``extra_dev_var`` added to every component's dev variance)."""
    from simstats.studies.reimers2018.selection import _abs_cdf, difference_density

    w = np.array([c["weight"] for c in parts])
    m = np.array([c["mean_dev"] for c in parts])
    sd = np.sqrt(np.array([c["var_dev"] for c in parts]) + extra_dev_var)
    d = np.linspace((m - 9 * sd).min(), (m + 9 * sd).max(), 4001)
    pdf = np.sum(w[:, None] * stats.norm.pdf(d[None, :], m[:, None], sd[:, None]), axis=0)
    cdf = np.sum(w[:, None] * stats.norm.cdf(d[None, :], m[:, None], sd[:, None]), axis=0)
    grid, dens = difference_density(d, n * pdf * cdf ** (n - 1))
    x, abs_cdf = _abs_cdf(grid, dens)
    return 100 * float(np.interp(0.95, abs_cdf, x))


def dev_shift(ledger: pd.DataFrame, rows: pd.DataFrame, results: Path) -> dict | None:
    """Table 2's Delta95 (dev) with a run x split shift on dev as on test: the calibrated model's closed form
    (component moments over the population of items) with the dev variance of every component raised by
    (d psi_dev / d theta x sigma_shift)^2, against the same closed form without it; ours scaled by their
    ratio (its MCSE likewise) and judged against the paper.  The cause counts only where the fitted Spearman
    rho still agrees with the paper under it (the dev shift lowers rho; the model is not refitted)."""
    from simstats.sim.closed_forms import component_moments, component_spearman
    from simstats.sim.noise import Population

    scenarios = _config_scenarios()
    parts_text, ratios, verdicts, kept = [], [], {}, 0
    for index, r in rows.iterrows():
        sc = scenarios.get(r.row)
        if sc is None:
            continue
        approach = sc.approaches[0].name
        parts = component_moments(sc, approach)
        pop = Population(sc)
        theta = pop.mu(approach) + sc.dev_offset
        step = 1e-4
        slope = float((pop.psi_true(theta + step, "dev") - pop.psi_true(theta - step, "dev")) / (2 * step))
        base = dev_delta95(parts, EVAL2_N)
        shifted = dev_delta95(parts, EVAL2_N, (slope * sc.sigma_shift) ** 2)
        ratio = shifted / base
        ours, mcse = float(r.ours) * ratio, float(r.mcse) * ratio
        # the cause must keep the fitted Spearman rho: the dev shift lowers it (dev variance up, covariance kept)
        extra = (slope * sc.sigma_shift) ** 2
        rho = component_spearman([{**c, "var_dev": c["var_dev"] + extra} for c in parts])
        fitted = ledger[(ledger.paper == "reimers2018") & (ledger.table == "T2_eval2") & (ledger.row == r.row)
                        & (ledger.column == "spearman_rho")]
        rho_verdict = (judge(rho, 0.0, float(fitted.published.iloc[0]), float(fitted.tolerance.iloc[0]))
                       if len(fitted) and np.isfinite(fitted.tolerance.iloc[0]) else "misses")
        rho_kept = rho_verdict in ("agrees", "undetermined")
        moved = judge(ours, mcse, float(r.published), float(r.tolerance))
        verdicts[index] = moved if rho_kept else "misses"
        ratios.append(ratio)
        kept += rho_kept
        parts_text.append(f"{r.row}: closed form {base:.3f} -> {shifted:.3f}, ours {float(r.ours):.3f} -> {ours:.3f} "
                          f"± {mcse:.3f}, paper {float(r.published):.2f} -> {moved}; rho "
                          f"{component_spearman(parts):.3f} -> {rho:.3f} ({rho_verdict} with the fitted one)")
    if not parts_text:
        return None
    explained = sum(v in ("agrees", "undetermined") for v in verdicts.values())
    return {"factor": value_range(ratios), "explained": explained, "tasks": len(parts_text), "kept": kept,
            "verdicts": verdicts, "shown": "; ".join(parts_text)}


CHECKS = {f.__name__: f for f in (implied_significance, mixture_reach, dev_shift)}
