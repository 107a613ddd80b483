"""Analysis of one competition: m systems scored on one test set (Nava-Muñoz et al. 2024).

Everything derives from one matrix of bootstrap scores: each replicate resamples the test
items once and scores every system on them, so a column difference is a paired-bootstrap
replicate of that pair's difference.  From it:

* each system's score, bootstrap mean and percentile CI (the paper's Table 2);
* CIs of the winner's improvement over every other system (Table 3);
* for every pair (i above j in the ranking), the one-sided p-value of "i is better" with the
  shift convention P*(delta* >= 2 delta) (Berg-Kirkpatrick et al. 2012; CompStats) — the
  matrix of differences (Table 4) — or, with
  ``alternative="two-sided"``, the two-sided P*(|delta* - delta| >= |delta|);  p is the
  fraction count/B of the B replicates at least as extreme (``pvalue_rule="fraction"``, the
  paper's and CompStats') or (count + 1)/(B + 1) (``"add-one"``, never 0: Davison & Hinkley
  1997, Phipson & Smyth 2010);
* adjusted p-values over all m(m-1)/2 pairs at once (``scope="all"``) or within each reference
  system's group of comparisons (i against every system ranked below it; ``scope="group"``, the
  paper's Table 5), by Bonferroni, Holm and Benjamini-Hochberg from statsmodels;
* one decision rule for every verdict (:meth:`CompetitionAnalysis.decisions`): a pair differs
  when its p-value adjusted by ``correction`` over ``scope`` is below alpha.  Table 3's and
  Table 4's verdicts, tie groups, ``tied_with`` and the possible winners all follow it;
* the summary measures of the paper's Table 6: ties with the winner and among all pairs per
  correction, |winner - median|, CV and PPI;
* rankings with uncertainty (:meth:`CompetitionAnalysis.rank_table`, not in the paper): each
  system's rank in every bootstrap replicate (the same replicates as everything above), its
  mean, percentile interval and P(rank 1); tie groups (:func:`tie_structure`) and the possible
  winners (:func:`possible_winners`) by the decision rule.

Improvements are in the metric's "better" direction: for a lower-is-better metric (MAE)
the improvement of i over j is score_j - score_i.  Identical systems have delta* = delta = 0
in every replicate and get p = 1, never 0.

The defaults (:data:`RECOMMENDED`, the same as ``simstats competition``'s) are two-sided add-one
p-values and Holm over all pairs: under the global null they control the family-wise error
over the table, provided B is large enough for the correction (:func:`required_resamples`,
:func:`resolution_warning`, and a warning from :func:`analyse_competition`).  Other bundles of
settings are registered as presets (:mod:`simstats.stats.conventions`), e.g. one-sided count/B
p-values with uncorrected verdicts; note that there the data pick which system of a pair is
"better", so a one-sided p rejects a tied pair about 2 alpha of the time.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import warnings

from simstats.stats import conventions
from simstats.stats.bootstrap import PVALUE_RULES, bootstrap_score_matrix, extreme_counts, pvalues_from_counts
from simstats.stats.engine import improvement
from simstats.stats.lazy import lazy_module
from simstats.stats.metrics import Metric
from simstats.stats.multitest import CORRECTIONS, adjust_pvalues, quick_gc

sps = lazy_module("scipy.stats")

__all__ = ["analyse_competition", "CompetitionAnalysis", "competition_settings", "decision_rule", "pvalue_description",
           "tie_structure", "possible_winners", "required_resamples", "resolution_warning", "RECOMMENDED",
           "presets", "preset_description", "SCOPES", "PAIR_ALTERNATIVES"]

#: Families of a correction: all m(m-1)/2 pairs at once, or each reference system's comparisons.
SCOPES = ("group", "all")
#: A pair's alternative: "two-sided", or "greater": one-sided, "the system ranked above is better"
#: ("less" would claim the lower-ranked system is better, which the ranking already denies).
PAIR_ALTERNATIVES = ("two-sided", "greater")
#: The recommended settings (the defaults of analyse_competition and ``simstats competition``).
RECOMMENDED = {"alternative": "two-sided", "pvalue_rule": "add-one", "correction": "holm", "scope": "all"}


def presets() -> tuple[str, ...]:
    """Names of the bundles of settings (``simstats competition --preset``).

    Returns
    -------
    tuple of str
        "recommended" (:data:`RECOMMENDED`), then the presets registered in :mod:`simstats.stats.conventions`
        (by entry point or at run time), sorted.

    Examples
    --------
    >>> presets()[0]
    'recommended'
    """
    return ("recommended",) + tuple(n for n in conventions.names("competition_presets") if n != "recommended")


def _preset(name: str) -> dict:
    if name == "recommended":
        return RECOMMENDED
    if name not in presets():
        raise ValueError(f"preset must be one of {presets()}, got {name!r}")
    return conventions.get("competition_presets", name)


def preset_description(name: str) -> str:
    """One line stating a preset's settings, e.g. for the command line's help.

    Parameters
    ----------
    name : str
        A name of :func:`presets`.

    Returns
    -------
    str
        The sidedness, p-value rule, correction and the family it corrects over.

    Examples
    --------
    >>> preset_description("recommended")
    'two-sided add-one p-values, correction holm over all pairs'
    """
    s = _preset(name)
    sides = "two-sided" if s["alternative"] == "two-sided" else "one-sided"
    family = "all pairs" if s["scope"] == "all" else "each reference system's comparisons"
    return f"{sides} {s['pvalue_rule']} p-values, correction {s['correction']} over {family}"

#: Scores equal to this many decimals are tied when ranking (guards against rounding noise).
RANK_DECIMALS = 12


def pvalue_description(alternative: str = "two-sided", pvalue_rule: str = "add-one") -> str:
    """How the pairs' p-values are computed, in words (for reports and JSON settings).

    Parameters
    ----------
    alternative : {"two-sided", "greater"}
        The pairs' alternative (:data:`PAIR_ALTERNATIVES`).
    pvalue_rule : {"add-one", "fraction"}
        (count + 1)/(B + 1) or count/B.

    Returns
    -------
    str
        One phrase.

    Examples
    --------
    >>> pvalue_description()
    'two-sided, P*(|δ* − δ| ≥ |δ|), (count + 1)/(B + 1)'
    """
    sides = ("one-sided, P*(δ* ≥ 2δ)" if alternative == "greater" else "two-sided, P*(|δ* − δ| ≥ |δ|)")
    rule = "count/B" if pvalue_rule == "fraction" else "(count + 1)/(B + 1)"
    return f"{sides}, {rule}"


def decision_rule(correction: str = "holm", scope: str = "all", alpha: float = 0.05) -> str:
    """The one rule behind every verdict of a competition analysis, in words.

    Parameters
    ----------
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the pairs' p-values.
    scope : {"all", "group"}
        Its family: all pairs, or each reference system's comparisons.
    alpha : float
        Level: a pair differs when its adjusted p-value is below it.

    Returns
    -------
    str
        E.g. "Holm over all pairs, alpha = 0.05".

    Examples
    --------
    >>> decision_rule("none", "group")
    'no correction, alpha = 0.05'
    """
    if correction == "none":
        return f"no correction, alpha = {alpha:g}"
    label = "BH" if correction == "bh" else correction.capitalize()
    family = "all pairs" if scope == "all" else "each reference system's comparisons"
    return f"{label} over {family}, alpha = {alpha:g}"


def competition_settings(preset: str = "recommended", **overrides) -> dict:
    """The settings of a named preset (:func:`presets`) with single settings overridden.

    Parameters
    ----------
    preset : str
        The bundle to start from: "recommended" or a registered preset.
    **overrides
        ``alternative``, ``pvalue_rule``, ``correction``, ``scope``: values that are not None
        replace the preset's.

    Returns
    -------
    dict
        alternative, pvalue_rule, correction, scope.

    Raises
    ------
    ValueError
        If the preset or a setting is unknown, or a value is not allowed.

    Examples
    --------
    >>> competition_settings("recommended", correction="bonferroni")
    {'alternative': 'two-sided', 'pvalue_rule': 'add-one', 'correction': 'bonferroni', 'scope': 'all'}
    """
    out = dict(_preset(preset))
    unknown = set(overrides) - set(out)
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}; known: {sorted(out)}")
    out.update({k: v for k, v in overrides.items() if v is not None})
    checks = {"scope": SCOPES, "pvalue_rule": PVALUE_RULES, "alternative": PAIR_ALTERNATIVES,
              "correction": tuple(CORRECTIONS)}
    for key, allowed in checks.items():
        if out[key] not in allowed:
            raise ValueError(f"{key} must be one of {allowed}, got {out[key]!r}")
    return out


def required_resamples(n_comparisons: int, alpha: float) -> int:
    """Fewest bootstrap samples B for which an add-one p-value can be significant after Bonferroni or Holm.

    Over K = ``n_comparisons``: the smallest adjusted p is K/(B + 1), and significance is
    adjusted p < alpha strictly, so B + 1 > K/alpha, i.e. B >= floor(K/alpha).

    Parameters
    ----------
    n_comparisons : int
        Comparisons K in the correction's family (>= 1).
    alpha : float
        Level, in (0, 1).

    Returns
    -------
    int
        floor(K / alpha).

    Raises
    ------
    ValueError
        If ``n_comparisons`` < 1 or ``alpha`` is outside (0, 1).

    See Also
    --------
    resolution_warning : the message when B is below it.

    Examples
    --------
    Four systems, all 6 pairs:

    >>> required_resamples(6, 0.05)
    120
    >>> 6 / (120 + 1) < 0.05, 6 / (119 + 1) < 0.05
    (True, False)
    """
    if n_comparisons < 1:
        raise ValueError(f"n_comparisons must be >= 1, got {n_comparisons}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    return int(np.floor(n_comparisons / alpha + 1e-9))


def resolution_warning(n_comparisons: int, n_resamples: int, alpha: float) -> str | None:
    """A one-line message when B add-one p-values cannot be significant after Bonferroni/Holm, else None.

    That is when K/(B + 1) >= ``alpha``, for K = ``n_comparisons`` and B = ``n_resamples``.

    Parameters
    ----------
    n_comparisons : int
        Comparisons K in the correction's family.
    n_resamples : int
        Bootstrap samples B.
    alpha : float
        Level.

    Returns
    -------
    str or None
        The message, naming the B needed (:func:`required_resamples`), or None when B suffices.

    Examples
    --------
    >>> print(resolution_warning(6, 120, 0.05))
    None
    >>> import textwrap
    >>> print(textwrap.fill(resolution_warning(6, 100, 0.05), 96))
    100 bootstrap samples cannot reach alpha = 0.05 after Bonferroni/Holm over 6 pairs (smallest
    p-value 1/101, times 6: 0.0594 >= 0.05); use 120 or more resamples (n_resamples, --n-resamples)
    """
    need = required_resamples(n_comparisons, alpha)
    if n_resamples >= need:
        return None
    return (f"{n_resamples} bootstrap samples cannot reach alpha = {alpha:g} after Bonferroni/Holm over "
            f"{n_comparisons} pairs (smallest p-value 1/{n_resamples + 1}, times {n_comparisons}: "
            f"{n_comparisons / (n_resamples + 1):.3g} >= {alpha:g}); use {need} or more resamples "
            "(n_resamples, --n-resamples)")


def rank_order(scores, higher_is_better: bool = True) -> np.ndarray:
    """Indices from best to worst; ties keep the input order."""
    scores = np.asarray(scores, dtype=float)
    return np.argsort(-scores if higher_is_better else scores, kind="stable")


def adjust_pair_table(pairs: pd.DataFrame, *, scope: str = "group", corrections=CORRECTIONS) -> pd.DataFrame:
    """Add ``pvalue_<correction>`` columns to a table of pairs (columns reference, pvalue).

    scope="group": each correction is applied within each reference system's group of
    comparisons, as in the paper's Table 5 and CompStats; scope="all": over all pairs.
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
    p = pairs["pvalue"].to_numpy(float)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p-values must lie in [0, 1] (no NaN)")
    out = pairs.copy()
    if scope == "group" and out["reference"].isna().any():
        raise ValueError("every pair needs its reference system (missing in column 'reference')")
    groups = pair_groups(out["reference"]) if scope == "group" else [np.arange(len(out))]
    for label, adjusted in adjusted_pvalues(p, groups, corrections).items():
        out[f"pvalue_{label}"] = adjusted
    return out


