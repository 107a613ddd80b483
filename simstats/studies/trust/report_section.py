"""The trust pages' part of the replication report: links to every scenario's page and whether the defaults hold
alpha on each."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simstats.studies.trust.page import DEFAULTS


def validation_section(results: Path, figures: Path, rel: str) -> tuple[list[str], list[dict]]:
    """One line per scenario page, and the report's overview row: the defaults (paired bootstrap of two runs, the
    approach t-test over seeds and items) hold alpha (alpha + 3 MCSE or less) at each scenario's parameters."""
    paths = sorted((results / "trust").glob("*/summary.csv"))
    if not paths:
        return [], []
    cells = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    size = cells[cells.truth == "identical"]
    defaults = size[[(f, t) in DEFAULTS for f, t in zip(size.family, size.test)]]
    bad = defaults.verdict == "liberal"
    overview = [{"check": "what can I trust: the defaults (paired bootstrap of two runs, approach t-test) hold alpha "
                          "at each scenario's own parameters (alpha + 3 MCSE or less)",
                 "agrees": int((~bad).sum()), "misses": int(bad.sum()), "checked": len(defaults)}]
    lines = ["Every scenario's page (`trust/<scenario>.md`): which tests hold alpha, power, the Reimers evaluations, "
             "runs needed and the minimum detectable difference at its own parameters.", "",
             "| scenario | single runs: false positives (%) | default test of approaches, false positives (%) |",
             "|---|---|---|"]
    for name, part in cells.groupby("scenario", sort=True):
        single = part[(part.truth == "identical") & (part.test == "single_run")].sort_values("seeds")
        default = part[(part.truth == "identical") & (part.test == "approach_t")].sort_values("seeds")
        s = f"{100 * single.rate.iloc[0]:.1f} ± {100 * single.mcse.iloc[0]:.1f}" if len(single) else "–"
        d = "; ".join(f"{k} seeds {100 * r:.1f} ± {100 * m:.1f}" for k, r, m in zip(default.seeds, default.rate,
                                                                                   default.mcse))
        lines.append(f"| [{name}](trust/{name}.md) | {s} | {d or '–'} |")
    lines.append("")
    misses = defaults[bad]
    if len(misses):
        lines += ["Where a default is above alpha: " + "; ".join(
            f"{r.scenario}, {r.test} at {r.seeds} seed(s): {100 * r.rate:.1f} ± {100 * r.mcse:.1f} %"
            for _, r in misses.iterrows()) + ".", ""]
    return lines, overview
