"""The instance-level noise model against closed forms, with tolerances from MCSEs."""
import math

import numpy as np
import pytest
from scipy import stats

import simstats.sim.noise as noise
from simstats.sim.noise import (Population, bivariate_normal_equal_cdf, draw_abilities, make_item_set,
                            simulate_models, theta_quadrature)

SEED = 20260101


@pytest.mark.parametrize("h", [-2.0, -0.3, 0.0, 0.7, 2.5])
@pytest.mark.parametrize("rho", [0.0, 0.3, 0.8, 0.99])
def test_bivariate_equal_cdf_matches_scipy(h, rho):
    ref = stats.multivariate_normal(mean=[0, 0], cov=[[1, rho], [rho, 1]]).cdf([h, h])
    assert bivariate_normal_equal_cdf(h, rho) == pytest.approx(ref, abs=1e-6)


@pytest.mark.parametrize("metric, target", [("accuracy", 0.8), ("recall", 0.7), ("precision", 0.85), ("f1", 0.905)])
def test_mu_reproduces_target(make_scenario, metric, target):
    split = {"items": 10} if metric == "accuracy" else {"gold": 10, "spurious": 7}
    sc = make_scenario(metric=metric, target=target, dev=split, test=split)
    pop = Population(sc)
    assert pop.psi_true(pop.mu("A"), "test") == pytest.approx(target, abs=1e-12)


def test_psi_true_matches_a_large_sample_accuracy(make_scenario):
    n = 400_000
    sc = make_scenario(dev={"items": 10}, test={"items": n}, sigma_item=1.0, sigma_e=0.7,
                       clusters={"size": 1, "sigma_c": 0.4})
    batch = simulate_models(sc, "A", 0, 1, SEED)
    p = float(batch.psi_true["test"][0])
    mcse = math.sqrt(p * (1 - p) / n)
    assert abs(batch.psi["test"][0] - p) < 4 * mcse


def test_psi_true_matches_a_large_sample_f1(make_scenario):
    g, s = 300_000, 200_000
    sc = make_scenario(metric="f1", target=0.75, dev={"gold": 10}, test={"gold": g, "spurious": s},
                       spurious_offset=0.3, sigma_seed=0.05)
    pop = Population(sc)
    batch = simulate_models(sc, "A", 0, 3, SEED)
    truth = batch.psi_true["test"]
    mcse = np.sqrt(pop.x_variance(batch.abilities.theta, "test", within_set=False))
    assert np.all(np.abs(batch.psi["test"] - truth) < 4 * mcse)
    # and Psi_true itself is the metric of the exact rates
    p, q = pop.rates(batch.abilities.theta)
    assert np.allclose(truth, 2 * g * p / (g + g * p + s * q), rtol=1e-13)


def _fixed_model_over_datasets(sc, n_sets):
    """Psi_test - Psi_true of model 0 (sigma_seed = 0) on n_sets independent test sets."""
    x = np.empty(n_sets)
    for d in range(n_sets):
        batch = simulate_models(sc, "A", 0, 1, SEED, dataset=d)
        x[d] = batch.x("test")[0]
    return x


def test_x_has_mean_zero_and_binomial_variance_over_test_sets(make_scenario):
    n, reps = 200, 3000
    sc = make_scenario(dev={"items": 5}, test={"items": n})
    x = _fixed_model_over_datasets(sc, reps)
    p = sc.target
    var = p * (1 - p) / n
    assert abs(x.mean()) < 4 * math.sqrt(var / reps)
    # sd of a sample variance of (near-)normal data: var * sqrt(2 / (reps - 1))
    assert abs(x.var(ddof=1) - var) < 4 * var * math.sqrt(2 / (reps - 1))
    assert Population(sc).x_variance(Population(sc).mu("A"), "test", within_set=False) == pytest.approx(var)


