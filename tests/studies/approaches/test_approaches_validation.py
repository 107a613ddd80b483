"""The approach-level validation study: settings, one simulated cell against alpha, summaries."""
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from simstats.sim.scenario import ScenarioError
from simstats.studies.approaches.validation import (STUDY_TESTS, known_variance_rows, parse_approach_study,
                                                    planner_check, replicate_tests, seed_score_tests,
                                                    simulate_variant, summarise, which_test_table)
from simstats.stats.power import components_from_mean_squares, power

ROOT = Path(__file__).resolve().parents[3]
RAW = yaml.safe_load((ROOT / "config/config.yaml").read_text())["scenarios"]


def settings(**over):
    value = {"seeds": [10], "items": [500], "replicates": 200, "n_resamples": 300,
             "variants": {"interaction": {"clusters": None, "sigma_approach_item": 0.5}}}
    value.update(over)
    return parse_approach_study(value, RAW)


def test_defaults_and_one_line_errors():
    s = parse_approach_study({}, RAW)
    assert s.base == "clustered" and s.seeds == (2, 3, 5, 10, 20) and s.items == (500, 2000)
    assert s.variant_names == ("plain", "interaction", "clustered_interaction")
    plain = s.scenario("plain", 500, "identical")
    assert plain.clusters is None and plain.sigma_approach_item == 0 and plain.test.items == 500
    alt = s.scenario("clustered_interaction", 2000, "difference")
    assert alt.clusters is not None and alt.sigma_approach_item == 0.5
    assert [a.difference for a in alt.approaches] == [0.0, 0.02]
    with pytest.raises(ScenarioError, match=r"approaches\.scenario: unknown scenario 'nope'"):
        parse_approach_study({"scenario": "nope"}, RAW)
    with pytest.raises(ScenarioError, match=r"approaches\.scenario: 'failure_tail' must use metric accuracy"):
        parse_approach_study({"scenario": "failure_tail"}, RAW)
    with pytest.raises(ScenarioError, match=r"approaches\.variants\.bad: .*sigma_approach_item: must be >= 0"):
        parse_approach_study({"variants": {"bad": {"sigma_approach_item": -1}}}, RAW)
    with pytest.raises(ScenarioError, match=r"approaches\.seeds"):
        parse_approach_study({"seeds": [1]}, RAW)


def test_seed_only_tests_reject_too_often_under_interaction_where_both_sources_hold_alpha():
    """Identical approaches in the population with an approach x item interaction: on any one test set
    they differ, so tests over seed scores call them different far beyond alpha; resampling seeds and
    items holds alpha.  200 simulated studies, 10 runs per approach, 500 items; limit alpha + 3 MCSE."""
    s = settings()
    reps = simulate_variant(s, "interaction", root_seed=2024)
    summary = summarise(reps[reps.truth == "identical"], s.alpha)
    rate = summary.set_index("test").rate
    limit = 0.05 + 3 * math.sqrt(0.05 * 0.95 / 200)
    assert rate["approach_both"] <= limit and rate["approach_t"] <= limit
    for test in ("welch", "approach_seeds"):
        assert rate[test] > limit, (test, rate[test])
    # every test ran on every study
    assert len(reps) == 2 * 200 * len(STUDY_TESTS)


def test_same_settings_give_the_same_replicates():
    s = settings(replicates=10, seeds=[3, 5])  # noqa: the k = 3 runs are the first of k = 5
    a = simulate_variant(s, "interaction", root_seed=7)
    b = simulate_variant(s, "interaction", root_seed=7)
    pd.testing.assert_frame_equal(a, b)
    # k = 3 uses the first three runs of the k = 5 study: Welch on those scores by hand
    from scipy import stats

    from simstats.sim.noise import make_item_set, simulate_models
    from simstats.sim.scenario import SPLITS
    sc = s.scenario("interaction", 500, "identical")
    items = {sp: make_item_set(sc, sp, 7, "approaches", dataset=0) for sp in SPLITS}
    scores = [simulate_models(sc, name, 0, 3, 7, stream="approaches", dataset=0, item_sets=items).psi["test"]
              for name in ("A", "B")]
    row = a[(a.truth == "identical") & (a.replicate == 0) & (a.seeds == 3) & (a.test == "welch")]
    assert float(row.value.iloc[0]) == pytest.approx(stats.ttest_ind(*scores, equal_var=False).pvalue, abs=1e-12)


