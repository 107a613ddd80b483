"""Reimers & Gurevych (2018) Tables 1-5, Figure 4 and power from one task's simulated models.

Definitions (differences in points of the task's metric, i.e. 100 x the metric: F1 for the paper's
tasks, whatever a user's scenario measures for its own):

* tau: mean |Delta| over the pairs whose one-sided p is in (0.04, 0.05) - the smallest
  difference the paired bootstrap calls significant;
* % significant: share of pairs with p < alpha (all pairs are of identical approaches);
* Delta95, Delta_max: 95th percentile and maximum of |Delta| over the pairs;
* 2 zeta (Table 3): mean over the models' dev scores of twice the half-width of the OLS
  prediction interval of test given dev.  The paper's interval has confidence alpha with
  (1 - alpha)^2 = 0.05: a two-sided interval of coverage 1 - sqrt(0.05) = 0.776, i.e. a
  tail of sqrt(0.05) / 2 = 0.112 on each side;
* Evaluations 3/4 (Table 4): groups of ``eval34_size`` consecutive models of A against B
  (Welch's t test, Wilcoxon signed-rank on the k-th models as pairs, Mann-Whitney U);
* Table 5: Delta95 of the difference of means of n test scores per approach.

Uncertainties: binomial Monte Carlo standard errors for rates; a distribution-free
order-statistic 95 % interval for Delta95 (its se is the interval's width / 3.92); the
standard error of a mean for tau; Bonett-Wright for Spearman rho; a normal-theory se for
2 zeta.  Delta_max, a maximum, gets the sampling distribution of the maximum of its number of
pairs: a Gumbel law fitted to the maxima of MAX_BLOCKS blocks of pairs (:func:`maximum_interval`);
it grows with the number of pairs, so it is compared with the paper only when the number of pairs
equals the paper's.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
from statsmodels.stats.power import TTestIndPower

from simstats.stats.montecarlo import proportion_with_se
from simstats.studies.reference import judge, paper_text, paper_value, rate_interval, rounding
from simstats.studies.reimers2018.simulate import ReimersSettings
from simstats.sim.seeding import generator
from simstats.sim.scenario import ORIGIN_LABELS
from simstats.stats.lazy import lazy_module
from simstats.stats.resample import ItemIndices

stats = lazy_module("scipy.stats")

#: Tail on each side of the paper's prediction interval: coverage alpha with (1 - alpha)^2 = 0.05.
ZETA_TAIL = math.sqrt(0.05) / 2
#: The paper's numbers of compared pairs (Table 1: 50 x 1,000; Table 2: 1,000 rows).
PAPER_PAIRS = {"T1_eval1": 50_000, "T2_eval2": 1_000}
#: The paper's comparisons per task behind Table 4 (50,000 models per approach in groups of 25).
PAPER_EVAL34_COMPARISONS = 2_000
#: The paper's runs per approach and task (Figure 4 at n has 50,000 / n pairs of groups).
PAPER_MODELS = 50_000
#: Blocks of pairs whose maxima fit the Gumbel law of Delta_max.
MAX_BLOCKS = 50
EULER_GAMMA = 0.5772156649015329
SUMMARY_COLUMNS = ["scenario", "reference", "table", "quantity", "n", "estimate", "se", "ci_low", "ci_high",
                   "count"]


def quantile_interval(values: np.ndarray, q: float = 0.95, level: float = 0.95) -> tuple[float, float, float]:
    """(estimate, low, high): the q-quantile and its distribution-free order-statistic interval."""
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        return (math.nan,) * 3
    est = float(np.quantile(x, q))
    a = (1 - level) / 2
    lo = int(stats.binom.ppf(a, n, q))
    hi = int(stats.binom.ppf(1 - a, n, q))
    return est, float(x[max(lo - 1, 0)]), float(x[min(hi, n - 1)])


def tau(delta: np.ndarray, pvalue: np.ndarray, band=(0.04, 0.05)) -> tuple[float, float, int]:
    """(tau, its se, number of pairs in the band): mean |delta| of pairs with band[0] < p < band[1]."""
    inside = (pvalue > band[0]) & (pvalue < band[1])
    d = np.abs(np.asarray(delta, dtype=float)[inside])
    if d.size == 0:
        return math.nan, math.nan, 0
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.nan
    return float(d.mean()), se, int(d.size)


def maximum_interval(values: np.ndarray, blocks: int = MAX_BLOCKS, level: float = 0.95) -> tuple[float, float, float]:
    """(sd, low, high): the sampling distribution of the maximum of |values| (all of them), from a Gumbel law
    fitted by moments to the maxima of ``blocks`` consecutive blocks and carried to the whole sample
    (location + beta ln(blocks)).  For normal differences it is conservative: at 50,000 pairs the exact upper
    end is up to 12 % lower (tests).  NaN when a block would hold fewer than 2 values."""
    x = np.abs(np.asarray(values, dtype=float))
    size = x.size // blocks
    if size < 2:
        return (math.nan,) * 3
    maxima = x[:blocks * size].reshape(blocks, size).max(axis=1)
    beta = float(maxima.std(ddof=1)) * math.sqrt(6) / math.pi
    loc = float(maxima.mean()) - EULER_GAMMA * beta + beta * math.log(x.size / size)
    tail = (1 - level) / 2
    return (math.pi * beta / math.sqrt(6), loc - beta * math.log(-math.log(tail)),
            loc - beta * math.log(-math.log(1 - tail)))


def paper_comparisons(table: str, n: int) -> int | None:
    """The paper's number of compared pairs behind a % significant (its own Monte Carlo error)."""
    if table in PAPER_PAIRS:
        return PAPER_PAIRS[table]
    if table == "F4_eval2_vs_n":
        return PAPER_MODELS // int(n)
    if table == "T4_eval3_eval4":
        return PAPER_EVAL34_COMPARISONS
    return None


