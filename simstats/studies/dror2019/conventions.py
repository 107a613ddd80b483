"""Dror et al. (2019): the paper's conventions, and the paper under both ASO conventions.

The paper's own computations, built on the generic building blocks of :mod:`simstats.stats.aso`:

* :func:`dror2019_aso` computes ASO as the paper did, following the computation of its released
  script (facts of it, not its code): the grid t = 0, dt, 2 dt, ... < 1 (the first point included
  in both integrals; eps = 0 when the two quantile functions coincide); each of ``n_resamples``
  bootstrap replicates draws N = M = ``draws`` (:data:`DROR_DRAWS`, 1,000) scores from each
  empirical distribution, whatever the sample sizes; sigma is the plain sd of the replicates' eps*,
  and eps_min = eps + Phi^-1(1 - alpha) sigma / sqrt(N M / (N + M)), a margin of about 0.1 sigma at
  alpha = 0.01 (against Phi^-1(1 - alpha) sd(eps*) at the data's own n and m in the deepsig
  convention of :func:`simstats.stats.aso.aso`).  The paper's rule declares A better when
  eps_min <= 0.5;
* :func:`dror2019_u_test`: the stochastic-order p-value as the released script computes it;
* :func:`so_verdict`: stochastic order as the paper's analyses operationalise it (two-sided U test).

Beside the paper's published numbers, :func:`conventions_table` sets "deepsig": eps_min with
deepsig's margin at the data's own sizes (Phi^-1(1 - alpha) sd of the bootstrap eps times
sqrt((n + m) / (n m))) and the two-sided U test; against "dror2019": the paper's own computation
(margin Phi^-1(1 - alpha) sigma / sqrt(500) from 1,000 draws per replicate; one-sided U tests,
p = 1 below 20 scores).  One row per published number: Tables 1-3 (U p-value, winner, eps),
Table 4 (share and eps mean / sd per case; UKP runs and the synthetic population) and section 6
(eps mean / sd of the false-positive and false-negative analyses).

Tolerances (ours, stated per row): eps and eps means +-0.05, eps sds +-0.03, case shares +-10
points, U p-values 10 % on a log10 scale; the claims "no case D" and "ASO decisive in all
510" half a comparison of 510.  Monte Carlo errors: eps_min's from its bootstrap margin (a computation
on fixed data otherwise), the synthetic population's from its sampling, section 6's by a bootstrap of
the distributions (:func:`simstats.studies.dror2019.simulate.noise_summary`).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.stats.aso import (
    ASOResult,
    QuantileLayout,
    alpha_level,
    checked_scores,
    quantile_layout,
    resampled_violation_ratios,
    sorted_resample_indices,
    violation_ratio,
)
from simstats.stats.engine import as_generator
from simstats.stats.lazy import lazy_module
from simstats.studies.reference import judge, rate_interval, rounding

special = lazy_module("scipy.special")
stats = lazy_module("scipy.stats")

#: The paper's cases: A = COS and SO both decisive, B = COS only, C = neither, D = SO only.
CASES = ("A", "B", "C", "D")
#: Scores drawn from each empirical distribution per bootstrap replicate in the paper's computation.
DROR_DRAWS = 1000
#: The paper's section 6 values (violation ratio; COS shares), beside which our analyses are shown.
PAPER_NOISE = {"false_positive": {"mean": 0.502, "sd": 0.0472, "q2.5": 0.396, "q97.5": 0.631,
                                  "cos_first_better": 0.262, "cos_second_better": 0.238},
               "half_split": {"mean": 0.5},
               "false_negative": {"mean": 0.134, "sd": 0.07, "cos_first_better": 0.874}}


# --------------------------------------------------------------------------- the paper's computations
def dror2019_layout(n: int, m: int, dt: float = 0.005) -> QuantileLayout:
    """The paper's integration: the grid t = 0, dt, 2 dt, ... < 1, every point in both integrals."""
    return quantile_layout(n, m, "grid", dt, start=0.0)


def dror2019_violation_ratio(scores_a, scores_b, *, dt: float = 0.005) -> float:
    """eps_W2(F_A, G_B) as the paper computed it: on :func:`dror2019_layout`, 0 when the two quantile
    functions coincide."""
    a, b = np.asarray(scores_a, dtype=np.float64), np.asarray(scores_b, dtype=np.float64)
    return violation_ratio(a, b, layout=dror2019_layout(a.size, b.size, dt), coincide=0.0)


