"""Reimers & Gurevych (2018) in the fidelity ledger: tolerances from the paper's own Monte Carlo
error, Delta_max's interval, the dedicated Figure 4 simulation, roles, the checks behind the notes."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from simstats.sim.noise import make_item_set, simulate_models
from simstats.sim.scenario import ScenarioError, parse_scenarios
from simstats.studies.reimers2018 import checks, ledger
from simstats.studies.reimers2018.figure4 import DevLaw, chunk_ranges, figure4_summary, group_abilities, simulate_groups
from simstats.studies.reimers2018.simulate import parse_reimers
from simstats.studies.reimers2018.tables import maximum_interval, paper_comparisons, side_by_side
from simstats.sim.seeding import generator

ROOT = Path(__file__).resolve().parents[3]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
SCENARIOS = parse_scenarios(CONFIG["scenarios"])
SEED = 20181031


# --------------------------------------------------------------------------- Delta_max
def test_maximum_interval_brackets_the_exact_maximum_of_normal_differences():
    """Exact law of the maximum of N half-normals: P(M <= x) = (2 Phi(x) - 1)^N.  The Gumbel fit on 50 block
    maxima gets the lower end within 4 % and is conservative (wider) at the upper end by at most 12 %."""
    n = 50_000
    exact = [stats.norm.isf((1 - p ** (1 / n)) / 2) for p in (0.025, 0.975)]
    draws = [maximum_interval(generator(SEED, "test-max", k).standard_normal(n)) for k in range(20)]
    sd, lo, hi = np.mean(draws, axis=0)
    assert lo == pytest.approx(exact[0], rel=0.04)
    assert exact[1] <= hi <= 1.12 * exact[1]
    true_sd = math.pi / math.sqrt(6) / math.sqrt(2 * math.log(n))   # Gumbel scale of a normal maximum, asymptotic
    assert 0.8 * true_sd < sd < 1.6 * true_sd
    assert all(math.isnan(v) for v in maximum_interval(np.ones(60)[:99]))  # < 2 per block: none
    assert all(math.isnan(v) for v in maximum_interval(np.arange(80.0)))


def _summary(rows):
    base = {"scenario": "x", "reference": "CoNLL 2003 - NER-De", "ci_low": np.nan, "ci_high": np.nan}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_tolerances_are_the_papers_own_monte_carlo_error():
    assert (paper_comparisons("T1_eval1", 1), paper_comparisons("T2_eval2", 50),
            paper_comparisons("F4_eval2_vs_n", 100), paper_comparisons("T4_eval3_eval4", 25)) == (50_000, 1_000, 500, 2_000)
    out = side_by_side(_summary([
        {"table": "T1_eval1", "quantity": "pct_significant", "n": 1, "estimate": 34.75, "se": 0.213, "count": 50_000},
        {"table": "T1_eval1", "quantity": "deltamax_test", "n": 1, "estimate": 3.94, "se": 0.2, "ci_low": 3.5,
         "ci_high": 4.3, "count": 50_000},
        {"table": "T1_eval1", "quantity": "deltamax_test", "n": 1, "estimate": 3.94, "se": 0.2, "ci_low": 3.5,
         "ci_high": 4.3, "count": 3_000, "scenario": "y"}]))
    own = 300 * math.sqrt(0.332 * 0.668 / 50_000) + 0.005      # 3 se of 33.20 % from 50,000 pairs + rounding
    assert out.tolerance_value.iloc[0] == pytest.approx(own, rel=1e-12)
    assert out.verdict.iloc[0] == "misses"                     # Wilson interval 34.33-35.17 vs 32.56-33.84
    assert out.tolerance_value.iloc[1] == pytest.approx(0.6 + 0.005)
    assert out.verdict.iloc[1] == "undetermined"               # 3.5-4.3 against 2.755-3.965
    assert out.verdict.iloc[2].startswith("not comparable")


def test_a_repeated_cell_keeps_the_one_with_more_pairs():
    rows = [{"table": "F4_eval2_vs_n", "quantity": "pct_significant", "n": 100, "estimate": 26.0, "se": 1.96,
             "count": 500},
            {"table": "F4_eval2_vs_n", "quantity": "pct_significant", "n": 100, "estimate": 21.5, "se": 0.46,
             "count": 8_000}]
    out = side_by_side(_summary(rows).assign(reference="CoNLL 2003 - NER-En"))
    assert len(out) == 1 and out["count"].iloc[0] == 8_000
    assert out.tolerance_value.iloc[0] == pytest.approx(300 * math.sqrt(0.2106 * 0.7894 / 500) + 0.005)
    assert out.verdict.iloc[0] == "agrees"


# --------------------------------------------------------------------------- Figure 4 simulation
def test_figure4_groups_do_not_depend_on_the_chunks():
    sc = SCENARIOS["tempeval3_events"]
    whole = simulate_groups(sc, 3, 0, 8, 4, 200, SEED)
    parts = pd.concat([simulate_groups(sc, 3, s, e, 4, 200, SEED) for s, e in chunk_ranges(8, 4, 4)],
                      ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)
    assert whole.pvalue.between(0, 1).all() and (whole.group == np.arange(8)).all()
    # the picked run is the best by dev: its dev score is at least the mean's
    summary = figure4_summary(sc, whole, 0.05)
    assert summary["count"].iloc[0] == 8 and summary.table.iloc[0] == "F4_eval2_vs_n"
    with pytest.raises(ValueError, match="whole blocks"):
        simulate_groups(sc, 3, 2, 6, 4, 200, SEED)


def test_dev_law_matches_item_level_dev_scores():
    """The scalar dev score of the Figure 4 simulation against the item-level simulation of the same runs:
    standardised residuals (psi_dev - mean(theta)) / sd(theta) have mean 0 and sd 1 within Monte Carlo error."""
    sc = SCENARIOS["tempeval3_events"]
    approach = sc.approaches[0].name
    items = {s: make_item_set(sc, s, SEED, "noise") for s in ("dev", "test")}
    batch = simulate_models(sc, approach, 0, 400, SEED, item_sets=items)
    law = DevLaw(sc, approach, items["dev"])
    mean, var = law.moments(batch.abilities.theta + sc.dev_offset)
    z = (batch.psi["dev"] - mean) / np.sqrt(var)
    assert abs(z.mean()) < 4 / math.sqrt(z.size)
    assert z.std(ddof=1) == pytest.approx(1.0, abs=4 / math.sqrt(2 * z.size))


def test_group_abilities_follow_the_mixture():
    sc = SCENARIOS["conll2003_ner_en"]
    theta, delta, low = group_abilities(sc, sc.approaches[0].name, generator(SEED, "test-abilities"), 40_000)
    sd = sc.seed_distribution
    assert low.mean() == pytest.approx(sd.low_prob, abs=4 * math.sqrt(sd.low_prob * (1 - sd.low_prob) / low.size))
    assert delta[~low].std() == pytest.approx(sc.sigma_shift, rel=0.03)
    assert delta[low].mean() == pytest.approx(-sd.low_shift, abs=4 * sc.sigma_shift / math.sqrt(low.sum()))
    assert theta[~low].mean() - theta[low].mean() == pytest.approx(sd.low_theta, abs=5 * sc.sigma_seed / math.sqrt(low.sum()))


def test_figure4_settings_are_checked():
    value = {"n_models": 200, "chunk_size": 100, "tasks": ["tempeval3_events"], "row_size": 10,
             "figure4_n": [1, 2, 5, 10], "table5_n": [1, 5]}
    s = parse_reimers({**value, "figure4_sim": {"task": "tempeval3_events", "groups": 400, "block": 200}}, SCENARIOS)
    assert (s.figure4_task, s.figure4_sim_n, s.figure4_groups) == ("tempeval3_events", (50, 100), 400)
    with pytest.raises(ScenarioError, match=r"reimers\.figure4_sim\.groups: must be a multiple of block \(200\)"):
        parse_reimers({**value, "figure4_sim": {"task": "tempeval3_events", "groups": 300}}, SCENARIOS)
    with pytest.raises(ScenarioError, match=r"reimers\.figure4_sim\.task: 'iid' is not one of the evaluated tasks"):
        parse_reimers({**value, "figure4_sim": {"task": "iid"}}, SCENARIOS)


# --------------------------------------------------------------------------- roles and claims
def _tables():
    rows = [("T5_delta95_means", "n3", 3, 0.94, 0.92, 0.099), ("T5_delta95_means", "n20", 20, 0.37, 0.355, 0.042),
            ("T4_eval3_eval4", "eval3_welch_pct", 25, 4.83, 5.35, 1.44),
            ("F4_eval2_vs_n", "pct_significant", 50, math.nan, 21.0, math.nan),
            ("F4_eval2_vs_n", "pct_significant", 100, 21.06, 21.5, 5.5)]
    out = []
    for table, q, n, paper, est, tol in rows:
        ref = "CoNLL 2003 - NER-En" if table == "F4_eval2_vs_n" else "CoNLL 2003 - NER-De"
        out.append({"scenario": "s", "reference": ref, "table": table, "quantity": q, "n": n, "estimate": est,
                    "se": 0.4, "ci_low": np.nan, "ci_high": np.nan, "count": 8000, "paper": paper,
                    "role": "prediction", "tolerance": "t", "tolerance_value": tol,
                    "verdict": "no published value" if math.isnan(paper) else "agrees"})
    return pd.DataFrame(out)


def test_ledger_roles_and_claims(tmp_path):
    (tmp_path / "reimers").mkdir()
    _tables().to_csv(tmp_path / "reimers/tables.csv", index=False)
    rows = ledger.ledger_rows(tmp_path)
    by = rows.set_index(["table", "column"])
    assert by.loc[("T5_delta95_means", "n3"), "role"] == "identity"
    # 1.61 / sqrt(3) = 0.930 is within 0.099 of 0.94; 1.61 / sqrt(20) = 0.360 within 0.042 of 0.37
    assert "0.930 is inside" in by.loc[("T5_delta95_means", "n3"), "note"]
    assert "(2 of 2 Table 5 cells" in by.loc[("T5_delta95_means", "n20"), "note"]
    assert by.loc[("T4_eval3_eval4", "eval3_welch_pct"), "role"] == "validation"
    flat = by.loc[("claims", "figure4_change_n50_to_n100")]
    assert flat.ours == pytest.approx(0.5) and flat.mcse == pytest.approx(math.hypot(0.4, 0.4))
    assert flat.published == pytest.approx(-0.66)
    zeta = rows[rows.column == "two_zeta_over_t2_delta95"]
    assert set(zeta.role) == {"self-consistency"} and len(zeta) >= 1
    assert not rows.duplicated(["paper", "table", "row", "column", "item"]).any()


# --------------------------------------------------------------------------- checks
def test_implied_rate_is_five_percent_when_the_threshold_is_delta95():
    for reading, (z_band, z_thr) in checks.READINGS.items():
        tau = 1.2 * z_band / z_thr          # threshold z_thr * tau / z_band = 1.2 = Delta95 * 1.96 / 1.96
        assert checks.implied_rate(tau, 1.2, reading) == pytest.approx(5.0, rel=1e-9)
    assert checks.TAU_Z_TWO_SIDED > checks.TAU_Z


def test_implied_significance_gives_a_verdict_per_missed_row():
    implied = [checks.implied_rate(0.78, 1.61, k) for k in ("one-sided", "two-sided")]
    rows = pd.DataFrame({"row": ["CoNLL 2003 - NER-De"] * 2, "ours": [np.mean(implied), 30.0], "mcse": [0.01, 0.01],
                         "tolerance": [0.64, 0.64], "published": [33.2, 33.2]}, index=[7, 9])
    out = checks.implied_significance(None, rows, Path("."))
    assert out["verdicts"] == {7: "agrees", 9: "misses"}
    assert out["mixed"] == 2 and out["tasks"] == 2      # 33.2 lies between the mixed and the consistent readings


def test_dev_delta95_closed_form():
    part = [{"weight": 1.0, "mean_dev": 0.9, "var_dev": 0.002**2}]
    assert checks.dev_delta95(part, 1) == pytest.approx(100 * 1.959964 * math.sqrt(2) * 0.002, rel=1e-3)
    rng = generator(SEED, "test-dev95")
    best = rng.normal(0.9, 0.002, size=(2, 40_000, 50)).max(axis=2)
    simulated = 100 * np.quantile(np.abs(best[0] - best[1]), 0.95)
    assert checks.dev_delta95(part, 50) == pytest.approx(simulated, rel=0.03)
    assert checks.dev_delta95(part, 50, 0.002**2) == pytest.approx(math.sqrt(2) * checks.dev_delta95(part, 50),
                                                                   rel=1e-3)