def rate(hits: np.ndarray) -> tuple[float, float, int]:
    """(percentage, its binomial MCSE in points, count)."""
    p, se, n = proportion_with_se(hits)
    return 100 * p, 100 * se, n


def prediction_interval_width(dev: np.ndarray, test: np.ndarray, tail: float = ZETA_TAIL) -> np.ndarray:
    """2 zeta(x) at every dev score x: twice the OLS prediction half-width of test given dev.

    zeta(x) = t_{N-2}(1 - tail) * s * sqrt(1 + 1/N + (x - mean)^2 / ((N - 1) s_x^2)), s the
    residual standard error (the textbook interval, e.g. Faraway 2002).
    """
    x, y = np.asarray(dev, float), np.asarray(test, float)
    n = x.size
    if n < 3:
        raise ValueError(f"need >= 3 models for a prediction interval, got {n}")
    xm = x.mean()
    sxx = np.sum((x - xm) ** 2)
    if sxx == 0:
        raise ValueError("dev scores are all equal: no regression of test on dev")
    slope = np.sum((x - xm) * (y - y.mean())) / sxx
    resid = y - y.mean() - slope * (x - xm)
    s = math.sqrt(np.sum(resid**2) / (n - 2))
    t = stats.t.ppf(1 - tail, n - 2)
    return 2 * t * s * np.sqrt(1 + 1 / n + (x - xm) ** 2 / sxx)


def regression_line(dev: np.ndarray, test: np.ndarray) -> tuple[float, float]:
    """(intercept, slope) of the OLS fit of test on dev."""
    res = stats.linregress(dev, test)
    return float(res.intercept), float(res.slope)


def spearman_se(rho: float, n: int) -> float:
    """Bonett & Wright (2000) standard error of Spearman's rho (through Fisher's z)."""
    return (1 - rho**2) * math.sqrt((1 + rho**2 / 2) / (n - 3))


