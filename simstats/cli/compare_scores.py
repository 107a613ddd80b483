"""``simstats compare-scores``: score distributions, one score per run."""
from __future__ import annotations

import warnings

from simstats.cli.arguments import RegisteredChoices
from simstats.cli.output import BEST_ONE_SIDED, SCORES_H1, emit, sides

def run(args) -> int:
    from simstats.compare import Comparisons, compare_score_distributions
    from simstats.io.tables import read_table
    from simstats.stats.aso import NOT_A_TEST

    if args.reference == "best" and args.alternative in BEST_ONE_SIDED:
        warnings.warn(BEST_ONE_SIDED[args.alternative])
    comparisons = Comparisons(reference=args.reference, alternative=args.alternative, correction=args.correction,
                              confidence_level=args.confidence)
    out = compare_score_distributions(read_table(args.table), tests=args.tests, comparisons=comparisons,
                                      min_scores=args.min_scores, aso_alpha=args.aso_alpha,
                                      aso_threshold=args.aso_threshold, rng=args.seed, aso_method=args.aso_method)
    a = out.attrs
    tests = [t for t in args.tests if t != "aso"]
    header = (f"score distributions: {', '.join(tests) or 'no p-value test'}, correction {args.correction} over "
              f"{a['correction_scope']}\n"
              f"claim: {a['claim']}\n"
              f"H1: reference {SCORES_H1[args.alternative]} system; "
              f"{sides(args.alternative, args.confidence)} (Welch, difference of means); "
              "difference = reference minus system (of the mean scores)\n")
    if "aso" in args.tests:
        header += (f"eps_min_aso: ASO ({args.aso_method}), upper {100 * (1 - args.aso_alpha):g} % confidence bound "
                   f"of the violation ratio of 'reference almost stochastically larger'"
                   + (f", level divided by {max(1, len(out) - 1)} comparisons" if args.correction != "none" else "")
                   + "; " + (f"aso_decision: eps_min < {args.aso_threshold:g}" if args.aso_threshold is not None
                             else "no decision (set --aso-threshold)")
                   + f"\nnote: {NOT_A_TEST}\n")
    if a.get("note_untested"):
        header += f"note: {a['note_untested']}\n"
    out.attrs["aso_note"] = NOT_A_TEST if "aso" in args.tests else None
    emit(out, args.format, header)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("compare-scores", help="compare score distributions (one score per run/seed)")
    p.add_argument("table", help="CSV/TSV/parquet: long (columns system, score and optionally seed) or wide "
                                 "(one column of scores per system, one row per seed, optional seed column)")
    p.add_argument("--tests", nargs="+", default=["welch", "mwu"], choices=RegisteredChoices("simstats.compare:score_tests"),
                   help="welch, mwu (independent runs), wilcoxon (scores paired by seed id), aso (eps_min) "
                        "(default: welch mwu)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the two-sided Welch interval of the difference of means (default: 0.95)")
    p.add_argument("--aso-alpha", type=float, default=0.05, help="ASO level (default: 0.05)")
    p.add_argument("--aso-method", default="exact", choices=RegisteredChoices("simstats.stats.aso:aso_methods"),
                   help="ASO computation: exact (exact integrals of the quantile functions), grid (deepsig's grid, "
                        "first point counted), deepsig (as deepsig >= 1.2.4), or a computation registered by another "
                        "package (simstats.stats.conventions; the pipeline's Dror et al. 2019 study registers dror2019, "
                        "as the paper's released script) (default: exact)")
    p.add_argument("--aso-threshold", type=float,
                   help="decide with ASO: the reference is declared almost stochastically larger when eps_min < "
                        "this value, in (0, 0.5] (0.2 for a strict claim, Dror et al. 2019); ASO is not a test at "
                        "level alpha (default: no decision, eps_min only)")
    p.add_argument("--seed", type=int, default=0, help="seed of ASO's bootstrap (default: 0)")
    p.add_argument("--reference", default="best",
                   help="system every other is compared with (default: the best, highest mean)")
    p.add_argument("--alternative", default="two-sided", choices=["greater", "less", "two-sided"],
                   help="H1 about the reference's scores against each system's (default: two-sided); greater or "
                        "less are one-sided, meant for a reference named before seeing the data")
    p.add_argument("--correction", default="none", choices=RegisteredChoices("simstats.compare:CORRECTION_CHOICES"),
                   help="multiple-comparison correction of the p-values (default: none)")
    p.add_argument("--min-scores", type=int, default=3, help="fewest scores a system may have (default: 3)")
    p.add_argument("--format", default="table", choices=["table", "csv", "json"],
                   help="output: Markdown table, CSV or JSON (default: table)")
    p.set_defaults(func=run)