@pytest.mark.parametrize("metric", ["accuracy", "f1"])
def test_within_set_variance_of_x(make_scenario, metric):
    split = {"items": 800} if metric == "accuracy" else {"gold": 800, "spurious": 600}
    sc = make_scenario(metric=metric, target=0.85, dev=split, test=split, sigma_e=0.8)
    pop = Population(sc)
    mu = pop.mu("A")
    m = 3000
    batch = simulate_models(sc, "A", 0, m, SEED)
    # conditional on the realised test set: exact for accuracy, delta method (O(1/n)) for F1
    var = float(pop.x_variance_given_items(mu, make_item_set(sc, "test", SEED))[0])
    slack = 0 if metric == "accuracy" else 0.01 * var
    assert abs(batch.x("test").var(ddof=1) - var) < 4 * var * math.sqrt(2 / (m - 1)) + slack
    # its expectation over test sets is the closed form x_variance(within_set=True)
    cond = np.array([pop.x_variance_given_items(mu, make_item_set(sc, "test", SEED, dataset=d))[0]
                     for d in range(300)])
    assert abs(cond.mean() - pop.x_variance(mu, "test")) < 4 * cond.std(ddof=1) / math.sqrt(cond.size) + slack


def test_r12_matches_closed_form_and_falls_with_sigma_e(make_scenario):
    n = 60_000
    values = []
    for sigma_e in (0.3, 0.6, 1.2, 2.4):
        sc = make_scenario(test={"items": n}, sigma_e=sigma_e)
        batch = simulate_models(sc, "A", 0, 2, SEED, keep_outcomes=("test",))
        y = batch.outcomes["test"].astype(float)
        r = np.corrcoef(y[0], y[1])[0, 1]
        theory = float(Population(sc).pair_correlation(Population(sc).mu("A")))
        # large-sample sd of a correlation <= (1 - r^2) / sqrt(n) ... widened by 4 for the binary case
        assert abs(r - theory) < 4 * (1 - theory**2) / math.sqrt(n) * 2
        values.append(r)
    assert all(a > b for a, b in zip(values, values[1:]))
    assert values[-1] < 0.2 < 0.6 < values[0]


def test_clusters_inflate_variance_by_the_design_effect(make_scenario):
    m, n, reps = 20, 400, 2500
    sc = make_scenario(dev={"items": 5}, test={"items": n}, sigma_e=0.8, clusters={"size": m, "sigma_c": 0.6})
    pop = Population(sc)
    theta = pop.mu("A")
    icc = float(pop.cluster_icc(theta))
    p = sc.target
    deff = 1 + (m - 1) * icc
    expected = p * (1 - p) / n * deff
    x = _fixed_model_over_datasets(sc, reps)
    assert deff > 2.0
    assert abs(x.var(ddof=1) - expected) < 4 * expected * math.sqrt(2 / (reps - 1))
    # ICC cross-check: one model, many items, pairs within a cluster
    big = make_scenario(dev={"items": 5}, test={"items": 200_000}, sigma_e=0.8, clusters={"size": 2, "sigma_c": 0.6})
    y = simulate_models(big, "A", 0, 1, SEED, keep_outcomes=("test",)).outcomes["test"][0].reshape(-1, 2).astype(float)
    assert abs(np.corrcoef(y[:, 0], y[:, 1])[0, 1] - icc) < 4 / math.sqrt(100_000)


