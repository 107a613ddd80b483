"""simstats compare with several seeds per system (approaches over seeds x items) and simstats plan.

The data follow the issue's example: a 3-class task, 2,000 test items, approach B one accuracy
point better than A.  Item difficulty is shared by every run (P(correct) = easiness_i + the
approach's offset + the run's seed effect) and a wrong prediction is one of the two other classes.
"""
import io
import json
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
from conftest import run_cli, write_table

import simstats
from simstats.stats.approaches import approach_bootstrap
from simstats.stats.power import plan, seeds_items_grid, variance_components

ITEMS = 2000
OFFSET = {"A": 0.0, "B": 0.01}          # B one accuracy point better
SEED_SD = 0.003


def study(rng, seeds, items=ITEMS):
    """One study: (long table, stats (runs, items, 2), approach labels, seed ids), runs A then B by seed."""
    gold = rng.integers(0, 3, items)
    easiness = rng.uniform(0.6, 0.98, items)
    frames, stats, labels, ids = [], [], [], []
    for name, offset in OFFSET.items():
        for s in range(seeds):
            q = np.clip(easiness + offset + rng.normal(0, SEED_SD), 0, 1)
            pred = np.where(rng.random(items) < q, gold, (gold + rng.integers(1, 3, items)) % 3)
            frames.append(pd.DataFrame({"system": name, "seed": s, "item": np.arange(items), "pred": pred,
                                        "y": gold}))
            stats.append(simstats.label_statistics(simstats.accuracy, gold, pred))
            labels.append(name)
            ids.append(s)
    return pd.concat(frames, ignore_index=True), np.stack(stats), np.array(labels), np.array(ids)


def wide(long):
    """The same runs as a wide table: item, y and one column per run (A0..A4, B0..B4)."""
    out = long[(long.system == "A") & (long.seed == 0)][["item", "y"]].reset_index(drop=True)
    for (name, s), g in long.groupby(["system", "seed"]):
        out[f"{name}{s}"] = g.pred.to_numpy()
    return out


@pytest.fixture(scope="module")
def example():
    return study(np.random.default_rng(20161), 5)


run = run_cli
write = write_table


