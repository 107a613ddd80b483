"""`simstats competition`: the ranks table, --format md|csv|json, numeric matrix.csv, report.md figures;
--preset recommended (the default) vs paper, single-setting overrides, the resolution warning; one
verdict per system in every table, figure and JSON; --statistics (BLEU on WMT17)."""
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.cli import main
from simstats.io.predictions import statistics_from_predictions
from simstats.stats.competition import analyse_competition, competition_settings
from simstats.studies.navamunoz2024.conventions import PRESET as PAPER_SETTINGS
from simstats.io.competition import case_markdown, case_tables

DATA = Path(__file__).resolve().parents[2] / "resources" / "realdata" / "compstats_competition_data.csv"
ARGS = [str(DATA), "--gold", "y", "--metric", "weighted_f1", "--n-resamples", "500", "--seed", "3"]
PAPER = [*ARGS, "--preset", "paper"]
ORIGINAL = ["scores", "differences", "pairs", "matrix", "summary"]


def run(capsys, *args):
    code = main(["competition", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _api(**settings):
    table = pd.read_csv(DATA)
    names, stats, metric = statistics_from_predictions(table, "y", metric_name="weighted_f1")
    return analyse_competition(names, stats, metric, n_resamples=500, rng=np.random.default_rng(3), **settings)


@pytest.fixture(scope="module")
def api():
    """The paper-preset analysis through the Python API (same seed, same generator)."""
    return _api(**PAPER_SETTINGS)


@pytest.fixture(scope="module")
def api_recommended():
    """The CLI's default analysis through the Python API: the library's defaults are the same."""
    return _api()


def test_json_has_settings_and_every_table_with_the_ranks(capsys, api):
    code, out, _ = run(capsys, *PAPER, "--format", "json", "--alpha", "0.1")
    assert code == 0
    doc = json.loads(out)
    s = doc["settings"]
    assert (s["metric"], s["systems"], s["items"], s["n_resamples"], s["seed"], s["alpha"]) == \
        ("weighted_f1", 6, 1580, 500, 3, 0.1)
    assert s["decision_rule"] == "no correction, alpha = 0.1"
    assert set(doc["tables"]) == {*ORIGINAL, "ranks", "matrix_significance"}
    ranks = pd.DataFrame(doc["tables"]["ranks"])
    expected = api.rank_table(alpha=0.1)
    assert ranks.columns.tolist() == expected.columns.tolist()
    assert ranks.system.tolist() == api.names and ranks["rank"].tolist() == [1, 2, 3, 4, 5, 6]
    for col in ("score", "mean_rank", "p_rank1"):
        np.testing.assert_allclose(ranks[col], expected[col], err_msg=col)
    for col in ("rank_low", "rank_high", "tie_group", "possible_winner", "tied_with"):
        assert ranks[col].tolist() == expected[col].tolist(), col
    first = doc["tables"]["ranks"][0]
    assert first["pvalue_vs_best_adjusted"] is None and first["possible_winner"] is True    # NaN: null
    assert isinstance(first["rank_low"], int) and sum(ranks.p_rank1) == pytest.approx(1)
    # the matrix is numeric in JSON too: cell (row j, column i) = improvement of i over j
    matrix = pd.DataFrame(doc["tables"]["matrix"]).set_index("system")
    pairs = api.pairs()
    for r in pairs.itertuples():
        assert matrix.loc[r.system, r.reference] == pytest.approx(r.difference)


def test_csv_prints_the_ranks_table(capsys, api):
    code, out, _ = run(capsys, *PAPER, "--format", "csv")
    assert code == 0
    ranks = pd.read_csv(io.StringIO(out))
    expected = api.rank_table()
    assert ranks.system.tolist() == api.names
    np.testing.assert_allclose(ranks.score, expected.score, rtol=0, atol=0)     # full precision
    assert ranks.rank_low.tolist() == expected.rank_low.tolist()
    assert ranks.rank_high.tolist() == expected.rank_high.tolist()
    assert ranks.possible_winner.tolist() == expected.possible_winner.tolist()


def test_markdown_is_the_case_report_with_the_ranks_section(capsys, api):
    code, out, _ = run(capsys, *PAPER)
    assert code == 0
    tables = case_tables(api)
    title = f"{DATA}: 6 systems, n = 1580, weighted_f1; 500 bootstrap samples, seed 3"
    before = case_markdown(title, {k: tables[k] for k in ORIGINAL})      # the report without the ranks
    assert out.startswith(before)
    rest = out[len(before):]
    assert rest.startswith("\n\n## Rankings with uncertainty\n") and "(no correction, alpha = 0.05)" in rest
    assert rest.count("\n## ") == 1
    assert "| system | score | rank | mean_rank | rank_low | rank_high | p_rank1 | tie_group |" in rest


def test_out_writes_numeric_matrix_significance_ranks_and_a_report_with_figures(tmp_path, capsys, api):
    out = tmp_path / "out"
    code, text, _ = run(capsys, *PAPER, "--out", str(out))
    assert code == 0
    for name in ("scores.csv", "differences.csv", "pairs.csv", "matrix.csv", "matrix_significance.csv",
                 "summary.csv", "ranks.csv", "report.md", "intervals.png", "intervals.pdf", "differences.png",
                 "differences.pdf", "bootstrap.png", "bootstrap.pdf"):
        assert (out / name).is_file(), name
    matrix = pd.read_csv(out / "matrix.csv")
    assert matrix.system.tolist() == api.names[1:] and matrix.columns[1:].tolist() == api.names[:-1]
    assert all(matrix[c].dtype == float for c in matrix.columns[1:])       # numbers only, no stars
    assert "*" not in (out / "matrix.csv").read_text()
    pairs = pd.read_csv(out / "pairs.csv")
    cells = matrix.set_index("system")
    for r in pairs.itertuples():
        assert cells.loc[r.system, r.reference] == pytest.approx(r.difference, rel=1e-9)
    assert cells.isna().to_numpy().sum() == 25 - 15                       # upper triangle empty
    sig = pd.read_csv(out / "matrix_significance.csv", keep_default_na=False)
    assert len(sig) == 15
    for corr in ("none", "bonferroni", "holm", "bh"):
        assert (sig[f"significant_{corr}"] == (pairs[f"pvalue_{corr}"] < 0.05)).all(), corr
    assert (sig["mark"] == ["***" if p < .001 else "**" if p < .01 else "*" if p < .05 else "†" if p < .1 else ""
                            for p in pairs.pvalue]).all()
    # report.md: the printed report (markdown matrix keeps its marks) followed by the figures
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith(text) and "## Figures" in report[len(text):]
    links = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", report)
    assert links == ["intervals.png", "differences.png", "bootstrap.png"]
    assert all((out / link).is_file() for link in links)
    ranks = pd.read_csv(out / "ranks.csv")
    assert ranks.rank_high.tolist() == api.rank_table().rank_high.tolist()
    summary = pd.read_csv(out / "summary.csv").iloc[0]
    assert summary.m == 6 and summary.n == 1580 and summary.possible_comparisons == 15


def test_format_must_be_md_csv_or_json(capsys):
    with pytest.raises(SystemExit) as err:
        main(["competition", *ARGS, "--format", "table"])
    assert err.value.code == 2 and "--format" in capsys.readouterr().err


# --- --preset recommended (the default) and paper; overrides; the resolution warning ---

def test_default_is_the_recommended_preset_and_matches_the_api(capsys, api_recommended):
    code, out, err = run(capsys, *ARGS, "--format", "json")
    assert code == 0 and err == ""                        # B = 500 >= floor(15 / 0.05) = 300: no warning
    doc = json.loads(out)
    s = doc["settings"]
    assert (s["preset"], s["correction_scope"], s["pvalue_rule"], s["alternative"], s["correction"]) == \
        ("recommended", "all 15 pairs", "add-one", "two-sided", "holm")
    assert s["pvalues"].startswith("two-sided") and s["pvalues"].endswith("(count + 1)/(B + 1)")
    assert s["decision_rule"] == "Holm over all pairs, alpha = 0.05" and s["claim"]
    pairs = pd.DataFrame(doc["tables"]["pairs"])
    expected = api_recommended.pairs(scope="all")
    for col in ("pvalue", "pvalue_bonferroni", "pvalue_holm", "pvalue_bh"):
        np.testing.assert_allclose(pairs[col], expected[col], err_msg=col)
    assert pairs.pvalue.min() >= 1 / 501                  # (count + 1)/(B + 1) is never below 1/(B + 1)
    # marks (pairs and matrix_significance) come from the Holm-adjusted p over all pairs
    marks = ["***" if p < .001 else "**" if p < .01 else "*" if p < .05 else "†" if p < .1 else ""
             for p in expected.pvalue_holm]
    assert pairs["mark"].tolist() == marks
    assert [r["mark"] for r in doc["tables"]["matrix_significance"]] == marks
    ranks = pd.DataFrame(doc["tables"]["ranks"])
    want = api_recommended.rank_table()
    for col in ("tie_group", "tied_with", "possible_winner"):
        assert ranks[col].tolist() == want[col].tolist(), col
    np.testing.assert_allclose(ranks.pvalue_vs_best_adjusted.astype(float), want.pvalue_vs_best_adjusted)


def _verdicts(doc) -> dict:
    """Per system, "tied with the best" as each table of the JSON says it."""
    t = doc["tables"]
    best = t["ranks"][0]["system"]
    out = {"table3": {r["system"]: not r["different"] for r in t["differences"]},
           "possible_winner": {r["system"]: r["possible_winner"] for r in t["ranks"][1:]},
           "tied_with": {r["system"]: best in (r["tied_with"] or "").split("; ") for r in t["ranks"][1:]}}
    rule = doc["settings"]["correction"]
    out["table4"] = {r["system"]: not r[f"significant_{rule}"] for r in t["matrix_significance"]
                     if r["reference"] == best}
    return out


@pytest.mark.parametrize("flags", [[], ["--correction", "bonferroni"], ["--correction-scope", "group"],
                                   ["--preset", "paper"]])
def test_one_verdict_per_system_in_every_table_and_figure(capsys, tmp_path, flags):
    """CompStats' data: BoW (Corpus) against INGEOTEC was "different" in Table 3 and Figure 2 but "tied" in
    Tables 4/5 and tied_with; now every table, the figure's colours and the JSON follow one rule."""
    from simstats.io.competition import difference_intervals_figure

    args = [a if a != "500" else "2000" for a in ARGS]
    code, out, _ = run(capsys, *args, *flags, "--format", "json", "--out", str(tmp_path))
    assert code == 0
    doc = json.loads(out)
    verdicts = _verdicts(doc)
    reference = verdicts["table3"]
    assert all(v == reference for v in verdicts.values()), verdicts
    differences = pd.read_csv(tmp_path / "differences.csv")
    assert (~differences.different).tolist() == list(reference.values())
    figure = difference_intervals_figure(differences, "weighted_f1", rule=doc["settings"]["decision_rule"])
    colours = [c.lines[0].get_color() for c in figure.axes[0].containers]
    assert colours == ["tab:red" if tied else "tab:green" for tied in reference.values()]
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.count(doc["settings"]["decision_rule"]) >= 4      # every verdict's heading names the rule
    if not flags:                      # the case the user reported: tied by the rule, CI excludes 0
        row = differences.set_index("system").loc["BoW (Corpus)"]
        assert not row.contains_zero and not row.different and reference["BoW (Corpus)"]


def test_paper_preset_keeps_the_paper_pvalues(capsys, api):
    code, out, err = run(capsys, *PAPER, "--format", "json")
    assert code == 0 and err == ""
    s = json.loads(out)["settings"]
    assert (s["preset"], s["correction_scope"], s["pvalue_rule"], s["alternative"], s["correction"]) == \
        ("paper", "each reference system's comparisons with the systems ranked below it", "fraction", "greater", "none")
    pairs = pd.DataFrame(json.loads(out)["tables"]["pairs"])
    expected = api.pairs(scope="group")
    np.testing.assert_allclose(pairs.pvalue, expected.pvalue)
    np.testing.assert_allclose(pairs.pvalue_holm, expected.pvalue_holm)
    counts = pairs.pvalue.to_numpy() * 500                 # count/B: whole counts out of B = 500
    np.testing.assert_allclose(counts, np.round(counts), atol=1e-9)


def test_single_flags_override_the_preset(capsys):
    code, out, _ = run(capsys, *ARGS, "--format", "json", "--correction-scope", "group")
    s = json.loads(out)["settings"]
    assert (s["preset"], s["correction_scope"], s["pvalue_rule"], s["alternative"], s["correction"]) == \
        ("recommended", "each reference system's comparisons with the systems ranked below it", "add-one", "two-sided", "holm")
    code, out, _ = run(capsys, *PAPER, "--format", "json", "--pvalue-rule", "add-one", "--correction-scope", "all")
    s = json.loads(out)["settings"]
    assert (s["correction_scope"], s["pvalue_rule"], s["alternative"], s["correction"]) == ("all 15 pairs", "add-one", "greater", "none")
    assert competition_settings("paper", scope="all") == {**competition_settings("paper"), "scope": "all"}


def test_old_option_names_still_work_with_a_warning(capsys):
    old = [a if a != "--n-resamples" else "--resamples" for a in ARGS]
    code, out, err = run(capsys, *old, "--format", "json", "--convention", "paper", "--scope", "all",
                         "--marks", "holm", "--pvalue", "add-one")
    assert code == 0
    s = json.loads(out)["settings"]
    assert (s["preset"], s["correction_scope"], s["correction"], s["pvalue_rule"], s["n_resamples"]) == \
        ("paper", "all 15 pairs", "holm", "add-one", 500)
    for old_name, new in (("--resamples", "--n-resamples"), ("--convention", "--preset"),
                          ("--scope", "--correction-scope"), ("--marks", "--correction"), ("--pvalue", "--pvalue-rule")):
        assert f"simstats: warning: {old_name} is renamed {new}; the old name will be removed" in err


def test_default_report_names_its_settings(capsys):
    code, out, _ = run(capsys, *ARGS)
    assert code == 0
    assert ("one decision rule: Holm over all pairs, alpha = 0.05; p-values two-sided, P*(|δ* − δ| ≥ |δ|), "
            "(count + 1)/(B + 1)") in out
    assert "significance marks, Holm over all pairs, alpha = 0.05 (Table 4)" in out
    assert "uncorrected; different: Holm over all pairs" in out and "Table 5; each correction over all pairs" in out
    assert "P*(δ* ≥ 2δ)" not in out and "no correction" not in out


@pytest.mark.parametrize("resamples, warned", [("299", True), ("300", False)])
def test_warning_when_b_cannot_reach_alpha_after_the_correction(capsys, resamples, warned):
    # 6 systems: K = 15 pairs; add-one p >= 1/(B + 1), so Holm/Bonferroni p >= 15/(B + 1): B >= 300 for p < 0.05
    args = [a if a != "500" else resamples for a in ARGS]
    code, _, err = run(capsys, *args, "--format", "csv")
    assert code == 0
    if warned:
        assert err == ("simstats: warning: 299 bootstrap samples cannot reach alpha = 0.05 after Bonferroni/Holm "
                       "over 15 pairs (smallest p-value 1/300, times 15: 0.05 >= 0.05); use 300 or more resamples "
                       "(n_resamples, --n-resamples)\n")
    else:
        assert err == ""


def test_no_resolution_warning_for_the_paper_preset(capsys):
    args = [a if a != "500" else "100" for a in PAPER]
    code, _, err = run(capsys, *args, "--format", "csv")
    assert code == 0 and err == ""                        # count/B can be 0: the rule does not apply


def test_preset_must_be_known(capsys):
    with pytest.raises(SystemExit) as err:
        main(["competition", *ARGS, "--preset", "default"])
    assert err.value.code == 2 and "--preset" in capsys.readouterr().err


WMT17 = Path(__file__).resolve().parents[1] / "data" / "wmt17_en_de_bleu_statistics.csv.gz"
WMT17_BLEU = Path(__file__).resolve().parents[1] / "data" / "wmt17_en_de_bleu_reference.csv"


def test_competition_ranks_the_16_wmt17_systems_by_bleu_from_statistics(capsys):
    code, out, err = run(capsys, str(WMT17), "--statistics", "--metric", "bleu", "--n-resamples", "1000",
                         "--format", "json")
    assert code == 0
    doc = json.loads(out)
    ranks = pd.DataFrame(doc["tables"]["ranks"])
    reference = pd.read_csv(WMT17_BLEU).sort_values("bleu", ascending=False, kind="stable")
    assert len(ranks) == 16 and ranks.system.tolist() == reference.system.tolist()
    np.testing.assert_allclose(ranks.score, reference.bleu, rtol=0, atol=1e-9)       # sacrebleu's corpus BLEU
    pairs = pd.DataFrame(doc["tables"]["pairs"])
    assert len(pairs) == 120 and pairs.pvalue.min() >= 1 / 1001                        # never 0
    assert ranks.possible_winner.iloc[0] and doc["settings"]["metric"] == "bleu"
    assert "cannot reach alpha" in err        # 120 pairs need 2,400 resamples for Holm at 0.05: said so


def test_statistics_excludes_prediction_options(capsys):
    code, out, err = run(capsys, str(WMT17), "--statistics", "--metric", "bleu", "--systems", "a", "b")
    assert code == 2 and out == "" and "--systems applies to prediction tables" in err
