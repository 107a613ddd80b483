"""Fitting the noise model to runs (simstats.sim.fit): closed forms against scipy, recovery of known parameters
from the project's own simulator at the stated interval rate (tolerances from the MCSE of a coverage), and
real runs - scikit-learn's digits (item level), UKP BiLSTM and IBM fine-tuning runs (run level) - whose own
score sds, dev-test correlation and run-pair agreement the fitted scenarios reproduce when simulated."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.sim.fit import (FitError, bivariate_normal_cdf_array, fit_outcomes, fit_scores, generalised_esd_low,
                              reproduction_check, run_statistics, tetrachoric)
from simstats.sim.noise import bivariate_normal_cdf, make_item_set, simulate_models
from simstats.sim.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
DIGITS = ROOT / "tests" / "data" / "fit" / "sklearn_digits_runs.csv.gz"
UKP = ROOT / "resources" / "realdata" / "ukp_bilstm_runs_2017.tsv.gz"
IBM = ROOT / "resources" / "realdata" / "ibm_model_recycling_20_seeds" / "models_results_roberta_base_pretrain.csv"


# --------------------------------------------------------------------------- closed forms
@pytest.mark.parametrize("h, k", [(-1.2, 0.4), (0.0, 0.0), (0.0, -0.7), (1.5, 1.5), (2.0, -0.3), (-0.5, 0.0)])
@pytest.mark.parametrize("rho", [-0.6, 0.0, 0.35, 0.9])
def test_bivariate_normal_cdf_array_matches_scipy(h, k, rho):
    ref = stats.multivariate_normal(mean=[0, 0], cov=[[1, rho], [rho, 1]]).cdf([h, k])
    got = bivariate_normal_cdf_array(np.array([h]), np.array([k]), np.array([rho]))[0]
    assert got == pytest.approx(ref, abs=2e-6)
    assert got == pytest.approx(bivariate_normal_cdf(h, k, rho), abs=1e-12)


def test_tetrachoric_inverts_the_bivariate_normal():
    rng = np.random.default_rng(1)
    p1, p2, rho = rng.uniform(0.05, 0.95, 50), rng.uniform(0.05, 0.95, 50), rng.uniform(-0.8, 0.95, 50)
    p11 = bivariate_normal_cdf_array(stats.norm.ppf(p1), stats.norm.ppf(p2), rho)
    assert np.allclose(tetrachoric(p1, p2, p11), rho, atol=1e-9)


def test_tetrachoric_of_a_large_sample():
    rng = np.random.default_rng(2)
    z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], size=400_000)
    y1, y2 = z[:, 0] < 0.5, z[:, 1] < -0.2
    est = float(tetrachoric(y1.mean(), y2.mean(), (y1 & y2).mean()))
    assert est == pytest.approx(0.6, abs=0.01)      # sd of the estimate about 0.002 at this size


def test_generalised_esd_false_flags_and_detection():
    rng = np.random.default_rng(3)
    for n, alpha in ((8, 0.05), (20, 0.05), (60, 0.05), (20, 0.01)):
        flagged = np.mean([generalised_esd_low(rng.normal(size=n), alpha).size > 0 for _ in range(1500)])
        assert flagged <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / 1500), n          # at most alpha, up to MCSE
    values = rng.normal(size=30)
    values[[4, 11, 27]] = [-9.0, -10.0, -8.5]
    assert generalised_esd_low(values).tolist() == [4, 11, 27]
    values[4] = -2.0                                    # a mild low value is not a failure
    assert generalised_esd_low(values).tolist() == [11, 27]


# --------------------------------------------------------------------------- recovery
def _recovery(entry: dict, runs: int, reps: int, splits=("dev", "test"), n_resamples=100):
    sc = parse_scenario("recovery", entry)
    s = sc.latent_scale
    truth = {"target": sc.target, "sigma_item": sc.sigma_item / s, "sigma_e": sc.sigma_e / s,
             "sigma_seed": sc.sigma_seed / s, "sigma_shift": sc.sigma_shift / s, "dev_offset": sc.dev_offset / s}
    if sc.clusters:
        truth["sigma_c"] = sc.sigma_c / s
    sd = sc.seed_distribution
    if sd.family == "failure_mixture":
        truth.update(failure_prob=sd.failure_prob, failure_shift=sd.failure_shift / s, failure_sd=sd.failure_sd / s)
    covered, estimates = {}, {}
    for r in range(reps):
        root = 5000 + r
        batch = simulate_models(sc, "A", 0, runs, root, keep_outcomes=splits)
        clusters = ({p: make_item_set(sc, p, root).cluster for p in splits} if sc.clusters else None)
        fit = fit_outcomes({p: batch.outcomes[p] for p in splits}, clusters, n_resamples=n_resamples, rng=r)
        for name, value in truth.items():
            p = fit.parameters.get(name)
            if p is not None and p.basis == "estimated":
                covered.setdefault(name, []).append(p.covers(value))
                estimates.setdefault(name, []).append(p.estimate)
    return truth, {k: np.mean(v) for k, v in covered.items()}, estimates


def _assert_coverage(coverage: dict, reps: int, level: float = 0.95):
    floor = level - 3 * math.sqrt(level * (1 - level) / reps)
    low = {k: v for k, v in coverage.items() if v < floor}
    assert not low, f"coverage below {floor:.3f} over {reps} fits: {low}"


def test_recovery_item_level_dev_and_test():
    entry = dict(metric="accuracy", target=0.8, dev={"items": 400}, test={"items": 400}, sigma_item=0.8,
                 sigma_e=0.6, sigma_seed=0.06, sigma_shift=0.04, dev_offset=0.1)
    truth, coverage, estimates = _recovery(entry, runs=8, reps=160)
    _assert_coverage(coverage, 160)
    assert set(coverage) == {"target", "sigma_item", "sigma_e", "sigma_seed", "sigma_shift", "dev_offset"}
    for name in ("sigma_item", "sigma_e", "target"):     # precise parameters: the mean estimate is the truth
        e = np.asarray(estimates[name])
        assert abs(e.mean() - truth[name]) < 4 * e.std(ddof=1) / math.sqrt(e.size) + 0.003, name


def test_recovery_clustered_items():
    entry = dict(metric="accuracy", target=0.75, dev={"items": 1000}, test={"items": 1000}, sigma_item=0.8,
                 sigma_e=0.6, sigma_seed=0.05, clusters={"size": 10, "sigma_c": 0.5})
    truth, coverage, _ = _recovery(entry, runs=6, reps=60)
    _assert_coverage(coverage, 60)
    assert "sigma_c" in coverage


def test_recovery_failure_tail():
    entry = dict(metric="accuracy", target=0.8, dev={"items": 400}, test={"items": 400}, sigma_item=0.8,
                 sigma_e=0.6, sigma_seed=0.05,
                 seed_distribution={"family": "failure_mixture", "failure_prob": 0.15, "failure_shift": -1.0,
                                    "failure_sd": 0.2})
    truth, coverage, estimates = _recovery(entry, runs=40, reps=40)
    _assert_coverage(coverage, 40)
    assert {"failure_prob", "failure_shift", "failure_sd"} <= set(coverage)
    assert np.mean(estimates["failure_prob"]) == pytest.approx(0.15, abs=0.03)


def test_recovery_seed_dominant_three_runs_test_only():
    entry = dict(metric="accuracy", target=0.7, dev={"items": 300}, test={"items": 300}, sigma_item=0.8,
                 sigma_e=0.6, sigma_seed=0.3)
    truth, coverage, _ = _recovery(entry, runs=3, reps=150, splits=("test",), n_resamples=50)
    _assert_coverage(coverage, 150)


def test_recovery_run_level_scores():
    sc = parse_scenario("scores", dict(metric="f1", target=0.85, dev={"gold": 3000}, test={"gold": 3000},
                                       sigma_item=0.8, sigma_e=0.6, sigma_seed=0.05, sigma_shift=0.03))
    covered = []
    for r in range(40):
        batch = simulate_models(sc, "A", 0, 40, 7000 + r)
        fit = fit_scores({"dev": batch.psi["dev"], "test": batch.psi["test"]}, metric="f1",
                         sizes={"dev": 3000, "test": 3000}, rng=r)
        covered.append([fit.parameters[name].covers(value) for name, value in
                        (("target", 0.85), ("sigma_item", 0.8), ("sigma_e", 0.6), ("sigma_seed", 0.05),
                         ("sigma_shift", 0.03), ("dev_offset", 0.0))])
    _assert_coverage(dict(zip(("target", "sigma_item", "sigma_e", "sigma_seed", "sigma_shift", "dev_offset"),
                              np.mean(covered, axis=0))), 40)


def test_fitted_scenario_is_a_valid_config_entry():
    sc = parse_scenario("x", dict(metric="accuracy", target=0.8, dev={"items": 300}, test={"items": 400},
                                  sigma_item=0.8, sigma_e=0.6, sigma_seed=0.1, clusters={"size": 10, "sigma_c": 0.3}))
    batch = simulate_models(sc, "A", 0, 6, 11, keep_outcomes=("dev", "test"))
    clusters = {p: make_item_set(sc, p, 11).cluster for p in ("dev", "test")}
    fit = fit_outcomes(dict(batch.outcomes), clusters, n_resamples=50)
    scenario = fit.scenario("mine")
    assert scenario.origin == "fitted"
    assert (scenario.dev.items, scenario.test.items) == (300, 400)
    assert scenario.clusters.size == 10
    assert scenario.latent_scale == pytest.approx(1.0, abs=2e-4)
    text = fit.to_yaml("mine")
    assert "ASSUMED" not in text and "sigma_c" in text and text.count("[") >= 7


def test_fit_errors_name_the_problem():
    good = np.random.default_rng(0).integers(0, 2, (5, 50))
    with pytest.raises(FitError, match="at least 3 runs"):
        fit_outcomes({"test": good[:2]})
    with pytest.raises(FitError, match="0 or 1"):
        fit_outcomes({"test": good * 2})
    constant = good.copy()
    constant[1] = 1
    with pytest.raises(FitError, match="run 1 has all items correct or all wrong"):
        fit_outcomes({"test": constant})
    with pytest.raises(FitError, match=r"test score of run 2 must lie in \(0, 1\), got nan$"):
        fit_scores({"test": [0.8, 0.81, float("nan"), 0.79]}, sizes={"test": 100})
    with pytest.raises(FitError, match="the test split's size"):
        fit_scores({"test": [0.8, 0.81, 0.82, 0.79]}, sizes={})


# --------------------------------------------------------------------------- real runs
def _assert_reproduced(check: pd.DataFrame, statistics: set):
    judged = check[check.statistic.isin(statistics)]
    assert set(judged.statistic) == statistics
    assert judged.within.all(), judged.to_string()


def test_sklearn_digits_runs_are_reproduced():
    table = pd.read_csv(DIGITS)
    outcomes = {s: part.pivot(index="seed", columns="item", values="correct").to_numpy()
                for s, part in table.groupby("split")}
    fit = fit_outcomes(outcomes, rng=1)
    observed = run_statistics({s: y.mean(axis=1) for s, y in outcomes.items()}, None, outcomes)
    check = reproduction_check(fit, observed, runs=20, item_level=True, replicates=100)
    _assert_reproduced(check, {"dev_sd", "test_sd", "dev_test_correlation", "run_pair_agreement"})


def test_ukp_ner_runs_are_reproduced():
    table = pd.read_csv(UKP, sep="\t", dtype=str)
    table = table[table.Dataset == "conll2003_ner.pkl"].copy()
    table["Decoder"] = table["Decoder"].str.replace("['CRF']", "CRF", regex=False)
    settings = [c for c in table.columns if c not in ("ID", "Dev_F1", "Test_F1", "Max_Test_F1", "OptimalEpoch",
                                                      "Epochs")]
    table["config"] = table[settings].fillna("").agg("|".join, axis=1)
    counts = table.config.value_counts()
    table = table[table.config.isin(sorted(counts[counts >= 3].index)[:40])]     # 40 configurations, 3-6 seeds
    scores = {"dev": table.Dev_F1.astype(float).to_numpy(), "test": table.Test_F1.astype(float).to_numpy()}
    groups = table.config.to_numpy()
    fit = fit_scores(scores, metric="f1", sizes={"dev": 5942, "test": 5648}, groups=groups)   # CoNLL 2003 entities
    observed = run_statistics(scores, groups)
    check = reproduction_check(fit, observed, runs=len(table), groups=groups, item_level=False, replicates=60)
    _assert_reproduced(check, {"dev_sd", "test_sd", "dev_test_correlation"})


def _test_size(accuracies: np.ndarray) -> int:
    """The smallest test-set size on which every accuracy is a whole number of items (within 1e-6)."""
    return next(n for n in range(2, 20_000) if np.all(np.abs(accuracies * n - np.round(accuracies * n)) < 1e-6 * n))


@pytest.mark.parametrize("task", ["rte", "mrpc", "boolq"])
def test_ibm_fine_tuning_runs_are_reproduced(task):
    table = pd.read_csv(IBM, sep="\t")
    acc = table.loc[table["dataset name"] == task, "accuracy"].to_numpy()
    n = _test_size(acc)
    assert n == {"rte": 277, "mrpc": 408, "boolq": 3270}[task]      # the GLUE/SuperGLUE validation sets' sizes
    fit = fit_scores({"test": acc}, sizes={"test": n})
    assert fit.parameters["sigma_item"].basis == "assumed"
    check = reproduction_check(fit, run_statistics({"test": acc}), runs=acc.size, item_level=False, replicates=100)
    _assert_reproduced(check, {"test_sd", "test_mean"})