def test_default_is_the_approach_t_test_of_the_library(tmp_path, capsys, example):
    """5 seeds per approach: the default test is approach_t_test; its numbers are the library's."""
    long, stats, labels, ids = example
    code, out, err = run(capsys, "compare", write(tmp_path, long), "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    ref, other = doc["rows"]
    assert [ref["system"], other["system"]] == ["B", "A"] and ref["runs"] == other["runs"] == 5
    assert doc["settings"]["test"] == "approach t-test (approach_t_test)"
    direct = simstats.approach_t_test(stats, simstats.accuracy, labels, ids, approaches=("B", "A"))
    assert direct.paired_seeds and other["paired_seeds"] is True and other["floored"] is False
    for column, value in [("difference", direct.statistic), ("difference_ci_low", direct.confidence_interval.low),
                          ("difference_ci_high", direct.confidence_interval.high), ("pvalue", direct.pvalue),
                          ("df", direct.df), ("var_seeds", direct.variance["seeds"]),
                          ("var_items", direct.variance["units"]), ("var_residual", direct.variance["residual"])]:
        assert other[column] == pytest.approx(value, rel=1e-12), column
    assert other["difference_ci_low"] < other["difference"] < other["difference_ci_high"]


def test_t_test_refuses_what_it_does_not_do(tmp_path, capsys, example):
    long = example[0]
    code, _, err = run(capsys, "compare", write(tmp_path, long), "--test", "t", "--resample", "items")
    assert code == 2 and err == ("simstats: error: --resample items applies to --test bootstrap; the t-test's claim "
                                 "is about new seeds and new test items\n")
    # with one run per system, --test t is the paired t-test over items (scipy's ttest_rel)
    one = long[long.seed == 0]
    code, out, err = run(capsys, "compare", write(tmp_path, one), "--test", "t", "--format", "csv")
    assert code == 0, err
    row = pd.read_csv(io.StringIO(out)).query("role == 'system'").iloc[0]
    right = {name: (g.sort_values("item").pred == g.sort_values("item").y).to_numpy(float)
             for name, g in one.groupby("system")}
    reference = row.reference
    expected = sps.ttest_rel(right[reference], right[row.system])
    assert row.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
    assert row.difference == pytest.approx(right[reference].mean() - right[row.system].mean(), abs=1e-12)
    code, _, err = run(capsys, "compare", write(tmp_path, one), "--test", "t", "--metric", "macro_f1")
    assert code == 2 and "--test t compares means of per-item values" in err and err.count("\n") == 1


def test_bootstrap_gives_one_answer_with_a_ci_equal_to_the_library(tmp_path, capsys, example):
    """--test bootstrap: the CLI's numbers are approach_bootstrap's with the same seed."""
    long, stats, labels, ids = example
    path = write(tmp_path, long)
    code, out, err = run(capsys, "compare", path, "--test", "bootstrap", "--n-resamples", 2000, "--seed", 7,
                         "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    ref, other = doc["rows"]
    assert [ref["system"], other["system"]] == ["B", "A"] and ref["runs"] == other["runs"] == 5
    settings = doc["settings"]
    assert settings["resample"] == "both" and settings["alternative"] == "two-sided"
    assert settings["pvalue_method"] == "shift" and settings["target"] == "new seeds and new test items"
    direct = approach_bootstrap(stats, simstats.accuracy, labels, ids, approaches=("B", "A"), n_resamples=2000,
                                rng=7)
    assert direct.paired_seeds and other["paired_seeds"] is True
    assert other["difference"] == pytest.approx(direct.statistic, rel=1e-12)
    assert other["difference_ci_low"] == pytest.approx(direct.confidence_interval.low, rel=1e-12)
    assert other["difference_ci_high"] == pytest.approx(direct.confidence_interval.high, rel=1e-12)
    assert other["pvalue"] == direct.pvalue
    for source in ("seeds", "items", "residual"):
        assert other[f"var_{source}"] == pytest.approx(direct.variance[source], rel=1e-12)
    assert ref["score"] == pytest.approx(direct.scores[0]) and other["score"] == pytest.approx(direct.scores[1])
    # one answer: B's improvement with a CI around it
    assert other["difference_ci_low"] < other["difference"] < other["difference_ci_high"]
    assert other["difference"] == pytest.approx(0.0115, abs=1e-12)      # measured on this seed (true: 0.01)


def test_header_names_the_convention_and_the_claim(tmp_path, capsys, example):
    path = write(tmp_path, example[0])
    code, out, _ = run(capsys, "compare", path)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("accuracy: approach t-test over seeds x items (method of moments, fitted-components "
                        "reference; paired seeds), correction none over the 1 comparison with the reference; 2000 "
                        "items")
    assert lines[1].startswith("claim: new seeds and new test items")
    assert "p-values two-sided" in lines[2] and "under the fitted variance components" in lines[2]
    assert "| system | role | runs | score | score_sd | reference | difference |" in out and "| df |" in out
    code, out, _ = run(capsys, "compare", path, "--test", "bootstrap", "--n-resamples", 300)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("accuracy: approach bootstrap over seeds x items (--resample both, paired seeds), 300 "
                        "resamples, seed 0, correction none over the 1 comparison with the reference; 2000 items")
    assert lines[1].startswith("claim: new seeds and new test items") and "population of items" in lines[1]
    assert "p-values two-sided" in lines[2] and \
        "shift method (c = replicates with |d* - d| >= |d|: p = (c + 1)/(B + 1))" in lines[2]
    assert "| system | role | runs | score | score_sd | reference | difference |" in out
    code, out, _ = run(capsys, "compare", path, "--n-resamples", 300, "--resample", "seeds")
    assert code == 0 and "this test set" in out.splitlines()[1]


@pytest.mark.parametrize("flag, resample", [("both", ("seeds", "items")), ("items", ("items",)),
                                            ("seeds", ("seeds",))])
def test_resample_maps_to_approach_bootstrap(tmp_path, capsys, example, flag, resample):
    long, stats, labels, ids = example
    path = write(tmp_path, long)
    code, out, _ = run(capsys, "compare", path, "--resample", flag, "--n-resamples", 500, "--seed", 3,
                       "--alternative", "greater", "--format", "json")
    row = json.loads(out)["rows"][1]
    direct = approach_bootstrap(stats, simstats.accuracy, labels, ids, approaches=("B", "A"), resample=resample,
                                alternative="greater", n_resamples=500, rng=3)
    assert code == 0
    assert (row["pvalue"], row["difference_ci_low"], row["difference_ci_high"]) == \
        (direct.pvalue, direct.confidence_interval.low, direct.confidence_interval.high)


def test_wide_approach_columns_equal_the_long_table(tmp_path, capsys, example):
    """--approach with --paired-seeds yes pairs the i-th columns, as the long table's shared seed ids do;
    without it the wide runs are unpaired (seed ids are the column names)."""
    long = example[0]
    w = write(tmp_path, wide(long), "wide.csv")
    approaches = ["--approach", "A=A0,A1,A2,A3,A4", "--approach", "B=B0,B1,B2,B3,B4"]
    _, from_long, _ = run(capsys, "compare", write(tmp_path, long), "--n-resamples", 500, "--format", "csv")
    code, from_wide, err = run(capsys, "compare", w, *approaches, "--paired-seeds", "yes", "--n-resamples", 500,
                               "--format", "csv")
    assert code == 0 and err == "" and from_wide == from_long
    _, unpaired, _ = run(capsys, "compare", w, *approaches, "--n-resamples", 500, "--format", "json")
    assert json.loads(unpaired)["rows"][1]["paired_seeds"] is False


def test_one_run_per_system_keeps_todays_test(tmp_path, capsys, example):
    """A long table with one seed per system gives exactly what the wide table of those columns gives."""
    long = example[0]
    one = long[long.seed == 0]
    w = wide(long)[["item", "y", "A0", "B0"]].rename(columns={"A0": "A", "B0": "B"})
    for fmt in ("table", "json"):
        _, from_long, _ = run(capsys, "compare", write(tmp_path, one), "--n-resamples", 500, "--format", fmt)
        _, from_wide, _ = run(capsys, "compare", write(tmp_path, w, "w.csv"), "--n-resamples", 500, "--format", fmt)
        assert from_long == from_wide
    assert len(json.loads(from_long)["rows"]) == 2 and "Bonett-Price adjusted Wald" in from_long


def test_errors_are_one_line_naming_the_flag_or_column(tmp_path, capsys, example):
    long = example[0]
    cases = [
        (long.drop(columns="seed"), [], "long table: column 'seed' not found"),
        (long.drop(columns="item"), [], "long table: column 'item' not found"),
        (long.drop(index=long.index[(long.system == "B") & (long.seed == 3) & (long.item == 17)]), [],
         "unmatched items across systems: system 'B', seed 3 lacks 1 of the 2000 items (first: 17)"),
        (long[(long.system == "A") | (long.seed == 0)], ["--resample", "both"],
         "approach 'B' has one seed (run): --resample both resamples seeds and needs at least 2 per approach"),
        (wide(long), ["--approach", "A=A0,A1,A9", "--approach", "B=B0,B1"],
         "--approach A: column(s) 'A9' not found (columns: item, y, A0,"),
        (wide(long), ["--approach", "A=A0,A1", "--approach", "B=B0"],
         "approach 'B' has one seed (run): the approach t-test estimates the seed variance and needs at least 2"),
        (long, ["--prediction", "guess"], "long table: prediction column 'guess' (--prediction) not found"),
        (long, ["--test", "randomization"], "--test randomization applies to one run per system"),
    ]
    for frame, extra, message in cases:
        code, out, err = run(capsys, "compare", write(tmp_path, frame), *extra, "--n-resamples", 100)
        assert code == 2 and out == "", message
        assert err.startswith(f"simstats: error: {message}") and err.count("\n") == 1, (message, err)
    code, _, err = run(capsys, "plan", write(tmp_path, long[(long.system == "A") | (long.seed == 0)]))
    assert code == 2 and err.startswith("simstats: error: approach 'B' has one seed (run): the planner needs")
    code, _, err = run(capsys, "plan", write(tmp_path, long), "--seeds", "1,5")
    assert code == 2 and err == "simstats: error: --seeds: every value must be >= 2, got 1\n"


def test_plan_equals_the_library_planner_and_json_parses(tmp_path, capsys):
    long, stats, labels, ids = study(np.random.default_rng(3), 3)
    path = write(tmp_path, long)
    code, out, err = run(capsys, "plan", path, "--seeds", "3,10", "--items", "1000,2000,8000", "--difference", 0.01,
                         "--format", "json")
    assert code == 0
    doc = json.loads(out)
    comp = variance_components(stats, simstats.accuracy, labels, ids)        # the long table's seeds are paired
    expected = plan(comp, seeds=(3, 10), items=(1000, 2000, 8000), difference=0.01)
    assert comp.paired and pd.DataFrame(doc["rows"]).equals(expected)
    s = doc["settings"]
    assert (s["sigma2_seed"], s["sigma2_interaction"], s["sigma2_residual"]) == \
        (comp.seed, comp.interaction, comp.residual)
    assert s["pilot_runs"] == [3, 3] and s["pilot_items"] == ITEMS and s["alpha"] == 0.05
    assert s["target_power"] == 0.8 and s["power_difference"] == 0.01 and s["paired_seeds"] is True
    assert s["items_needed"] == {str(k): (None if math.isnan(n) else int(n)) for k, n in
                                 zip((3, 10), seeds_items_grid(comp, 0.01, seeds=(3, 10)).items_needed)}
    code, out, err = run(capsys, "plan", path)                  # defaults: seeds 3,5,10,20; items n, 2n, 4n
    table = out.split("\n\n", 1)[1]
    assert code == 0 and table.count("\n") == 2 + 4 * 3
    assert "| seeds | items | se | df | mdd | mdd_low | mdd_high | power | power_low | power_high |" in table
    assert "against a true difference of" in out and "the pilot's observed difference" in out
    assert "items needed for 80% power: 3 seeds:" in out
    floored = [c for c in ("seed", "interaction") if c in comp.floored]
    assert ("below 0 and set to 0" in err) == bool(floored)


def test_planned_power_matches_simulated_ten_seed_studies(tmp_path, capsys):
    """`plan` on a 3-seed pilot predicts the power of 10-seed studies of the same process (2,000 items,
    true difference 0.01); 400 simulated studies, each tested as `compare` tests it (the approach t-test,
    paired seed ids): the pilot's 95 % interval of the power covers the simulated power."""
    long, _, _, _ = study(np.random.default_rng(30), 3)
    code, out, _ = run(capsys, "plan", write(tmp_path, long), "--seeds", 10, "--items", ITEMS, "--difference", 0.01,
                       "--format", "json")
    assert code == 0
    row = json.loads(out)["rows"][0]
    rng, R, hits = np.random.default_rng(31), 400, 0
    for r in range(R):
        _, stats, labels, ids = study(rng, 10)
        hits += simstats.approach_t_test(stats, simstats.accuracy, labels, ids).pvalue < 0.05
    simulated = hits / R
    print(f"predicted {row['power']:.3f} [{row['power_low']:.3f}, {row['power_high']:.3f}], simulated {simulated:.3f}")
    assert row["power_low"] <= simulated <= row["power_high"]


@pytest.mark.parametrize("claim, margin", [("non-inferiority", 0.005), ("non-inferiority", 0.001),
                                           ("equivalence", 0.03), ("equivalence", 0.01)])
def test_margin_verdict_and_exit_status_are_the_librarys(tmp_path, capsys, example, claim, margin):
    """--margin/--claim: the row's claim p-value, verdict and --fail-on exit status are those of
    simstats.approach_margin_test (the reference B against A)."""
    long, stats, labels, ids = example
    path = write(tmp_path, long)
    code, out, err = run(capsys, "compare", path, "--margin", margin, "--claim", claim, "--fail-on",
                         "claim-not-shown", "--format", "json")
    direct = simstats.approach_margin_test(stats, simstats.accuracy, labels, ids, approaches=("B", "A"),
                                           margin=margin, hypothesis=claim)
    row = json.loads(out)["rows"][1]
    assert row["claim_pvalue"] == pytest.approx(direct.pvalue, rel=1e-12) and row["claim_shown"] is direct.shown
    assert row["verdict"] == direct.verdict and err == ""
    assert code == (0 if direct.shown else 1)


def test_fail_on_difference_gates_on_the_adjusted_p_value(tmp_path, capsys, example):
    path = write(tmp_path, example[0])
    _, out, _ = run(capsys, "compare", path, "--format", "json")
    p = json.loads(out)["rows"][1]["pvalue_adjusted"]
    assert 0.05 < p < 0.1                                  # measured on this example: 0.057
    code, out, _ = run(capsys, "compare", path, "--fail-on", "difference")
    assert code == 0 and "are not shown to differ" in out
    code, out, _ = run(capsys, "compare", path, "--fail-on", "difference", "--alpha", 0.1)
    assert code == 1 and "B and A differ: adjusted p = 0.057 < 0.1" in out
    for extra, message in [(["--fail-on", "claim-not-shown"], "--fail-on claim-not-shown needs --margin"),
                           (["--margin", "-0.01"], "--margin must be a positive number, got -0.01"),
                           (["--margin", "0.01", "--test", "bootstrap"], "--margin applies to the approach t-test")]:
        code, out, err = run(capsys, "compare", path, *extra)
        assert code == 2 and out == "" and err.startswith(f"simstats: error: {message}"), err


@pytest.mark.parametrize("claim, margin", [("non-inferiority", 0.01), ("non-inferiority", 0.002),
                                           ("equivalence", 0.03), ("equivalence", 0.005)])
def test_one_run_per_system_margin_verdict_and_exit_status_are_the_librarys(tmp_path, capsys, example, claim,
                                                                              margin):
    """One run per system: --margin tests the claim with simstats.paired_margin_test (paired t-test over
    items), the verdict and the exit status of --fail-on follow it; --fail-on difference gates on the
    bootstrap's adjusted p-value."""
    long, stats, labels, ids = example
    one = write(tmp_path, long[long.seed == 0], "one.csv")
    code, out, err = run(capsys, "compare", one, "--margin", margin, "--claim", claim, "--fail-on",
                         "claim-not-shown", "--format", "json", "--n-resamples", 500)
    doc = json.loads(out)
    row = doc["rows"][1]
    ref = 0 if doc["rows"][0]["system"] == "A" else 5
    other = 5 - ref
    direct = simstats.paired_margin_test(stats[[ref, other]], simstats.accuracy, margin=margin, hypothesis=claim,
                                         names=(doc["rows"][0]["system"], row["system"]))
    assert row["claim_pvalue"] == pytest.approx(direct.pvalue, rel=1e-12) and row["claim_shown"] is direct.shown
    assert row["verdict"] == direct.verdict and doc["settings"]["margin"] == margin
    assert code == (0 if direct.shown else 1)
    code, out, _ = run(capsys, "compare", one, "--fail-on", "difference", "--n-resamples", 500, "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == int(rows[1]["pvalue_adjusted"] < 0.05) and rows[1]["verdict"].startswith("A and B" if ref == 0
                                                                                          else "B and A")


def test_variance_bootstrap_is_the_librarys_corrected_bootstrap_t_test(tmp_path, capsys, example):
    """--variance bootstrap: the approach t-test with the crossed-design corrected bootstrap variance;
    its numbers are approach_t_test(variance="bootstrap", rng=--seed); with one run per system it is a
    one-line error."""
    long, stats, labels, ids = example
    path = write(tmp_path, long)
    code, out, _ = run(capsys, "compare", path, "--variance", "bootstrap", "--n-resamples", 500, "--seed", 3,
                       "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["settings"]["variance_estimate"] == "bootstrap" and doc["settings"]["n_resamples"] == 500
    row = doc["rows"][1]
    direct = simstats.approach_t_test(stats, simstats.accuracy, labels, ids, approaches=("B", "A"),
                                      variance="bootstrap", n_resamples=500, rng=3)
    assert row["pvalue"] == pytest.approx(direct.pvalue, rel=1e-12)
    assert row["difference_ci_low"] == pytest.approx(direct.confidence_interval.low, rel=1e-12)
    assert row["var_residual"] == pytest.approx(direct.variance["residual"], rel=1e-12)
    code, out, _ = run(capsys, "compare", path, "--variance", "bootstrap", "--n-resamples", 500)
    assert code == 0 and out.splitlines()[0].startswith(
        "accuracy: approach t-test over seeds x items (corrected bootstrap variance, 500 resamples, seed 0,")
    one = wide(long)[["item", "y", "A0", "B0"]]                       # one run per system
    code, _, err = run(capsys, "compare", write(tmp_path, one), "--variance", "bootstrap")
    assert code != 0 and "--variance applies to approaches compared over several seeds" in err


def test_plan_with_one_run_per_system_is_the_librarys_paired_plan(tmp_path, capsys, example):
    """One run per system (a wide table of two prediction columns): `plan` plans the paired comparison
    of the two runs on new items, with the numbers of simstats.stats.power.paired_plan; --rates plans
    it from accuracies and the disagreement rate; few differing items give a warning."""
    from simstats.stats.power import paired_item_variance, paired_item_variance_from_rates, paired_plan

    long, stats, labels, ids = example
    one = wide(long)[["item", "y", "A0", "B0"]]
    code, out, err = run(capsys, "plan", write(tmp_path, one), "--items", "2000,8000", "--difference", 0.01,
                         "--format", "json")
    assert code == 0
    doc = json.loads(out)
    pilot = paired_item_variance(stats[[0, 5]], simstats.accuracy)
    want = paired_plan(pilot, items=(2000, 8000), difference=0.01)
    for row, (_, expected) in zip(doc["rows"], want.iterrows()):
        for column in ("se", "mdd", "mdd_low", "mdd_high", "power", "power_low", "power_high"):
            assert row[column] == pytest.approx(expected[column], rel=1e-12), column
    assert doc["settings"]["items_needed"] == want.attrs["items_needed"]
    code, out, err = run(capsys, "plan", write(tmp_path, one))
    assert code == 0 and "claim: these two runs on new test items" in out and "| items | se | mdd |" in out
    code, out, err = run(capsys, "plan", "--rates", "0.82,0.80,0.10", "--items", "300,3000", "--format", "json")
    assert code == 0
    row = json.loads(out)["rows"][1]
    rates = paired_item_variance_from_rates(0.82, 0.80, 0.10)
    assert row["power"] == pytest.approx(paired_plan(rates, items=(3000,), difference=0.02).power[0], rel=1e-12)
    assert "at 300 items the runs would differ on fewer than 100 of them" in err
    code, _, err = run(capsys, "plan", "--rates", "0.9,0.8,0.05", "--items", "300")
    assert code == 2 and "--rates: with accuracies 0.9 and 0.8 the disagreement rate must lie in" in err
    code, _, err = run(capsys, "plan", "--rates", "0.9,0.8")
    assert code == 2 and "--rates: expected 3 comma-separated numbers" in err