def grouped(values: np.ndarray, size: int) -> np.ndarray:
    """Whole groups of ``size`` consecutive values, (groups, size)."""
    k = values.size // size
    return values[:k * size].reshape(k, size)


def task_label(scenario) -> str:
    """The ``reference`` column: the paper's task the scenario models, else the scenario's name (a
    scenario of the user's, evaluated like the paper's tasks, with no published value beside it)."""
    return scenario.reference or scenario.name


def _row(sc, table, quantity, n, est, se=math.nan, lo=math.nan, hi=math.nan, count=0):
    return {"scenario": sc.name, "reference": task_label(sc), "table": table, "quantity": quantity, "n": n,
            "estimate": est, "se": se, "ci_low": lo, "ci_high": hi, "count": count}


def _delta_rows(sc, table, key, values, n, count_label=None):
    est, lo, hi = quantile_interval(np.abs(values))
    rows = [_row(sc, table, key, n, est, (hi - lo) / 3.92, lo, hi, values.size)]
    return rows


def task_summary(scenario, settings: ReimersSettings, scores: pd.DataFrame, comparisons: pd.DataFrame) -> pd.DataFrame:
    """Every simulated cell of Tables 1-5 and Figure 4 for one task (metric points)."""
    sc = scenario
    alpha = settings.alpha
    rows = []
    cmp = comparisons.copy()
    cmp["abs_delta"] = 100 * cmp.delta.abs()
    e1 = cmp[cmp.n == 1]
    t, t_se, t_k = tau(e1.abs_delta.to_numpy(), e1.pvalue.to_numpy())
    rows.append(_row(sc, "T1_eval1", "tau", 1, t, t_se, count=t_k))
    p, p_se, k = rate(e1.pvalue.to_numpy() < alpha)
    rows.append(_row(sc, "T1_eval1", "pct_significant", 1, p, p_se, p - 1.96 * p_se, p + 1.96 * p_se, k))
    rows += _delta_rows(sc, "T1_eval1", "delta95_test", e1.abs_delta.to_numpy(), 1)
    sd, lo, hi = maximum_interval(e1.abs_delta.to_numpy())
    rows.append(_row(sc, "T1_eval1", "deltamax_test", 1, float(e1.abs_delta.max()), sd, lo, hi, count=len(e1)))
    # Evaluation 2: best of each row, and the dev-test relation over all models
    e2 = cmp[cmp.n == settings.row_size]
    dev_all, test_all = 100 * scores.psi_dev.to_numpy(), 100 * scores.psi_test.to_numpy()
    rho = float(stats.spearmanr(dev_all, test_all).statistic)
    se = spearman_se(rho, dev_all.size)
    rows.append(_row(sc, "T2_eval2", "spearman_rho", settings.row_size, rho, se, rho - 1.96 * se, rho + 1.96 * se,
                     dev_all.size))
    t, t_se, t_k = tau(e2.abs_delta.to_numpy(), e2.pvalue.to_numpy())
    rows.append(_row(sc, "T2_eval2", "tau", settings.row_size, t, t_se, count=t_k))
    p, p_se, k = rate(e2.pvalue.to_numpy() < alpha)
    rows.append(_row(sc, "T2_eval2", "pct_significant", settings.row_size, p, p_se, p - 1.96 * p_se,
                     p + 1.96 * p_se, k))
    rows += _delta_rows(sc, "T2_eval2", "delta95_dev", 100 * (e2.dev_a - e2.dev_b).to_numpy(), settings.row_size)
    rows += _delta_rows(sc, "T2_eval2", "delta95_test", e2.abs_delta.to_numpy(), settings.row_size)
    sd, lo, hi = maximum_interval(e2.abs_delta.to_numpy())
    rows.append(_row(sc, "T2_eval2", "deltamax_test", settings.row_size, float(e2.abs_delta.max()), sd, lo, hi,
                     count=len(e2)))
    # Figure 4: % significant against the number of models the best is chosen from
    for n in settings.figure4_n:
        sub = cmp[cmp.n == n]
        p, p_se, k = rate(sub.pvalue.to_numpy() < alpha)
        rows.append(_row(sc, "F4_eval2_vs_n", "pct_significant", n, p, p_se, p - 1.96 * p_se, p + 1.96 * p_se, k))
    # Table 3: prediction interval of test given dev over all models
    width = prediction_interval_width(dev_all, test_all)
    z = float(width.mean())
    se = z / math.sqrt(2 * (dev_all.size - 2))
    rows.append(_row(sc, "T3_prediction_interval", "two_zeta", 0, z, se, z - 1.96 * se, z + 1.96 * se, dev_all.size))
    # Evaluations 3 and 4, Table 5: groups of consecutive models' test scores
    a_name, b_name = (ap.name for ap in sc.approaches)
    test_a = 100 * scores[scores.approach == a_name].sort_values("index").psi_test.to_numpy()
    test_b = 100 * scores[scores.approach == b_name].sort_values("index").psi_test.to_numpy()
    ga, gb = grouped(test_a, settings.eval34_size), grouped(test_b, settings.eval34_size)
    tests = {
        "eval3_welch_pct": stats.ttest_ind(ga, gb, axis=1, equal_var=False).pvalue,
        "eval4_wilcoxon_pct": stats.wilcoxon(ga, gb, axis=1).pvalue,
        "eval4_mannwhitney_pct": stats.mannwhitneyu(ga, gb, axis=1, alternative="two-sided").pvalue,
    }
    for key, pv in tests.items():
        p, p_se, k = rate(pv < alpha)
        rows.append(_row(sc, "T4_eval3_eval4", key, settings.eval34_size, p, p_se, p - 1.96 * p_se,
                         p + 1.96 * p_se, k))
    for n in settings.table5_n:
        diff = grouped(test_a, n).mean(axis=1) - grouped(test_b, n).mean(axis=1)
        rows += _delta_rows(sc, "T5_delta95_means", f"n{n}", diff, n)
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


