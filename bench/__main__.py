"""``python -m bench [--quick] [--out DIR] [--only SECTION ...]``: see :mod:`bench`."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from . import __doc__ as DOC
from .common import ROOT, Report, Settings, fmt_s, fmt_x, header, load_average

SECTIONS = ("engine", "bleu", "aso", "competition", "scaling")


def summary(report: Report, results: dict, settings: Settings) -> None:
    from .engine import BOOTSTRAP, METRIC_LABEL

    report.heading("Key numbers")
    rows = []
    engine = results.get("engine")
    if engine:
        for (metric_name, peer), ratio in engine["single"].items():
            test = "paired bootstrap" if "permutation" not in peer else "approximate randomization"
            rows.append((f"single pair, {METRIC_LABEL[metric_name]}, {test}: vs {peer}", fmt_x(ratio)))
        big = engine["largest"]
        for metric_name in METRIC_LABEL:
            seconds = engine["times"][(metric_name, BOOTSTRAP, big)][0]
            rows.append((f"simstats {METRIC_LABEL[metric_name]} paired bootstrap, {big:,} pairs", f"{big / seconds:,.0f} tests/s"))
    bleu = results.get("bleu")
    if bleu:
        for (test, p), (ours, theirs) in bleu.items():
            name = "paired bootstrap" if test == "bs" else "approximate randomization"
            rows.append((f"sacrebleu {name}, {p} pair(s) (test only)", fmt_x(theirs / ours)))
    aso = results.get("aso")
    if aso:
        for (n, method), (ours, theirs) in aso.items():
            rows.append((f"ASO n = m = {n:,}, simstats method=\"{method}\" vs deepsig", fmt_x(theirs / ours)))
    competition = results.get("competition")
    if competition:
        for label, (ours, theirs) in competition.items():
            rows.append((f"competition, {label.split(':')[0]} vs CompStats", fmt_x(theirs / ours)))
    kernel = results.get("kernel")
    if kernel:
        for (metric_name, test), (gflops, ref) in kernel.items():
            rows.append((f"kernel GFLOP/s, {METRIC_LABEL[metric_name]} {test} (numpy SGEMM, same arrays)",
                         f"{gflops:.1f} ({ref:.1f}, {100 * gflops / ref:.0f} %)"))
    report.table(["measure", "value"], rows)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=DOC,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="smoke test, about 2 minutes on 2 cores: 1-100 pairs, fewer peer resamples, smaller "
                             "BLEU corpus and scaling grid; writes to figures/bench/quick/ unless --out is given")
    parser.add_argument("--out", type=Path, default=None,
                        help="directory for report.md, scaling.csv, scaling.png/.pdf (default figures/bench/, "
                             "with --quick figures/bench/quick/)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=None,
                        help="run only these sections (for development; the report is then partial)")
    args = parser.parse_args(argv)
    out = args.out or ROOT / "figures" / "bench" / ("quick" if args.quick else "")
    settings = Settings.smoke(out) if args.quick else Settings.full(out)
    sections = args.only or SECTIONS
    start = time.perf_counter()
    report = Report()
    header(report, settings)
    results = {}
    if "engine" in sections:
        from . import engine
        results["engine"] = engine.run(settings, report)
    if "bleu" in sections:
        from . import bleu
        results["bleu"] = bleu.run(settings, report)
    if "aso" in sections:
        from . import aso
        results["aso"] = aso.run(settings, report)
    if "competition" in sections:
        from . import competition
        results["competition"] = competition.run(settings, report)
    if "engine" in sections:
        from . import engine
        results["kernel"] = engine.kernel_section(settings, report, results["engine"])
    if "scaling" in sections:
        from . import scaling
        scaling.run(settings, report)
    summary(report, results, settings)
    report.line(f"Wall time of the whole run: {fmt_s(time.perf_counter() - start)}; load average (1, 5, 15 min) "
                f"at the end: {load_average()}.")
    path = settings.out / "report.md"
    report.write(path)
    print(f"\nwritten: {path}", flush=True)


if __name__ == "__main__":
    main()
