"""The noise study's part of the replication report: the noise model against its closed forms."""
from __future__ import annotations

from pathlib import Path

from simstats.io.write import figure_lines
from simstats.studies.reference import read_if_present

def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """The simulated statistics of every scenario against their closed forms: Markdown lines and rows of the report's validation overview."""
    lines, overview = [], []
    noise = read_if_present(results / "noise/summary.csv")
    if noise is not None:
        checked = noise[noise.verdict.isin(["agrees", "disagrees", "differs"])]
        ok = int((checked.verdict == "agrees").sum())
        overview.append({"check": "noise model vs its closed forms (|z| <= 3)", "agrees": ok,
                         "misses": len(checked) - ok, "checked": len(checked)})
        lines += [f"Noise model: {ok} of {len(checked)} simulated statistics agree with their closed forms "
                  f"(|z| <= 3); scenarios {', '.join(sorted(noise.scenario.unique()))}. Table: `noise/summary.md`.",
                  ""]
        lines += figure_lines(figures, rel, [("noise/conll2003_ner_en_dev_vs_test",
                                          "Dev vs test F1 of simulated CoNLL 2003 NER-En models")])
    return lines, overview