# --------------------------------------------------------------------------- side by side
def _paper_column(table: str, quantity: str, n: int) -> str:
    return f"pct_significant_n{n}" if table == "F4_eval2_vs_n" else quantity


def _paper(table: str, reference: str, quantity: str, n: int) -> float:
    value = paper_value("reimers2018", table, reference, _paper_column(table, quantity, n))
    return math.nan if value is None else value


CALIBRATED = {("T1_eval1", "tau"), ("T1_eval1", "delta95_test"), ("T2_eval2", "spearman_rho")}


def side_by_side(summary: pd.DataFrame, fitted: set[tuple[str, str, str]] = frozenset(),
                 origins: dict | None = None) -> pd.DataFrame:
    """Each simulated cell beside the paper's value, with the difference and a computed verdict.

    Tolerances: every % significant (Tables 1, 2, 4, Figure 4) 3 standard errors of the paper's own
    Monte Carlo error (its rate from its number of pairs, :func:`paper_comparisons`); Delta_max 3 sd of
    the maximum of the paper's number of pairs (the paper's maximum is one draw of it), judged with the
    maximum's 95 % interval; Delta95, tau of Table 2 and 2 zeta +-15 % relative; Table 5 +-10 %;
    rho +-0.05; each plus half a unit of the published value's last digit.  Where ``summary`` holds a
    Figure 4 cell twice (the dedicated simulation beside the main run), the one with more pairs is kept.  The verdict is the symmetric rule of
    :func:`simstats.studies.reference.judge` on ours' 95 % Monte Carlo interval.  Calibrated
    cells (CALIBRATED, plus ``fitted``: (reference, table, quantity) of further fitted cells, e.g.
    Table 2's % significant of a test_shift_mixture task) are marked as such and judged like the others.
    ``origins`` (scenario name -> its ``origin``): the cells of a scenario whose parameters were not calibrated
    to the paper (``fitted`` by simstats fit, or ``stated``) take that as their role instead.
    """
    out = summary.reset_index(drop=True)
    key = ["scenario", "table", "quantity", "n"]
    repeated = out.duplicated(key, keep=False) & (out.table == "F4_eval2_vs_n")
    if repeated.any():      # a Figure 4 cell also simulated by figure4.py: the one with the most pairs
        drop = out[repeated].sort_values("count", ascending=False, kind="stable").duplicated(key)
        out = out.drop(index=drop[drop].index).reset_index(drop=True)
    out["paper"] = [_paper(t, r, q, n) for t, r, q, n in zip(out.table, out.reference, out.quantity, out.n)]
    rates = (out.quantity == "pct_significant") | (out.table == "T4_eval3_eval4")
    if rates.any():   # the 95 % interval of a rate: Wilson (the verdict uses it too)
        wilson = [rate_interval(e, int(c), scale=100.0) for e, c in zip(out.estimate[rates], out["count"][rates])]
        out.loc[rates, "ci_low"] = [lo for lo, _ in wilson]
        out.loc[rates, "ci_high"] = [hi for _, hi in wilson]
    out["difference"] = out.estimate - out.paper
    origins = origins or {}
    out["role"] = [ORIGIN_LABELS[origins[s]] if origins.get(s, "calibrated") != "calibrated" else
                   "calibrated" if (t, q) in CALIBRATED or (r, t, q) in fitted else "prediction"
                   for s, r, t, q in zip(out.scenario, out.reference, out.table, out.quantity)]
    tolerance, tolerance_value, verdict = [], [], []
    for row in out.itertuples(index=False):
        text, tol, why = _judge(row)
        tolerance.append(text)
        tolerance_value.append(tol)
        verdict.append(why)
    out["tolerance"] = tolerance
    out["tolerance_value"] = tolerance_value
    out["verdict"] = verdict
    return out