def pair_groups(references) -> list[np.ndarray]:
    """Positions of the pairs of each reference system (the families of scope="group")."""
    positions: dict = {}
    for k, label in enumerate(references):
        positions.setdefault(label, []).append(k)
    return [np.asarray(v, dtype=np.intp) for v in positions.values()]


def adjusted_pvalues(p: np.ndarray, groups, corrections=CORRECTIONS) -> dict[str, np.ndarray]:
    """``p`` adjusted by each correction (label -> array), applied within each group of positions."""
    out = {}
    with quick_gc():
        for label, method in corrections.items():
            adjusted = p.copy()
            if method is not None:
                for idx in groups:
                    adjusted[idx] = adjust_pvalues(p[idx], method)
            out[label] = adjusted
    return out


def summary_measures(names, scores, pairs: pd.DataFrame, *, n_items: int, higher_is_better: bool = True,
                     alpha: float = 0.05, scope: str = "group") -> dict:
    """The paper's Table 6 measures from ranked scores and the pairs' raw p-values.

    ``names``/``scores`` in rank order (winner first); ``pairs`` has columns reference,
    system, pvalue.  A "tie" is a comparison not significant at ``alpha`` after correction.
    |win - med| uses the median of all scores; PPI = 100 (1 - winner) is defined only for
    higher-is-better metrics capped at 1 (NaN otherwise); CV uses the sample sd (ddof = 1).
    """
    names = list(names)
    scores = np.asarray(scores, dtype=float)
    m = len(names)
    adjusted = adjust_pair_table(pairs, scope=scope)
    winner = adjusted[adjusted.reference == names[0]]
    out = {"n": int(n_items), "m": m}
    for label in CORRECTIONS:
        out[f"ties_with_winner_{label}"] = int((winner[f"pvalue_{label}"] >= alpha).sum())
    out["possible_comparisons"] = m * (m - 1) // 2
    for label in CORRECTIONS:
        out[f"ties_{label}"] = int((adjusted[f"pvalue_{label}"] >= alpha).sum())
    out["win_minus_median"] = float(abs(scores[0] - np.median(scores)))
    out["cv_percent"] = float(100 * scores.std(ddof=1) / scores.mean()) if m > 1 and scores.mean() else np.nan
    out["ppi_percent"] = float(100 * (1 - scores[0])) if higher_is_better and scores[0] <= 1 else np.nan
    return out


