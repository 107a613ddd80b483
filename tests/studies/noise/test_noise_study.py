import numpy as np
import pandas as pd
import pytest

from scipy import stats

from simstats.sim.closed_forms import implied_values
from simstats.sim.model_tables import phi_correlation, phi_correlation_weighted
from simstats.studies.noise.simulate import STATISTICS, simulate_chunk, summarise, summary_markdown
from simstats.sim.scenario import parse_scenario

SEED = 5


def test_phi_matches_numpy_and_unit_weights_match_unweighted():
    rng = np.random.default_rng(0)
    a = rng.random((6, 300)) < 0.7
    b = (a ^ (rng.random((6, 300)) < 0.2))
    ref = [np.corrcoef(a[i], b[i])[0, 1] for i in range(6)]
    assert np.allclose(phi_correlation(a, b), ref)
    assert np.allclose(phi_correlation_weighted(a, b, np.ones((1, 300)))[:, 0], ref, atol=1e-6)
    # integer weights == repeating items
    w = rng.integers(0, 3, size=300)
    rep = np.repeat(np.arange(300), w)
    assert np.allclose(phi_correlation_weighted(a, b, w[None, :])[:, 0],
                       phi_correlation(a[:, rep], b[:, rep]), atol=1e-6)


def test_chunks_concatenate_to_the_whole():
    sc = parse_scenario("s", {"metric": "f1", "target": 0.8, "dev": {"gold": 200}, "test": {"gold": 300},
                              "sigma_seed": 0.05, "sigma_e": 0.7})
    s_all, p_all = simulate_chunk(sc, SEED, 0, 40)
    parts = [simulate_chunk(sc, SEED, a, b) for a, b in ((0, 10), (10, 30), (30, 40))]
    s_cat = pd.concat([p[0] for p in parts]).sort_values(["approach", "index"]).reset_index(drop=True)
    p_cat = pd.concat([p[1] for p in parts]).sort_values(["approach", "pair"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(s_all.sort_values(["approach", "index"]).reset_index(drop=True), s_cat)
    assert np.array_equal(p_all.sort_values(["approach", "pair"]).r12.to_numpy(), p_cat.r12.to_numpy())
    with pytest.raises(ValueError, match="even"):
        simulate_chunk(sc, SEED, 3, 9)


def test_summary_agrees_with_implied_values():
    sc = parse_scenario("s", {"metric": "accuracy", "target": 0.8, "dev": {"items": 1000}, "test": {"items": 1000},
                              "sigma_seed": 0.05, "sigma_shift": 0.04, "sigma_e": 0.6})
    scores, pairs = simulate_chunk(sc, SEED, 0, 600)
    summary = summarise(sc, scores, pairs, SEED, n_resamples=300)
    assert list(summary.statistic[summary.approach == "A"]) == STATISTICS
    assert summary.se.gt(0).all()
    # 28 z-scores: all within 4 (a false alarm has probability ~ 28 * 6e-5)
    assert summary.z_vs_implied.abs().max() < 4
    assert (summary.ci_low <= summary.estimate).all() and (summary.estimate <= summary.ci_high).all()
    assert "| s | A | pearson_dev_test |" in summary_markdown(summary)


def test_implied_correlation_vanishes_without_seed_variance():
    sc = parse_scenario("s", {"metric": "accuracy", "target": 0.7, "dev": {"items": 100}, "test": {"items": 100},
                              "sigma_seed": 0.0, "sigma_e": 1.0, "sigma_item": 0.0})
    v = implied_values(sc, "A")
    assert v["pearson_dev_test"] == 0 and v["mean_r12"] == pytest.approx(0, abs=1e-12)
    assert v["sd_x_test"] == pytest.approx(np.sqrt(0.7 * 0.3 / 100))


def test_too_few_models_is_an_error():
    sc = parse_scenario("s", {"metric": "accuracy", "target": 0.7, "dev": {"items": 50}, "test": {"items": 50}})
    scores, pairs = simulate_chunk(sc, SEED, 0, 2)
    with pytest.raises(ValueError, match="need >= 3 models"):
        summarise(sc, scores, pairs, SEED, n_resamples=100)


def test_cluster_bootstrap_counts_resample_whole_documents():
    sc = parse_scenario("c", {"metric": "accuracy", "target": 0.8, "dev": {"items": 10}, "test": {"items": 60},
                              "clusters": {"size": 6, "sigma_c": 0.5}})
    from simstats.sim.model_tables import item_resample_counts
    clusters = np.repeat(np.arange(10), 6)
    counts = item_resample_counts(SEED, sc, clusters, n_resamples=50)
    assert counts.shape == (50, 60)
    per_doc = counts.reshape(50, 10, 6)
    assert (per_doc == per_doc[:, :, :1]).all()          # all items of a document share the count
    assert (per_doc[:, :, 0].sum(1) == 10).all()         # 10 documents drawn per replicate
