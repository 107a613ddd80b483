"""Competitions with known truth: is the declared winner the best, do corrections hold the
family-wise error / FDR, do the bootstrap CIs cover?

One replicate = one simulated competition (fresh test set from the population; systems'
true scores fixed by the design), analysed exactly as an organiser would with
:func:`simstats.competition.analyse_competition`.  Every random draw is keyed by
(design, m, n, replicate), so results do not depend on how replicates are split into jobs.

A pair (i ranked above j on the test set) is a *true null* when i is not truly better than
j (true improvement <= 0: tied systems, or the ranking inverted the truth); rejecting it is
a false discovery.  Corrections are applied within each reference system's group (the
paper's and CompStats' practice, ``scope="group"``) or over all m(m-1)/2 pairs
(``scope="all"``, the family the FWER is measured on).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.stats.competition import (CompetitionAnalysis, adjusted_pvalues, analyse_competition,
                                        pair_groups)
from simstats.stats.montecarlo import mean_with_se
from simstats.stats.multitest import CORRECTIONS, quick_gc
from simstats.studies.navamunoz2024.conventions import PRESET
from simstats.studies.navamunoz2024.population import ClassifierPopulation, ExampleCompetition, StudyDesign, true_scores
from simstats.stats.engine import improvement
from simstats.sim.seeding import generator

SCOPES = ("group", "all")
#: True scores closer than this are equal (tied designs give exactly equal thetas).
TRUTH_TOL = 1e-12


def system_names(m: int) -> list[str]:
    width = len(str(m - 1))
    return [f"S{k:0{width}d}" for k in range(m)]


def replicate_row(analysis: CompetitionAnalysis, truth: dict, alpha: float) -> dict:
    """Error counts and coverage of one analysed competition against the true scores."""
    metric = analysis.metric
    t = np.array([truth[s] for s in analysis.names])
    best = t.max() if metric.higher_is_better else t.min()
    row = {"winner_correct": bool(abs(t[0] - best) <= TRUTH_TOL)}
    # the values of analysis.pairs() and its corrections, as arrays (one competition of thousands)
    pairs = analysis.pair_values()
    ref = pairs["reference_rank"] - 1
    sys_ = pairs["system_rank"] - 1
    true_gain = improvement(metric, t[ref], t[sys_])
    null = true_gain <= TRUTH_TOL
    row["true_nulls"] = int(null.sum())
    row["true_differences"] = int((~null).sum())
    p = pairs["pvalue"]
    families = {"group": pair_groups([analysis.names[a] for a in ref]), "all": [np.arange(p.size)]}
    for scope in SCOPES:
        adjusted = adjusted_pvalues(p, families[scope])
        for corr in CORRECTIONS:
            reject = adjusted[corr] < alpha
            row[f"rejections_{scope}_{corr}"] = int(reject.sum())
            row[f"false_rejections_{scope}_{corr}"] = int((reject & null).sum())
    low, high = analysis.score_interval_bounds()
    row["covered_scores"] = float(np.mean((low <= t) & (t <= high)))
    row["covered_differences"] = float(np.mean((pairs["ci_low"] <= true_gain) & (true_gain <= pairs["ci_high"])))
    return row


def simulate_cell(population: ClassifierPopulation, design: StudyDesign, m: int, n: int, replicates, *,
                  root_seed: int, n_resamples: int, alpha: float) -> pd.DataFrame:
    """One row per replicate (competition) of the design cell (m systems, n test items)."""
    scores = true_scores(population, design, m)
    thetas = np.array([population.solve_theta(float(s)) for s in scores])
    names = system_names(m)
    truth = dict(zip(names, scores))
    metric = population.metric_object()
    with quick_gc():
        rows = [_replicate(population, design, m, n, int(r), thetas, names, truth, metric, root_seed, n_resamples,
                           alpha) for r in replicates]
    return pd.DataFrame(rows)


def _replicate(population, design, m, n, r, thetas, names, truth, metric, root_seed, n_resamples, alpha) -> dict:
    """One competition: fresh test set, analysis, and its errors against the truth."""
    gold, preds = population.sample(thetas, n, generator(root_seed, "competition", design.name, m, n, r, "data"))
    analysis = analyse_competition(names, population.statistics(gold, preds), metric, n_resamples=n_resamples,
                                   rng=generator(root_seed, "competition", design.name, m, n, r, "bootstrap"),
                                   **PRESET)
    return {"design": design.name, "m": m, "n": n, "replicate": r, **replicate_row(analysis, truth, alpha)}


def summarise_study(rows: pd.DataFrame, designs: dict, populations: dict) -> pd.DataFrame:
    """Per design cell: winner-correct rate, FWER, FDR, power per scope and correction,
    CI coverage — each with its Monte Carlo standard error (competitions are independent)."""
    out = []
    for (design, m, n), g in rows.groupby(["design", "m", "n"], sort=True):
        pop = populations[designs[design].population]
        head = {"design": design, "metric": pop.metric, "m": int(m), "n": int(n), "replicates": len(g)}

        def add(quantity, values, scope="", correction=""):
            est, se, _ = mean_with_se(values)
            out.append({**head, "quantity": quantity, "scope": scope, "correction": correction,
                        "estimate": est, "mcse": se})

        add("winner_truly_best", g.winner_correct)
        add("coverage_scores", g.covered_scores)
        add("coverage_differences", g.covered_differences)
        has_null = g.true_nulls > 0
        has_diff = g.true_differences > 0
        for scope in SCOPES:
            for corr in CORRECTIONS:
                v = g[f"false_rejections_{scope}_{corr}"]
                r = g[f"rejections_{scope}_{corr}"]
                add("fwer", (v[has_null] > 0), scope, corr)
                add("fdr", v / np.maximum(r, 1), scope, corr)
                add("power", ((r - v) / g.true_differences.clip(lower=1))[has_diff], scope, corr)
    return pd.DataFrame(out)


#: Largest number of simulated test sets drawn to find one with the true ranking.
MAX_RANKING_DRAWS = 10_000


def example_competition(population: ClassifierPopulation, example: ExampleCompetition, *, root_seed: int,
                        n_resamples: int, name: str = "example", key: tuple = ()) -> tuple[CompetitionAnalysis, dict]:
    """An example competition: systems with the given true scores on one simulated test set.

    With ``example.condition_on_ranking`` the test set is redrawn (draw k from the stream
    ("competition", name, "data", k)) until the systems' observed ranking is their true ranking,
    so that the analysis compares the pairs the paper compares; the number of draws is returned
    in the truth dict as ``"draws"`` (``truth["scores"]`` holds the true scores).  ``key`` names another
    test set of the same example (streams ("competition", name, *key, ...); e.g. ("widths", k)).
    """
    names = list(example.systems)
    thetas = [population.solve_theta(v) for v in example.systems.values()]
    metric = population.metric_object()
    true_order = sorted(names, key=lambda k: example.systems[k], reverse=metric.higher_is_better)
    for draw in range(MAX_RANKING_DRAWS):
        gold, preds = population.sample(thetas, example.n, generator(root_seed, "competition", name, *key, "data", draw),
                                        class_counts=example.class_counts)
        stats = population.statistics(gold, preds)
        if not example.condition_on_ranking:
            break
        scores = metric(stats.sum(axis=1))
        observed = [names[i] for i in np.argsort(-scores if metric.higher_is_better else scores, kind="stable")]
        if observed == true_order:
            break
    else:
        raise ValueError(f"competition.examples.{name}: no simulated test set out of {MAX_RANKING_DRAWS:,} ranks the "
                         "systems in their true order; set condition_on_ranking: false")
    analysis = analyse_competition(names, stats, metric, n_resamples=n_resamples,
                                   rng=generator(root_seed, "competition", name, *key, "bootstrap"), **PRESET)
    return analysis, {"scores": dict(example.systems), "draws": draw + 1}
