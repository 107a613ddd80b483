"""The replication report: verdict counts, discrepancies with their reasons, figure links, paper numbers."""
from pathlib import Path

import pandas as pd
import pytest

from simstats.studies.reference import paper_targets
from simstats.report.replication import EXPLANATIONS, _dror_noise_targets, replication_report, scale_summary

ROOT = Path(__file__).resolve().parents[1]


def reimers_table(rows):
    columns = ["scenario", "reference", "table", "quantity", "n", "estimate", "se", "ci_low", "ci_high", "count",
               "paper", "difference", "role", "tolerance", "verdict"]
    return pd.DataFrame([dict(zip(columns, r)) for r in rows])


@pytest.fixture
def tree(tmp_path):
    results, figures = tmp_path / "out", tmp_path / "figs"
    (results / "reimers").mkdir(parents=True)
    (figures / "reimers").mkdir(parents=True)
    reimers_table([
        ("t", "Task", "T1_eval1", "pct_significant", 1, 31.0, 0.5, 30, 32, 1000, 30.0, 1.0, "prediction", "±3 points",
         "agrees"),
        ("t", "Task", "T2_eval2", "pct_significant", 50, 33.0, 1.0, 31, 35, 1000, 21.7, 11.3, "prediction",
         "±3 points", "misses"),
        ("t", "Task", "T2_eval2", "delta95_dev", 50, 0.5, 0.01, 0.48, 0.52, 1000, None, None, "prediction", "±15 %",
         "no published value"),
        ("t", "Task", "T5_delta95_means", "n3", 3, 0.9, 0.01, 0.88, 0.92, 1000, 0.8, 0.1, "prediction", "±10 %",
         "undetermined (Monte Carlo error too large)"),
    ]).to_csv(results / "reimers/tables.csv", index=False)
    (figures / "reimers/figure4.png").write_bytes(b"png")
    (results / "reimers/tables.md").write_text("# tables\n")
    return results, figures


def test_report_counts_verdicts_and_explains_each_miss(tree):
    results, figures = tree
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    overview = text.split("## Overview")[1].split("## Reimers")[0]
    # cells with a published value only: Table 1 one agrees; Table 2 one misses; Table 5 one undetermined
    assert "| Reimers Table 1 | 1 | 0 | 1 |" in overview
    assert "| Reimers Table 2 | 0 | 1 | 1 |" in overview
    assert "| Reimers Table 5 | 0 | 0 | 1 |" in overview
    discrepancies = text.split("### Discrepancies")[1]
    assert "Table 2, Task, pct_significant: ours 33 ± 1, paper 21.7 (±3 points)" in discrepancies
    why = EXPLANATIONS[("reimers", "T2_eval2")]
    assert why[1:] in discrepancies and "Unexplained" not in text
    # figures are linked relative to the report's directory; missing ones are not linked
    assert "](../figs/reimers/figure4.png)" in text and "dev_vs_test.png" not in text
    assert "root seed 3" in text and "Scale: tiny" in text
    # the study's own tables are linked where they exist, named only where they do not
    assert "[`reimers/tables.md`](reimers/tables.md)" in text and "`reimers/calibration.md`" in text
    assert "](reimers/calibration.md)" not in text


def test_a_miss_without_an_explanation_is_flagged_not_dropped(tree):
    results, figures = tree
    frame = pd.read_csv(results / "reimers/tables.csv")
    frame.loc[0, "verdict"] = "misses"          # Table 1 has an explanation; make Table 3 one that has none
    frame.loc[0, "table"] = "T3_prediction_interval"
    frame.to_csv(results / "reimers/tables.csv", index=False)
    text = replication_report(results, figures, scale="tiny", root_seed=3)
    assert "**Unexplained.**" in text and "(1 without an explanation)" in text


def test_empty_results_are_an_error(tmp_path):
    with pytest.raises(ValueError, match="no study results found"):
        replication_report(tmp_path, tmp_path, scale="x", root_seed=0)


def test_section6_numbers_are_read_from_the_shipped_targets():
    published = _dror_noise_targets(paper_targets())
    assert published[("false_positive", "mean")] == 0.502 and published[("false_positive", "sd")] == 0.0472
    assert (published[("false_positive", "q2.5")], published[("false_positive", "q97.5")]) == (0.396, 0.631)
    assert published[("false_positive", "cos_first_better")] == pytest.approx(0.262)
    assert published[("false_positive", "cos_second_better")] == pytest.approx(0.238)
    assert published[("false_negative", "mean")] == 0.134 and published[("false_negative", "sd")] == 0.07
    assert published[("false_negative", "cos_first_better")] == pytest.approx(0.874)
    assert published[("half_split", "mean")] == 0.5


def test_scale_summary_names_every_study_size():
    import yaml

    from simstats.config import validate_config

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    line = scale_summary(validate_config(config))
    assert f"noise study {config['noise']['n_models']:,} models" in line
    assert f"B = {config['reimers']['n_resamples']:,}" in line and "Yeh" in line and "Dror" in line


def test_committed_paper_scale_report_explains_every_miss():
    report = ROOT / "results/paper/REPORT.md"
    if not report.exists():
        pytest.skip("no committed paper-scale report in this checkout")
    text = report.read_text()
    assert "Unexplained" not in text
    for figure in [line.split("](")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")]:
        assert (report.parent / figure).resolve().exists(), figure
