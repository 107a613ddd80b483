"""`simstats fit`: the YAML it prints is a configuration fragment the pipeline accepts, its numbers are the
library's (simstats.sim.fit), and bad input stops with one line naming the problem."""
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import run_cli, write_table

from simstats.config import validate_config
from simstats.sim.fit import fit_outcomes

ROOT = Path(__file__).resolve().parents[2]
DIGITS = ROOT / "tests" / "data" / "fit" / "sklearn_digits_runs.csv.gz"


def test_yaml_is_a_config_fragment(capsys):
    code, out, err = run_cli(capsys, "fit", DIGITS, "--name", "digits_mlp", "--n-resamples", "50")
    assert code == 0, err
    fragment = yaml.safe_load(out)
    entry = fragment["scenarios"]["digits_mlp"]
    assert entry["origin"] == "fitted" and entry["metric"] == "accuracy"
    assert entry["dev"] == {"items": 600} and entry["test"] == {"items": 797}
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    config["scenarios"].update(fragment["scenarios"])
    assert validate_config(config).scenarios["digits_mlp"].origin == "fitted"
    comments = [line for line in out.splitlines() if line.startswith("#")]
    assert any("sigma_seed" in line and "[" in line for line in comments)


def test_numbers_are_the_librarys(capsys):
    code, out, _ = run_cli(capsys, "fit", DIGITS, "--format", "csv", "--n-resamples", "50", "--seed", "3")
    assert code == 0
    table = pd.read_csv(io.StringIO(out)).set_index("name")
    frame = pd.read_csv(DIGITS)
    outcomes = {s: part.pivot(index="seed", columns="item", values="correct").to_numpy()
                for s, part in frame.groupby("split")}
    fit = fit_outcomes(outcomes, n_resamples=50, rng=3)
    for name, param in fit.parameters.items():
        assert table.loc[name, "estimate"] == pytest.approx(param.estimate, rel=1e-12)
        assert table.loc[name, "low"] == pytest.approx(param.low, rel=1e-12)


def test_run_level_scores_state_what_is_assumed(capsys, tmp_path):
    rng = np.random.default_rng(0)
    path = write_table(tmp_path, pd.DataFrame({"seed": range(12), "test": 0.8 + rng.normal(0, 0.01, 12)}))
    code, out, err = run_cli(capsys, "fit", path, "--test-size", "500")
    assert code == 0, err
    assert "sigma_item = 0.7071  ASSUMED" in out and "no dev scores" in out


@pytest.mark.parametrize("rows, options, message", [
    ({"seed": [1, 2, 3], "test": [0.8, None, 0.8]}, ["--test-size", "100"], "test: row 3 is empty"),
    ({"seed": [1, 2, 3, 4], "test": [0.8] * 4}, ["--test-size", "100"], "every run has the same test score (0.8)"),
    ({"seed": [1, 2, 3], "test": [0.8, 0.7, 0.9]}, [], "run-level scores need --test-size"),
    ({"seed": [1, 2, 3], "test": [80, 70, 90]}, ["--test-size", "100"], "must lie in (0, 1), got 80.0"),
    ({"seed": [1, 1, 2], "item": ["a", "b", "a"], "split": ["test", "test", "val"], "correct": [1, 0, 1]}, [],
     "split: row 4 is 'val'; splits are dev and test"),
])
def test_bad_input_stops_with_one_line(capsys, tmp_path, rows, options, message):
    path = write_table(tmp_path, pd.DataFrame(rows))
    code, out, err = run_cli(capsys, "fit", path, *options)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("simstats: error: ") and message in err, err


def test_bad_item_tables_and_options(capsys, tmp_path):
    frame = pd.read_csv(DIGITS)
    one = frame.assign(doc=frame["item"])
    path = write_table(tmp_path, one, "one.csv")
    code, _, err = run_cli(capsys, "fit", path, "--clusters", "doc")
    assert code == 2 and "every cluster has one item" in err
    code, _, err = run_cli(capsys, "fit", DIGITS, "--n-resamples", "5")
    assert code == 2 and "--n-resamples must be >= 20" in err
    missing = frame.drop(index=5)
    path = write_table(tmp_path, missing, "missing.csv")
    code, _, err = run_cli(capsys, "fit", path)
    assert code == 2 and "has no outcome for item" in err
    code, _, err = run_cli(capsys, "fit", DIGITS, "--where", "split=validation")
    assert code == 2 and "no row matches" in err


def test_score_columns_are_named_with_their_old_spelling_still_accepted(tmp_path, capsys):
    rng = np.random.default_rng(2)
    runs = pd.DataFrame({"seed": range(12), "acc": 0.8 + rng.normal(0, 0.01, 12),
                         "acc_dev": 0.82 + rng.normal(0, 0.01, 12)})
    path = write_table(tmp_path, runs)
    code, new, err = run_cli(capsys, "fit", path, "--test-column", "acc", "--dev-column", "acc_dev",
                             "--test-size", "2000", "--format", "csv")
    assert code == 0, err
    code, old, err = run_cli(capsys, "fit", path, "--test", "acc", "--dev", "acc_dev", "--test-size", "2000",
                             "--format", "csv")
    assert code == 0 and old == new
    assert "--test is renamed --test-column" in err and "--dev is renamed --dev-column" in err
