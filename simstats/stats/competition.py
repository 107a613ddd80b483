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
* adjusted p-values within each reference system's group of comparisons (i against every
  system ranked below it), by Bonferroni, Holm and Benjamini-Hochberg from statsmodels
  (Table 5), or over all m(m-1)/2 pairs at once (``scope="all"``);
* the summary measures of the paper's Table 6: ties with the winner and among all pairs per
  correction, |winner - median|, CV and PPI;
* rankings with uncertainty (:meth:`CompetitionAnalysis.rank_table`, not in the paper): each
  system's rank in every bootstrap replicate (the same replicates as everything above), its
  mean, percentile interval and P(rank 1); tie groups (:func:`tie_structure`) and the possible
  winners (:func:`possible_winners`) from the pairs' p-values.

Improvements are in the metric's "better" direction: for a lower-is-better metric (MAE)
the improvement of i over j is score_j - score_i.  Identical systems have delta* = delta = 0
in every replicate and get p = 1, never 0.

The library's defaults are the paper's (scope "group", one-sided, fraction), which the
replication study relies on (the named bundles of settings, the paper's and the
``simstats competition`` default, are :data:`simstats.studies.navamunoz2024.conventions.ANALYSIS_CONVENTIONS`).
Under the global null the paper's settings do not control the family-wise error over the table (the data pick which
system of a pair is "better", so a one-sided p rejects a tied pair about 2 alpha of the time,
and within-group corrections leave m - 1 families uncorrected against each other); the
recommended one does, provided B is large enough for the correction
(:func:`required_resamples`, :func:`resolution_warning`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.stats.bootstrap import bootstrap_score_matrix, extreme_counts
from simstats.stats.engine import improvement
from simstats.stats.metrics import Metric
from simstats.stats.multitest import CORRECTIONS, adjust_pvalues, quick_gc

SCOPES = ("group", "all")
#: How a p-value is estimated from the count of replicates at least as extreme as observed.
PVALUE_RULES = ("fraction", "add-one")
#: "greater": one-sided, "the system ranked above is better" (the paper); "two-sided".
ALTERNATIVES = ("greater", "two-sided")
#: How the rank table decides ties and possible winners (named in the CLI's output).
TIE_METHOD = "Holm over all pairs"
WINNER_METHOD = "Holm vs best"
#: Scores equal to this many decimals are tied when ranking (guards against rounding noise).
RANK_DECIMALS = 12


def pvalue_description(alternative: str = "greater", pvalue_rule: str = "fraction") -> str:
    """How the pairs' p-values are computed, in words (for reports and JSON settings)."""
    sides = ("one-sided, P*(δ* ≥ 2δ)" if alternative == "greater" else "two-sided, P*(|δ* − δ| ≥ |δ|)")
    rule = "count/B" if pvalue_rule == "fraction" else "(count + 1)/(B + 1)"
    return f"{sides}, {rule}"


def pvalues_from_count(counts, n_resamples: int, pvalue_rule: str = "fraction") -> np.ndarray:
    """p-values from the number of the ``n_resamples`` replicates at least as extreme as observed:
    ``"fraction"`` count/B (can be 0), ``"add-one"`` (count + 1)/(B + 1) (at least 1/(B + 1))."""
    counts = np.asarray(counts, dtype=float)
    if pvalue_rule == "fraction":
        return counts / n_resamples
    if pvalue_rule == "add-one":
        return (counts + 1) / (n_resamples + 1)
    raise ValueError(f"pvalue_rule must be one of {PVALUE_RULES}, got {pvalue_rule!r}")


def required_resamples(n_comparisons: int, alpha: float) -> int:
    """Fewest bootstrap samples B for which an add-one p-value can be significant after
    Bonferroni or Holm over ``n_comparisons``: the smallest adjusted p is K/(B + 1), and
    significance is adjusted p < alpha strictly, so B + 1 > K/alpha, i.e. B >= floor(K/alpha)."""
    if n_comparisons < 1:
        raise ValueError(f"n_comparisons must be >= 1, got {n_comparisons}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    return int(np.floor(n_comparisons / alpha + 1e-9))


def resolution_warning(n_comparisons: int, n_resamples: int, alpha: float) -> str | None:
    """One-line message when B = ``n_resamples`` add-one p-values cannot be significant at
    ``alpha`` after Bonferroni/Holm over ``n_comparisons`` (K/(B + 1) >= alpha); else None."""
    need = required_resamples(n_comparisons, alpha)
    if n_resamples >= need:
        return None
    return (f"{n_resamples} bootstrap samples cannot reach alpha = {alpha:g} after Bonferroni/Holm over "
            f"{n_comparisons} pairs (smallest p-value 1/{n_resamples + 1}, times {n_comparisons}: "
            f"{n_comparisons / (n_resamples + 1):.3g} >= {alpha:g}); use --resamples {need} or more")


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
    from scipy.stats import rankdata

    v = np.round(np.asarray(values, dtype=float), RANK_DECIMALS)
    return rankdata(-v if higher_is_better else v, method="average", axis=-1)


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


def tie_structure(names, pairs: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """Which systems cannot be separated after correcting over all pairs.

    ``names`` in observed rank order (best first); ``pairs`` has columns reference, system,
    pvalue with every unordered pair once (as :meth:`CompetitionAnalysis.pairs`: by default the
    one-sided p-value of "reference, ranked above, is better", P*(delta* >= 2 delta)).

    * The raw p-values are Holm-adjusted over all m(m-1)/2 pairs at once (family-wise error
      over the whole table).  Two systems are *tied* when their adjusted p >= ``alpha``;
      ``tied_with`` lists, in rank order and separated by "; ", every system a system is tied
      with (edges of the "not significantly different" graph).
    * ``tie_group``: walk down the observed ranking and open a new group (ids 1, 2, ...)
      whenever a system is significantly worse than the system ranked just above it; a group
      is thus a maximal run of consecutive ranks in which every adjacent pair is tied.  Groups
      chain: with A ~ B and B ~ C, A, B and C share a group even when A vs C is significant
      (``tied_with`` shows that).

    Returns one row per system (rank order): system, tie_group, tied_with, n_tied.
    """
    names = list(names)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if len(names) < 2:
        raise ValueError(f"tie groups need at least two systems, got {len(names)}")
    adjusted = adjust_pair_table(pairs[["reference", "system", "pvalue"]], scope="all", corrections={"holm": "holm"})
    p = _pvalue_matrix(names, adjusted, "pvalue_holm")
    tied = p >= alpha
    np.fill_diagonal(tied, False)
    groups = [1]
    for k in range(1, len(names)):
        groups.append(groups[-1] + (0 if tied[k - 1, k] else 1))
    return pd.DataFrame({"system": names, "tie_group": groups,
                         "tied_with": ["; ".join(names[j] for j in np.flatnonzero(row)) for row in tied],
                         "n_tied": tied.sum(axis=1)})


def possible_winners(names, pairs: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """The systems not significantly worse than the observed best ("Holm vs best").

    ``names`` in observed rank order (best first); ``pairs`` as for :func:`tie_structure`.
    The best system's m - 1 p-values (one-sided by default: "the best is better than system j")
    are Holm-adjusted as one family; system j is a possible winner when its adjusted p >= ``alpha``.
    The best itself always is one (its ``p_vs_best_holm`` is NaN).

    Returns one row per system (rank order): system, p_vs_best_holm, possible_winner.
    """
    names = list(names)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if len(names) < 2:
        raise ValueError(f"possible winners need at least two systems, got {len(names)}")
    p = _pvalue_matrix(names, pairs, "pvalue")[0, 1:]
    with quick_gc():
        adjusted = adjust_pvalues(p, "holm")
    values = np.concatenate([[np.nan], adjusted])
    return pd.DataFrame({"system": names, "p_vs_best_holm": values,
                         "possible_winner": np.concatenate([[True], adjusted >= alpha])})


@dataclass
class CompetitionAnalysis:
    """Bootstrap analysis of one competition; systems are stored in rank order (winner first)."""

    names: list
    scores: np.ndarray          # observed scores (m,)
    replicates: np.ndarray      # bootstrap scores (B, m), same resamples for every system
    metric: Metric
    n_items: int
    confidence_level: float = 0.95
    pvalue_rule: str = "fraction"       # PVALUE_RULES: count/B (the paper) or (count + 1)/(B + 1)
    alternative: str = "greater"        # ALTERNATIVES: one-sided "ranked above is better" or two-sided

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

    def differences_from_best(self) -> pd.DataFrame:
        """Table 3: CIs of the winner's improvement over each other system; does it contain 0?"""
        rows = []
        for j in range(1, self.m):
            d = self.improvement_replicates(0, j)
            low, high = self._interval(d)
            rows.append({"rank": j + 1, "system": self.names[j], "reference": self.names[0],
                         "difference": float(improvement(self.metric, self.scores[0], self.scores[j])),
                         "ci_low": low, "bootstrap_mean": d.mean(), "ci_high": high,
                         "contains_zero": bool(low <= 0 <= high)})
        return pd.DataFrame(rows)

    def pairs(self, *, scope: str = "group", intervals: bool = True) -> pd.DataFrame:
        """Every pair (reference ranked above system): improvement, CI, p-value (``alternative``,
        ``pvalue_rule``), adjusted p.  ``intervals=False``: the CI columns are NaN (not computed:
        the percentile intervals of every pair cost more than their p-values)."""
        v = self.pair_values(intervals=intervals)
        i, j = v["reference_rank"] - 1, v["system_rank"] - 1
        frame = pd.DataFrame({"reference": [self.names[a] for a in i], "system": [self.names[b] for b in j], **v})
        return adjust_pair_table(frame, scope=scope)

    def pair_values(self, *, intervals: bool = True) -> dict[str, np.ndarray]:
        """The numeric columns of :meth:`pairs` before any correction (reference_rank, system_rank,
        difference, ci_low, ci_high, pvalue), as arrays: for loops over many competitions."""
        i, j = np.triu_indices(self.m, k=1)
        deltas = improvement(self.metric, self.replicates[:, i], self.replicates[:, j])
        delta = improvement(self.metric, self.scores[i], self.scores[j])
        counts = extreme_counts(deltas, delta, self.alternative, "shift")
        low, high = self._interval(deltas) if intervals else (np.full(i.size, np.nan),) * 2
        return {"reference_rank": i + 1, "system_rank": j + 1, "difference": delta, "ci_low": low, "ci_high": high,
                "pvalue": pvalues_from_count(counts, self.replicates.shape[0], self.pvalue_rule)}

    def difference_values(self) -> pd.DataFrame:
        """The differences as a lower-triangular matrix: cell (row j, column i) = improvement of i over j; NaN elsewhere."""
        cells = pd.DataFrame(np.nan, index=self.names[1:], columns=self.names[:-1])
        for row in self.pairs(intervals=False).itertuples(index=False):
            cells.loc[row.system, row.reference] = row.difference
        cells.index.name = "system"
        return cells.reset_index()

    def difference_significance(self, *, alpha: float = 0.05, scope: str = "group") -> pd.DataFrame:
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
        * ``tie_group``, ``tied_with``, ``n_tied``: :func:`tie_structure` (Holm over all pairs);
        * ``p_vs_best_holm``, ``possible_winner``: :func:`possible_winners` (Holm vs best).
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
        pairs = self.pairs()
        ties = tie_structure(self.names, pairs, alpha=alpha)
        winners = possible_winners(self.names, pairs, alpha=alpha)
        return pd.concat([table, ties.drop(columns="system"), winners.drop(columns="system")], axis=1)

    def summary(self, *, alpha: float = 0.05, scope: str = "group") -> dict:
        """Table 6 measures of this competition."""
        return summary_measures(self.names, self.scores, self.pairs(), n_items=self.n_items,
                                higher_is_better=self.metric.higher_is_better, alpha=alpha, scope=scope)


def analyse_competition(names, stats, metric: Metric, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                        clusters=None, pvalue_rule: str = "fraction", alternative: str = "greater",
                        compress_items: bool = True, rng) -> CompetitionAnalysis:
    """Bootstrap analysis of systems ``names`` with per-item statistics ``stats`` (m, n, k).

    ``pvalue_rule`` and ``alternative`` set how every pair's p-value is computed (module
    docstring); the defaults are the paper's; :func:`simstats.studies.navamunoz2024.conventions.convention_settings`
    gives the CLI's.  ``compress_items`` as in :func:`simstats.paired_bootstrap`."""
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
    if pvalue_rule not in PVALUE_RULES:
        raise ValueError(f"pvalue_rule must be one of {PVALUE_RULES}, got {pvalue_rule!r}")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, got {alternative!r}")
    observed, values = bootstrap_score_matrix(stats, metric, n_resamples=n_resamples, rng=rng, clusters=clusters,
                                              compress_items=compress_items)
    order = rank_order(observed, metric.higher_is_better)
    return CompetitionAnalysis([names[k] for k in order], observed[order], values[:, order], metric,
                               int(stats.shape[1]), confidence_level, pvalue_rule, alternative)
