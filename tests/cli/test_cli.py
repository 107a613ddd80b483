import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.cli import main

DATA = Path(__file__).resolve().parents[2] / "resources" / "realdata" / "compstats_competition_data.csv"


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_compare_reproduces_compstats_documented_pvalues(capsys):
    # CompStats documents one-sided p-values, "the best is better" (compare's default is two-sided)
    code, out, _ = run(capsys, "compare", str(DATA), "--metric", "weighted_f1", "--n-resamples", "10000",
                       "--seed", "1", "--alternative", "greater", "--format", "json")
    assert code == 0
    rows = {r["system"]: r for r in json.loads(out)["rows"]}
    assert rows["INGEOTEC"]["reference"] == "INGEOTEC"
    documented = {"BoW (Class Weight)": .001, "Dense": .032, "BoW (Corpus)": .006, "StackBoW": .091, "BoW": .265}
    for name, p in documented.items():
        assert abs(rows[name]["pvalue"] - p) <= 0.02, name
    # scores as documented for the data set
    assert rows["INGEOTEC"]["score"] == pytest.approx(.3861, abs=5e-5)
    assert rows["BoW (Class Weight)"]["score"] == pytest.approx(.3603, abs=5e-5)


def test_compare_with_correction_and_randomization(capsys):
    code, out, _ = run(capsys, "compare", str(DATA), "--metric", "accuracy", "--test", "randomization",
                       "--n-resamples", "2000", "--correction", "holm", "--format", "csv")
    assert code == 0
    table = pd.read_csv(pd.io.common.StringIO(out))
    others = table[table.system != table.reference]
    assert (others.pvalue_adjusted >= others.pvalue - 1e-12).all()


@pytest.mark.parametrize("mutate, message", [
    (lambda t: t.assign(Dense=t.Dense.astype(float).where(t.index != 3)), "NaN"),
    (lambda t: t.assign(Dense=t.Dense.where(t.index != 3, 99)), "not gold labels"),
    (lambda t: t[["y", "Dense"]], "at least two systems"),
    (lambda t: t.rename(columns={"y": "label"}), "gold column 'y' not found"),
])
def test_malformed_input_is_one_line_and_nonzero(tmp_path, capsys, mutate, message):
    bad = tmp_path / "bad.csv"
    mutate(pd.read_csv(DATA)).to_csv(bad, index=False)
    code, out, err = run(capsys, "compare", str(bad), "--n-resamples", "100")
    assert code != 0 and out == ""
    assert message in err and err.count("\n") == 1


def test_statistics_input_and_item_mismatch(tmp_path, capsys):
    rng = np.random.default_rng(0)
    rows = [{"system": s, "item": i, "correct": int(rng.random() < p), "items": 1}
            for s, p in (("a", 0.8), ("b", 0.6)) for i in range(300)]
    good = tmp_path / "stats.parquet"
    pd.DataFrame(rows).to_parquet(good)
    code, out, _ = run(capsys, "compare", str(good), "--statistics", "--n-resamples", "1000", "--format", "json")
    assert code == 0 and json.loads(out)["rows"][1]["pvalue"] < 0.01
    bad = tmp_path / "stats.csv"
    pd.DataFrame(rows[:-1]).to_csv(bad, index=False)
    code, _, err = run(capsys, "compare", str(bad), "--statistics")
    assert code != 0 and "different items" in err


def test_compare_scores(tmp_path, capsys):
    rng = np.random.default_rng(3)
    t = pd.DataFrame({"system": ["a"] * 20 + ["b"] * 20, "seed": np.r_[np.arange(20), np.arange(20)],
                      "score": np.r_[rng.normal(0.90, 0.01, 20), rng.normal(0.88, 0.01, 20)]})
    path = tmp_path / "scores.tsv"
    t.to_csv(path, sep="\t", index=False)
    code, out, _ = run(capsys, "compare-scores", str(path), "--format", "json")
    rows = {r["system"]: r for r in json.loads(out)["rows"]}
    assert code == 0 and rows["b"]["pvalue_welch"] < 0.01 and rows["b"]["pvalue_mwu"] < 0.01
    code, out, _ = run(capsys, "compare-scores", str(path), "--tests", "wilcoxon", "aso", "--format", "json")
    rows = json.loads(out)["rows"]
    assert code == 0 and rows[1]["pvalue_wilcoxon"] < 0.01 and rows[1]["eps_min_aso"] < 0.5
    short = tmp_path / "short.csv"
    t.iloc[:22].to_csv(short, index=False)
    code, _, err = run(capsys, "compare-scores", str(short))
    assert code != 0 and "fewer than 3 scores" in err


def test_console_script_runs():
    res = subprocess.run([sys.executable, "-m", "simstats.cli", "compare", "missing.csv"], capture_output=True,
                         text=True)
    assert res.returncode == 2 and res.stderr.strip() == "simstats: error: missing.csv: no such file"


def test_competition_command_writes_tables_and_figures(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["competition", str(DATA), "--gold", "y", "--metric", "weighted_f1", "--n-resamples", "2000",
               "--seed", "1", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0 and "Ordered bootstrap CIs (Table 2;" in text and "Summary measures (Table 6;" in text
    for name in ("scores.csv", "differences.csv", "pairs.csv", "matrix.csv", "summary.csv", "report.md",
                 "intervals.png", "differences.pdf", "bootstrap.png"):
        assert (out / name).is_file(), name
    summary = pd.read_csv(out / "summary.csv").iloc[0]
    assert summary.m == 6 and summary.n == 1580 and summary.possible_comparisons == 15
    pairs = pd.read_csv(out / "pairs.csv")
    assert len(pairs) == 15 and pairs.groupby("reference").size().max() == 5


def test_competition_command_rejects_unknown_classes_in_one_line(capsys):
    rc = main(["competition", str(DATA), "--metric", "macro_f1", "--classes", "nope", "--n-resamples", "200"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and "'nope'" in err
