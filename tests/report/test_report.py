"""The replication report: prediction-only overview, roles apart, notes printed once and counted only where
their computed check removes the miss, unexplained misses flagged, validation separate, figure links, wrapped
prose without repeated paragraphs, and the committed paper-scale report."""
from pathlib import Path

import pandas as pd
import pytest

from simstats.report.fidelity import fidelity_ledger
from simstats.report.replication import replication_report, scale_summary, wrap_prose
from simstats.studies.reimers2018.tables import side_by_side

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("CoNLL 2003 - NER-En", "CoNLL 2003 - NER-De", "GermEval 2014 - NER-De")


def reimers_tables(rows) -> pd.DataFrame:
    frame = pd.DataFrame([{"scenario": task, "reference": task, "table": table, "quantity": quantity, "n": n,
                           "estimate": est, "se": se, "ci_low": est - 2 * se, "ci_high": est + 2 * se,
                           "count": 50_000} for task, table, quantity, n, est, se in rows])
    return side_by_side(frame)


@pytest.fixture
def tree(tmp_path):
    results, figures = tmp_path / "out", tmp_path / "figs"
    (results / "reimers").mkdir(parents=True)
    (figures / "reimers").mkdir(parents=True)
    rows = []
    for task, pct in zip(TASKS, (31.02, 33.2, 26.8)):
        rows += [(task, "T1_eval1", "pct_significant", 1, pct, 0.02),           # agree with the paper
                 (task, "T1_eval1", "tau", 1, 0.5, 0.001),                       # fitted
                 (task, "T2_eval2", "pct_significant", 50, 33.0, 0.2)]           # misses (paper about 21-23 %)
    reimers_tables(rows).to_csv(results / "reimers/tables.csv", index=False)
    pd.DataFrame([{"scenario": "ner_en", "reference": TASKS[0], "kind": "target", "quantity": "pct_significant_eval2",
                   "value": 21.72, "fit": 21.72, "difference": 0.0, "note": "fit exact"}]
                 ).to_csv(results / "reimers/calibration_fit.csv", index=False)
    pd.DataFrame([{"scenario": "ner_en", "reference": TASKS[0], "n": n, "pct_significant": pct}
                  for n, pct in ((1, 30.7), (50, 21.7), (100, 21.2))]
                 ).to_csv(results / "reimers/closed_form_curves.csv", index=False)
    (figures / "reimers/figure4.png").write_bytes(b"png")
    (results / "reimers/tables.md").write_text("# tables\n")
    return results, figures


def test_overview_counts_predictions_only_and_lists_roles_apart(tree):
    results, figures = tree
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    overview = text.split("## Overview")[1].split("## Reimers")[0]
    predictions, others = overview.split("Other rows")
    # Reimers predictions: 3 Table 1 % significant agree, 3 Table 2 % significant miss
    row = [x for x in predictions.splitlines() if x.startswith("| Reimers")][0]
    agrees, misses, explained, unexplained = (int(x) for x in row.split(" | ")[1:5])
    assert (agrees, misses, explained + unexplained) == (3, 3, 3)
    fitted = [x for x in others.splitlines() if x.startswith("| Reimers") and "| fitted |" in x][0]
    assert fitted.split(" | ")[2:5] == ["0", "3", "0"]     # tau 0.5 vs ~0.4-0.8 of the paper


def _with_note(monkeypatch, explained_rows: int):
    """Replace Reimers' explanations by one note whose check removes the first ``explained_rows`` misses."""
    import simstats.report.fidelity as fidelity

    entry = {"match": {"paper": "reimers2018", "table": ["T2_eval2", "T4_eval3_eval4"], "column": "pct_significant"},
             "check": "fake", "text": "a stated cause of {count} misses"}
    calls = []

    def fake_check(paper, name, ledger, rows, results):
        calls.append(list(rows.index))
        return {"count": len(rows), "shown": "the computation",
                "verdicts": {i: ("agrees" if k < explained_rows else "misses") for k, i in enumerate(rows.index)}}

    monkeypatch.setattr(fidelity, "explanations", lambda paper: (entry,) if paper == "reimers2018" else ())
    monkeypatch.setattr(fidelity, "run_check", fake_check)
    return calls


