"""Section 3: Almost Stochastic Order, simstats' ``aso`` vs deepsig's ``aso`` on the same scores.

n = m = 50 and 1,000 scores (A ~ N(0.900, 0.010), B ~ N(0.899, 0.012)), 1,000 bootstrap
iterations, dt = 0.005 for the grid methods, confidence level 0.95; deepsig with num_jobs=1 (its
default).  simstats ``method="deepsig"`` integrates on deepsig's grid (same violation ratio to
1e-9, checked); ``method="exact"`` integrates the empirical quantile functions exactly.
"""
from __future__ import annotations

from simstats.stats.aso import aso

from .common import (
    PValueCheck,
    Report,
    Settings,
    best_of,
    fmt_p,
    fmt_s,
    fmt_x,
    repeat_rule,
    timed,
)
from .inputs import aso_scores

SEED = 2019
DT = 0.005


def eps_tolerance(eps_min: float, eps: float, b_ours: int, b_theirs: int) -> float:
    """eps_min = eps + z sigma_hat / c differs between the tools only through sigma_hat, estimated from
    b bootstrap iterations each (different random numbers): 0.02 + 4 (eps_min - eps) sqrt(1/b_ours + 1/b_theirs),
    i.e. four standard errors if sigma_hat's relative error is 1/sqrt(b) (1/sqrt(2b) for normal replicates,
    more for heavy-tailed ones)."""
    return 0.02 + 4 * abs(eps_min - eps) * (1 / b_ours + 1 / b_theirs) ** 0.5


def run(settings: Settings, report: Report) -> dict:
    from deepsig import aso as deepsig_aso
    from deepsig.aso import compute_violation_ratio

    b, peer_b = settings.aso_resamples, settings.deepsig_aso_resamples
    report.heading("3. ASO: simstats vs deepsig 1.2.8")
    scaled = peer_b != b
    report.line(f"Scores: A ~ N(0.900, 0.010), B ~ N(0.899, 0.012), n = m per row; {b:,} bootstrap iterations, "
                f"dt = {DT}, confidence 0.95. simstats: {repeat_rule(settings)}. deepsig (num_jobs=1): "
                + (f"timed at {peer_b:,} iterations and scaled ×{b / peer_b:g} (its cost is linear in them)."
                   if scaled else "one run.")
                + " deepsig's violation ratio eps equals simstats' method=\"deepsig\" to 1e-9 (checked); eps_min = "
                "eps + z·sigma/c differs only through the bootstrap estimate sigma (different random numbers): they "
                "agree when |Δ eps_min| ≤ 0.02 + 4·(eps_min − eps)·sqrt(1/B_simstats + 1/B_deepsig).")
    report.line()
    aso(*aso_scores(20, SEED), rng=0)  # warm-up
    check = PValueCheck()
    rows, out = [], {}
    for n in settings.aso_sizes:
        a, s_b = aso_scores(n, SEED)
        theirs_s, theirs = timed(lambda a=a, s_b=s_b: deepsig_aso(a, s_b, seed=1, num_bootstrap_iterations=peer_b,
                                                                  dt=DT, show_progress=False))
        theirs_s *= b / peer_b
        vr = compute_violation_ratio(scores_a=a, scores_b=s_b, dt=DT)
        for method in ("deepsig", "exact"):
            ours_s, runs, res = best_of(lambda: aso(a, s_b, rng=1, n_resamples=b, method=method, dt=DT), settings)  # noqa: B023
            if method == "deepsig":
                if abs(res.violation_ratio - vr) > 1e-9:
                    raise SystemExit(f"ASO violation ratio n={n}: simstats {res.violation_ratio} vs deepsig {vr}")
                check.add(f"n = m = {n:,}: eps_min, simstats method=\"deepsig\" vs deepsig", res.statistic,
                          float(theirs), b, peer_b,
                          tolerance=eps_tolerance(res.statistic, res.violation_ratio, b, peer_b))
            out[(n, method)] = (ours_s, theirs_s)
            rows.append((f"{n:,}", method, fmt_s(ours_s), runs, fmt_p(res.statistic), fmt_s(theirs_s),
                         "scaled" if scaled else "measured", fmt_p(float(theirs)), fmt_x(theirs_s / ours_s)))
    check.report(report, peer_label="deepsig", stat="eps_min")
    check.enforce()
    report.table(["n = m", "simstats method", "simstats", "runs", "simstats eps_min", "deepsig", "deepsig time",
                  "deepsig eps_min", "deepsig / simstats"], rows)
    return out