def bootstrap_ranks(values, higher_is_better: bool = True) -> np.ndarray:
    """Rank of every system (column) in every row of ``values`` (..., m): 1 = best.

    Lower-is-better metrics (``higher_is_better=False``, e.g. MAE) rank the smallest score
    first.  Scores equal to :data:`RANK_DECIMALS` decimals are tied and share their average
    rank (two systems tied for first both get 1.5)."""
    v = np.round(np.asarray(values, dtype=float), RANK_DECIMALS)
    return sps.rankdata(-v if higher_is_better else v, method="average", axis=-1)


def _pvalue_matrix(names, pairs: pd.DataFrame, column: str) -> np.ndarray:
    """Symmetric (m, m) matrix of ``pairs[column]``; every unordered pair exactly once."""
    index = {name: k for k, name in enumerate(names)}
    m = len(names)
    out = np.full((m, m), np.nan)
    for ref, sys_, p in zip(pairs["reference"], pairs["system"], pairs[column]):
        if ref not in index or sys_ not in index or ref == sys_:
            raise ValueError(f"pair ({ref!r}, {sys_!r}) is not a pair of two of the systems")
        a, b = index[ref], index[sys_]
        if not np.isnan(out[a, b]):
            raise ValueError(f"pair ({ref!r}, {sys_!r}) appears twice")
        out[a, b] = out[b, a] = p
    if len(pairs) != m * (m - 1) // 2:
        raise ValueError(f"{m} systems need all {m * (m - 1) // 2} pairs, got {len(pairs)}")
    return out


