"""The "what can I trust" pages: the simulated comparisons at a scenario's own parameters.  Two runs of equal
ability make a true null for the tests of two runs even when the seed effect is large (one run per approach does
not: Reimers & Gurevych's point); rates carry binomial MCSEs; the minimum detectable difference is the planner's
closed form at the pooled components."""
import dataclasses
import math

import pytest

from simstats.sim.scenario import parse_scenario
from simstats.stats.power import components_from_mean_squares, minimum_detectable_difference
from simstats.studies.trust.page import scenario_page
from simstats.studies.trust.settings import TrustSettings
from simstats.studies.trust.simulate import minimum_detectable, simulate_scenario, summarise, with_truth

SETTINGS = TrustSettings(scenarios=("seedy",), seeds=(3,), difference=0.02, mdd_seeds=(3, 10), mdd_items=(1.0, 2.0),
                         replicates=120, n_resamples=199, alpha=0.05)


@pytest.fixture(scope="module")
def seedy():
    """Seed effect dominant (fine-tuning): single runs of identical approaches differ 'significantly' often."""
    return parse_scenario("seedy", {"metric": "accuracy", "target": 0.75, "dev": {"items": 300},
                                    "test": {"items": 400}, "sigma_item": 0.8, "sigma_e": 0.6, "sigma_seed": 0.2})


@pytest.fixture(scope="module")
def replicates(seedy):
    return simulate_scenario(seedy, SETTINGS, 7, range(SETTINGS.replicates))


def test_two_runs_of_equal_ability_are_a_true_null_and_single_runs_of_approaches_are_not(replicates):
    summary = summarise(replicates, SETTINGS.alpha).set_index(["truth", "family", "test"])
    n = SETTINGS.replicates
    band = 3 * math.sqrt(0.05 * 0.95 / n)
    for test in ("paired_bootstrap", "randomization", "mcnemar"):
        assert summary.loc[("identical", "runs", test), "rate"] <= 0.05 + band, test
    # the seed sd of the test score (about 0.06) dwarfs the test set's noise: one run each is 'significant' often
    assert summary.loc[("identical", "approaches", "single_run"), "rate"] > 0.3
    assert summary.loc[("identical", "approaches", "approach_t"), "rate"] <= 0.05 + band
    # the two-proportion z-test takes correlated outcomes as independent: conservative
    assert summary.loc[("identical", "runs", "two_proportion_z"), "rate"] < summary.loc[
        ("identical", "runs", "mcnemar"), "rate"] + 1e-12


def test_rates_have_binomial_mcse(replicates):
    summary = summarise(replicates, SETTINGS.alpha)
    row = summary[(summary.test == "approach_t") & (summary.truth == "difference")].iloc[0]
    cell = replicates[(replicates.test == "approach_t") & (replicates.truth == "difference")]
    p = cell.reject.mean()
    assert row.rate == pytest.approx(p) and row.mcse == pytest.approx(math.sqrt(p * (1 - p) / len(cell)))
    assert row.difference == SETTINGS.difference          # the scenario gives none: the study's default


def test_minimum_detectable_difference_is_the_planners_at_the_pooled_components(replicates, seedy):
    mdd = minimum_detectable(replicates, seedy, SETTINGS)
    pilots = replicates.dropna(subset=["ms_runs"]).drop_duplicates("replicate")
    comp = components_from_mean_squares(pilots.ms_runs.mean(), pilots.ms_units.mean(), pilots.ms_residual.mean(),
                                        runs=(3, 3), items=400)
    for _, row in mdd.iterrows():
        assert row.mdd == pytest.approx(minimum_detectable_difference(comp, int(row.seeds), int(row.units)))
        assert 0 < row.mcse < row.mdd
    ten = mdd.set_index(["seeds", "units"]).mdd
    assert ten[(10, 400)] < ten[(3, 400)] and ten[(3, 800)] <= ten[(3, 400)]


def test_with_truth_sets_b_only():
    sc = parse_scenario("x", {"metric": "accuracy", "target": 0.8, "dev": {"items": 10}, "test": {"items": 10},
                              "approaches": {"A": {"difference": 0.01}, "B": {}}})
    out = with_truth(sc, 0.03)
    assert [(a.name, a.difference) for a in out.approaches] == [("A", 0.0), ("B", 0.03)]


def test_page_states_origin_rates_and_mdd(replicates, seedy):
    summary = summarise(replicates, SETTINGS.alpha)
    page = scenario_page(dataclasses.replace(seedy, origin="fitted"), summary,
                         minimum_detectable(replicates, seedy, SETTINGS), SETTINGS, figure_rel="fig")
    assert "Parameters: fitted to data." in page
    assert "## Two runs on one test set" in page and "## Minimum detectable difference" in page
    assert "▲" in page                          # one run per approach does not hold alpha here
    assert "![False positives and power of each test](fig.png)" in page


def test_reimers_rows_say_power_when_the_approaches_differ():
    from simstats.studies.trust.page import reimers_rows
    import pandas as pd

    sc = parse_scenario("alt", {"metric": "accuracy", "target": 0.8, "dev": {"items": 10}, "test": {"items": 10},
                                "approaches": {"A": {}, "B": {"difference": 0.01}}})
    tables = pd.DataFrame([{"scenario": "alt", "table": "T1_eval1", "quantity": "pct_significant", "n": 1,
                            "estimate": 40.0, "se": 1.0}])
    (what, value), *_ = reimers_rows(tables, sc, None)
    assert "+0.01 apart (the rates are power)" in what and value == "40.0 ± 1.0"
    same = dataclasses.replace(sc, approaches=sc.approaches[:1] + (dataclasses.replace(sc.approaches[1],
                                                                                        difference=0.0),))
    assert reimers_rows(tables.assign(scenario="alt"), same, None)[0][0].startswith("single runs of identical")
