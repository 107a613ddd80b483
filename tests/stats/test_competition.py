"""Competition analysis (Nava-Muñoz et al. 2024): published tables, brute force, ties, MAE."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.io.predictions import statistics_from_predictions
from simstats.stats.competition import adjust_pair_table, analyse_competition, summary_measures
from simstats.stats.metrics import accuracy, label_statistics, mae
from simstats.studies.reference import reference_table

#: One-sided count/B p-values, uncorrected verdicts, corrections within groups (the settings of CompStats).
PAPER = {"alternative": "greater", "pvalue_rule": "fraction", "correction": "none", "scope": "group"}

DATA = Path(__file__).resolve().parents[2] / "resources" / "realdata" / "compstats_competition_data.csv"


def test_table5_corrections_reproduce_the_paper_to_4_decimals():
    t5 = reference_table("nava_munoz_2024_table5")
    ours = adjust_pair_table(t5[["reference", "system", "pvalue"]], scope="group")
    for paper_col, ours_col in (("bonferroni", "pvalue_bonferroni"), ("fdr", "pvalue_bh"),
                                ("holm", "pvalue_holm"), ("bh", "pvalue_bh")):
        # the paper prints 4 decimals; 0.0039 * 3 / 2 = 0.00585 is printed 0.0058
        np.testing.assert_allclose(ours[ours_col], t5[paper_col], atol=5e-5 + 1e-12, err_msg=paper_col)
    assert ours.groupby("reference", sort=False).size().tolist() == [4, 3, 2, 1]


def test_summary_measures_reproduce_table8_basque_textual():
    t5 = reference_table("nava_munoz_2024_table5")
    row = reference_table("nava_munoz_2024_summaries").iloc[0]
    scores = [float(s) for s in row.scores.split(";")]
    names = ["WordUp.01", "WordUp.02", "MultiAztertest.01", "SQYQP.01", "MultiAztertest.02"]
    out = summary_measures(names, scores, t5, n_items=312)
    ties_w = "/".join(str(out[f"ties_with_winner_{c}"]) for c in ("none", "bonferroni", "holm", "bh"))
    ties = "/".join(str(out[f"ties_{c}"]) for c in ("none", "bonferroni", "holm", "bh"))
    assert ties_w == row.ties_with_winner and ties == row.ties
    assert out["possible_comparisons"] == row.possible_comparisons
    assert out["win_minus_median"] == pytest.approx(row.win_minus_median, abs=5e-4)
    assert out["cv_percent"] == pytest.approx(row.cv_percent, abs=5e-3)
    assert out["ppi_percent"] == pytest.approx(row.ppi_percent, abs=5e-3)


def test_summary_measures_reproduce_table8_spanish_textual_scores():
    row = reference_table("nava_munoz_2024_summaries").iloc[1]
    scores = [float(s) for s in row.scores.split(";")]
    names = list("abcde")
    pairs = pd.DataFrame([(names[i], names[j], 0.5) for i in range(5) for j in range(i + 1, 5)],
                         columns=["reference", "system", "pvalue"])
    out = summary_measures(names, scores, pairs, n_items=694)
    assert out["win_minus_median"] == pytest.approx(row.win_minus_median, abs=5e-4)
    assert out["cv_percent"] == pytest.approx(row.cv_percent, abs=5e-3)
    assert out["ppi_percent"] == pytest.approx(row.ppi_percent, abs=5e-3)


def _toy(seed=3, n=60, m=4):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 2, n)
    preds = [np.where(rng.random(n) < acc, gold, 1 - gold) for acc in np.linspace(0.85, 0.6, m)]
    metric = accuracy
    return metric, np.stack([label_statistics(metric, gold, p) for p in preds])


def test_pairs_match_brute_force_resampling():
    metric, stats = _toy()
    B = 300
    res = analyse_competition(list("ABCD"), stats, metric, n_resamples=B, rng=np.random.default_rng(11),
                              compress_items=False, **PAPER)
    idx = np.random.default_rng(11).integers(0, stats.shape[1], size=(B, stats.shape[1]))
    acc = stats[:, idx, 0].mean(axis=2).T                     # (B, m), same draws as the engine
    order = np.argsort(-stats[:, :, 0].mean(axis=1), kind="stable")
    acc, observed = acc[:, order], stats[order, :, 0].mean(axis=1)
    np.testing.assert_allclose(res.replicates, acc, rtol=0, atol=1e-12)
    pairs = res.pairs()
    for row in pairs.itertuples(index=False):
        i, j = row.reference_rank - 1, row.system_rank - 1
        d = observed[i] - observed[j]
        dstar = acc[:, i] - acc[:, j]
        assert row.difference == pytest.approx(d)
        assert row.pvalue == pytest.approx(np.mean(dstar >= 2 * d - 1e-12))
        lo, hi = np.quantile(dstar, [0.025, 0.975])
        assert (row.ci_low, row.ci_high) == pytest.approx((lo, hi))
    ci = res.score_intervals()
    np.testing.assert_allclose(ci.ci_low, np.quantile(acc, 0.025, axis=0))
    assert res.differences_from_best().contains_zero.dtype == bool


def test_identical_systems_get_p_one_never_zero():
    metric, stats = _toy()
    stats = np.concatenate([stats[:1], stats[:1], stats[1:]])
    res = analyse_competition(["a", "a2", "b", "c", "d"], stats, metric, n_resamples=500, rng=1)
    tie = res.pairs().query("reference == 'a' and system == 'a2'").iloc[0]
    assert tie.difference == 0 and tie.pvalue == 1.0 and tie.pvalue_bonferroni == 1.0
    assert res.differences_from_best().iloc[0].contains_zero


def test_pairs_without_intervals_has_the_same_pvalues_and_no_intervals():
    metric, stats = _toy()
    res = analyse_competition(list("ABCD"), stats, metric, n_resamples=400, rng=3)
    for scope in ("group", "all"):
        full, light = res.pairs(scope=scope), res.pairs(scope=scope, intervals=False)
        assert light.ci_low.isna().all() and light.ci_high.isna().all() and not full.ci_low.isna().any()
        pd.testing.assert_frame_equal(light.drop(columns=["ci_low", "ci_high"]),
                                      full.drop(columns=["ci_low", "ci_high"]))


def test_mae_lower_is_better_ranks_and_signs():
    rng = np.random.default_rng(5)
    gold = rng.integers(1, 6, 400)
    good = np.clip(gold + rng.integers(-1, 2, 400), 1, 5)
    bad = np.clip(gold + rng.integers(-2, 3, 400), 1, 5)
    metric = mae
    stats = np.stack([label_statistics(metric, gold, p) for p in (bad, good)])
    res = analyse_competition(["bad", "good"], stats, metric, n_resamples=2000, rng=2)
    assert res.names == ["good", "bad"] and res.scores[0] < res.scores[1]
    row = res.pairs().iloc[0]
    assert row.difference == pytest.approx(res.scores[1] - res.scores[0]) and row.difference > 0
    assert row.pvalue < 0.01 and row.ci_low > 0
    assert np.isnan(res.summary()["ppi_percent"])


def test_real_data_pvalues_vs_winner_match_compstats_documentation():
    table = pd.read_csv(DATA)
    names, stats, metric = statistics_from_predictions(table, "y", metric_name="weighted_f1")
    res = analyse_competition(names, stats, metric, n_resamples=10_000, rng=20240307, **PAPER)
    assert res.names[0] == "INGEOTEC"
    p = res.pairs().query("reference == 'INGEOTEC'").set_index("system").pvalue
    documented = {"BoW (Class Weight)": .001, "Dense": .032, "BoW (Corpus)": .006, "StackBoW": .091, "BoW": .265}
    for system, value in documented.items():
        assert p[system] == pytest.approx(value, abs=0.02), system


def test_adjust_pair_table_needs_every_reference_for_group_scope():
    pairs = pd.DataFrame({"reference": ["A", None, "A"], "system": ["B", "C", "C"], "pvalue": [0.01, 0.02, 0.03]})
    with pytest.raises(ValueError, match="reference system"):
        adjust_pair_table(pairs, scope="group")
    assert adjust_pair_table(pairs, scope="all")["pvalue_bonferroni"].tolist() == pytest.approx([0.03, 0.06, 0.09])


def test_within_group_and_all_pairs_scopes_differ_only_in_family():
    t5 = reference_table("nava_munoz_2024_table5")[["reference", "system", "pvalue"]]
    allp = adjust_pair_table(t5, scope="all")
    np.testing.assert_allclose(allp.pvalue_bonferroni, np.minimum(1, 10 * t5.pvalue))
    with pytest.raises(ValueError, match="scope"):
        adjust_pair_table(t5, scope="row")


# --------------------------------------------------------------------------- rankings with uncertainty
from simstats.stats.competition import (CompetitionAnalysis, bootstrap_ranks,  # noqa: E402
                                        possible_winners, tie_structure)

#: Five bootstrap replicates of three systems (A > B > C observed), ranked by hand:
#: r1 1,2,3; r2 2,1,3; r3 A and B tie behind C: 2.5,2.5,1; r4 1,3,2; r5 A and B tie first: 1.5,1.5,3.
HAND_REPLICATES = np.array([[.80, .70, .60], [.70, .75, .60], [.70, .70, .72], [.85, .60, .65], [.78, .78, .50]])
HAND_RANKS = np.array([[1, 2, 3], [2, 1, 3], [2.5, 2.5, 1], [1, 3, 2], [1.5, 1.5, 3]])


def _hand_case(lower_is_better: bool, level: float) -> CompetitionAnalysis:
    if lower_is_better:       # the same competition as MAE-like scores: 1 - accuracy, lower is better
        return CompetitionAnalysis(list("ABC"), np.array([.2, .3, .4]), 1 - HAND_REPLICATES, mae, 100, level)
    return CompetitionAnalysis(list("ABC"), np.array([.8, .7, .6]), HAND_REPLICATES, accuracy, 100, level)


@pytest.mark.parametrize("lower_is_better", [False, True])
@pytest.mark.parametrize("level, low, high", [
    # level 0.5: quartiles at sorted positions 1 and 3 (of 0..4): A [1,1,1.5,2,2.5] -> 1, 2;
    # B [1,1.5,2,2.5,3] -> 1.5, 2.5 -> outwards 1, 3; C [1,2,3,3,3] -> 2, 3
    (0.5, [1, 1, 2], [2, 3, 3]),
    # level 0.8: positions 0.4 and 3.6: A 1, 2 + 0.6 * 0.5 = 2.3 -> 3; B 1.2 -> 1, 2.8 -> 3; C 1.4 -> 1, 3
    (0.8, [1, 1, 1], [3, 3, 3]),
])
def test_rank_table_on_a_hand_computed_case(lower_is_better, level, low, high):
    analysis = _hand_case(lower_is_better, level)
    np.testing.assert_array_equal(analysis.bootstrap_ranks(), HAND_RANKS)
    t = analysis.rank_table()
    assert t.system.tolist() == list("ABC") and t["rank"].tolist() == [1, 2, 3]
    np.testing.assert_allclose(t.mean_rank, [8 / 5, 10 / 5, 12 / 5])
    assert t.rank_low.tolist() == low and t.rank_high.tolist() == high
    # best in r1, r4 and half of r5 (A); r2 and half of r5 (B); r3 (C)
    np.testing.assert_allclose(t.p_rank1, [2.5 / 5, 1.5 / 5, 1 / 5])


def test_observed_ties_share_the_average_rank():
    assert bootstrap_ranks([0.7, 0.9, 0.7, 0.5]).tolist() == [2.5, 1, 2.5, 4]
    assert bootstrap_ranks([0.7, 0.9, 0.7, 0.5], higher_is_better=False).tolist() == [2.5, 4, 2.5, 1]
    # equal up to rounding noise is a tie
    assert bootstrap_ranks([0.1 + 0.2, 0.3]).tolist() == [1.5, 1.5]


def test_rank_table_matches_brute_force_counting_on_the_analysis_replicates():
    metric, stats = _toy(n=80, m=5)
    res = analyse_competition(list("ABCDE"), stats, metric, n_resamples=400, rng=np.random.default_rng(4))
    v = res.replicates
    B, m = v.shape
    ranks = np.empty_like(v)
    for b in range(B):
        for k in range(m):
            ranks[b, k] = 1 + np.sum(v[b] > v[b, k]) + 0.5 * (np.sum(v[b] == v[b, k]) - 1)
    best = np.array([[v[b, k] == v[b].max() for k in range(m)] for b in range(B)], float)
    t = res.rank_table()
    np.testing.assert_allclose(t.mean_rank, ranks.mean(axis=0))
    np.testing.assert_allclose(t.p_rank1, (best / best.sum(axis=1, keepdims=True)).mean(axis=0))
    assert t.p_rank1.sum() == pytest.approx(1)
    lo, hi = np.percentile(ranks, [2.5, 97.5], axis=0)
    assert t.rank_low.tolist() == np.floor(lo).astype(int).tolist()
    assert t.rank_high.tolist() == np.ceil(hi).astype(int).tolist()
    assert (t.rank_low <= t["rank"]).all() and (t["rank"] <= t.rank_high).all()


def _pairs(p: dict) -> pd.DataFrame:
    return pd.DataFrame([(a, b, v) for (a, b), v in p.items()], columns=["reference", "system", "pvalue"])


# Raw one-sided p-values of four systems A > B > C > D; Holm over the 6 pairs, by hand:
# sorted .001 AD, .002 BD, .004 AC, p_BC, .30 AB, .5 CD -> .006, .010, .016, 3 p_BC, .60, max(.60, .5) = .60.
SPLIT = {("A", "B"): .30, ("A", "C"): .004, ("A", "D"): .001, ("B", "C"): .01, ("B", "D"): .002, ("C", "D"): .5}
CHAIN = {**SPLIT, ("B", "C"): .02}   # 3 * .02 = .06 >= .05: B ~ C after correction (significant raw)


def test_tie_groups_split_where_an_adjacent_pair_is_significant():
    # B vs C: 3 * .01 = .03 < .05 -> significant; A ~ B and C ~ D (.60)
    t = tie_structure(list("ABCD"), _pairs(SPLIT), alpha=0.05)
    assert t.tie_group.tolist() == [1, 1, 2, 2]
    assert t.tied_with.tolist() == ["B", "A", "D", "C"] and t.n_tied.tolist() == [1, 1, 1, 1]


def test_tie_groups_chain_and_tied_with_lists_the_graph():
    t = tie_structure(list("ABCD"), _pairs(CHAIN), alpha=0.05)
    # every adjacent pair is tied, so one group, though A vs C (.016) and B vs D (.010) are significant
    assert t.tie_group.tolist() == [1, 1, 1, 1]
    assert t.tied_with.tolist() == ["B", "A; C", "B; D", "C"]
    # at alpha = .1 (.06 < .1) B and C separate again; the orientation of a pair does not matter
    flipped = _pairs({(b, a): v for (a, b), v in CHAIN.items()})
    assert tie_structure(list("ABCD"), flipped, alpha=0.1).tie_group.tolist() == [1, 1, 2, 2]
    with pytest.raises(ValueError, match="6 pairs"):
        tie_structure(list("ABCD"), _pairs(CHAIN).iloc[:5], alpha=0.05)


def test_possible_winners_follow_the_decision_rule_of_the_ties():
    # A's comparisons .30 (B), .004 (C), .001 (D); Holm within A's group: .30, .008, .003 -> A and B
    w = possible_winners(list("ABCD"), _pairs(SPLIT), alpha=0.05, scope="group")
    assert w.possible_winner.tolist() == [True, True, False, False]
    np.testing.assert_allclose(w.pvalue_vs_best_adjusted, [np.nan, .30, .008, .003])
    # A vs C raw .02: Holm over A's 3 comparisons gives .04 (differs) while over all 6 pairs it is
    # .06 (tied): with one rule, possible_winner is the best's tied_with whatever the scope
    p = {**SPLIT, ("A", "C"): .02}
    for scope, winners in (("group", [True, True, False, False]), ("all", [True, True, True, False])):
        for correction in ("none", "bonferroni", "holm", "bh"):
            rule = dict(alpha=0.05, scope=scope, correction=correction)
            w = possible_winners(list("ABCD"), _pairs(p), **rule)
            tied = tie_structure(list("ABCD"), _pairs(p), **rule).tied_with.iloc[0].split("; ")
            assert w.possible_winner.tolist()[1:] == [s in tied for s in "BCD"], rule
            if correction == "holm":
                assert w.possible_winner.tolist() == winners, rule
    assert possible_winners(list("ABCD"), _pairs(p), scope="group").pvalue_vs_best_adjusted.iloc[2] == \
        pytest.approx(.04)
    # Bonferroni instead of Holm changes a verdict here: A vs D raw .001 (x6 = .006 either way) but
    # C vs D raw .009 (Holm over all: .027 -> differs; Bonferroni: .054 -> tied)
    q = {**SPLIT, ("C", "D"): .009}
    holm = tie_structure(list("ABCD"), _pairs(q), correction="holm").tied_with.iloc[3]
    bonf = tie_structure(list("ABCD"), _pairs(q), correction="bonferroni").tied_with.iloc[3]
    assert "C" not in holm.split("; ") and "C" in bonf.split("; ")


def test_rank_table_ties_and_winners_come_from_the_pair_table():
    metric, stats = _toy(n=120, m=5)
    res = analyse_competition(list("ABCDE"), stats, metric, n_resamples=500, rng=np.random.default_rng(9))
    t = res.rank_table(alpha=0.05)
    pairs = res.pairs(scope="all")
    sig = {(r.reference, r.system) for r in pairs.itertuples() if r.pvalue_holm < 0.05}
    groups = [1]
    for a, b in zip(res.names, res.names[1:]):
        groups.append(groups[-1] + ((a, b) in sig))
    assert t.tie_group.tolist() == groups
    vs_best = pairs.query("reference == @res.names[0]")
    np.testing.assert_allclose(t.pvalue_vs_best_adjusted.iloc[1:], vs_best.pvalue_holm)
    assert t.possible_winner.tolist() == [True] + (vs_best.pvalue_holm >= 0.05).tolist()
    # Table 3's verdict is the same rule
    table3 = res.differences_from_best(alpha=0.05)
    assert table3.different.tolist() == (vs_best.pvalue_holm < 0.05).tolist()
    decided = res.decisions(alpha=0.05)
    assert set(map(tuple, decided[decided.different][["reference", "system"]].to_numpy())) == sig


def test_rank_intervals_cover_the_true_ranks():
    """12 systems with true accuracies 0.80, 0.79, ..., 0.69 (gap 0.01, about 0.7 sd of a paired
    difference at n = 1,500), 80 simulated test sets, B = 200.  Coverage of the 95 % rank interval
    over systems; MCSE from the per-test-set coverages (systems of one test set are dependent)."""
    m, n, R, B = 12, 1500, 80, 200
    rng = np.random.default_rng(20240917)
    true = 0.80 - 0.01 * np.arange(m)
    names = [f"s{k:02d}" for k in range(m)]
    per_set, widths = [], []
    for _ in range(R):
        correct = (rng.random((m, n)) < true[:, None]).astype(float)
        stats = np.stack([correct, np.ones_like(correct)], axis=2)
        t = analyse_competition(names, stats, accuracy, n_resamples=B, rng=rng).rank_table()
        true_rank = np.array([names.index(s) + 1 for s in t.system])
        per_set.append(np.mean((t.rank_low <= true_rank) & (true_rank <= t.rank_high)))
        widths.append(np.mean(t.rank_high - t.rank_low))
    rate, mcse = np.mean(per_set), np.std(per_set, ddof=1) / np.sqrt(R)
    print(f"rank-interval coverage {rate:.4f} (MCSE {mcse:.4f}), mean width {np.mean(widths):.2f} ranks")
    assert np.mean(widths) > 2          # the intervals are not trivially one rank wide
    assert rate >= 0.95 - 3 * mcse, (rate, mcse)


# --- p-value rule, sidedness and named conventions ---

def test_add_one_and_two_sided_pvalues_match_brute_force():
    from simstats.stats.bootstrap import pvalues_from_counts

    metric, stats = _toy()
    B = 300
    paper = analyse_competition(list("ABCD"), stats, metric, n_resamples=B, rng=np.random.default_rng(11), **PAPER)
    rec = analyse_competition(list("ABCD"), stats, metric, n_resamples=B, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(paper.replicates, rec.replicates)    # same bootstrap, other p-values
    for a, b in zip(paper.pairs().itertuples(index=False), rec.pairs().itertuples(index=False)):
        i, j = a.reference_rank - 1, a.system_rank - 1
        dstar = paper.replicates[:, i] - paper.replicates[:, j]
        d = a.difference
        assert a.pvalue == pytest.approx(np.sum(dstar >= 2 * d - 1e-12) / B)                   # the paper's
        assert b.pvalue == pytest.approx((np.sum(np.abs(dstar - d) >= abs(d) - 1e-12) + 1) / (B + 1))
    np.testing.assert_allclose(pvalues_from_counts([0, 5, 300], 300), [1 / 301, 6 / 301, 1])
    np.testing.assert_allclose(pvalues_from_counts([0, 5, 300], 300, pvalue_rule="fraction"), [0, 5 / 300, 1])
    with pytest.raises(ValueError, match="pvalue_rule"):
        pvalues_from_counts([1], 10, pvalue_rule="plus-one")
    with pytest.raises(ValueError, match="alternative"):
        analyse_competition(list("ABCD"), stats, metric, n_resamples=10, rng=1, alternative="less")


@pytest.mark.parametrize("k, alpha, need", [(15, 0.05, 300), (45, 0.05, 900), (465, 0.05, 9300), (45, 0.01, 4500),
                                            (10, 0.03, 333), (1, 0.05, 20)])
def test_required_resamples_is_the_smallest_b_with_k_over_b_plus_1_below_alpha(k, alpha, need):
    from simstats.stats.competition import required_resamples, resolution_warning

    assert required_resamples(k, alpha) == need
    assert k / (need + 1) < alpha <= k / need                  # need works, need - 1 does not
    assert resolution_warning(k, need, alpha) is None
    message = resolution_warning(k, need - 1, alpha)
    assert message.endswith(f"use {need} or more resamples (n_resamples, --n-resamples)") and "\n" not in message


def test_too_few_resamples_for_the_correction_warn_in_the_library_too():
    """7 systems: 21 pairs; Holm over all pairs needs B >= 420 for an add-one p-value to reach 0.05."""
    metric, stats = _toy(m=7)
    with pytest.warns(UserWarning, match="cannot reach alpha = 0.05 after Bonferroni/Holm over 21 pairs"):
        res = analyse_competition(list("ABCDEFG"), stats, metric, n_resamples=300, rng=1)
    assert res.decisions().pvalue_adjusted.min() >= 21 / 301 - 1e-12       # so nothing can differ
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        analyse_competition(list("ABCDEFG"), stats, metric, n_resamples=420, rng=1)
        analyse_competition(list("ABCDEFG"), stats, metric, n_resamples=300, rng=1, **PAPER)    # fraction: no floor