def _decision_matrix(names, pairs: pd.DataFrame, correction: str, scope: str, alpha: float):
    """(adjusted p matrix, tied matrix) of the decision rule; the diagonal is not tied."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if len(names) < 2:
        raise ValueError(f"a competition needs at least two systems, got {len(names)}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {tuple(CORRECTIONS)}, got {correction!r}")
    adjusted = adjust_pair_table(pairs[["reference", "system", "pvalue"]], scope=scope,
                                 corrections={"decision": CORRECTIONS[correction]})
    p = _pvalue_matrix(names, adjusted, "pvalue_decision")
    tied = p >= alpha
    np.fill_diagonal(tied, False)
    return p, tied


def tie_structure(names, pairs: pd.DataFrame, *, alpha: float = 0.05, correction: str = "holm",
                  scope: str = "all") -> pd.DataFrame:
    """Which systems cannot be separated, by the decision rule.

    Parameters
    ----------
    names : sequence of str
        Systems in observed rank order (best first).
    pairs : pandas.DataFrame
        Columns reference, system, pvalue with every unordered pair once (as
        :meth:`CompetitionAnalysis.pairs`).
    alpha : float
        Level of the decisions.
    correction, scope
        The decision rule (:func:`decision_rule`): two systems are *tied* when their p-value,
        adjusted by ``correction`` over ``scope``, is >= ``alpha``.

    Returns
    -------
    pandas.DataFrame
        One row per system (rank order): system; ``tie_group`` - walking down the ranking, a new
        group (ids 1, 2, ...) opens whenever a system differs from the one ranked just above it,
        so groups chain (with A ~ B and B ~ C, A, B and C share a group even when A and C differ,
        which ``tied_with`` shows); ``tied_with`` - every system it is tied with, in rank order,
        separated by "; "; ``n_tied``.

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = pd.DataFrame({"reference": ["a", "a", "b"], "system": ["b", "c", "c"],
    ...                       "pvalue": [0.30, 0.001, 0.02]})
    >>> print(tie_structure(["a", "b", "c"], pairs).to_string(index=False))
    system  tie_group tied_with  n_tied
         a          1         b       1
         b          1         a       1
         c          2                 0
    """
    names = list(names)
    _, tied = _decision_matrix(names, pairs, correction, scope, alpha)
    groups = [1]
    for k in range(1, len(names)):
        groups.append(groups[-1] + (0 if tied[k - 1, k] else 1))
    return pd.DataFrame({"system": names, "tie_group": groups,
                         "tied_with": ["; ".join(names[j] for j in np.flatnonzero(row)) for row in tied],
                         "n_tied": tied.sum(axis=1)})


def possible_winners(names, pairs: pd.DataFrame, *, alpha: float = 0.05, correction: str = "holm",
                     scope: str = "all") -> pd.DataFrame:
    """The systems not shown to differ from the observed best, by the decision rule.

    Parameters
    ----------
    names, pairs, alpha, correction, scope
        As in :func:`tie_structure`: a system is a possible winner when it is tied with the best
        (so the column agrees with the best's ``tied_with``).

    Returns
    -------
    pandas.DataFrame
        One row per system (rank order): system, ``pvalue_vs_best_adjusted`` (NaN for the best),
        ``possible_winner`` (the best always is one).

    Examples
    --------
    >>> import pandas as pd
    >>> pairs = pd.DataFrame({"reference": ["a", "a", "b"], "system": ["b", "c", "c"],
    ...                       "pvalue": [0.30, 0.001, 0.02]})
    >>> possible_winners(["a", "b", "c"], pairs).possible_winner.tolist()
    [True, True, False]
    """
    names = list(names)
    p, tied = _decision_matrix(names, pairs, correction, scope, alpha)
    return pd.DataFrame({"system": names, "pvalue_vs_best_adjusted": np.concatenate([[np.nan], p[0, 1:]]),
                         "possible_winner": np.concatenate([[True], tied[0, 1:]])})


@dataclass
class CompetitionAnalysis:
    """Bootstrap analysis of one competition (:func:`analyse_competition`).

    Systems are stored in rank order (winner first).

    Attributes
    ----------
    names : list
        Systems, best first.
    scores : numpy.ndarray
        Observed scores (m,).
    replicates : numpy.ndarray
        Bootstrap scores (B, m), the same resamples for every system.
    metric : Metric
        The metric scored.
    n_items : int
        Test items.
    confidence_level : float
        Level of every percentile interval.
    pvalue_rule : {"add-one", "fraction"}
        (count + 1)/(B + 1) or count/B (the paper).
    alternative : {"two-sided", "greater"}
        Two-sided, or one-sided "the system ranked above is better" (the paper).
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the decision rule (:meth:`decisions`).
    scope : {"all", "group"}
        Family of the decision rule's correction, and of Table 5's corrections.

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, analyse_competition, label_statistics
    >>> gold = np.arange(400) % 2
    >>> right = np.random.default_rng(5).random((4, 400)) < [[0.80], [0.79], [0.74], [0.70]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(r, gold, 1 - gold)) for r in right])
    >>> res = analyse_competition(["a", "b", "c", "d"], stats, accuracy, n_resamples=2000, rng=0)
    >>> print(res.decisions()[["reference", "system", "different"]].to_string(index=False))
    reference system  different
            b      a      False
            b      c       True
            b      d       True
            a      c       True
            a      d       True
            c      d      False
    """

    names: list
    scores: np.ndarray
    replicates: np.ndarray
    metric: Metric
    n_items: int
    confidence_level: float = 0.95
    pvalue_rule: str = "add-one"
    alternative: str = "two-sided"
    correction: str = "holm"
    scope: str = "all"

    @property
    def m(self) -> int:
        return len(self.names)

    def _interval(self, values: np.ndarray):
        a = (1 - self.confidence_level) / 2
        return np.quantile(values, [a, 1 - a], axis=0)

    def improvement_replicates(self, i: int, j: int) -> np.ndarray:
        """Bootstrap replicates of system i's improvement over system j (rank positions)."""
        return improvement(self.metric, self.replicates[:, i], self.replicates[:, j])

    def score_interval_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(ci_low, ci_high) of :meth:`score_intervals`, as arrays."""
        low, high = self._interval(self.replicates)
        return low, high

    def score_intervals(self) -> pd.DataFrame:
        """Table 2: ordered percentile CIs of every system's score."""
        low, high = self.score_interval_bounds()
        return pd.DataFrame({"rank": np.arange(1, self.m + 1), "system": self.names, "score": self.scores,
                             "ci_low": low, "bootstrap_mean": self.replicates.mean(axis=0), "ci_high": high})

    def differences_from_best(self, *, alpha: float | None = None) -> pd.DataFrame:
        """Table 3: CIs of the winner's improvement over each other system; does it contain 0?

        With ``alpha``, also the verdict of the decision rule (:meth:`decisions`):
        ``pvalue_adjusted`` and ``different`` (the uncorrected interval is shown as an interval,
        the verdict is the rule's)."""
        rows = []
        for j in range(1, self.m):
            d = self.improvement_replicates(0, j)
            low, high = self._interval(d)
            rows.append({"rank": j + 1, "system": self.names[j], "reference": self.names[0],
                         "difference": float(improvement(self.metric, self.scores[0], self.scores[j])),
                         "ci_low": low, "bootstrap_mean": d.mean(), "ci_high": high,
                         "contains_zero": bool(low <= 0 <= high)})
        out = pd.DataFrame(rows)
        if alpha is not None:
            best = self.decisions(alpha=alpha).query("reference == @self.names[0]").set_index("system")
            out["pvalue_adjusted"] = best.loc[out.system, "pvalue_adjusted"].to_numpy()
            out["different"] = best.loc[out.system, "different"].to_numpy()
        return out

    def decisions(self, *, alpha: float = 0.05) -> pd.DataFrame:
        """Every pair's verdict by the one decision rule of this analysis.

        A pair differs when its p-value (``alternative``, ``pvalue_rule``) adjusted by
        ``correction`` over ``scope`` is below ``alpha``; Table 3's and Table 4's verdicts,
        the figures' colours, tie groups and possible winners all follow it.

        Returns
        -------
        pandas.DataFrame
            reference (ranked above), system, difference, pvalue, pvalue_adjusted, different.
        """
        pairs = self.pairs(intervals=False)
        adjusted = adjust_pair_table(pairs[["reference", "system", "pvalue"]], scope=self.scope,
                                     corrections={"decision": CORRECTIONS[self.correction]})["pvalue_decision"]
        out = pairs[["reference", "system", "difference", "pvalue"]].copy()
        out["pvalue_adjusted"] = adjusted.to_numpy()
        out["different"] = out.pvalue_adjusted.to_numpy() < alpha
        return out

    def pairs(self, *, scope: str | None = None, intervals: bool = True) -> pd.DataFrame:
        """Every pair (reference ranked above system): improvement, CI, p-value (``alternative``,
        ``pvalue_rule``), and the p-value adjusted by every correction over ``scope`` (default: the
        analysis's).  ``intervals=False``: the CI columns are NaN (not computed: the percentile
        intervals of every pair cost more than their p-values)."""
        v = self.pair_values(intervals=intervals)
        i, j = v["reference_rank"] - 1, v["system_rank"] - 1
        frame = pd.DataFrame({"reference": [self.names[a] for a in i], "system": [self.names[b] for b in j], **v})
        return adjust_pair_table(frame, scope=self.scope if scope is None else scope)

    def pair_values(self, *, intervals: bool = True) -> dict[str, np.ndarray]:
        """The numeric columns of :meth:`pairs` before any correction (reference_rank, system_rank,
        difference, ci_low, ci_high, pvalue), as arrays: for loops over many competitions."""
        i, j = np.triu_indices(self.m, k=1)
        deltas = improvement(self.metric, self.replicates[:, i], self.replicates[:, j])
        delta = improvement(self.metric, self.scores[i], self.scores[j])
        counts = extreme_counts(deltas, delta, self.alternative, "shift")
        low, high = self._interval(deltas) if intervals else (np.full(i.size, np.nan),) * 2
        return {"reference_rank": i + 1, "system_rank": j + 1, "difference": delta, "ci_low": low, "ci_high": high,
                "pvalue": pvalues_from_counts(counts, self.replicates.shape[0], self.alternative, "shift",
                                              self.pvalue_rule)}

    def difference_values(self) -> pd.DataFrame:
        """The differences as a lower-triangular matrix: cell (row j, column i) = improvement of i over j; NaN elsewhere."""
        cells = pd.DataFrame(np.nan, index=self.names[1:], columns=self.names[:-1])
        for row in self.pairs(intervals=False).itertuples(index=False):
            cells.loc[row.system, row.reference] = row.difference
        cells.index.name = "system"
        return cells.reset_index()

    def difference_significance(self, *, alpha: float = 0.05, scope: str | None = None) -> pd.DataFrame:
        """Every pair in long form: reference (ranked above), system, difference, raw and adjusted
        p-values (each correction over ``scope``) and, per correction, ``significant_<correction>`` =
        adjusted p < ``alpha``."""
        pairs = self.pairs(scope=scope, intervals=False)
        out = pairs[["reference", "system", "reference_rank", "system_rank", "difference", "pvalue"]
                    + [f"pvalue_{c}" for c in CORRECTIONS if c != "none"]].copy()
        for label in CORRECTIONS:
            out[f"significant_{label}"] = pairs[f"pvalue_{label}"].to_numpy() < alpha
        return out

    def bootstrap_ranks(self) -> np.ndarray:
        """(B, m) rank of every system (rank-order columns) in every bootstrap replicate."""
        return bootstrap_ranks(self.replicates, self.metric.higher_is_better)

    def rank_table(self, *, alpha: float = 0.05) -> pd.DataFrame:
        """Rankings with uncertainty, one row per system (observed rank order).

        From the stored bootstrap replicates (no new resampling):

        * ``rank``: the observed rank (1 = best; lower-is-better metrics respected; tied scores
          share their average rank), ``mean_rank`` its bootstrap mean;
        * ``rank_low``, ``rank_high``: the ``confidence_level`` percentile interval of the
          bootstrap ranks (numpy's default linear quantiles, as for the score CIs), rounded
          outwards to integers (floor of the lower, ceiling of the upper limit);
        * ``p_rank1``: share of replicates in which the system is best; a k-way tie for best
          counts 1/k for each, so the column sums to 1;
        * ``tie_group``, ``tied_with``, ``n_tied``: :func:`tie_structure`;
        * ``pvalue_vs_best_adjusted``, ``possible_winner``: :func:`possible_winners`;
        both by the decision rule (:meth:`decisions`).
        """
        ranks = self.bootstrap_ranks()
        low, high = self._interval(ranks)
        first = ranks == ranks.min(axis=1, keepdims=True)
        share = (first / first.sum(axis=1, keepdims=True)).mean(axis=0)
        observed = bootstrap_ranks(self.scores, self.metric.higher_is_better)
        if np.all(observed == np.round(observed)):
            observed = observed.astype(int)
        table = pd.DataFrame({"system": self.names, "score": self.scores, "rank": observed,
                              "mean_rank": ranks.mean(axis=0),
                              "rank_low": np.floor(np.round(low, 9)).astype(int),
                              "rank_high": np.ceil(np.round(high, 9)).astype(int), "p_rank1": share})
        pairs = self.pairs(intervals=False)
        rule = dict(alpha=alpha, correction=self.correction, scope=self.scope)
        ties = tie_structure(self.names, pairs, **rule)
        winners = possible_winners(self.names, pairs, **rule)
        return pd.concat([table, ties.drop(columns="system"), winners.drop(columns="system")], axis=1)

    def summary(self, *, alpha: float = 0.05, scope: str | None = None) -> dict:
        """Table 6 measures of this competition (ties per correction over ``scope``, default the
        analysis's)."""
        return summary_measures(self.names, self.scores, self.pairs(intervals=False), n_items=self.n_items,
                                higher_is_better=self.metric.higher_is_better, alpha=alpha,
                                scope=self.scope if scope is None else scope)