def test_a_note_is_printed_once_and_counts_only_the_misses_its_check_removes(tree, monkeypatch):
    results, figures = tree
    calls = _with_note(monkeypatch, explained_rows=2)
    ledger = fidelity_ledger(results)
    missed = ledger[(ledger.verdict == "misses") & (ledger.column == "pct_significant")]
    assert len(missed) == 3 and len(calls) == 1 and calls[0] == list(missed.index)
    assert list(missed.explanation) == ["note 1", "note 1", "unexplained"]
    text = replication_report(results, figures, scale="tiny", root_seed=3, ledger=ledger)
    assert text.count("A stated cause of 3 misses") == 1
    reimers = " ".join(text.split("## Reimers")[1].split("\n## ")[0].split())
    assert "1. A stated cause of 3 misses *Computed check:* the computation. (its check removes 2 of the 3 misses" in reimers
    unexplained = int((ledger.explanation == "unexplained").sum())
    assert f"{unexplained} misses are **unexplained**" in " ".join(text.split())
    assert "6 miss" not in reimers and "3 miss (2 explained, 1 unexplained)" in reimers   # fitted tau apart
    table = text.split("## Reimers")[1].split("### Misses")[1].split("###")[0]
    assert table.count("| note 1 |") == 2 and table.count("| pct_significant | 21.72 |") == 1
    # figures are linked relative to the report's directory; missing ones are not linked
    assert "](../figs/reimers/figure4.png)" in text and "dev_vs_test.png" not in text
    assert "root seed 3" in text and "Scale: tiny" in text
    assert "[`reimers/tables.md`](reimers/tables.md)" in text and "](reimers/calibration.md)" not in text


def test_a_check_that_does_not_remove_the_miss_leaves_it_unexplained(tree, monkeypatch):
    results, figures = tree
    _with_note(monkeypatch, explained_rows=0)
    ledger = fidelity_ledger(results)
    assert set(ledger[ledger.verdict == "misses"].explanation) == {"unexplained"}
    assert (ledger.explanation == "unexplained").sum() > 3
    text = " ".join(replication_report(results, figures, scale="tiny", root_seed=3, ledger=ledger).split())
    assert f"{(ledger.verdict == 'misses').sum()} misses are **unexplained**" in text
    assert "its check removes 0 of the 3 misses" in text


def test_a_miss_without_an_explanation_is_flagged_not_dropped(tree, monkeypatch):
    results, figures = tree
    _with_note(monkeypatch, explained_rows=3)
    frame = pd.read_csv(results / "reimers/tables.csv")
    extra = reimers_tables([(TASKS[0], "T1_eval1", "delta95_test", 1, 9.0, 0.01)])
    pd.concat([frame, extra]).to_csv(results / "reimers/tables.csv", index=False)
    ledger = fidelity_ledger(results)
    row = ledger[(ledger.column == "delta95_test") & (ledger.verdict == "misses")]
    assert list(row.explanation) == ["unexplained"]
    assert set(ledger[(ledger.paper == "reimers2018") & (ledger.verdict == "misses")].explanation) == {
        "note 1", "unexplained"}
    table = replication_report(results, figures, scale="tiny", root_seed=3, ledger=ledger).split("### Misses")[1]
    assert [x for x in table.splitlines() if "delta95_test" in x][0].endswith("| fitted | unexplained |")


def test_report_prose_is_wrapped_and_no_paragraph_repeats(tree):
    results, figures = tree
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    prose = [x for x in text.splitlines() if not x.startswith(("|", "!["))]
    assert max(map(len, prose)) <= 200
    paragraphs = [p for p in text.split("\n\n") if len(p) > 200]
    assert len(paragraphs) == len(set(paragraphs))


def test_wrap_prose_keeps_tables_and_indents_list_items():
    long = "word " * 60
    out = wrap_prose(["| a | " + long + "|", "1. " + long, "- " + long])
    assert out[0].startswith("| a |") and len(out[0]) > 200
    assert all(len(x) <= 120 for x in out[1:])
    assert out[2].startswith("   word") and any(x.startswith("  word") and not x.startswith("   ") for x in out)


def test_validation_checks_sit_apart_from_published_numbers(tree):
    results, figures = tree
    (results / "competition/compstats").mkdir(parents=True)
    pd.DataFrame({"reference": ["A"], "system": ["B"], "compstats_documented": [0.03], "ours": [0.5],
                  "abs_difference": [0.47], "verdict": ["misses"]}).to_csv(
        results / "competition/compstats/check.csv", index=False)
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    overview = text.split("## Overview")[1].split("## Reimers")[0]
    assert "| CompStats' documented p-values on its data | 0 | 1 | 1 |" in overview
    assert "## Validation against known truth (not published numbers)" in text
    predictions = overview.split("Other rows")[0]
    assert "CompStats" not in predictions


