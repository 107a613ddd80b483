"""Bad input: one line `simstats: error: ...` naming the problem, the bad value and its row (the file's
line; the first row after the header is row 2) or item, exit code 2, nothing on stdout, nothing written."""
import numpy as np
import pandas as pd
import pytest

from simstats.cli import main

#: Names of the code that a user's message must never show.
INTERNAL = ("scores_a", "scores_b", "np.", "int64", "float64", "Error:", "Traceback")


def write(tmp_path, frame, name="t.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def fails(capsys, *args):
    """Run the CLI; assert exit 2, empty stdout and one error line free of internal names; return the line."""
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    assert code == 2, out.err
    assert out.out == ""
    assert out.err.startswith("simstats: error: ") and out.err.count("\n") == 1, out.err
    assert not any(name in out.err for name in INTERNAL), out.err
    return out.err.removeprefix("simstats: error: ").rstrip("\n")


def predictions(n=8):
    """Binary gold labels y and two systems a, b (as CSV columns: row i + 2 of the file is item i)."""
    y = np.arange(n) % 2
    return pd.DataFrame({"y": y, "a": y, "b": np.where(np.arange(n) % 3 == 0, 1 - y, y)})


def long_runs(items=50, seeds=(1, 2), drop=()):
    """Long rows (system, seed, item, pred, y); ``drop``: (system, seed, item) rows left out."""
    rows = [{"system": s, "seed": k, "item": i, "pred": i % 2, "y": i % 2}
            for s in "AB" for k in seeds for i in range(items) if (s, k, i) not in drop]
    return pd.DataFrame(rows)


# --- the reported defects ---

def test_a_non_numeric_prediction_is_named_with_its_row(tmp_path, capsys):
    t = predictions().astype({"a": object})
    t.loc[3, "a"] = "seven"
    path = write(tmp_path, t)
    message = "system 'a': prediction 'seven' (row 5) is not a number, but the gold labels are numbers"
    assert fails(capsys, "compare", path) == message
    out = tmp_path / "out"
    assert fails(capsys, "competition", path, "--out", out, "--n-resamples", 50) == message
    assert not out.exists()
    assert fails(capsys, "compare", path, "--approach", "A=a", "--approach", "B=b") == (
        "--approach A: column 'a': prediction 'seven' (row 5) is not a number, but the gold labels are numbers")


def test_a_missing_prediction_is_named_with_its_row(tmp_path, capsys):
    t = predictions()
    t.loc[2, "b"] = np.nan
    t.loc[6, "b"] = np.nan
    path = write(tmp_path, t)
    message = "system 'b': missing prediction (empty or NaN) in row 4; 2 missing in all"
    assert fails(capsys, "compare", path) == message
    assert fails(capsys, "compare", path, "--metric", "mae") == message
    out = tmp_path / "out"
    assert fails(capsys, "competition", path, "--out", out, "--n-resamples", 50).endswith("in row 4; 2 missing in all")
    assert not out.exists()
    runs = long_runs(items=4).astype({"pred": float})
    runs.loc[5, "pred"] = np.nan              # rows 0-3: A seed 1, 4-7: A seed 2, 8-11: B seed 1, 12-15: B seed 2
    assert fails(capsys, "compare", write(tmp_path, runs, "long.csv")) == (
        "system 'A', seed 2: missing prediction (empty or NaN) in row 7, item 1")


def test_min_scores_below_two_names_the_flag_not_the_library(tmp_path, capsys):
    path = write(tmp_path, pd.DataFrame({"system": ["A", "A", "A", "B"], "score": [1.0, 2.0, 3.0, 4.0]}))
    assert fails(capsys, "compare-scores", path, "--min-scores", 1) == (
        "--min-scores must be >= 2 (the sd and Welch's t need 2 scores per system), got 1")
    assert fails(capsys, "compare-scores", path, "--min-scores", 2) == "system(s) B have fewer than 2 scores"


BLEU = ["sys_len", "ref_len", "correct_1", "correct_2", "correct_3", "correct_4",
        "total_1", "total_2", "total_3", "total_4"]


def statistics(metric_columns, values, items=3):
    """Long statistics rows of systems A and B on ``items`` items, every cell ``values``."""
    return pd.DataFrame([{"system": s, "item": i, **dict(zip(metric_columns, values))}
                         for s in "AB" for i in range(items)])


@pytest.mark.parametrize("metric, columns, values, column, bad, message", [
    ("accuracy", ["correct", "items"], [1, 1], "correct", -5, "-5 (row 6) is not a count (an integer >= 0)"),
    ("accuracy", ["correct", "items"], [1, 1], "items", 0.5, "0.5 (row 6) is not a count (an integer >= 0)"),
    ("f1", ["recalled", "gold", "spurious"], [1, 1, 0], "spurious", -1, "-1 (row 6) is not a count (an integer >= 0)"),
    ("precision", ["recalled", "gold", "spurious"], [1, 1, 0], "recalled", 1.5,
     "1.5 (row 6) is not a count (an integer >= 0)"),
    ("recall", ["recalled", "gold", "spurious"], [1, 1, 0], "gold", -2, "-2 (row 6) is not a count (an integer >= 0)"),
    ("bleu", BLEU, [10, 10, 8, 6, 4, 2, 10, 9, 8, 7], "correct_1", -5, "-5 (row 6) is not a count (an integer >= 0)"),
    ("bleu", BLEU, [10, 10, 8, 6, 4, 2, 10, 9, 8, 7], "sys_len", 9.5, "9.5 (row 6) is not a count (an integer >= 0)"),
    ("mae", ["abs_error", "items"], [0.5, 1], "abs_error", -0.25,
     "-0.25 (row 6) is negative (an absolute error is >= 0)"),
    ("mae", ["abs_error", "items"], [0.5, 1], "items", -1, "-1 (row 6) is not a count (an integer >= 0)"),
])
def test_negative_or_fractional_counts_are_refused(tmp_path, capsys, metric, columns, values, column, bad, message):
    t = statistics(columns, values).astype({column: type(bad)})
    t.loc[4, column] = bad                      # system B, item 1: the file's line 6
    err = fails(capsys, "compare", write(tmp_path, t), "--statistics", "--metric", metric, "--n-resamples", 20)
    assert err == f"statistics table: system 'B', item 1, column {column!r}: {message}"


def test_fractional_absolute_errors_are_accepted(tmp_path, capsys):
    t = statistics(["abs_error", "items"], [0.5, 1], items=6)
    t.loc[t.system == "B", "abs_error"] = 0.75
    code = main(["compare", str(write(tmp_path, t)), "--statistics", "--metric", "mae", "--n-resamples", "20",
                 "--format", "csv"])
    assert code == 0, capsys.readouterr().err


def test_every_unmatched_item_is_counted(tmp_path, capsys):
    runs = long_runs(drop=[("B", 1, 17), ("B", 1, 18), ("B", 1, 40)])
    assert fails(capsys, "compare", write(tmp_path, runs)) == (
        "unmatched items across systems: system 'B', seed 1 lacks 3 of the 50 items (first: 17, 18, 40)")
    runs = long_runs(drop=[("A", 2, 3)] + [("B", 1, i) for i in range(10, 20)])
    assert fails(capsys, "compare", write(tmp_path, runs)) == (
        "unmatched items across systems: system 'A', seed 2 lacks 1 of the 50 items (first: 3); "
        "2 of the 4 runs lack items")
    t = statistics(["correct", "items"], [1, 1], items=50)
    t = t[~((t.system == "B") & t.item.isin([17, 18, 40, 41, 42, 43]))]
    assert fails(capsys, "compare", write(tmp_path, t), "--statistics") == (
        "systems 'A' and 'B' are scored on different items: 'B' lacks 6 of the 50 items of 'A' "
        "(first: 17, 18, 40, 41, 42, ...)")


# --- other bad cells of the same readers ---

def test_a_typo_in_a_numeric_gold_column(tmp_path, capsys):
    t = predictions().astype({"y": object})
    t.loc[2, "y"] = "seven"
    assert fails(capsys, "compare", write(tmp_path, t)) == (
        "gold column 'y': 'seven' (row 4) is not a number, unlike the other gold labels and the predictions")


def test_missing_gold_labels_and_ids(tmp_path, capsys):
    t = predictions().astype({"y": float})
    t.loc[5, "y"] = np.nan
    assert fails(capsys, "compare", write(tmp_path, t)) == "gold column 'y': missing gold label (empty or NaN) in row 7"
    runs = long_runs(items=4).astype({"y": float})
    runs.loc[9, "y"] = np.nan                     # B, seed 1, item 1: the file's line 11
    assert fails(capsys, "compare", write(tmp_path, runs)) == (
        "gold column 'y': missing gold label (empty or NaN) in row 11, item 1")
    t = predictions().assign(item=[f"d{i}" for i in range(8)])
    t.loc[3, "item"] = np.nan
    assert fails(capsys, "compare", write(tmp_path, t)) == "item id column 'item': missing id (row 5)"


def test_labels_that_are_not_gold_labels_are_named_with_their_row(tmp_path, capsys):
    t = predictions()
    t.loc[[2, 5], "b"] = [2, 3]
    assert fails(capsys, "compare", write(tmp_path, t)) == (
        "system 'b' predicts labels that are not gold labels: [2, 3] (first: 2 in row 4; 2 such predictions in all)")
    runs = long_runs(items=4)
    runs.loc[13, "pred"] = 7                       # B, seed 2, item 1: the file's line 15
    assert fails(capsys, "compare", write(tmp_path, runs)) == (
        "system 'B', seed 2 predicts labels that are not gold labels: [7] (first: 7 in row 15, item 1)")
    err = fails(capsys, "compare", write(tmp_path, runs), "--systems", "B", "A")
    assert err.endswith("(first: 7 in row 15, item 1)")


def test_an_item_with_two_gold_labels_names_both_rows(tmp_path, capsys):
    runs = long_runs(items=4)
    runs.loc[10, "y"] = 1 - runs.loc[10, "y"]      # B, seed 1, item 2
    assert fails(capsys, "compare", write(tmp_path, runs)) == (
        "gold column 'y': item 2 has different gold labels in different rows (0 in row 4, 1 in row 12)")


def test_statistics_tables_name_missing_and_repeated_rows(tmp_path, capsys):
    t = statistics(["correct", "items"], [1, 1]).astype({"correct": float})
    t.loc[1, "correct"] = np.nan
    assert fails(capsys, "compare", write(tmp_path, t), "--statistics") == (
        "statistics table: system 'A', item 1, column 'correct': missing value (row 3)")
    t = statistics(["correct", "items"], [1, 1]).astype({"item": float})
    t.loc[2, "item"] = np.nan
    assert fails(capsys, "compare", write(tmp_path, t), "--statistics") == (
        "statistics table: missing value in column 'item' (row 4)")
    t = statistics(["correct", "items"], [1, 1])
    t.loc[4, "item"] = 0
    assert fails(capsys, "compare", write(tmp_path, t), "--statistics") == (
        "statistics table: system 'B', item 0 (row 6) repeats an earlier (system, item) row")


@pytest.mark.parametrize("frame, message", [
    ({"system": ["a", "a", "a", "b", "b", "b"], "seed": [1, 2, 2, 1, 2, 3], "score": [0.9, 0.8, 0.85, 0.7, 0.6, 0.65]},
     "system 'a' has several scores for seed 2 (rows 3 and 4)"),
    ({"system": ["a", "a", "a", "b", "b", "b"], "seed": [1, None, 3, 1, 2, 3],
      "score": [0.9, 0.8, 0.85, 0.7, 0.6, 0.65]}, "system 'a': missing seed (row 3)"),
    ({"seed": [1, 2, 1], "a": [0.9, 0.8, 0.85], "b": [0.8, 0.7, 0.75]},
     "column 'seed': seed 1 (row 4) repeats row 2 (a wide table has one row per seed)"),
    ({"seed": [1, None, 3], "a": [0.9, 0.8, 0.85], "b": [0.8, 0.7, 0.75]}, "column 'seed': missing seed (row 3)"),
    ({"system": ["a", "b"], "value": [0.9, 0.8]},
     "long table: column 'score' not found (a long table has columns system, score and optionally seed; "
     "columns: system, value)"),
])
def test_score_tables_name_the_bad_seed_or_column(tmp_path, capsys, frame, message):
    assert fails(capsys, "compare-scores", write(tmp_path, pd.DataFrame(frame)), "--min-scores", 2) == message


def test_cluster_columns_name_the_clusters_and_rows(tmp_path, capsys):
    runs = long_runs(items=4).assign(doc=lambda t: t.item // 2)
    runs.loc[9, "doc"] = 5                         # B, seed 1, item 1
    assert fails(capsys, "compare", write(tmp_path, runs), "--clusters", "doc") == (
        "--clusters column 'doc': item 1 is in more than one cluster (0 in row 3, 5 in row 11)")
    t = predictions().assign(doc="d")
    assert fails(capsys, "compare", write(tmp_path, t), "--clusters", "doc") == (
        "--clusters column 'doc': one cluster only ('d'); the bootstrap needs at least 2")


def test_unreadable_tables(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert fails(capsys, "compare", empty) == f"{empty}: empty file (no header line)"
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("y,a,b\n0,0,1\n1,1,1,1\n")
    assert fails(capsys, "compare", ragged) == f"{ragged}: line 3 has 4 fields, the header has 3"
    out = tmp_path / "out"
    assert fails(capsys, "competition", ragged, "--out", out).endswith("line 3 has 4 fields, the header has 3")
    assert not out.exists()


def test_label_options_name_the_gold_labels_kind(tmp_path, capsys):
    path = write(tmp_path, predictions())
    assert fails(capsys, "compare", path, "--metric", "f1", "--positive", "yes") == (
        "label 'yes' is not a gold label (gold labels are integers)")
    t = pd.DataFrame({"y": [True, False, True, False], "a": [True, False, True, True],
                      "b": [False, False, True, False]})
    path = write(tmp_path, t, "bool.csv")
    assert fails(capsys, "compare", path, "--metric", "f1", "--positive", "maybe") == (
        "label 'maybe' is not a gold label (gold labels are true/false)")


def test_aso_with_too_few_scores_names_the_system_not_an_internal_name(tmp_path, capsys):
    path = write(tmp_path, pd.DataFrame({"system": ["A"] * 4 + ["B"] * 2, "score": [.8, .81, .79, .8, .7, .71]}))
    assert fails(capsys, "compare-scores", path, "--tests", "aso", "--min-scores", 2) == (
        "--tests aso needs at least 3 scores per system; 'B' has 2")


def test_unmatched_seeds_are_all_counted(tmp_path, capsys):
    rows = [{"system": s, "seed": k, "score": 0.8} for s, seeds in (("A", range(8)), ("B", range(1, 9)))
            for k in seeds]
    message = fails(capsys, "compare-scores", write(tmp_path, pd.DataFrame(rows)), "--tests", "wilcoxon")
    assert message.endswith("have different seeds (2 unmatched: 0, 8)")


def test_labels_that_look_like_missing_values_are_labels(tmp_path, capsys):
    """"NA" (say, not applicable) and "None" are classes; only an empty cell is missing."""
    y = ["NA", "None", "yes"] * 20
    table = pd.DataFrame({"y": y, "a": y, "b": ["NA"] * 60})
    code = main(["compare", str(write(tmp_path, table)), "--n-resamples", "200", "--format", "csv"])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    scores = pd.read_csv(__import__("io").StringIO(out.out)).set_index("system").score
    assert scores["a"] == 1.0 and abs(scores["b"] - 1 / 3) < 1e-12
    table.loc[4, "a"] = None
    assert fails(capsys, "compare", write(tmp_path, table)) == "system 'a': missing prediction (empty or NaN) in row 6"