def analyse_competition(names, stats, metric: Metric, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                        clusters=None, pvalue_rule: str = "add-one", alternative: str = "two-sided",
                        correction: str = "holm", scope: str = "all", alpha: float = 0.05,
                        compress_items: bool = True, rng) -> CompetitionAnalysis:
    """Bootstrap analysis of a competition: m systems scored on one test set.

    Parameters
    ----------
    names : sequence of str
        System names, one per row of ``stats`` (distinct, at least two).
    stats : array (m, items, k)
        Per-item statistics of ``metric``.
    metric : Metric
        Metric of summed statistics.
    n_resamples : int
        Bootstrap resamples B (every system scored on the same resamples).
    confidence_level : float
        Level of the percentile intervals.
    clusters : array (items,), optional
        Cluster id per item: whole clusters are resampled.
    pvalue_rule : {"add-one", "fraction"}
        (count + 1)/(B + 1), never 0 (default), or count/B (the paper).
    alternative : {"two-sided", "greater"}
        Two-sided (default) or one-sided "the system ranked above is better" (the paper).
    correction : {"none", "bonferroni", "holm", "bh"}
        Correction of the decision rule (default Holm).
    scope : {"all", "group"}
        Its family: all pairs (default) or each reference system's comparisons (the paper).
    alpha : float
        The level the warning about too few resamples is checked at (decisions take their own
        ``alpha``).
    compress_items : bool
        As in :func:`simstats.paired_bootstrap`.
    rng : numpy.random.Generator or int
        Seeded generator.

    Returns
    -------
    CompetitionAnalysis
        Systems in rank order; tables by its methods.

    Warns
    -----
    UserWarning
        When B add-one p-values cannot reach ``alpha`` after Bonferroni or Holm over the family
        (:func:`resolution_warning`).

    Examples
    --------
    >>> import numpy as np
    >>> from simstats import accuracy, label_statistics
    >>> gold = np.arange(300) % 2
    >>> right = np.random.default_rng(2).random((3, 300)) < [[0.8], [0.7], [0.6]]
    >>> stats = np.stack([label_statistics(accuracy, gold, np.where(r, gold, 1 - gold)) for r in right])
    >>> res = analyse_competition(["x", "y", "z"], stats, accuracy, n_resamples=2000, rng=0)
    >>> res.names, res.scores.round(3).tolist()
    (['x', 'y', 'z'], [0.813, 0.67, 0.61])
    >>> print(res.rank_table()[["system", "tie_group", "tied_with", "possible_winner"]].to_string(index=False))
    system  tie_group tied_with  possible_winner
         x          1                       True
         y          2         z            False
         z          2         y            False
    """
    names = list(names)
    stats = np.asarray(stats)
    if stats.ndim != 3 or stats.shape[0] != len(names):
        raise ValueError(f"statistics must have shape ({len(names)}, items, k), got {stats.shape}")
    if len(names) < 2:
        raise ValueError(f"a competition needs at least two systems, got {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError("system names must be distinct")
    if not 0 < confidence_level < 1:
        raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level}")
    settings = competition_settings("recommended", pvalue_rule=pvalue_rule, alternative=alternative,
                                    correction=correction, scope=scope)
    m = len(names)
    family = m * (m - 1) // 2 if scope == "all" else m - 1
    if correction in ("bonferroni", "holm") and pvalue_rule == "add-one":
        message = resolution_warning(family, n_resamples, alpha)
        if message:
            warnings.warn(message, stacklevel=2)
    observed, values = bootstrap_score_matrix(stats, metric, n_resamples=n_resamples, rng=rng, clusters=clusters,
                                              compress_items=compress_items)
    order = rank_order(observed, metric.higher_is_better)
    return CompetitionAnalysis([names[k] for k in order], observed[order], values[:, order], metric,
                               int(stats.shape[1]), confidence_level, **settings)