def test_chunk_and_block_invariance(make_scenario, monkeypatch):
    sc = make_scenario(metric="f1", target=0.9, dev={"gold": 300, "sentences": 120},
                       test={"gold": 400, "sentences": 150}, sigma_seed=0.05, sigma_shift=0.02,
                       clusters={"size": 10, "sigma_c": 0.3},
                       seed_distribution={"family": "failure_mixture", "failure_prob": 0.2, "failure_shift": -1})
    whole = simulate_models(sc, "B", 0, 300, SEED, keep_unit_stats=True, keep_outcomes=("dev", "test"))
    monkeypatch.setattr(noise, "MODEL_BLOCK", 7)
    parts = [simulate_models(sc, "B", a, b, SEED, keep_unit_stats=True, keep_outcomes=("dev", "test"))
             for a, b in ((0, 1), (1, 130), (130, 300))]
    for split in ("dev", "test"):
        assert np.array_equal(whole.psi[split], np.concatenate([p.psi[split] for p in parts]))
        assert np.array_equal(whole.psi_true[split], np.concatenate([p.psi_true[split] for p in parts]))
        assert np.array_equal(whole.outcomes[split], np.concatenate([p.outcomes[split] for p in parts]))
        for stat in ("recalled", "spurious"):
            assert np.array_equal(whole.unit_stats[split][stat],
                                  np.concatenate([p.unit_stats[split][stat] for p in parts]))


def _counts_per_unit(items, rows):
    """Reference per-unit counts of 0/1 rows (models x items), one bincount per row."""
    return np.stack([np.bincount(items.unit, weights=row, minlength=items.n_units) for row in rows])


@pytest.mark.parametrize("metric", ["accuracy", "f1"])
def test_block_buffers_compute_the_item_outcomes_bit_for_bit(make_scenario, metric):
    # the outcome of every model and item, straight from its own generator: 1[sigma_e e + sign theta > t]
    from simstats.sim.seeding import generator

    split_spec = {"items": 300, "sentences": 70} if metric == "accuracy" else \
        {"gold": 200, "spurious": 150, "sentences": 60}
    sc = make_scenario(metric=metric, target=0.75, dev=split_spec, test=split_spec, sigma_seed=0.1,
                       sigma_shift=0.03, sigma_approach_item=0.4)
    start, stop = 11, 11 + 2 * noise.MODEL_BLOCK + 5          # two whole blocks and a part
    batch = simulate_models(sc, "B", start, stop, SEED, keep_unit_stats=True, keep_outcomes=("dev", "test"))
    abil = draw_abilities(sc, "B", np.arange(start, stop), SEED)
    for split in ("dev", "test"):
        items = make_item_set(sc, split, SEED).for_approach("B")
        theta = abil.theta + (abil.delta if split == "test" else 0.0)
        errors = np.stack([generator(SEED, "noise", sc.name, "B", "errors", split, 0, i)
                           .standard_normal(items.n_items, dtype=np.float32) for i in range(start, stop)])
        latent = np.float32(sc.sigma_e) * errors + items.sign.astype(np.float32) * theta[:, None].astype(np.float32)
        outcome = latent > items.threshold
        assert np.array_equal(batch.outcomes[split], outcome)
        positive = "correct" if metric == "accuracy" else "recalled"
        assert np.array_equal(batch.unit_stats[split][positive], _counts_per_unit(items, outcome & items.is_gold))
        if metric != "accuracy":
            assert np.array_equal(batch.unit_stats[split]["spurious"],
                                  _counts_per_unit(items, outcome & ~items.is_gold))


def test_per_unit_writes_into_a_callers_arrays(make_scenario):
    sc = make_scenario(test={"items": 400, "sentences": 90})
    items = make_item_set(sc, "test", SEED)
    mask = np.random.default_rng(3).random((5, items.n_items)) < 0.6
    plain = items.per_unit(mask)
    assert np.array_equal(plain, _counts_per_unit(items, mask))
    counts = np.full((5, items.n_items + 1), 99, np.int64)          # stale values: the first column is reset
    for dtype in (np.uint8, np.uint16, np.int64):
        out = np.empty((5, items.n_units), dtype)
        assert items.per_unit(mask, out=out, counts=counts) is out
        assert np.array_equal(out, plain)
    with pytest.raises(ValueError, match="counts must be int64"):
        items.per_unit(mask, counts=np.empty((5, items.n_items), np.int64))


