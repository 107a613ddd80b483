"""Section 4: a whole competition analysis, simstats' ``analyse_competition`` vs CompStats.

Both get the same predictions and produce each system's bootstrap distribution and the winner's
one-sided p-value against every other system (shift convention, fraction of resamples); simstats
additionally gives CIs and p-values of all m(m - 1)/2 pairs with corrections (all computed in the
timed call).  Cases: CompStats' own data (6 systems, 1,580 items, support-weighted F1) and a
simulated EXIST-sized competition (31 systems, 4,368 items, macro-F1 over 2 of 3 classes).
CompStats is timed at fewer bootstrap samples where it is slow and scaled linearly.
"""
from __future__ import annotations

import pandas as pd

from simstats.io.predictions import statistics_from_predictions
from simstats.stats.competition import analyse_competition, competition_settings

from .common import (ROOT, TOLERANCE_RULE, PValueCheck, Report, Settings, best_of, fmt_s, fmt_x, repeat_rule, timed)
from .inputs import simulated_competition

DATA = ROOT / "resources" / "realdata" / "compstats_competition_data.csv"
SEED = 7


def ours(table: pd.DataFrame, metric: str, resamples: int, subset=None):
    """The whole simstats analysis: statistics, bootstrap, score CIs, differences from the best, all pairs."""
    names, stats, m = statistics_from_predictions(table, "y", metric_name=metric, subset=subset)
    res = analyse_competition(names, stats, m, n_resamples=resamples, rng=SEED,
                              **competition_settings("paper"))   # CompStats' p-values
    return res, res.score_intervals(), res.differences_from_best(), res.pairs()


def compstats(table: pd.DataFrame, score_func, resamples: int):
    """(seconds, best system, observed scores, p-values of the others against the best)."""
    from CompStats.interface import Perf

    systems = [c for c in table.columns if c != "y"]

    def run():
        perf = Perf(table.y.to_numpy(), *[table[c].to_numpy() for c in systems], name=systems, score_func=score_func,
                    num_samples=resamples, n_jobs=1, use_tqdm=False)
        diff = perf.difference()
        return perf, diff, diff.p_value()

    seconds, (perf, diff, pvalues) = timed(run)
    return seconds, diff.best, dict(perf.statistic), {k: float(v) for k, v in pvalues.items()}


def run(settings: Settings, report: Report) -> dict:
    from sklearn.metrics import f1_score

    b = settings.competition_resamples
    cases = [("CompStats' data: 6 systems, n = 1,580, weighted F1", pd.read_csv(DATA), "weighted_f1", None,
              lambda y, p: f1_score(y, p, average="weighted"), settings.compstats_small_resamples),
             ("simulated: 31 systems, n = 4,368, macro-F1 (FAVOR, AGAINST)", simulated_competition(31, 4368, SEED),
              "macro_f1", ["FAVOR", "AGAINST"],
              lambda y, p: f1_score(y, p, labels=["FAVOR", "AGAINST"], average="macro"),
              settings.compstats_large_resamples)]
    report.heading("4. A whole competition: simstats vs CompStats 0.1.15")
    report.line(f"{b:,} bootstrap samples. simstats (timed for real, {repeat_rule(settings)}): statistics from the predictions, analyse_competition, score CIs, "
                "differences from the best, all pairs with corrections. CompStats (n_jobs=1): Perf + "
                "difference().p_value(), timed at the samples shown and scaled linearly to "
                f"{b:,}. Checked first: same winner, observed scores equal to 1e-9, and the winner's p-value "
                "against every other system: " + TOLERANCE_RULE + ".")
    report.line()
    ours(cases[0][1], "weighted_f1", 100)          # warm-up
    rows, out = [], {}
    check = PValueCheck()
    for label, table, metric, subset, score, peer_b in cases:
        theirs_s, best, observed, theirs_p = compstats(table, score, peer_b)
        res, *_, pairs = ours(table, metric, b, subset)
        if best != res.names[0]:
            raise SystemExit(f"{label}: CompStats' best is {best}, simstats' {res.names[0]}")
        diffs = [abs(observed[name] - s) for name, s in zip(res.names, res.scores)]
        if max(diffs) > 1e-9:
            raise SystemExit(f"{label}: observed scores differ by up to {max(diffs)}")
        vs_best = pairs[pairs.reference == res.names[0]].set_index("system").pvalue
        for name in res.names[1:]:
            check.add(f"{label.split(':')[0]}: {best} vs {name}", float(vs_best[name]), theirs_p[name], b, peer_b)
        ours_s, runs, _ = best_of(lambda: ours(table, metric, b, subset), settings)  # noqa: B023
        scaled_s = theirs_s * b / peer_b
        out[label] = (ours_s, scaled_s)
        rows.append((label, fmt_s(ours_s), runs, f"{peer_b:,}", fmt_s(theirs_s), fmt_s(scaled_s),
                     fmt_x(scaled_s / ours_s)))
    agree = sum(r[-1] for r in check.rows)
    worst = max(check.rows, key=lambda r: abs(r[1] - r[2]))
    report.line(f"p-values of the winner against every other system: {agree} of {len(check.rows)} agree; largest "
                f"difference {abs(worst[1] - worst[2]):.4f} ({worst[0]}: simstats {worst[1]:.4f}, CompStats "
                f"{worst[2]:.4f}, tolerance {worst[5]:.3g}). Smallest five and largest five by simstats' p:")
    report.line()
    ordered = sorted(check.rows, key=lambda r: r[1])
    full, check.rows = check.rows, ordered[:5] + ordered[-5:] if len(ordered) > 10 else ordered
    check.report(report, peer_label="CompStats")
    check.rows = full
    check.enforce()
    report.table(["case", "simstats", "runs", "CompStats samples timed", "CompStats measured",
                  f"CompStats at {b:,}", "CompStats / simstats"], rows)
    return out