def test_summary_rates_mcse_and_alpha_rule():
    rows = [{"variant": "v", "items": 100, "seeds": 3, "truth": "identical", "replicate": r, "test": "welch",
             "value": 0.0, "reject": r < 12} for r in range(100)]
    rows += [{"variant": "v", "items": 100, "seeds": 3, "truth": "identical", "replicate": r, "test": "approach_both",
              "value": 0.0, "reject": r < 5} for r in range(100)]
    summary = summarise(pd.DataFrame(rows), 0.05)
    welch = summary[summary.test == "welch"].iloc[0]
    assert welch.rate == 0.12 and welch.mcse == pytest.approx(math.sqrt(0.12 * 0.88 / 100))
    assert not welch.holds_alpha                       # 0.12 > 0.05 + 3 * 0.0218 = 0.115
    assert summary[summary.test == "approach_both"].iloc[0].holds_alpha
    table = which_test_table(summary)
    assert list(table.test) == ["welch", "approach_both"]          # in TESTS order
    assert table.set_index("test").max_false_positive["welch"] == 0.12


def test_known_variance_benchmark_uses_the_null_cells_sd():
    """Null differences 0, ±1, ±2 (sd 1.58): |d| / sd > z_0.975 = 1.96 rejects 4 and 5, not 3 (1.90)."""
    null = [0.0, 1.0, -1.0, 2.0, -2.0]
    rows = [{"variant": "v", "items": 100, "seeds": 3, "truth": truth, "replicate": r, "test": "approach_t",
             "value": 0.5, "difference": d, "reject": False}
            for truth, values in (("identical", null), ("difference", [4.0, 3.0, 1.0, 0.5, 5.0]))
            for r, d in enumerate(values)]
    out = known_variance_rows(pd.DataFrame(rows), 0.05)
    sd = float(np.std(null, ddof=1))
    assert set(out.test) == {"known_variance"}
    assert out.reject.tolist() == [abs(d) / sd > 1.959963984540054 for d in null + [4.0, 3.0, 1.0, 0.5, 5.0]]
    assert out.reject.tolist()[5:] == [True, False, False, False, True]
    summary = summarise(pd.DataFrame(rows), 0.05).set_index(["test", "truth"])
    assert summary.loc[("known_variance", "difference"), "rate"] == 0.4


def test_planner_check_predicts_from_the_most_seeds_and_reads_small_studies_as_pilots():
    """Hand-made studies: the prediction uses the mean squares averaged over the 10-seed studies; each
    3-seed study is a pilot whose interval is checked against the simulated rate's interval."""
    s = settings(seeds=[3, 10], items=[100])
    rng = np.random.default_rng(0)
    rows = []
    for k in (3, 10):
        for truth in ("identical", "difference"):
            for r in range(40):
                rows.append({"variant": "interaction", "items": 100, "seeds": k, "truth": truth, "replicate": r,
                             "test": "approach_t", "value": rng.random() * (0.2 if truth == "difference" else 1),
                             "difference": 0.0, "ms_runs": 0.05 * rng.chisquare(2 * k - 2) / (2 * k - 2),
                             "ms_units": 0.004 + 0.001 * rng.random(), "ms_residual": 0.15, "units": 100})
    reps = pd.DataFrame(rows)
    check = planner_check(reps, s).set_index("seeds")
    top = reps[reps.seeds == 10][["ms_runs", "ms_units", "ms_residual"]].mean()
    truth = components_from_mean_squares(*top, runs=(10, 10), items=100)
    for k in (3, 10):
        assert check.loc[k, "predicted_power"] == pytest.approx(float(power(truth, k, 100, s.difference)))
        cell = reps[(reps.seeds == k) & (reps.truth == "difference")]
        assert check.loc[k, "simulated_power"] == float((cell.value < 0.05).mean())
    assert check.pilots.tolist() == [80, 80] and 0 <= check.loc[3, "pilot_coverage"] <= 1
    # a pilot whose interval misses the simulated rate lowers the coverage: all pilots far too noisy
    noisy = reps.assign(ms_runs=np.where(reps.seeds == 3, 50.0, reps.ms_runs))
    assert planner_check(noisy, s).set_index("seeds").loc[10, "pilot_coverage"] == 0.0


