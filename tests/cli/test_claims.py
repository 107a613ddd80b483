"""Every output format states the claim and the settings; rows are sorted by score with the reference
marked; one difference sign in every command; --version; plain-text help."""
import io
import json

import numpy as np
import pandas as pd
import pytest

from conftest import run_cli, write_table
from simstats import __version__
from simstats.cli import main
from simstats.cli.output import CLAIM_FIELDS


def predictions(n=400, seed=2, accuracies=(0.62, 0.80, 0.72)):
    """Gold labels y and systems a, b, c whose observed order is not the column order."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    return pd.DataFrame({"y": y, **{name: np.where(rng.random(n) < p, y, 1 - y)
                                    for name, p in zip("abc", accuracies)}})


def long_runs(k=4, n=300, seed=5):
    rng = np.random.default_rng(seed)
    rows = []
    for system, p in (("A", 0.74), ("B", 0.78)):
        for s in range(k):
            correct = rng.random(n) < p + rng.normal(0, 0.005)
            y = np.arange(n) % 2
            rows += [{"system": system, "seed": s, "item": i, "pred": y[i] if c else 1 - y[i], "y": y[i]}
                     for i, c in enumerate(correct)]
    return pd.DataFrame(rows)


def test_compare_rows_are_sorted_by_score_with_the_reference_marked(tmp_path, capsys):
    path = write_table(tmp_path, predictions())
    code, out, _ = run_cli(capsys, "compare", path, "--n-resamples", 500, "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert code == 0 and table.system.tolist() == ["b", "c", "a"]
    assert table.score.is_monotonic_decreasing and table.role.tolist() == ["reference", "system", "system"]
    # a named reference that is not the best keeps its place in the score order
    code, out, _ = run_cli(capsys, "compare", path, "--n-resamples", 500, "--format", "csv", "--reference", "c")
    table = pd.read_csv(io.StringIO(out))
    assert table.system.tolist() == ["b", "c", "a"] and table.role.tolist() == ["system", "reference", "system"]
    assert set(table.reference) == {"c"}


@pytest.mark.parametrize("command, extra", [
    ("compare", []), ("compare-long", []), ("compare-scores", []), ("plan", []), ("competition", [])])
def test_every_format_carries_the_claim(tmp_path, capsys, command, extra):
    if command == "compare-scores":
        path = write_table(tmp_path, pd.DataFrame({"a": [0.80, 0.82, 0.81, 0.79], "b": [0.78, 0.80, 0.79, 0.80]}))
    elif command in ("compare-long", "plan"):
        path = write_table(tmp_path, long_runs())
    else:
        path = write_table(tmp_path, predictions())
    name = "compare" if command == "compare-long" else command
    args = [name, path, *extra] + ([] if command in ("compare-scores", "plan") else ["--n-resamples", 500])
    outputs = {}
    for fmt in ("csv", "json", "md" if command == "competition" else "table"):
        code, out, _ = run_cli(capsys, *args, "--format", fmt)
        assert code == 0
        outputs[fmt] = out
    claim_line = next(line for line in outputs["md" if command == "competition" else "table"].splitlines()
                      if line.startswith("claim: ") or "one decision rule" in line)
    settings = json.loads(outputs["json"])["settings"]
    assert settings.get("claim") or command == "plan"
    if command == "competition":
        ranks = pd.read_csv(io.StringIO(outputs["csv"]))
        assert set(ranks.claim) == {settings["claim"]} and set(ranks.decision_rule) == {settings["decision_rule"]}
        assert settings["decision_rule"] in claim_line
        return
    table = pd.read_csv(io.StringIO(outputs["csv"]))
    carried = [key for key in CLAIM_FIELDS if key in table.columns]
    assert "claim" in carried or command == "plan"
    for key in carried:
        assert table[key].nunique(dropna=False) == 1          # one value per output, on every row
        if key == "claim":
            assert claim_line == f"claim: {table[key].iloc[0]}"
    if command != "plan":
        assert {"alternative", "correction", "correction_scope"} <= set(carried)


def test_plan_and_compare_print_the_same_difference_with_the_same_sign(tmp_path, capsys):
    path = write_table(tmp_path, long_runs())
    code, out, _ = run_cli(capsys, "compare", path, "--format", "json")
    rows = json.loads(out)["rows"]
    reference = next(r for r in rows if r["role"] == "reference")
    other = next(r for r in rows if r["role"] == "system")
    assert reference["system"] == "B" and other["difference"] > 0          # B observed better: B minus A
    code, out, _ = run_cli(capsys, "plan", path, "--seeds", "3,5")
    first = out.splitlines()[0]
    assert f"observed difference B minus A = {other['difference']:.4g} (reference minus system" in first


def test_version_and_plain_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"simstats {__version__}\n"
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "``" not in text and ":func:" not in text and "compare-scores" in text
    for command in ("compare", "plan", "compare-scores", "competition"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "``" not in capsys.readouterr().out, command


def test_aso_decides_only_with_a_threshold_and_says_it_is_not_a_test(tmp_path, capsys):
    rng = np.random.default_rng(4)
    path = write_table(tmp_path, pd.DataFrame({"a": rng.normal(0.82, 0.01, 12), "b": rng.normal(0.80, 0.01, 12)}))
    code, out, _ = run_cli(capsys, "compare-scores", path, "--tests", "aso", "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert code == 0 and "aso_decision" not in table.columns
    assert set(table.aso_note) == {"ASO is not a test at level alpha: eps_min has no p-value, and on identical "
                                   "approaches (simulated, 5-50 runs each, alpha = 0.01) eps_min < 0.5 in 15-26 % "
                                   "and < 0.2 in 2-9 % of comparisons (docs/which-test.md)"}
    eps = table.eps_min_aso.iloc[1]
    for threshold in (0.2, 0.5):
        code, out, _ = run_cli(capsys, "compare-scores", path, "--tests", "aso", "--aso-threshold", threshold,
                               "--format", "csv")
        row = pd.read_csv(io.StringIO(out)).iloc[1]
        assert row.aso_decision == (f"a almost stochastically larger (eps_min < {threshold:g})" if eps < threshold
                                    else f"not shown (eps_min >= {threshold:g})")
    code, out, err = run_cli(capsys, "compare-scores", path, "--tests", "aso", "--aso-threshold", 0.7)
    assert code == 2 and "must be in (0, 0.5]" in err


WMT17 = __import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "wmt17_en_de_bleu_statistics.csv.gz"


def test_no_p_value_is_zero_on_the_wmt17_systems(capsys):
    """The reported case: 16 WMT17 systems, BLEU from per-sentence statistics: 15 comparisons with the
    best printed p = 0 (count/B); now (c + 1)/(B + 1) >= 1/(B + 1) in table, CSV and JSON alike."""
    code, out, _ = run_cli(capsys, "compare", WMT17, "--statistics", "--metric", "bleu", "--n-resamples", 199,
                           "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    rows = table[table.role == "system"]
    assert code == 0 and len(rows) == 15 and set(table.pvalue_rule) == {"add-one"}
    assert rows.pvalue.min() >= 1 / 200 and (rows.pvalue == 1 / 200).any()       # the smallest possible, not 0
    code, out, _ = run_cli(capsys, "compare", WMT17, "--statistics", "--metric", "bleu", "--n-resamples", 199,
                           "--pvalue-rule", "fraction", "--format", "csv")
    assert (pd.read_csv(io.StringIO(out)).pvalue == 0).any()                     # only when asked for
