"""Size and power of ASO, Welch's t test and Mann-Whitney U on simulated score distributions.

For one scenario the pool is the simulated test scores of its (identical) approaches.  A
comparison draws n runs per approach from the pool (with replacement); approach B's runs
are shifted up by ``shift`` robust standard deviations of the pool (1.4826 x MAD, the sd
for normal scores; a failure tail does not inflate it).  Each method either claims "B is
better", "A is better" or nothing:

* ASO: eps_min(B over A) < threshold claims B, eps_min(A over B) < threshold claims A
  (both from one bootstrap: the violation ratio of A over B is 1 minus that of B over A,
  and sigma-hat is the same); thresholds 0.2, 0.4 and 0.5, alpha = ``alpha_aso``;
* Welch's t test and Mann-Whitney U (two-sided, alpha = ``alpha``): a rejection claims the
  approach with the larger mean (Welch) or the larger mean rank (U).

Size = share of comparisons with any claim under shift 0 (approaches identical); power =
share claiming B under a true shift; "wrong" = share claiming A under a true shift.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from simstats.stats.aso import SmallSampleWarning, aso
from simstats.stats.montecarlo import proportion_with_se
from simstats.stats.lazy import lazy_module
from simstats.studies.dror2019.conventions import so_verdict
from simstats.stats.resample import ItemIndices

stats = lazy_module("scipy.stats")

THRESHOLDS = (0.2, 0.4, 0.5)
METHODS = ("aso_0.2", "aso_0.4", "aso_0.5", "welch", "mannwhitney")
#: Relative distance of a p-value from alpha below which a batched test is redone on the row alone.
_EDGE = 1e-9


def robust_sd(x: np.ndarray) -> float:
    """1.4826 x median absolute deviation (the sd for normal data)."""
    x = np.asarray(x, float)
    return float(1.4826 * np.median(np.abs(x - np.median(x))))


def _aso_claims(a: np.ndarray, b: np.ndarray, rng: np.random.Generator, *, alpha_aso: float,
                n_resamples: int) -> tuple[float, float]:
    """(eps_min of "B better", eps_min of "A better"), both from one bootstrap."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        res = aso(b, a, confidence_level=1 - alpha_aso, n_resamples=n_resamples, rng=rng)
    return res.statistic, res.statistic_reverse


def _claims(a: np.ndarray, b: np.ndarray, eps_b: np.ndarray, eps_a: np.ndarray, *, alpha: float) -> dict:
    """Claims of every method (+1: B better, -1: A better, 0: none) for comparisons in rows: runs
    ``a``, ``b`` (comparisons x n) and ASO's eps_min of B over A and of A over B.  Welch and MWU run
    on all rows at once (scipy's tests along axis 1, each row as in a call of its own)."""
    out = {}
    for t in THRESHOLDS:
        out[f"aso_{t}"] = np.where(eps_b < t, 1, np.where(eps_a < t, -1, 0))
    welch = stats.ttest_ind(b, a, axis=1, equal_var=False)
    out["welch"] = np.where(welch.pvalue < alpha, np.sign(welch.statistic), 0).astype(int)
    # p-values along an axis may differ from one row's call in the last bits: rows at alpha are redone
    for r in np.flatnonzero(np.abs(welch.pvalue - alpha) <= _EDGE * alpha):
        one = stats.ttest_ind(b[r], a[r], equal_var=False)
        out["welch"][r] = int(np.sign(one.statistic)) if one.pvalue < alpha else 0
    out["mannwhitney"] = _mwu_claims(b, a, alpha=alpha)
    return out


def _mwu_claims(x: np.ndarray, y: np.ndarray, *, alpha: float) -> np.ndarray:
    """:func:`simstats.studies.dror2019.conventions.so_verdict` of each row of x against the same row
    of y.  scipy picks the exact or the asymptotic U test for a whole call (asymptotic if any row has
    ties, when a sample has at most 8 scores), so rows with and without ties are tested apart, each
    as on its own."""
    n1, n2 = x.shape[1], y.shape[1]
    out = np.zeros(x.shape[0], dtype=int)
    if n1 > 8 and n2 > 8:
        groups = [np.ones(x.shape[0], dtype=bool)]
    else:
        both = np.sort(np.concatenate([x, y], axis=1), axis=1)
        ties = np.any(both[:, 1:] == both[:, :-1], axis=1)
        groups = [ties, ~ties]
    for rows in groups:
        if rows.any():
            u = stats.mannwhitneyu(x[rows], y[rows], alternative="two-sided", axis=1)
            out[rows] = np.where(u.pvalue < alpha, np.sign(u.statistic - n1 * n2 / 2), 0)
            for r in np.flatnonzero(rows)[np.abs(u.pvalue - alpha) <= _EDGE * alpha]:
                out[r] = so_verdict(x[r], y[r], alpha=alpha)[0]
    return out


