"""The Nava-Muñoz study's simulated competitions: the latent population, replicate rows, the example
competition conditioned on the paper's ranking, and the study's config errors."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.stats.competition import adjust_pair_table, analyse_competition
from simstats.studies.navamunoz2024.population import ScenarioError, StudyDesign, parse_competition, parse_population
from simstats.studies.navamunoz2024.simulate import simulate_cell, summarise_study

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

    root = Path(__file__).resolve().parents[3]
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