def dror2019_aso(scores_a, scores_b, *, confidence_level: float = 0.95, num_comparisons: int = 1,
                 n_resamples: int = 1000, dt: float = 0.005, draws: int = DROR_DRAWS, rng) -> ASOResult:
    """ASO that A (``scores_a``) is almost stochastically larger than B, computed as Dror et al. (2019)
    did (module docstring); the arguments as :func:`simstats.stats.aso.aso`'s, and ``draws``: scores
    drawn per sample and replicate.  ``sigma`` of the result is the plain sd of the replicates' eps*
    and ``method`` is "dror2019"."""
    a = checked_scores(scores_a, "scores_a")
    b = checked_scores(scores_b, "scores_b")
    level = alpha_level(confidence_level, num_comparisons)
    if n_resamples < 2:
        raise ValueError(f"n_resamples must be >= 2, got {n_resamples}")
    if draws < 2:
        raise ValueError(f"draws must be >= 2, got {draws}")
    rng = as_generator(rng)
    n, m = a.size, b.size
    eps = violation_ratio(a, b, layout=dror2019_layout(n, m, dt), coincide=0.0)
    # each replicate's draws sorted, as the released script sorts them, read at the grid's positions
    idx_a = sorted_resample_indices(n, n_resamples, rng, draws)
    idx_b = sorted_resample_indices(m, n_resamples, rng, draws)
    eps_star = resampled_violation_ratios(a, idx_a, b, idx_b, dror2019_layout(draws, draws, dt), coincide=0.0)
    sigma = float(np.std(eps_star))
    margin = special.ndtri(1 - level) * sigma / math.sqrt(draws / 2)
    eps_min = float(np.clip(eps + margin, 0.0, 1.0))
    reverse = float(np.clip(1 - eps + margin, 0.0, 1.0))
    return ASOResult(eps_min, None, "greater", "dror2019", statistic_reverse=reverse, violation_ratio=eps,
                     sigma=sigma, confidence_level=1 - level, n=n, m=m)


def dror2019_u_test(scores_a, scores_b) -> float:
    """The stochastic-order p-value as Dror et al. (2019) computed it: scipy's Mann-Whitney U
    with ``alternative="less"`` for (A, B), and p = 1 when either sample has fewer than 20
    scores (their released script's rule)."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    if a.size < 20 or b.size < 20:
        return 1.0
    return float(stats.mannwhitneyu(a, b, alternative="less").pvalue)


def so_verdict(scores_a, scores_b, *, alpha: float = 0.05) -> tuple[int, float]:
    """Stochastic order as the paper's analyses read it, by the two-sided Mann-Whitney U test (scipy):
    (+1 if A is significantly larger (p < alpha), -1 if B is, else 0; the p-value)."""
    a, b = np.asarray(scores_a, float), np.asarray(scores_b, float)
    u = stats.mannwhitneyu(a, b, alternative="two-sided")
    return (int(np.sign(u.statistic - a.size * b.size / 2)) if u.pvalue < alpha else 0), float(u.pvalue)


# --------------------------------------------------------------------------- both conventions vs the paper
TOL = {"eps": 0.05, "eps_sd": 0.03, "share": 10.0, "u_p_log10": math.log10(1.1)}
#: Claims about all 510 comparisons (none in case D, ASO decisive in all) allow half a comparison of 510.
HALF_OF_510 = 100 / 510 / 2


def u_p_tolerance(printed_p: float) -> float:
    """The U p-value's tolerance in log10 units: 10 % (a p of fixed data is a computation) plus the rounding."""
    return TOL["u_p_log10"] + math.log10(1 + printed_rounding(printed_p) / printed_p)


def paper_table4(targets: pd.DataFrame | None = None) -> dict[str, dict[str, float]]:
    """The paper's Table 4 per case: share of comparisons (%), mean and sd of eps."""
    if targets is None:
        from simstats.studies.reference import paper_targets

        targets = paper_targets()
    t = targets[(targets.paper == "dror2019") & (targets.table == "T4_summary")]
    out = {}
    for r in t.itertuples(index=False):
        share, mean, sd = (float(x) for x in str(r.value).split(";"))
        out[r.row.removeprefix("Case ")] = {"share": share, "eps_mean": mean, "eps_sd": sd}
    return out