def compare_once(a: np.ndarray, b: np.ndarray, rng: np.random.Generator, *, alpha: float, alpha_aso: float,
                 n_resamples: int) -> dict[str, int]:
    """+1 (claims B better), -1 (claims A better) or 0 for every method."""
    eps_b, eps_a = _aso_claims(a, b, rng, alpha_aso=alpha_aso, n_resamples=n_resamples)
    claims = _claims(np.asarray(a, float)[None], np.asarray(b, float)[None], np.array([eps_b]), np.array([eps_a]),
                     alpha=alpha)
    return {m: int(v[0]) for m, v in claims.items()}


def size_power(pool: np.ndarray, scenario: str, *, n_runs, shifts, replicates: int, rng: np.random.Generator,
               alpha: float = 0.05, alpha_aso: float = 0.01, n_resamples: int = 1000) -> pd.DataFrame:
    """Rows per (n, shift, method): claims of B, of A and of either, with binomial MCSEs."""
    pool = np.asarray(pool, float)
    if pool.size < 10 or not np.all(np.isfinite(pool)):
        raise ValueError(f"scenario {scenario!r}: need >= 10 finite scores in the pool, got {pool.size}")
    sd = robust_sd(pool)
    if sd <= 0:
        raise ValueError(f"scenario {scenario!r}: the scores do not vary")
    rows = []
    for n in n_runs:
        for shift in shifts:
            a, b = np.empty((replicates, n)), np.empty((replicates, n))
            eps_b, eps_a = np.empty(replicates), np.empty(replicates)
            runs_a, runs_b = (ItemIndices(rng, replicates, pool.size, n, chunk=1) for _ in "ab")
            for r in range(replicates):      # the draws in the order of one comparison after another
                a[r] = pool[runs_a.draw(1)[0]]
                b[r] = pool[runs_b.draw(1)[0]] + shift * sd
                eps_b[r], eps_a[r] = _aso_claims(a[r], b[r], rng, alpha_aso=alpha_aso, n_resamples=n_resamples)
            claims = _claims(a, b, eps_b, eps_a, alpha=alpha)
            for m in METHODS:
                c = claims[m]
                row = {"scenario": scenario, "n": n, "shift_sd": shift, "shift_points": 100 * shift * sd,
                       "method": m, "replicates": replicates}
                for key, hits in (("claims_b", c > 0), ("claims_a", c < 0), ("claims_any", c != 0)):
                    row[key], row[key + "_mcse"], _ = proportion_with_se(hits)
                rows.append(row)
    return pd.DataFrame(rows)


def size_power_markdown(rows: pd.DataFrame, alpha: float, alpha_aso: float) -> str:
    from simstats.io.write import markdown_table

    rows = rows.copy()
    for key in ("claims_any", "claims_b", "claims_a"):
        rows[key + "_text"] = [f"{v:.3f} ± {e:.3f}" for v, e in zip(rows[key], rows[key + "_mcse"])]

    def table(frame, index, key):
        wide = frame.pivot_table(index=index, columns="method", values=key + "_text", aggfunc="first")
        return wide[[m for m in METHODS if m in wide.columns]].reset_index()

    null = rows[rows.shift_sd == 0]
    size = table(null, ["scenario", "n"], "claims_any")
    alt = rows[rows.shift_sd > 0]
    power = table(alt, ["scenario", "shift_sd", "n"], "claims_b")
    wrong = table(alt, ["scenario", "shift_sd", "n"], "claims_a")
    r = int(rows.replicates.iloc[0])
    mcse5 = math.sqrt(0.05 * 0.95 / r)
    return "\n".join([
        "# Size and power of ASO, Welch and Mann-Whitney U (beyond Dror et al. 2019)",
        "",
        f"n runs per approach drawn from each scenario's simulated test scores; B's runs shifted up by `shift_sd` "
        f"robust sds of the scores. ASO: eps_min < 0.2 / 0.4 / 0.5 at alpha = {alpha_aso} (either direction "
        f"counts as a claim under the null); Welch and MWU two-sided at alpha = {alpha}. {r} comparisons per "
        f"cell (rates ± MCSE; the MCSE of a 5 % rate is {mcse5:.3f}).",
        "",
        "## Size: share of comparisons of identical approaches with any claim",
        "",
        markdown_table(size, digits=3),
        "",
        "## Power: share claiming the truly better approach B",
        "",
        markdown_table(power, digits=3),
        "",
        "## Wrong direction: share claiming A under a true shift",
        "",
        markdown_table(wrong, digits=3),
    ])
