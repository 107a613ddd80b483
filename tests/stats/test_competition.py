"""Competition analysis (Nava-Muñoz et al. 2024): published tables, brute force, ties, MAE."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.compare import statistics_from_predictions
from simstats.stats.competition import adjust_pair_table, analyse_competition, significance_mark, summary_measures
from simstats.stats.metrics import accuracy, label_statistics, mae
from simstats.studies.reference import reference_table

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


def test_significance_marks():
    assert [significance_mark(p) for p in (0.0, 0.0009, 0.005, 0.03, 0.07, 0.1, 0.5)] == \
        ["***", "***", "**", "*", "†", "", ""]


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
                              compress_items=False)
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
    res = analyse_competition(names, stats, metric, n_resamples=10_000, rng=20240307)
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


# --------------------------------------------------------------------------- simulated competitions
from simstats.studies.navamunoz2024.population import ScenarioError, StudyDesign, parse_competition, parse_population  # noqa: E402
from simstats.studies.navamunoz2024.simulate import simulate_cell, summarise_study  # noqa: E402

POPULATIONS = {
    "stance": dict(metric="macro_f1", classes=["AGAINST", "NONE", "FAVOR"], class_probs=[0.3, 0.4, 0.3],
                   subset=["FAVOR", "AGAINST"], sigma_item=0.5, sigma_e=1.0, confusion_sharing=0.5,
                   class_difficulty=[0.2, -0.3, 0.1]),
    "toxic": dict(metric="f1", classes=["other", "toxic"], class_probs=[0.7, 0.3], positive="toxic",
                  sigma_item=1.0, sigma_e=1.0, confusion_sharing=0.0),
    "acc": dict(metric="accuracy", classes=["a", "b"], class_probs=[0.5, 0.5], sigma_item=0.5, sigma_e=1.0,
                confusion_sharing=0.0),
    "mae": dict(metric="mae", classes=[1, 2, 3, 4, 5], class_probs=[0.05, 0.1, 0.2, 0.3, 0.35], sigma_item=0.5,
                sigma_e=1.0, confusion_sharing=0.5, wrong_decay=0.3),
}


@pytest.mark.parametrize("name, target", [("stance", 0.55), ("toxic", 0.6), ("acc", 0.8), ("mae", 0.6)])
def test_true_score_is_the_large_sample_limit(name, target):
    pop = parse_population(name, POPULATIONS[name])
    theta = pop.solve_theta(target)
    assert float(pop.true_score(theta)) == pytest.approx(target, abs=1e-10)
    metric = pop.metric_object()
    values = []
    for seed in range(30):
        gold, preds = pop.sample([theta], 20_000, np.random.default_rng(seed))
        values.append(metric(pop.statistics(gold, preds).sum(axis=1))[0])
    values = np.array(values)
    mcse = values.std(ddof=1) / np.sqrt(values.size)
    assert abs(values.mean() - target) < 3 * mcse + 2e-4      # + O(1/n) ratio bias of F1


def test_errors_are_correlated_as_the_latent_model_says():
    pop = parse_population("acc", {**POPULATIONS["acc"], "sigma_item": 1.0})
    theta = pop.solve_theta(0.75)
    gold, preds = pop.sample([theta, theta], 200_000, np.random.default_rng(0))
    right = preds == gold
    # both right: P(Z1 > -h, Z2 > -h) with latent correlation sigma_item^2 / S^2 = 0.5 (Owen's T)
    from scipy import stats
    h = theta / pop.scale
    both = stats.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]]).cdf([h, h])
    assert np.mean(right[0] & right[1]) == pytest.approx(both, abs=4 * np.sqrt(both * (1 - both) / 200_000))


def test_ci_coverage_within_mcse_on_a_small_case():
    pop = parse_population("acc", POPULATIONS["acc"])
    design = StudyDesign("cov", "acc", (3,), (300,), 0.75, 0.05, 1)
    rows = simulate_cell(pop, design, 3, 300, range(300), root_seed=7, n_resamples=500, alpha=0.05)
    summary = summarise_study(rows, {"cov": design}, {"acc": pop}).set_index("quantity")
    for q in ("coverage_scores", "coverage_differences"):
        est, se = summary.loc[q, "estimate"], summary.loc[q, "mcse"]
        assert abs(est - 0.95) < 3 * se + 0.005, (q, est, se)   # + percentile CI's O(1/n) error


def test_oriented_one_sided_test_rejects_tied_systems_at_twice_alpha():
    """The paper's p-value tests "the observed winner is better": for two equally good
    systems the orientation is chosen by the data, so the rejection rate is ~2 alpha."""
    pop = parse_population("acc", POPULATIONS["acc"])
    design = StudyDesign("null", "acc", (2,), (400,), 0.75, 0.0, 2)
    rows = simulate_cell(pop, design, 2, 400, range(400), root_seed=3, n_resamples=500, alpha=0.05)
    rate = rows.false_rejections_all_none.mean()
    assert rows.true_nulls.eq(1).all() and rows.winner_correct.all()
    assert abs(rate - 0.10) < 3 * np.sqrt(0.1 * 0.9 / 400)


def test_replicates_do_not_depend_on_how_they_are_split():
    pop = parse_population("stance", POPULATIONS["stance"])
    design = StudyDesign("split", "stance", (4,), (200,), 0.55, 0.1, 2)
    whole = simulate_cell(pop, design, 4, 200, range(6), root_seed=1, n_resamples=200, alpha=0.05)
    parts = pd.concat([simulate_cell(pop, design, 4, 200, r, root_seed=1, n_resamples=200, alpha=0.05)
                       for r in (range(0, 2), range(2, 6))], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)


@pytest.mark.parametrize("name", ["stance", "mae"])
def test_replicate_row_counts_what_the_pair_tables_say(name):
    """The study scores each competition from arrays; the same counts come from the user-facing tables
    (pairs(), adjust_pair_table over all pairs, score_intervals()), computed here independently."""
    from simstats.stats.multitest import CORRECTIONS
    from simstats.studies.navamunoz2024.simulate import replicate_row, system_names

    pop = parse_population(name, POPULATIONS[name])
    metric = pop.metric_object()
    m = 5
    names = system_names(m)
    truth = dict(zip(names, np.linspace(0.45, 0.6, m) if name == "stance" else [0.6, 0.6, 0.5, 0.7, 0.6]))
    scopes_differ = False
    for seed in range(4):
        thetas = [pop.solve_theta(float(truth[s])) for s in names]
        gold, preds = pop.sample(thetas, 150, np.random.default_rng(seed))
        analysis = analyse_competition(names, pop.statistics(gold, preds), metric, n_resamples=300,
                                       rng=np.random.default_rng(100 + seed))
        row = replicate_row(analysis, truth, 0.05)
        t = np.array([truth[s] for s in analysis.names])
        pairs = analysis.pairs(scope="group")
        gain = (t[pairs.reference_rank - 1] - t[pairs.system_rank - 1]) * (1 if metric.higher_is_better else -1)
        null = gain <= 1e-12
        every = adjust_pair_table(pairs[["reference", "system", "pvalue"]], scope="all")
        for scope, table in (("group", pairs), ("all", every)):
            for corr in CORRECTIONS:
                reject = table[f"pvalue_{corr}"].to_numpy() < 0.05
                assert row[f"rejections_{scope}_{corr}"] == reject.sum()
                assert row[f"false_rejections_{scope}_{corr}"] == (reject & null).sum()
        scores = analysis.score_intervals()
        assert row["covered_scores"] == np.mean((scores.ci_low <= t) & (t <= scores.ci_high))
        assert row["covered_differences"] == np.mean((pairs.ci_low <= gain) & (gain <= pairs.ci_high))
        assert row["true_nulls"] == null.sum()
        scopes_differ |= any(row[f"rejections_group_{c}"] != row[f"rejections_all_{c}"] for c in CORRECTIONS)
    assert scopes_differ        # the cases tell the two families apart


@pytest.mark.parametrize("patch, field", [
    (("populations", "p", "metric"), "competition.populations.p.metric"),
    (("populations", "p", "class_probs"), "competition.populations.p.class_probs"),
    (("examples", "e", "systems", "A"), "competition.examples.e.systems.A"),
    (("study", "designs", "d", "best"), "competition.study.designs.d.best"),
])
def test_invalid_competition_config_names_the_field(patch, field):
    config = {"populations": {"p": dict(POPULATIONS["acc"])},
              "examples": {"e": {"population": "p", "n": 100, "systems": {"A": 0.8, "B": 0.7}}},
              "study": {"replicates": 10, "designs": {"d": {"population": "p", "m": [3], "n": [100], "best": 0.8,
                                                            "spread": 0.1, "tie_size": 1}}}}
    parse_competition(config)
    bad = {"metric": "bleu", "class_probs": [0.5, 0.6], "A": 1.5, "best": 1.2}[patch[-1]]
    target = config
    for key in patch[:-1]:
        target = target[key]
    target[patch[-1]] = bad
    with pytest.raises(ScenarioError) as err:
        parse_competition(config)
    assert str(err.value).startswith(field)


def _vaxxstance_examples():
    import yaml

    from simstats.config import validate_config

    root = Path(__file__).resolve().parents[2]
    return validate_config(yaml.safe_load((root / "config/config.yaml").read_text())).competition


def test_example_competition_is_conditioned_on_the_papers_ranking():
    from simstats.studies.navamunoz2024.simulate import example_competition
    from simstats.studies.navamunoz2024.tables import example_vs_paper

    comp = _vaxxstance_examples()
    for name, language, winner in (("basque", "Basque", "WordUp.01"), ("spanish", "Spanish", "WordUp.02")):
        example = comp.examples[name]
        assert example.language == language and example.condition_on_ranking
        analysis, truth = example_competition(comp.populations[example.population], example, root_seed=5,
                                              n_resamples=200, name=name)
        # observed ranking = true ranking (the paper's), winner first
        assert analysis.names == sorted(example.systems, key=example.systems.get, reverse=True)
        assert analysis.names[0] == winner and truth["draws"] >= 1 and truth["scores"] == example.systems
        assert list(analysis.scores) == sorted(analysis.scores, reverse=True)
        check = example_vs_paper(analysis, language)
        assert len(check) == 9 and set(check.language) == {language}
        assert set(check[check.table == "T3"].reference) == {winner}
        again, _ = example_competition(comp.populations[example.population], example, root_seed=5, n_resamples=200,
                                       name=name)
        np.testing.assert_array_equal(again.replicates, analysis.replicates)


def test_example_competition_that_cannot_be_conditioned_is_an_error(monkeypatch):
    from simstats.studies.navamunoz2024 import simulate

    comp = _vaxxstance_examples()
    example = comp.examples["basque"]
    monkeypatch.setattr(simulate, "MAX_RANKING_DRAWS", 0)
    with pytest.raises(ValueError, match="condition_on_ranking: false"):
        simulate.example_competition(comp.populations[example.population], example, root_seed=5, n_resamples=200,
                                     name="basque")


# --------------------------------------------------------------------------- rankings with uncertainty
from simstats.stats.competition import (CompetitionAnalysis, bootstrap_ranks, possible_winners,  # noqa: E402
                                        tie_structure)

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


def test_possible_winners_are_holm_over_the_best_comparisons():
    # A's comparisons .30 (B), .004 (C), .001 (D): Holm .30, .008, .003 -> A and B
    w = possible_winners(list("ABCD"), _pairs(SPLIT), alpha=0.05)
    assert w.possible_winner.tolist() == [True, True, False, False]
    np.testing.assert_allclose(w.p_vs_best_holm, [np.nan, .30, .008, .003])
    # A vs C raw .02: Holm over A's 3 comparisons gives .04 (not a possible winner) while over all
    # 6 pairs it is .06 (tied with A): the two families differ on purpose
    p = {**SPLIT, ("A", "C"): .02}
    w = possible_winners(list("ABCD"), _pairs(p), alpha=0.05)
    assert w.possible_winner.tolist() == [True, True, False, False]
    assert w.p_vs_best_holm.iloc[2] == pytest.approx(.04)
    assert "C" in tie_structure(list("ABCD"), _pairs(p), alpha=0.05).tied_with.iloc[0].split("; ")


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
    vs_best = res.pairs(scope="group").query("reference == @res.names[0]")
    np.testing.assert_allclose(t.p_vs_best_holm.iloc[1:], vs_best.pvalue_holm)
    assert t.possible_winner.tolist() == [True] + (vs_best.pvalue_holm >= 0.05).tolist()


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


# --- p-value rule, sidedness and named conventions (issue 17) ---

def test_add_one_and_two_sided_pvalues_match_brute_force():
    from simstats.stats.competition import pvalues_from_count

    metric, stats = _toy()
    B = 300
    paper = analyse_competition(list("ABCD"), stats, metric, n_resamples=B, rng=np.random.default_rng(11))
    rec = analyse_competition(list("ABCD"), stats, metric, n_resamples=B, rng=np.random.default_rng(11),
                              pvalue_rule="add-one", alternative="two-sided")
    np.testing.assert_array_equal(paper.replicates, rec.replicates)    # same bootstrap, other p-values
    for a, b in zip(paper.pairs().itertuples(index=False), rec.pairs().itertuples(index=False)):
        i, j = a.reference_rank - 1, a.system_rank - 1
        dstar = paper.replicates[:, i] - paper.replicates[:, j]
        d = a.difference
        assert a.pvalue == pytest.approx(np.sum(dstar >= 2 * d - 1e-12) / B)                   # the paper's
        assert b.pvalue == pytest.approx((np.sum(np.abs(dstar - d) >= abs(d) - 1e-12) + 1) / (B + 1))
    np.testing.assert_allclose(pvalues_from_count([0, 5, 300], 300, "add-one"), [1 / 301, 6 / 301, 1])
    np.testing.assert_allclose(pvalues_from_count([0, 5, 300], 300), [0, 5 / 300, 1])
    with pytest.raises(ValueError, match="pvalue_rule"):
        pvalues_from_count([1], 10, "plus-one")
    with pytest.raises(ValueError, match="alternative"):
        analyse_competition(list("ABCD"), stats, metric, n_resamples=10, rng=1, alternative="less")


def test_library_defaults_stay_the_papers():
    from simstats.stats.competition import CompetitionAnalysis
    from simstats.studies.navamunoz2024.conventions import ANALYSIS_CONVENTIONS

    metric, stats = _toy()
    res = analyse_competition(list("ABCD"), stats, metric, n_resamples=50, rng=1)
    assert (res.pvalue_rule, res.alternative) == ("fraction", "greater")
    assert CompetitionAnalysis.__dataclass_fields__["pvalue_rule"].default == "fraction"
    assert ANALYSIS_CONVENTIONS["paper"] == {"scope": "group", "pvalue_rule": "fraction", "alternative": "greater",
                                             "marks": "none"}


def test_convention_settings_and_overrides():
    from simstats.studies.navamunoz2024.conventions import convention_settings

    assert convention_settings() == {"scope": "all", "pvalue_rule": "add-one", "alternative": "two-sided",
                                     "marks": "holm"}
    assert convention_settings("recommended", scope="group", marks=None)["scope"] == "group"
    with pytest.raises(ValueError, match="convention"):
        convention_settings("default")
    with pytest.raises(ValueError, match="scope"):
        convention_settings("paper", scope="pairs")
    with pytest.raises(ValueError, match="unknown settings"):
        convention_settings("paper", correction="holm")


@pytest.mark.parametrize("k, alpha, need", [(15, 0.05, 300), (45, 0.05, 900), (465, 0.05, 9300), (45, 0.01, 4500),
                                            (10, 0.03, 333), (1, 0.05, 20)])
def test_required_resamples_is_the_smallest_b_with_k_over_b_plus_1_below_alpha(k, alpha, need):
    from simstats.stats.competition import required_resamples, resolution_warning

    assert required_resamples(k, alpha) == need
    assert k / (need + 1) < alpha <= k / need                  # need works, need - 1 does not
    assert resolution_warning(k, need, alpha) is None
    message = resolution_warning(k, need - 1, alpha)
    assert message.endswith(f"use --resamples {need} or more") and "\n" not in message
