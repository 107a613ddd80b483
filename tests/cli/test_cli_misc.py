"""Odds and ends: compare's two-sided default, --aso-method, built-in scenario overrides, closed pipes."""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli, write_table
import yaml

from simstats.cli.output import BEST_ONE_SIDED
from simstats.compare import Comparisons, compare_systems
from simstats.stats.aso import aso_methods

ASO_METHODS = aso_methods()
from simstats.config import validate_config
from simstats.stats.aso import aso
from simstats.studies.dror2019.conventions import dror2019_aso
from simstats.stats.metrics import accuracy

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = ROOT / "config" / "config.yaml"


run = run_cli
write = write_table


def predictions(n=80, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({"y": y, "a": np.where(rng.random(n) < 0.8, y, 1 - y),
                         "b": np.where(rng.random(n) < 0.7, y, 1 - y)})


# --- 1. compare: two-sided by default; one-sided against the observed best gets a note ---

def test_compare_is_two_sided_by_default_and_silent(tmp_path, capsys):
    code, out, err = run(capsys, "compare", write(tmp_path, predictions()), "--n-resamples", 200)
    assert code == 0 and err == ""
    assert out.splitlines()[2] == ("H1: reference differs from system; p-values two-sided, intervals two-sided 95%; "
                                   "difference = reference minus system (positive: the reference is better; for mae, "
                                   "its improvement)")
    code, out, _ = run(capsys, "compare", write(tmp_path, predictions()), "--n-resamples", 200, "--format", "json")
    assert json.loads(out)["settings"]["alternative"] == "two-sided"


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_against_the_observed_best_prints_a_note(tmp_path, capsys, alternative):
    path = write(tmp_path, predictions())
    code, out, err = run(capsys, "compare", path, "--alternative", alternative, "--n-resamples", 200)
    assert code == 0 and out
    assert err == f"simstats: warning: {BEST_ONE_SIDED[alternative]}\n" and err.count("\n") == 1
    if alternative == "greater":
        assert "one-sided in the direction the data chose" in err and "about 2 x alpha" in err
    # a reference named by the user is not chosen by the data: no note
    code, _, err = run(capsys, "compare", path, "--alternative", alternative, "--reference", "b", "--n-resamples", 200)
    assert code == 0 and err == ""


def test_default_holds_alpha_while_greater_against_best_doubles_it():
    """Two identical systems (accuracy 0.8, independent errors) on 300 items, B = 199: the
    two-sided default rejects about alpha of the time, --alternative greater against the
    observed best about 2 alpha (one-sided in the direction the data chose)."""
    alpha, pairs, items = 0.05, 1000, 300
    rng = np.random.default_rng(20240617)
    hits = {"default": 0, "greater": 0}
    for r in range(pairs):
        correct = (rng.random((2, items)) < 0.8).astype(float)
        stats = np.stack([correct, np.ones_like(correct)], axis=-1)
        default = compare_systems(["a", "b"], stats, accuracy, n_resamples=199, rng=r)
        greater = compare_systems(["a", "b"], stats, accuracy, n_resamples=199, rng=r,
                                  comparisons=Comparisons(alternative="greater"))
        assert default.attrs["alternative"] == "two-sided"
        hits["default"] += default.pvalue.iloc[1] <= alpha
        hits["greater"] += greater.pvalue.iloc[1] <= alpha
    rate = {k: v / pairs for k, v in hits.items()}
    mcse = math.sqrt(alpha * (1 - alpha) / pairs)       # MCSE of a rejection rate equal to alpha
    assert abs(rate["default"] - alpha) <= 3 * mcse, (rate, mcse)
    assert rate["greater"] > alpha + 3 * mcse, (rate, mcse)


# --- 2. compare-scores --aso-method ---

@pytest.fixture(scope="module")
def score_table():
    rng = np.random.default_rng(11)
    return pd.DataFrame({"a": rng.normal(0.905, 0.01, 12), "b": rng.normal(0.9, 0.012, 12)})


@pytest.mark.parametrize("method", ASO_METHODS)
def test_aso_method_gives_the_library_result(tmp_path, capsys, score_table, method):
    path = write(tmp_path, score_table)
    code, out, err = run(capsys, "compare-scores", path, "--tests", "aso", "--aso-method", method, "--seed", 5,
                         "--aso-alpha", 0.05, "--format", "json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["settings"]["aso_method"] == method
    a, b = score_table.a.to_numpy(), score_table.b.to_numpy()
    assert a.mean() > b.mean()     # "best" is a
    if method == "dror2019":
        direct = dror2019_aso(a, b, confidence_level=1 - 0.05, rng=np.random.default_rng(5))
    else:
        direct = aso(a, b, confidence_level=1 - 0.05, method=method, rng=np.random.default_rng(5))
    assert result["rows"][1]["eps_min_aso"] == direct.statistic
    _, text, _ = run(capsys, "compare-scores", path, "--tests", "welch", "aso", "--aso-method", method)
    lines = text.splitlines()
    assert lines[0] == "score distributions: welch, correction none over the 1 comparison with the reference, per test"
    assert lines[3].startswith(f"eps_min_aso: ASO ({method}), upper 95 % confidence bound") and \
        lines[3].endswith("; no decision (set --aso-threshold)")
    assert lines[4].startswith("note: ASO is not a test at level alpha: eps_min has no p-value")


def test_aso_methods_differ(tmp_path, capsys, score_table):
    path = write(tmp_path, score_table)
    values = set()
    for method in ASO_METHODS:
        _, out, _ = run(capsys, "compare-scores", path, "--tests", "aso", "--aso-method", method, "--format", "json")
        values.add(json.loads(out)["rows"][1]["eps_min_aso"])
    assert len(values) > 1


# --- 3. a user scenario may not silently change a built-in one ---

def builtin_scenarios():
    return yaml.safe_load(BUILTIN.read_text())["scenarios"]


def user_file(tmp_path, scenarios, name="user.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"scenarios": scenarios}))
    return path


def test_colliding_scenario_name_is_an_error(tmp_path, capsys):
    name = next(iter(builtin_scenarios()))
    user = user_file(tmp_path, {name: {"sigma_e": 0.5}})
    for args in (["check-config", BUILTIN, user], ["implied", name, "--config", BUILTIN, user]):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == ""
        assert err == (f"simstats: error: {user}: scenario {name!r} has the name of a built-in scenario of "
                       f"{BUILTIN} and would silently change it: rename it, or add 'replace: true' to it to "
                       "override the built-in one\n")
    # a whole new definition under a built-in name is caught the same way
    other = user_file(tmp_path, {name: {"metric": "accuracy", "target": 0.8, "dev": {"items": 100},
                                        "test": {"items": 100}}}, "other.yaml")
    code, _, err = run(capsys, "check-config", BUILTIN, other)
    assert code == 2 and f"scenario {name!r} has the name of a built-in scenario" in err


def test_replace_true_overrides_field_by_field(tmp_path, capsys):
    scenarios = builtin_scenarios()
    name = next(iter(scenarios))
    user = user_file(tmp_path, {name: {"replace": True, "sigma_e": 0.5}, "my_task": {
        "metric": "accuracy", "target": 0.8, "dev": {"items": 100}, "test": {"items": 100}}})
    code, out, err = run(capsys, "check-config", BUILTIN, user)
    assert code == 0 and err == "" and out.splitlines()[-1] == f"ok: {len(scenarios) + 1} scenarios"
    from simstats.cli.config import load_config as _load
    merged = validate_config(_load([str(BUILTIN), str(user)])).scenarios[name]
    alone = validate_config(yaml.safe_load(BUILTIN.read_text())).scenarios[name]
    assert merged.sigma_e == 0.5 and merged.target == alone.target and merged.test == alone.test


def test_identical_entries_and_later_files_pass(tmp_path, capsys):
    scenarios = builtin_scenarios()
    name = next(iter(scenarios))
    same = user_file(tmp_path, {name: scenarios[name]})
    code, _, err = run(capsys, "check-config", BUILTIN, same, ROOT / "config" / "paper.yaml")
    assert code == 0 and err == ""
    # two user files may define the same new scenario: only the built-ins are protected
    new = {"metric": "accuracy", "target": 0.8, "dev": {"items": 100}, "test": {"items": 100}}
    first = user_file(tmp_path, {"my_task": new}, "first.yaml")
    second = user_file(tmp_path, {"my_task": {"target": 0.7}}, "second.yaml")
    code, _, err = run(capsys, "check-config", BUILTIN, first, second)
    assert code == 0 and err == ""


def test_replace_key_is_checked_by_the_schema_and_stripped(tmp_path, capsys):
    scenarios = builtin_scenarios()
    name = next(iter(scenarios))
    code, _, err = run(capsys, "check-config", BUILTIN, user_file(tmp_path, {name: {"replace": "yes"}}))
    assert code == 2 and err == f"simstats: error: scenarios.{name}.replace: must be of type boolean, got 'yes'\n"
    config = yaml.safe_load(BUILTIN.read_text())
    plain = validate_config(config).scenarios
    config["scenarios"][name]["replace"] = True
    assert validate_config(config).scenarios == plain    # replace is not part of the scenario


# --- 4. a closed pipe ends the output quietly ---

def test_closed_pipe_exits_quietly(tmp_path):
    rng = np.random.default_rng(0)
    # ~130 kB of JSON (twice a 64 kB pipe): far more than a pipe holds, so writing goes on after head has exited
    path = write(tmp_path, pd.DataFrame({f"s{i}": rng.normal(0.8, 0.01, 3) for i in range(250)}))
    producer = subprocess.Popen([sys.executable, "-m", "simstats.cli", "compare-scores", str(path), "--tests",
                                 "welch", "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-1"], stdin=producer.stdout, stdout=subprocess.PIPE)
    producer.stdout.close()            # head alone holds the read end
    first, _ = head.communicate(timeout=120)
    err = producer.stderr.read()
    producer.stderr.close()
    assert producer.wait(timeout=120) == 141
    assert first == b"{\n" and err == b""


def test_a_ratio_metric_from_the_command_line_is_the_ratio_of_sums(tmp_path, capsys):
    """Word error rate as documented: per-sentence errors as abs_error, reference words as items, --metric mae."""
    import json

    import numpy as np
    import pandas as pd

    from conftest import run_cli, write_table

    rng = np.random.default_rng(3)
    words = rng.integers(5, 30, 50)
    rows = [{"system": s, "item": i, "abs_error": int(rng.binomial(w, rate)), "items": int(w)}
            for s, rate in (("a", 0.1), ("b", 0.2)) for i, w in enumerate(words)]
    table = pd.DataFrame(rows)
    code, out, err = run_cli(capsys, "compare", write_table(tmp_path, table), "--statistics", "--metric", "mae",
                             "--n-resamples", 200, "--format", "json")
    assert code == 0, err
    scores = {r["system"]: r["score"] for r in json.loads(out)["rows"]}
    for s in ("a", "b"):
        sub = table[table.system == s]
        assert scores[s] == sub.abs_error.sum() / sub["items"].sum()
    assert json.loads(out)["rows"][0]["system"] == "a"          # lower is better: a is the reference