def test_aso_rejection_uses_the_observed_better_approach():
    rng = np.random.default_rng(0)
    k, n = 5, 300
    correct = np.concatenate([rng.random((k, n)) < 0.6, rng.random((k, n)) < 0.9])
    unit = np.stack([correct, np.ones_like(correct)], -1).astype(float)
    scores = unit[..., 0].mean(axis=1)
    out = replicate_tests(unit, scores, k, 200, np.random.default_rng(1))
    assert out["aso_0.5"] == out["aso_0.2"] and out["aso_0.2"] < 0.2       # B clearly better: eps_min near 0
    assert out["approach_both"] < 0.05 and out["welch"] < 1e-6


def _bits(x):
    return np.asarray(x, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize("k", [3, 5, 8, 9, 20])
def test_seed_score_tests_are_one_scipy_call_per_row_bit_for_bit(k):
    """Rows with ties, without ties and with all scores equal, on both sides of scipy's exact /
    asymptotic switch (at most 8 scores per side): the p-values of one scipy call per row, to the bit."""
    from scipy import stats

    rng = np.random.default_rng(k)
    a = rng.normal(0.8, 0.01, (60, k))
    b = rng.normal(0.8, 0.01, (60, k))
    a[::3] = np.round(a[::3], 2)            # ties within and across the two samples
    b[::3] = np.round(b[::3], 2)
    a[1], b[1] = 0.8, 0.8                   # all scores equal
    welch, mannwhitney = seed_score_tests(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w_ref = [stats.ttest_ind(x, y, equal_var=False).pvalue for x, y in zip(a, b)]
        m_ref = [stats.mannwhitneyu(x, y, alternative="two-sided").pvalue for x, y in zip(a, b)]
    np.testing.assert_array_equal(_bits(welch), _bits(w_ref))
    np.testing.assert_array_equal(_bits(mannwhitney), _bits(m_ref))
    if k <= 8:
        # the grouping matters: one call on all rows would take the asymptotic method for the rows without ties
        together = stats.mannwhitneyu(a, b, axis=1, alternative="two-sided").pvalue
        assert not np.array_equal(_bits(together), _bits(m_ref))


def test_simulate_variant_rows_are_replicate_tests_bit_for_bit():
    """The study runs Welch and Mann-Whitney U after all its replicates (Mann-Whitney U on all at once):
    every row is still what replicate_tests gives for that replicate alone."""
    from simstats.sim.noise import make_item_set, simulate_models
    from simstats.sim.scenario import SPLITS
    from simstats.sim.seeding import generator
    from simstats.studies.approaches.validation import STREAM
    from simstats.sim.noise import unit_statistics

    s = settings(replicates=10, seeds=[3, 10], n_resamples=100)
    got = simulate_variant(s, "interaction", root_seed=11)
    for truth in ("identical", "difference"):
        sc = s.scenario("interaction", 500, truth)
        for r in (0, 3, 9):
            items = {sp: make_item_set(sc, sp, 11, STREAM, dataset=r) for sp in SPLITS}
            batches = [simulate_models(sc, name, r * 1000, r * 1000 + 10, 11, stream=STREAM, dataset=r,
                                       item_sets=items, keep_unit_stats=("test",)) for name in ("A", "B")]
            unit = np.concatenate([unit_statistics(b.unit_stats["test"], "accuracy") for b in batches])
            scores = np.concatenate([b.psi["test"] for b in batches])
            for k in (3, 10):
                want = replicate_tests(unit, scores, k, 100, generator(11, STREAM, "interaction", 500, truth, r, k))
                rows = got[(got.truth == truth) & (got.replicate == r) & (got.seeds == k)]
                assert list(rows.test) == list(STUDY_TESTS)
                np.testing.assert_array_equal(_bits(rows.value), _bits([want[t] for t in STUDY_TESTS]))


def test_corrected_bootstrap_row_is_approach_t_test_with_the_bootstrap_variance():
    """The study's corrected-bootstrap p-value, from the seeds x items bootstrap it already ran, is
    approach_t_test(variance="bootstrap") on the same runs with the same generator state; unpaired and
    paired seeds."""
    from simstats import accuracy, approach_t_test, approach_bootstrap
    from simstats.studies.approaches.validation import corrected_bootstrap_pvalue

    rng = np.random.default_rng(4)
    k, n = 4, 250
    item = rng.normal(0, 1, n)
    shared = rng.normal(0, 0.2, (1, k, 1))
    latent = item + np.vstack([shared[0], shared[0]]) + rng.normal(0, 0.1, (2 * k, 1)) + rng.normal(0, 0.8, (2 * k, n))
    correct = (latent > -0.8).astype(float)
    stats = np.stack([correct, np.ones_like(correct)], axis=2)
    labels = np.array(["A"] * k + ["B"] * k)
    for paired in (False, True):
        seeds = np.r_[0:k, 0:k] if paired else None
        boot = approach_bootstrap(stats, accuracy, labels, seeds, n_resamples=500, confidence_level=None, rng=9,
                                  paired_seeds=paired)
        direct = approach_t_test(stats, accuracy, labels, seeds, paired_seeds=paired, variance="bootstrap",
                                 n_resamples=500, rng=9, confidence_level=None)
        got = corrected_bootstrap_pvalue(stats, k, None, boot.variance, paired)
        assert got == pytest.approx(direct.pvalue, rel=1e-9)
        assert direct.paired_seeds == paired and "corrected bootstrap variance" in direct.method


def test_paired_variant_pairs_the_approach_level_tests():
    """A variant with seed_sharing > 0: the approach t-test and the pilot's mean squares read the seeds
    as paired (what approach_t_pvalue and pilot_mean_squares give with paired=True on the same runs)."""
    from simstats.sim.noise import make_item_set, simulate_models, unit_statistics
    from simstats.sim.scenario import SPLITS
    from simstats.studies.approaches.validation import STREAM, approach_t_pvalue, pilot_mean_squares

    s = settings(replicates=10, seeds=[3], n_resamples=100,
                 variants={"paired": {"clusters": None, "sigma_seed": 0.13, "seed_sharing": 0.8}})
    rows = simulate_variant(s, "paired", root_seed=5, replicates=range(2))
    sc = s.scenario("paired", 500, "identical")
    assert sc.seed_sharing == 0.8
    for r in range(2):
        items = {sp: make_item_set(sc, sp, 5, STREAM, dataset=r) for sp in SPLITS}
        batches = [simulate_models(sc, name, r * 1000, r * 1000 + 3, 5, stream=STREAM, dataset=r, item_sets=items,
                                   keep_unit_stats=("test",)) for name in ("A", "B")]
        unit = np.concatenate([unit_statistics(b.unit_stats["test"], "accuracy") for b in batches])
        row = rows[(rows.test == "approach_t") & (rows.truth == "identical") & (rows.replicate == r)].iloc[0]
        assert row.value == approach_t_pvalue(unit, 3, None, paired=True) != approach_t_pvalue(unit, 3, None)
        assert row.ms_runs == pilot_mean_squares(unit, 3, None, paired=True)["ms_runs"]


def test_report_section_splits_the_size_check_at_the_validated_minimum(tmp_path):
    """The report's overview counts the default test's null cells from k = 3 apart from k = 2 (below the
    validated minimum), counts the needlessly conservative cells, and names the tests that hold alpha in
    every null cell from k = 3."""
    from simstats.studies.approaches.report_section import validation_section

    s = settings(replicates=10, seeds=[2, 3], n_resamples=100)
    summary = summarise(simulate_variant(s, "interaction", root_seed=3), 0.05)
    summary.loc[(summary.test == "approach_t") & (summary.seeds == 2) & (summary.truth == "identical"),
                ["rate", "holds_alpha"]] = [0.5, False]                    # a k = 2 miss
    (tmp_path / "approaches").mkdir()
    summary.to_csv(tmp_path / "approaches/validation.csv", index=False)
    which_test_table(summary).to_csv(tmp_path / "approaches/which_test.csv", index=False)
    lines, overview = validation_section(tmp_path, tmp_path, ".")
    rows = {r["check"]: (r["agrees"], r["misses"], r["checked"]) for r in overview}
    key = "approach t-test over seeds x items (default), k >= 3 runs per approach: size under the null (alpha + 3 MCSE)"
    assert rows[key][2] == 1 and sum(rows[key][:2]) == 1                 # the one k = 3 null cell
    below = "approach t-test over seeds x items (default), k < 3 (below the t-test's validated minimum): size under " \
            "the null (alpha + 3 MCSE)"
    assert rows[below] == (0, 1, 1)
    assert any(line.startswith("From k = 3 runs per approach on") for line in lines)