def test_unit_stats_sum_to_the_scores(make_scenario):
    sc = make_scenario(metric="f1", target=0.8, dev={"gold": 300, "spurious": 200, "sentences": 50},
                       test={"gold": 250, "sentences": 40})
    batch = simulate_models(sc, "A", 0, 20, SEED, keep_unit_stats=True)
    st_ = batch.unit_stats["test"]
    assert st_["recalled"].dtype == np.uint8 or st_["recalled"].dtype == np.uint16
    assert st_["gold"].sum() == 250 and st_["gold"].shape == (40,)
    r, s = st_["recalled"].sum(1).astype(float), st_["spurious"].sum(1).astype(float)
    assert np.allclose(batch.psi["test"], 2 * r / (250 + r + s))


def test_item_sets_are_sorted_by_unit_and_clusters_follow_units(make_scenario):
    sc = make_scenario(dev={"items": 100, "sentences": 30}, test={"items": 90, "sentences": 25},
                       clusters={"size": 4, "sigma_c": 0.5})
    items = make_item_set(sc, "test", SEED)
    assert np.all(np.diff(items.unit) >= 0) and items.n_units == 25
    assert np.array_equal(items.cluster, items.unit // 4)
    assert items.per_unit(np.ones(items.n_items, bool)).sum() == 90


def test_seed_distributions_have_the_stated_moments(make_scenario):
    n = 20_000
    idx = np.arange(n)
    normal = make_scenario(sigma_seed=0.1, sigma_shift=0.05)
    a = draw_abilities(normal, "A", idx, SEED)
    mu = Population(normal).mu("A")
    assert abs(a.theta.mean() - mu) < 4 * 0.1 / math.sqrt(n)
    assert abs(a.theta.std() / 0.1 - 1) < 4 / math.sqrt(2 * n)
    assert abs(a.delta.std() / 0.05 - 1) < 4 / math.sqrt(2 * n)
    skew = make_scenario(sigma_seed=0.1, seed_distribution={"family": "skew_normal", "shape": -5})
    s = draw_abilities(skew, "A", idx, SEED).theta
    assert abs(s.mean() - mu) < 4 * 0.1 / math.sqrt(n) and stats.skew(s) < -0.5
    fail = make_scenario(sigma_seed=0.1, seed_distribution={"family": "failure_mixture", "failure_prob": 0.1,
                                                             "failure_shift": -2.0, "failure_sd": 0.3})
    f = draw_abilities(fail, "A", idx, SEED)
    assert abs(f.failed.mean() - 0.1) < 4 * math.sqrt(0.09 / n)
    # quadrature reproduces the mixture's mean and variance exactly
    nodes, w = theta_quadrature(fail, "A")
    assert w.sum() == pytest.approx(1)
    assert np.sum(w * nodes) == pytest.approx(mu - 0.2, abs=1e-9)
    var = 0.9 * 0.01 + 0.1 * 0.09 + 0.9 * 0.1 * 4.0
    assert np.sum(w * (nodes - (mu - 0.2)) ** 2) == pytest.approx(var, rel=1e-6)
    assert abs(f.theta.mean() - (mu - 0.2)) < 4 * math.sqrt(var / n)


def test_true_difference_between_approaches(make_scenario):
    sc = make_scenario(approaches={"A": {}, "B": {"difference": 0.02}})
    pop = Population(sc)
    assert pop.psi_true(pop.mu("B"), "test") - pop.psi_true(pop.mu("A"), "test") == pytest.approx(0.02, abs=1e-12)


def test_engine_statistics_feed_the_test_engine(make_scenario):
    from simstats.stats.bootstrap import paired_bootstrap
    from simstats.stats.metrics import get_metric

    sc = make_scenario(metric="f1", target=0.85, dev={"gold": 200, "sentences": 60},
                       test={"gold": 300, "sentences": 90}, sigma_seed=0.05)
    batch = simulate_models(sc, "A", 0, 6, SEED, keep_unit_stats=True)
    stats = batch.engine_statistics("test")
    assert stats.shape == (6, 90, 3)
    assert np.allclose(get_metric("f1")(stats.sum(axis=1, dtype=float)), batch.psi["test"])
    res = paired_bootstrap(stats, get_metric("f1"), [(0, 1), (2, 3)], n_resamples=500, rng=1)
    assert np.allclose(res.statistic, batch.psi["test"][[0, 2]] - batch.psi["test"][[1, 3]])


def _given_items_in_item_order(pop, theta, items):
    """Population.given_items as first written (items in their own order, gold selected by mask)."""
    from scipy import special
    from simstats.stats.metrics import metric_from_sums

    sc = pop.scenario
    theta = np.atleast_1d(np.asarray(theta, dtype=float))
    latent = items.sign[None, :] * theta[:, None] - items.threshold[None, :].astype(float)
    rate = (latent > 0).astype(float) if sc.sigma_e == 0 else special.ndtr(latent / sc.sigma_e)
    gold = items.is_gold
    var = rate * (1 - rate)
    R, S = rate[:, gold].sum(1), rate[:, ~gold].sum(1)
    var_r, var_s = var[:, gold].sum(1), var[:, ~gold].sum(1)
    G = int(gold.sum())
    if sc.metric == "accuracy":
        return R / G, var_r / G**2
    mean = metric_from_sums(sc.metric, {"recalled": R, "gold": G, "spurious": S})
    return np.asarray(mean, dtype=float), noise._delta_variance(sc.metric, G, R, S, var_r, var_s)


@pytest.mark.parametrize("metric, sigma_e", [("accuracy", 0.7), ("f1", 0.5), ("precision", 0.0), ("recall", 0.3)])
@pytest.mark.parametrize("k", [1, 2, 5, 16, 41])
def test_given_items_gold_first_is_the_item_order_computation_bit_for_bit(make_scenario, metric, sigma_e, k):
    split = {"items": 3001} if metric == "accuracy" else {"gold": 2100, "spurious": 1700, "sentences": 900}
    sc = make_scenario(metric=metric, target=0.8, dev=split, test=split, sigma_item=1.0, sigma_e=sigma_e)
    pop = Population(sc)
    items = make_item_set(sc, "test", SEED)
    theta = pop.mu("A") + np.linspace(-0.4, 0.3, k)
    for got, want in zip(pop.given_items(theta, items), _given_items_in_item_order(pop, theta, items)):
        assert got.tobytes() == want.tobytes()


def test_seed_sharing_pairs_the_seed_effects_of_a_seed_id(make_scenario):
    """seed_sharing rho: the abilities of the same model index (seed id) in two approaches correlate rho
    (within 4 SE of 20,000 pairs) and each keeps its sd sigma_seed; rho = 0 draws what no sharing draws."""
    n = 20_000
    idx = np.arange(n)
    shared = make_scenario(sigma_seed=0.1, seed_sharing=0.8)
    a, b = (draw_abilities(shared, name, idx, SEED).theta for name in ("A", "B"))
    assert abs(np.corrcoef(a, b)[0, 1] - 0.8) < 4 * (1 - 0.8**2) / math.sqrt(n)
    assert abs(a.std() / 0.1 - 1) < 4 / math.sqrt(2 * n) and abs(b.std() / 0.1 - 1) < 4 / math.sqrt(2 * n)
    unshared = make_scenario(sigma_seed=0.1)
    a0, b0 = (draw_abilities(unshared, name, idx, SEED).theta for name in ("A", "B"))
    assert abs(np.corrcoef(a0, b0)[0, 1]) < 4 / math.sqrt(n)
    assert np.array_equal(draw_abilities(make_scenario(sigma_seed=0.1, seed_sharing=0.0), "A", idx, SEED).theta, a0)
