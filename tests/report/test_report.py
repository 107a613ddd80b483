"""The replication report: prediction-only overview, roles apart, discrepancies with computed checks,
unexplained misses flagged, validation separate, figure links, and the committed paper-scale report."""
from pathlib import Path

import pandas as pd
import pytest

from simstats.report.replication import replication_report, scale_summary
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
    for task, pct in zip(TASKS, (31.0, 33.0, 26.0)):
        rows += [(task, "T1_eval1", "pct_significant", 1, pct, 0.2),            # agree with the paper
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
    predictions = overview.split("Fitted numbers")[0]
    # Reimers predictions: 3 Table 1 % significant agree, 3 Table 2 % significant miss
    assert "| Reimers & Gurevych (2018) |  | 3 | 3 | 0 |" in predictions
    fitted = overview.split("Fitted numbers")[1]
    assert "| Reimers & Gurevych (2018) |  | 0 | 3 | 0 |" in fitted.split("Identities")[0]   # tau 0.5 vs ~0.4-0.8


def test_each_miss_carries_its_explanation_and_computed_check(tree):
    results, figures = tree
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    discrepancies = text.split("### Discrepancies")[1]
    table2 = [line for line in discrepancies.splitlines() if "T2_eval2 pct_significant" in line]
    assert len(table2) == 1
    assert "**Why:** Table 2's % significant is one of the numbers the noise parameters are fitted to" in table2[0]
    assert "the calibrated model meets it exactly (21.70 %)" in table2[0]
    # simulated 33.0 +- 0.2 at n = 50 vs the closed form 21.7: z = 56.5
    assert ("*Computed check:* CoNLL 2003 - NER-En, n = 50: closed form 21.70 %, paper 21.72 %, simulated 33.00 ± "
            "0.20 (z = 56.5 from the closed form; fit exact)") in table2[0]
    # figures are linked relative to the report's directory; missing ones are not linked
    assert "](../figs/reimers/figure4.png)" in text and "dev_vs_test.png" not in text
    assert "root seed 3" in text and "Scale: tiny" in text
    assert "[`reimers/tables.md`](reimers/tables.md)" in text and "](reimers/calibration.md)" not in text


def test_a_miss_without_an_explanation_is_flagged_not_dropped(tree):
    results, figures = tree
    frame = pd.read_csv(results / "reimers/tables.csv")
    extra = reimers_tables([(TASKS[0], "T4_eval3_eval4", "eval3_welch_pct", 25, 15.0, 0.2)])
    pd.concat([frame, extra]).to_csv(results / "reimers/tables.csv", index=False)
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    line = [x for x in text.splitlines() if x.startswith("- T4_eval3_eval4")][0]
    unexplained = sum(x.endswith("**Unexplained.**") for x in text.splitlines())
    assert line.endswith("**Unexplained.**") and f"{unexplained} are **unexplained**" in text


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
    predictions = overview.split("Fitted numbers")[0]
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