def _judge(row) -> tuple[str, float, str]:
    """(tolerance text, tolerance including the published value's rounding, verdict)."""
    if math.isnan(row.paper):
        return "", math.nan, "no published value"
    if math.isnan(row.estimate):
        return "", math.nan, "not estimable (too few pairs)"
    half_unit = rounding(paper_text("reimers2018", row.table, row.reference,
                                    _paper_column(row.table, row.quantity, row.n)))
    interval = None
    if row.table == "T4_eval3_eval4" or row.quantity == "pct_significant":
        # the paper's own rate is a Monte Carlo estimate from its number of pairs
        k = paper_comparisons(row.table, row.n)
        p = row.paper / 100
        se = 100 * math.sqrt(p * (1 - p) / k)
        text, tol = f"±{3 * se:.2f} points (3 se of the paper's rate from its {k:,} pairs)", 3 * se
    elif row.quantity == "deltamax_test":
        if row.count != PAPER_PAIRS[row.table]:
            return "", math.nan, (f"not comparable: maximum of {row.count:,} pairs, the paper's of "
                                  f"{PAPER_PAIRS[row.table]:,}")
        text, tol = f"±{3 * row.se:.2f} (3 sd of the maximum of {row.count:,} pairs)", 3 * row.se
        interval = (row.ci_low, row.ci_high)
    elif row.table == "T5_delta95_means":
        text, tol = "±10 %", 0.10 * abs(row.paper)
    elif row.quantity == "spearman_rho":
        text, tol = "±0.05", 0.05
    else:
        text, tol = "±15 %", 0.15 * abs(row.paper)
    tol += half_unit
    if row.quantity == "pct_significant" or row.table == "T4_eval3_eval4":
        interval = rate_interval(row.estimate, int(row.count), scale=100.0)   # Wilson: exact-ish at few hits
    verdict = judge(row.estimate, row.se, row.paper, tol, interval=interval)
    return f"{text} + {half_unit:g} rounding", tol, verdict


