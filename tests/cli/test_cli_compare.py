"""simstats compare / compare-scores as users expect them: id columns, help, headers, one-line errors and warnings."""
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from simstats.cli import build_parser, main

DATA = Path(__file__).resolve().parents[2] / "resources" / "realdata" / "compstats_competition_data.csv"


def run(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def predictions(n=60, seed=0):
    """A binary gold column y, systems a (better) and b, and an item id column."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({"item": [f"doc{i}" for i in range(n)], "y": y,
                         "a": np.where(rng.random(n) < 0.85, y, 1 - y),
                         "b": np.where(rng.random(n) < 0.6, y, 1 - y)})


def write(tmp_path, frame, name="t.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def systems_compared(out):
    return sorted(r["system"] for r in json.loads(out)["rows"])


@pytest.mark.parametrize("id_name", ["item", "id"])
def test_an_id_or_item_column_is_not_a_system(tmp_path, capsys, id_name):
    path = write(tmp_path, predictions().rename(columns={"item": id_name}))
    code, out, err = run(capsys, "compare", path, "--n-resamples", 200, "--format", "json")
    assert code == 0 and err == ""
    assert systems_compared(out) == ["a", "b"]


def test_id_and_exclude_options(tmp_path, capsys):
    path = write(tmp_path, predictions().rename(columns={"item": "doc"}).assign(notes="x"))
    code, _, err = run(capsys, "compare", path, "--n-resamples", 200)
    assert code == 2 and err == "simstats: error: system 'doc' predicts labels that are not gold labels: " \
                                "['doc0', 'doc1', 'doc10', 'doc11', 'doc12'] (first: 'doc0' in row 2; " \
                                "60 such predictions in all)\n"
    code, out, err = run(capsys, "compare", path, "--id", "doc", "--exclude", "notes", "--n-resamples", 200,
                         "--format", "json")
    assert code == 0 and err == "" and systems_compared(out) == ["a", "b"]
    code, _, err = run(capsys, "compare", path, "--id", "nope")
    assert code == 2 and err == "simstats: error: --id column 'nope' not found (columns: doc, y, a, b, notes)\n"
    code, _, err = run(capsys, "compare", path, "--id", "doc", "--exclude", "zz")
    assert code == 2 and err.startswith("simstats: error: --exclude column(s) 'zz' not found (columns: ")
    code, _, err = run(capsys, "compare", path, "--id", "doc", "--systems", "a", "doc")
    assert code == 2 and err == "simstats: error: --systems: 'doc' is the item id column, not a system\n"


def test_repeated_item_ids_are_an_error(tmp_path, capsys):
    t = predictions()
    t.loc[5, "item"] = "doc2"
    code, _, err = run(capsys, "compare", write(tmp_path, t))
    assert code == 2 and err == "simstats: error: item id column 'item': 'doc2' (row 7) repeats an earlier id\n"


def help_entries(text):
    """{option: help text} from argparse's help output (an entry's help may start on the next line)."""
    entries, current = {}, None
    for line in text.split("options:", 1)[1].splitlines():
        start = re.match(r"^  (-\S+(?: \S+)*?)(?:\s{2,}(.*))?$", line)
        if start:
            current = start.group(1).split()[0].rstrip(",")
            entries[current] = start.group(2) or ""
        elif current and line.startswith("   "):
            entries[current] += " " + line.strip()
    return entries


@pytest.mark.parametrize("command, some", [
    ("compare", {"--test", "--n-resamples", "--seed", "--confidence", "--correction", "--format", "--id", "--exclude"}),
    ("compare-scores", {"--tests", "--seed", "--confidence", "--reference", "--alternative", "--correction"}),
    ("competition", {"--n-resamples", "--seed", "--confidence", "--alpha", "--correction-scope", "--out", "--id",
                     "--statistics", "--preset", "--correction", "--pvalue-rule"}),
])
def test_every_option_has_help_stating_its_default(capsys, command, some, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    entries = help_entries(capsys.readouterr().out)
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    options = [a.option_strings[-1] for a in sub._actions if a.option_strings and a.dest != "help"]
    assert some <= set(options)
    assert set(options) <= set(entries), set(options) - set(entries)
    for option in options:
        assert "(default: " in entries[option], (option, entries[option])


@pytest.mark.parametrize("alternative, h1, sides", [
    ("greater", "H1: reference better than system", "p-values one-sided, intervals two-sided 90%"),
    ("less", "H1: reference worse than system", "p-values one-sided, intervals two-sided 90%"),
    ("two-sided", "H1: reference differs from system", "p-values two-sided, intervals two-sided 90%"),
])
def test_header_states_h1_and_sidedness(tmp_path, capsys, alternative, h1, sides):
    path = write(tmp_path, predictions())
    code, out, _ = run(capsys, "compare", path, "--alternative", alternative, "--n-resamples", 200,
                       "--confidence", 0.9)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == ("accuracy: Bonett-Price adjusted Wald test of the paired difference over items (two "
                        "pseudo-items of difference +1 and -1, normal reference), scores: Clopper-Pearson intervals "
                        "(every item scores 0 or 1); differences: Bonett-Price's adjusted Wald, correction none over "
                        "the 1 comparison with the reference")
    code, out, _ = run(capsys, "compare", path, "--alternative", alternative, "--n-resamples", 200,
                       "--confidence", 0.9, "--test", "bootstrap")
    assert out.splitlines()[0] == ("accuracy: paired bootstrap (shift p-value, (c + 1)/(B + 1), resampling items), "
                                   "200 resamples, seed 0, correction none over the 1 comparison with the reference")
    lines = out.splitlines()
    assert lines[1] == ("claim: these runs differ on the population of test items (one run per system; not their "
                        "training procedures)")
    assert lines[2] == (f"{h1}; {sides}; difference = reference minus system (positive: the reference is better; "
                        "for mae, its improvement)")


@pytest.mark.parametrize("alternative, h1, sides", [
    ("greater", "H1: reference scores higher than system", "p-values one-sided"),
    ("two-sided", "H1: reference scores differ from system", "p-values two-sided"),
])
def test_compare_scores_header_states_h1_and_sidedness(tmp_path, capsys, alternative, h1, sides):
    rng = np.random.default_rng(1)
    path = write(tmp_path, pd.DataFrame({"a": rng.normal(0.9, 0.01, 12), "b": rng.normal(0.88, 0.01, 12)}))
    code, out, _ = run(capsys, "compare-scores", path, "--alternative", alternative)
    assert code == 0
    assert out.splitlines()[:3] == ["score distributions: welch, mwu, correction none over the 1 comparison with "
                                    "the reference, per test",
                                    "claim: the systems' training procedures differ in score over new seeds, on this "
                                    "test set (one score per run)",
                                    f"{h1}; {sides}, intervals two-sided 95% (Welch, difference of means); "
                                    "difference = reference minus system (of the mean scores)"]


def test_exact_test_header_claims_no_resamples(tmp_path, capsys):
    path = write(tmp_path, predictions())
    code, out, _ = run(capsys, "compare", path, "--test", "exact-randomization", "--n-resamples", 300)
    lines = out.splitlines()
    assert code == 0 and "300 resamples, seed 0" not in out
    assert lines[0] == ("accuracy: exact stratified randomization (binomial convolution), correction none over the "
                        "1 comparison with the reference")
    assert lines[2] == ("H1: reference differs from system; p-values two-sided, intervals two-sided 95% from 300 "
                        "bootstrap resamples (seed 0); difference = reference minus system (positive: the reference is "
                        "better; for mae, its improvement)")


def test_too_large_exact_test_names_the_flag_to_use(capsys):
    code, out, err = run(capsys, "compare", DATA, "--metric", "weighted_f1", "--test", "exact-randomization",
                         "--n-resamples", 100)
    assert code == 2 and out == ""
    assert re.fullmatch(r"simstats: error: --test exact-randomization: exact stratified randomization needs \d+ "
                        r"cells \(> \d+\); use --test randomization \(approximate\) instead\n", err), err


@pytest.mark.parametrize("args, message", [
    (["--confidence", "1.5"], "--confidence must be in (0, 1), got 1.5"),
    (["--n-resamples", "0"], "--n-resamples must be >= 1, got 0"),
    (["--seed", "-1"], "--seed must be >= 0, got -1"),
    (["--positive", "5", "--metric", "f1"], "metric f1: --positive 5 is not a gold label (gold labels: 0, 1)"),
    (["--systems", "a", "a"], "--systems: 'a' is given more than once"),
    (["--systems", "a", "y"], "--systems: 'y' is the gold column, not a system"),
])
def test_compare_option_errors_name_the_flag(tmp_path, capsys, args, message):
    code, out, err = run(capsys, "compare", write(tmp_path, predictions()), *args)
    assert code == 2 and out == "" and err == f"simstats: error: {message}\n"


def test_compare_scores_option_errors_name_the_flag(tmp_path, capsys):
    path = write(tmp_path, pd.DataFrame({"a": [0.9, 0.91, 0.93], "b": [0.8, 0.82, 0.81]}))
    code, _, err = run(capsys, "compare-scores", path, "--tests", "aso", "--aso-alpha", 2)
    assert code == 2 and err == "simstats: error: --aso-alpha must be in (0, 1), got 2.0\n"
    code, _, err = run(capsys, "compare-scores", path, "--confidence", 0)
    assert code == 2 and err == "simstats: error: --confidence must be in (0, 1), got 0.0\n"


def test_directory_and_non_numeric_input(tmp_path, capsys):
    code, _, err = run(capsys, "compare", tmp_path)
    assert code == 2 and err == f"simstats: error: {tmp_path}: is a directory, not a table file\n"
    t = predictions().astype({"b": object})
    t.loc[4, "b"] = "high"
    code, _, err = run(capsys, "compare", write(tmp_path, t), "--metric", "mae")
    assert code == 2 and err == "simstats: error: system 'b': 'high' (row 6) is not a finite number\n"
    rows = pd.DataFrame({"system": ["a", "a", "b", "b"], "item": [1, 2, 1, 2], "correct": ["1", "high", "0", "1"],
                         "items": 1})
    code, _, err = run(capsys, "compare", write(tmp_path, rows, "stats.csv"), "--statistics")
    assert code == 2 and err == ("simstats: error: statistics table: system 'a', column 'correct': 'high' (row 3) "
                                 "is not a finite number\n")


@pytest.mark.parametrize("frame, message", [
    ({"a": [0.9, 0.91, 0.92], "b": [0.8, np.inf, 0.81]},
     "system 'b': score inf in row 3 is not a finite number"),
    ({"a": [0.9, 0.91, 0.92], "b": [0.8, "high", 0.81]}, "system 'b': score 'high' (row 3) is not a number"),
    ({"a": [0.9, 0.91, 0.92], "b": [0.8, None, 0.81]},
     "system 'b': missing score in row 3 (a wide table needs one score per system and seed; use a long table for "
     "unequal runs)"),
    ({"system": ["a", "a", "a", "b", "b", "b"], "score": [0.9, 0.91, 0.92, 0.8, 0.81, -np.inf]},
     "system 'b': score -inf in row 7 is not a finite number"),
    ({"system": ["a", "a", "a", "b", "b", "b"], "score": [0.9, 0.91, 0.92, 0.8, None, 0.82]},
     "system 'b': missing score (row 6) is not a number"),
    ({"system": ["a", "a", "a", None, "b", "b"], "score": [0.9, 0.91, 0.92, 0.8, 0.81, 0.82]},
     "scores: missing or blank system name in row 5"),
])
def test_compare_scores_bad_cells_are_one_line(tmp_path, capsys, frame, message):
    code, out, err = run(capsys, "compare-scores", write(tmp_path, pd.DataFrame(frame)), "--min-scores", 2)
    assert code == 2 and out == "" and err == f"simstats: error: {message}\n"


def test_csv_keeps_full_precision(tmp_path, capsys):
    rng = np.random.default_rng(2)
    path = write(tmp_path, pd.DataFrame({"a": rng.normal(0.9, 0.01, 12), "b": rng.normal(0.89, 0.01, 12)}))
    _, out, _ = run(capsys, "compare-scores", path, "--format", "json")
    expected = json.loads(out)["rows"][1]
    _, out, _ = run(capsys, "compare-scores", path, "--format", "csv")
    got = pd.read_csv(pd.io.common.StringIO(out)).iloc[1]
    assert len(repr(expected["pvalue_welch"])) > 10  # more digits than %.6g keeps
    for column in ("mean", "sd", "pvalue_welch", "pvalue_mwu", "difference_ci_low"):
        assert got[column] == expected[column], column


def test_warnings_are_one_line_each(tmp_path, capsys):
    rng = np.random.default_rng(4)
    path = write(tmp_path, pd.DataFrame({"a": rng.normal(0.9, 0.01, 5), "b": rng.normal(0.88, 0.01, 5)}))
    code, out, err = run(capsys, "compare-scores", path, "--tests", "welch", "aso")
    assert code == 0 and out
    assert err == ("simstats: warning: aso: system(s) 'a', 'b' have fewer than 10 scores; eps_min's bootstrap sd "
                   "is unreliable\n")
    # runs that do not vary: no scipy precision warning and no p-value made of rounding residue, but a stated note
    constant = write(tmp_path, pd.DataFrame({"a": [0.9] * 4, "b": [0.8] * 4}), "constant.csv")
    code, out, err = run(capsys, "compare-scores", constant, "--format", "json")
    result = json.loads(out)
    assert code == 0 and err == ""
    assert result["rows"][1]["pvalue_welch"] is None and result["rows"][1]["difference_ci_low"] is None
    assert "not tested" in result["settings"]["note_untested"]
    assert result["rows"][1]["pvalue_mwu"] == pytest.approx(
        scipy.stats.mannwhitneyu([0.9] * 4, [0.8] * 4).pvalue, rel=1e-12)


def test_warnings_outside_pytest_print_no_source_lines(tmp_path):
    rng = np.random.default_rng(4)
    path = write(tmp_path, pd.DataFrame({"a": rng.normal(0.9, 0.01, 5), "b": rng.normal(0.88, 0.01, 5)}))
    res = subprocess.run([sys.executable, "-m", "simstats.cli", "compare-scores", str(path), "--tests", "aso"],
                         capture_output=True, text=True)
    assert res.returncode == 0
    assert res.stderr.splitlines() == ["simstats: warning: aso: system(s) 'a', 'b' have fewer than 10 scores; "
                                       "eps_min's bootstrap sd is unreliable"]


def test_yaml_errors_give_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("scenarios:\n  a: 1\n    b: 2\n")
    code, _, err = run(capsys, "check-config", bad)
    assert code == 2 and err == f"simstats: error: {bad}, line 3, column 6: not valid YAML (mapping values are not " \
                                "allowed here)\n"