def _row(table, source, quantity, conv, paper, ours, mcse, tol, basis, verdict=None, interval=None,
         scale="linear") -> dict:
    return {"table": table, "source": source, "quantity": quantity, "convention": conv, "paper": paper,
            "ours": ours, "mcse": mcse, "tolerance": tol, "tolerance_basis": basis, "scale": scale,
            "verdict": verdict if verdict is not None else judge(ours, mcse, paper, tol, interval=interval,
                                                                 scale=scale)}


def printed_rounding(value: float) -> float:
    """Half a unit of the last digit of a published value shipped as a float (``repr`` digits); a
    published 0 is an eps clipped at 0, exact."""
    return 0.0 if value == 0 else rounding(repr(float(value)))


SYNTHETIC = "synthetic population"
#: Section 6 rerun on the real UKP pools (rule dror_noise_ukp).
UKP_POOLS = "UKP pools"


def conventions_table(paper_cases: dict, comparisons: dict, noise_summary: pd.DataFrame,
                      targets: pd.DataFrame, noise_ukp: pd.DataFrame | None = None) -> pd.DataFrame:
    """paper_cases / comparisons: {convention: frame} of :func:`case_comparisons` and of the
    Table 4 comparisons (column ``source``); noise_summary: :func:`noise_summary` rows.

    Each row carries ours' Monte Carlo standard error where ours is a simulation (the synthetic
    population and section 6: binomial for shares, sd / sqrt(count) for means, sd / sqrt(2 (count
    - 1)) for sds; NaN for computations on fixed data) and the verdict of
    :func:`simstats.studies.reference.judge` with the tolerance plus the published rounding."""
    nan = float("nan")
    rows = []
    for conv, frame in paper_cases.items():
        for r in frame.itertuples(index=False):
            table = f"Table {'ABC'.index(r.case_paper) + 1}"
            real = getattr(r, "source", "") == "UKP runs"
            source = f"{r.first} vs {r.second}" + (" (UKP runs)" if real else "")
            rows.append(_row(table, source, "U test p", conv, r.u_p_paper, r.u_p, 0.0, u_p_tolerance(r.u_p_paper),
                             "log10: 10 % + rounding", scale="log10"))
            quantity = f"eps of the better ({r.better_paper} in the paper)"
            tol = TOL["eps"] + printed_rounding(r.eps_paper)
            mcse = float(getattr(r, "eps_mcse", nan))
            if r.aso_better == r.better_paper or hasattr(r, "eps_paper_side"):
                # eps_min of the claim that the paper's winner is better (above 0.5 when ASO picks the other)
                ours = float(getattr(r, "eps_paper_side", r.eps))
                rows.append(_row(table, source, quantity, conv, r.eps_paper, ours, mcse, tol,
                                 f"±{TOL['eps']:g} + rounding"))
            else:
                rows.append(_row(table, source, quantity, conv, r.eps_paper, nan, nan, tol,
                                 f"±{TOL['eps']:g} + rounding", "misses (other winner)"))
    paper4 = paper_table4(targets)
    for conv, frame in comparisons.items():
        for source, g in frame.groupby("source", sort=True):
            simulated = source == SYNTHETIC
            # on fixed data the cases (COS, U test) are computations; eps_min's bootstrap margin is random
            item_mcse = g.eps_mcse.to_numpy(float) if "eps_mcse" in g else np.full(len(g), nan)
            for case in CASES:
                if case not in paper4:
                    continue
                inside = (g.case == case).to_numpy()
                c, k = g[inside], int(inside.sum())
                share = 100 * k / len(g)
                mcse = 100 * math.sqrt(share / 100 * (1 - share / 100) / len(g)) if simulated else 0.0
                paper = paper4[case]
                rows.append(_row("Table 4", source, f"case {case} share %", conv, paper["share"], share, mcse,
                                 TOL["share"] + printed_rounding(paper["share"]), f"±{TOL['share']:g} points + rounding",
                                 interval=rate_interval(share, len(g), scale=100.0) if simulated else None))
                mean = c.eps.mean() if k else nan
                sd = c.eps.std(ddof=1) if k > 1 else nan
                if simulated:
                    mean_mcse = sd / math.sqrt(k) if k > 1 else nan
                    sd_mcse = sd / math.sqrt(2 * (k - 1)) if k > 1 else nan
                else:   # propagated from each comparison's eps_min error (independent bootstraps)
                    e, m = c.eps.to_numpy(float), item_mcse[inside]
                    mean_mcse = math.sqrt(np.sum(m ** 2)) / k if k else nan
                    sd_mcse = math.sqrt(np.sum(((e - e.mean()) * m) ** 2)) / ((k - 1) * sd) if k > 1 and sd > 0 else \
                        (0.0 if k > 1 else nan)
                rows.append(_row("Table 4", source, f"case {case} eps mean", conv, paper["eps_mean"], mean, mean_mcse,
                                 TOL["eps"] + printed_rounding(paper["eps_mean"]), f"±{TOL['eps']:g} + rounding"))
                rows.append(_row("Table 4", source, f"case {case} eps sd", conv, paper["eps_sd"], sd, sd_mcse,
                                 TOL["eps_sd"] + printed_rounding(paper["eps_sd"]), f"±{TOL['eps_sd']:g} + rounding"))
            # the text's claims about all 510 comparisons: none in case D, ASO decisive in every one
            n = len(g)
            for quantity, paper, ours in (("case D share %", 0.0, 100 * float((g.case == "D").mean())),
                                          ("ASO decisive %", 100.0, 100 * float(g.aso_decisive.mean()))):
                mcse = 100 * math.sqrt(ours / 100 * (1 - ours / 100) / n) if simulated else 0.0
                rows.append(_row("Table 4", source, quantity, conv, paper, ours, mcse, HALF_OF_510,
                                 "half a comparison of 510",
                                 interval=rate_interval(ours, n, scale=100.0) if simulated else None))
    stat = {"deepsig": "eps_min", "dror2019": "eps_min_dror2019"}
    # section 6 on the synthetic population and (``noise_ukp``, the paper's computation only) the UKP pools
    sets = [(SYNTHETIC, noise_summary)] + ([(UKP_POOLS, noise_ukp)] if noise_ukp is not None else [])
    for (conv, name), (source, summary) in ((c, s) for s in sets for c in stat.items()):
        part = summary[summary.statistic == name].set_index("analysis")
        for analysis, values in PAPER_NOISE.items():
            if analysis not in part.index:
                continue
            count, spread = float(part.loc[analysis, "comparisons"]), float(part.loc[analysis, "sd"])
            for key in ("mean", "sd"):
                if key not in values or pd.isna(values[key]):
                    continue
                ours = float(part.loc[analysis, key])
                mcse = float(part.loc[analysis, f"{key}_mcse"]) if f"{key}_mcse" in part else \
                    spread / math.sqrt(count) if key == "mean" else spread / math.sqrt(2 * (count - 1))
                tol = TOL["eps_sd" if key == "sd" else "eps"]
                rows.append(_row("Section 6", source, f"{analysis} eps_min {key}", conv, values[key], ours, mcse,
                                 tol + printed_rounding(values[key]), f"±{tol:g} + rounding"))
    return pd.DataFrame(rows)