# --------------------------------------------------------------------------- power
def power_study(scenario, settings: ReimersSettings, scores: pd.DataFrame, root_seed: int) -> pd.DataFrame:
    """Power of Welch's t test and Mann-Whitney U to detect a true difference of d metric points.

    The simulated test scores of both (identical) approaches are the population of one
    approach's runs; the other approach's runs are the same population shifted up by d.
    For each n runs per approach, ``power_replicates`` comparisons draw n scores per side
    (with replacement); rows give the rejection rate at alpha with its MCSE, and Welch's
    normal-theory power (statsmodels, effect size d / sd) beside it.
    """
    pool = 100 * scores.psi_test.to_numpy(float)
    sd = float(pool.std(ddof=1))
    rng = generator(root_seed, "reimers-power", scenario.name)
    analysis = TTestIndPower()
    rows = []
    r = settings.power_replicates
    for n in settings.power_n:
        a = pool[ItemIndices(rng, r, pool.size, n).draw(r)]
        b = pool[ItemIndices(rng, r, pool.size, n).draw(r)]
        for d in (0.0, *settings.power_d):
            welch = stats.ttest_ind(b + d, a, axis=1, equal_var=False).pvalue < settings.alpha
            mwu = stats.mannwhitneyu(b + d, a, axis=1, alternative="two-sided").pvalue < settings.alpha
            theory = analysis.power(effect_size=d / sd, nobs1=n, alpha=settings.alpha, ratio=1.0) if d else \
                settings.alpha
            for test, hits in (("welch", welch), ("mannwhitney", mwu)):
                p = float(hits.mean())
                rows.append({"scenario": scenario.name, "reference": task_label(scenario), "test": test, "d": d,
                             "n": n, "power": p, "mcse": math.sqrt(p * (1 - p) / r), "replicates": r,
                             "welch_theory": float(theory), "sd_scores": sd})
    return pd.DataFrame(rows)


def _welch_runs(effect_size: float, target: float, alpha: float, largest: int = 20_000) -> float:
    """Smallest n per approach (>= 2) whose two-sample t-test power (statsmodels) reaches ``target``.

    statsmodels' noncentral-t power comes out NaN where it is within round-off of 1, so NaN
    counts as reached; NaN is returned if even ``largest`` runs are not enough.
    """

    analysis = TTestIndPower()

    def reached(n: int) -> bool:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = float(analysis.power(effect_size=effect_size, nobs1=n, alpha=alpha, ratio=1.0))
        return math.isnan(p) or p >= target

    if reached(2):
        return 2.0
    if not reached(largest):
        return math.nan
    lo, hi = 2, largest           # reached(lo) is False, reached(hi) True; monotone in n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return float(hi)


def required_runs(power: pd.DataFrame, target: float, alpha: float = 0.05) -> pd.DataFrame:
    """Smallest n of the grid whose simulated power reaches ``target``, per task, test and d."""
    rows = []
    for (name, ref, test, d), sub in power[power.d > 0].groupby(["scenario", "reference", "test", "d"], sort=False):
        sub = sub.sort_values("n")
        reached = sub[sub.power >= target]
        n = int(reached.n.iloc[0]) if len(reached) else None
        theory = math.nan
        if test == "welch":
            es = d / float(sub.sd_scores.iloc[0])
            theory = _welch_runs(es, target, alpha)
        rows.append({"scenario": name, "reference": ref, "test": test, "d": d,
                     "runs_needed": n if n is not None else math.nan,
                     "note": "" if n is not None else f"more than {int(sub.n.max())}",
                     "power_at_runs": float(reached.power.iloc[0]) if len(reached) else float(sub.power.iloc[-1]),
                     "welch_normal_theory": theory})
    return pd.DataFrame(rows)