def test_empty_results_are_an_error(tmp_path):
    with pytest.raises(ValueError, match="no study results found"):
        replication_report(tmp_path, tmp_path, scale="x", root_seed=0)


def test_scale_summary_names_every_study_size():
    import yaml

    from simstats.config import validate_config

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    line = scale_summary(validate_config(config))
    assert f"noise study {config['noise']['n_models']:,} models" in line
    assert f"B = {config['reimers']['n_resamples']:,}" in line and "Yeh" in line and "Dror" in line


def test_committed_paper_scale_report_links_existing_figures():
    report = ROOT / "results/paper/REPORT.md"
    if not report.exists():
        pytest.skip("no committed paper-scale report in this checkout")
    text = report.read_text()
    for figure in [line.split("](")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")]:
        assert (report.parent / figure).resolve().exists(), figure


def test_roles_say_where_a_scenarios_parameters_come_from():
    """'calibrated' only for the paper's calibrated cells of a calibrated scenario; the cells of a scenario of the
    user's say whether its parameters were fitted to data (simstats fit) or stated."""
    rows = [(name, table, quantity, 1, 0.5, 0.01) for name in ("ner", "mine", "hand")
            for table, quantity in (("T1_eval1", "tau"), ("T1_eval1", "pct_significant"))]
    frame = pd.DataFrame([{"scenario": s, "reference": TASKS[0] if s == "ner" else s, "table": t, "quantity": q,
                           "n": n, "estimate": e, "se": se, "ci_low": e - se, "ci_high": e + se, "count": 100}
                          for s, t, q, n, e, se in rows])
    roles = side_by_side(frame, origins={"ner": "calibrated", "mine": "fitted", "hand": "stated"})
    got = roles.groupby("scenario").role.agg(lambda r: sorted(set(r))).to_dict()
    assert got == {"ner": ["calibrated", "prediction"], "mine": ["fitted to data"], "hand": ["stated"]}


def _committed(name):
    path = ROOT / "results/paper" / name
    if not path.exists():
        pytest.skip("no committed paper-scale report in this checkout")
    return path


def test_committed_paper_scale_report_is_short_and_says_each_thing_once():
    text = _committed("REPORT.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 40_000
    paragraphs = [p.strip() for p in text.split("\n\n") if len(p.strip()) > 200]
    repeated = {p[:80] for p in paragraphs if paragraphs.count(p) > 1}
    assert repeated == set()
    assert max(len(x) for x in text.splitlines() if not x.startswith(("|", "!["))) <= 200


def test_committed_paper_scale_counts_equal_the_ledger():
    """The report's overview counts of predictions are the ledger's (fidelity.csv), paper by paper."""
    from simstats.report.fidelity import paper_titles

    ledger = pd.read_csv(_committed("fidelity.csv"), keep_default_na=False, na_values=[""])
    assert set(ledger.role) <= {"prediction", "fitted", "identity", "validation", "self-consistency", "analogue",
                                "input"}
    judged = ledger[ledger.verdict != "not compared"]
    assert judged.mcse.notna().all()
    missed = ledger[ledger.verdict == "misses"]
    assert (missed.explanation.str.match(r"note \d+$") | (missed.explanation == "unexplained")).all()
    text = _committed("REPORT.md").read_text(encoding="utf-8")
    overview = text.split("## Overview")[1].split("Other rows")[0]
    titles = paper_titles()
    for paper, part in ledger[ledger.role == "prediction"].groupby("paper"):
        row = [x for x in overview.splitlines() if x.startswith(f"| {titles[paper]} |")][0]
        cells = [int(x) for x in row.strip("|").split("|")[1:]]
        m = part[part.verdict == "misses"]
        assert cells == [int((part.verdict == "agrees").sum()), len(m), int(m.explanation.str.startswith("note").sum()),
                         int((m.explanation == "unexplained").sum()), int((part.verdict == "undetermined").sum()),
                         int((part.verdict == "not compared").sum())], paper
    # Figure 4 at n = 100 is judged with a Monte Carlo error of at most half a point
    f4 = ledger[(ledger.table == "F4_eval2_vs_n") & (ledger.column == "pct_significant_n100")]
    assert len(f4) == 1 and f4.mcse.iloc[0] <= 0.5 and f4.verdict.iloc[0] in ("agrees", "misses", "undetermined")