def conventions_markdown(table: pd.DataFrame) -> str:
    from simstats.io.write import markdown_table

    wide = table.pivot_table(index=["table", "source", "quantity", "paper"], columns="convention",
                             values=["ours", "verdict"], aggfunc="first", sort=False)
    wide.columns = [f"{conv} {what}" for what, conv in wide.columns]
    wide = wide.reset_index()
    cols = ["table", "source", "quantity", "paper"] + [f"{c} {w}" for c in ("deepsig", "dror2019")
                                                       for w in ("ours", "verdict") if f"{c} {w}" in wide]
    counts = table.groupby(["convention", "verdict"]).size().unstack(fill_value=0)
    return "\n".join([
        "# Dror et al. (2019) under both ASO conventions",
        "",
        "deepsig: eps_min with deepsig's margin at the data's own sizes and the two-sided U test (p < 0.05). "
        "dror2019: the paper's own computation - 1,000 draws per bootstrap replicate, margin "
        "Phi^-1(1 - alpha) sigma / sqrt(500) (about 0.1 sigma at alpha = 0.01), one-sided U tests with p = 1 "
        "below 20 scores. Tolerances: eps +-0.05, eps sd +-0.03, shares +-10 points, U p 10 % (log10 "
        "scale), each plus half a unit of the paper's last digit; a verdict is "
        "'agrees' when ours' 95 % Monte Carlo interval lies inside the band, 'misses' when entirely outside. "
        "Table 4 here is computed on the UKP runs and IBM seeds and on a "
        "synthetic population, not on the paper's 510 setups.",
        "",
        markdown_table(wide[cols]),
        "",
        "## Verdicts per convention",
        "",
        markdown_table(counts.reset_index()),
    ])
