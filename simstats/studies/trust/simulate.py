"""What can I trust, per scenario: the simulated comparisons behind a scenario's page.

Each replicate is a fresh test set drawn from the scenario's item population (its size, sentences and documents)
with training runs of its two approaches from the instance-level noise model, in two truths: ``identical`` (B's
difference 0: every rejection is false) and ``difference`` (B better by the scenario's own difference, or by
``trust.difference`` where it gives none).  Two families of comparisons:

* ``runs`` - two runs on one test set (Yeh 2000): two runs of the *same* ability (no seed or shift effect, so the
  null "equally good on the item population" is true in ``identical``), compared by the paired bootstrap over
  test units (``simstats compare``'s default for metrics other than accuracy; whole documents when the scenario
  has them), Bonett-Price's adjusted Wald (its default for accuracy without documents), approximate
  randomization, and for accuracy McNemar's test and the two-proportion z-test, which takes the two runs'
  outcomes as independent; with documents, the paired bootstrap that ignores them as well;
* ``approaches`` - is approach B better than A (Reimers & Gurevych 2018)? k runs per approach: one run each with
  the paired bootstrap (the single-run comparison of Evaluation 1), Welch's t and Mann-Whitney U over the k run
  scores, ASO (eps_min < 0.5 of the observed better approach, deepsig convention) and the approach t-test over
  seeds and items (``simstats compare``'s default with several seeds).

The studies of the identical truth also give the pilot mean squares from which the minimum detectable difference
of the approach t-test is predicted over a grid of seeds and test-set sizes.
"""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pandas as pd

from simstats.sim.noise import make_item_set, simulate_models, unit_statistics
from simstats.sim.scenario import SPLITS, ApproachSpec, Scenario, SeedDistribution
from simstats.sim.seeding import generator
from simstats.stats.approaches import approach_bootstrap, approach_t_test
from simstats.stats.analytic import adjusted_paired_difference
from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.classical import mcnemar_counts, two_proportion_z_test
from simstats.stats.metrics import get_metric
from simstats.stats.montecarlo import proportion_with_se, size_verdict
from simstats.stats.power import components_from_mean_squares, minimum_detectable_difference, variance_components
from simstats.stats.randomization import randomization_test
from simstats.studies.seed_score_tests import fill_seed_score_tests, rejects, winner_aso

STREAM = "trust"
#: Model indices of replicate r start at r * MODEL_STRIDE; the two runs of equal ability come after the approaches'.
MODEL_STRIDE = 1000
TWIN_OFFSET = 900
FAILING = ("liberal",)
APPROACH_TESTS = {"single_run": "one run per approach, paired bootstrap",
                  "welch": "Welch's t over the runs' scores",
                  "mannwhitney": "Mann-Whitney U over the runs' scores",
                  "aso_0.5": "ASO, eps_min < 0.5",
                  "approach_t": "approach t-test over seeds and items (default)"}
RUN_TESTS = {"adjusted_wald": "adjusted Wald (default: accuracy)",
             "paired_bootstrap": "paired bootstrap (default: other metrics, documents)",
             "paired_bootstrap_items": "paired bootstrap ignoring the documents",
             "randomization": "approximate randomization",
             "mcnemar": "McNemar's test",
             "two_proportion_z": "two-proportion z-test (independent outcomes)"}
PILOT = ("ms_runs", "ms_units", "ms_residual")


def true_difference(scenario: Scenario, settings) -> float:
    """The size of the difference in the power cells: the scenario's own between its two approaches, or the study's
    default (the simulated B is the better one either way)."""
    a, b = scenario.approaches
    own = abs(b.difference - a.difference)
    return own if own > 0 else settings.difference


def with_truth(scenario: Scenario, difference: float) -> Scenario:
    """The scenario with approach A at the target and B ``difference`` above it."""
    a, b = scenario.approaches
    return dataclasses.replace(scenario, approaches=(ApproachSpec(a.name, 0.0), ApproachSpec(b.name, difference)))


def _twins(scenario: Scenario) -> Scenario:
    """Runs of one ability: no seed, shift or failure effect (the two runs differ only in their errors)."""
    return dataclasses.replace(scenario, sigma_seed=0.0, sigma_shift=0.0, seed_sharing=0.0,
                               seed_distribution=SeedDistribution())


def unit_clusters(scenario: Scenario, items) -> np.ndarray | None:
    """The document of each test unit (sentence, or item), or None without documents."""
    if scenario.clusters is None:
        return None
    return np.arange(items.n_units) // scenario.clusters.size


def _labels(k: int) -> dict:
    return {"approach": np.array(["A"] * k + ["B"] * k)}


def run_tests(stats: np.ndarray, metric, clusters, n_resamples: int, rng, one_item_units: bool) -> dict:
    """p-values of the tests of two runs (``stats``: (2, units, k)) on one test set."""
    out = {"paired_bootstrap": float(paired_bootstrap(stats, metric, n_resamples=n_resamples, confidence_level=None,
                                                      clusters=clusters, rng=rng).pvalue[0])}
    if clusters is not None:
        out["paired_bootstrap_items"] = float(paired_bootstrap(stats, metric, n_resamples=n_resamples,
                                                               confidence_level=None, rng=rng).pvalue[0])
    out["randomization"] = float(randomization_test(stats, metric, n_resamples=n_resamples, clusters=clusters,
                                                    rng=rng).pvalue[0])
    if metric.name == "accuracy" and one_item_units:
        if clusters is None:
            out["adjusted_wald"] = float(adjusted_paired_difference(stats[0, :, 0], stats[1, :, 0]).pvalue)
        a, b = stats[0, :, 0] > 0, stats[1, :, 0] > 0
        out["mcnemar"] = float(mcnemar_counts(int((a & ~b).sum()), int((~a & b).sum())).pvalue)
        n = stats.shape[1]
        out["two_proportion_z"] = float(two_proportion_z_test(int(a.sum()), n, int(b.sum()), n).pvalue)
    return out


def approach_tests(stats: np.ndarray, scores: np.ndarray, k: int, metric, clusters, n_resamples: int,
                   rng) -> dict:
    """p-values (eps_min for ASO) of the tests of approaches on the first k runs of each (``stats``: (2K, units,
    k) runs A_0..A_{K-1}, B_0..B_{K-1}); Welch and Mann-Whitney U are added by the caller."""
    big_k = stats.shape[0] // 2
    rows = np.r_[0:k, big_k:big_k + k]
    st, sc = stats[rows], scores[rows]
    first = approach_bootstrap(st[[0, k]], metric, ["A", "B"], resample=("items",), n_resamples=n_resamples,
                               confidence_level=None, pvalue_rule="fraction", clusters=clusters, rng=rng)
    out = {"single_run": float(first.pvalue), "aso_0.5": winner_aso(sc[:k], sc[k:], rng)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["approach_t"] = float(approach_t_test(st, metric=metric, clusters=clusters, confidence_level=None,
                                                  **_labels(k)).pvalue)
    return out


def pilot_mean_squares(stats: np.ndarray, k: int, metric, clusters) -> dict:
    """The first k runs per approach read as a planner's pilot: its three mean squares and units."""
    big_k = stats.shape[0] // 2
    rows = np.r_[0:k, big_k:big_k + k]
    comp = variance_components(stats[rows], metric, clusters=clusters, **_labels(k))
    return {**{name: float(t.value) for name, t in zip(PILOT, comp.terms)}, "units": comp.items}


def simulate_scenario(scenario: Scenario, settings, root_seed: int, replicates) -> pd.DataFrame:
    """One row per replicate, truth, family, seeds and test: the p-value (eps_min for ASO) and whether the test
    rejects; the identical truth's rows of the largest k carry the pilot mean squares."""
    metric = get_metric(scenario.metric)
    big_k = max(settings.seeds)
    rows = []
    for truth, difference in (("identical", 0.0), ("difference", true_difference(scenario, settings))):
        sc = with_truth(scenario, difference)
        twins = _twins(sc)
        a_name, b_name = (ap.name for ap in sc.approaches)
        seed_scores = {k: ([], [], []) for k in settings.seeds}
        for r in replicates:
            item_sets = {s: make_item_set(sc, s, root_seed, STREAM, dataset=r) for s in SPLITS}
            test = item_sets["test"]
            clusters = unit_clusters(sc, test)
            batches = [simulate_models(sc, name, r * MODEL_STRIDE, r * MODEL_STRIDE + big_k, root_seed, stream=STREAM,
                                       dataset=r, item_sets=item_sets, keep_unit_stats=("test",))
                       for name in (a_name, b_name)]
            stats = np.concatenate([unit_statistics(b.unit_stats["test"], sc.metric) for b in batches])
            scores = np.concatenate([b.psi["test"] for b in batches])
            start = r * MODEL_STRIDE + TWIN_OFFSET
            pair = [simulate_models(twins, name, start, start + 1, root_seed, stream=STREAM, dataset=r,
                                    item_sets=item_sets, keep_unit_stats=("test",)) for name in (a_name, b_name)]
            pair_stats = np.concatenate([unit_statistics(b.unit_stats["test"], sc.metric) for b in pair])
            rng = generator(root_seed, STREAM, scenario.name, truth, "runs", int(r))
            one_item_units = test.n_units == test.n_items
            base = {"scenario": scenario.name, "truth": truth, "difference": difference, "replicate": int(r)}
            for name, value in run_tests(pair_stats, metric, clusters, settings.n_resamples, rng,
                                         one_item_units).items():
                rows.append({**base, "family": "runs", "seeds": 1, "test": name, "value": value})
            for k in settings.seeds:
                rng = generator(root_seed, STREAM, scenario.name, truth, "approaches", int(r), k)
                values = approach_tests(stats, scores, k, metric, clusters, settings.n_resamples, rng)
                pilot = pilot_mean_squares(stats, k, metric, clusters) if truth == "identical" and k == big_k else {}
                study = {}
                for name in APPROACH_TESTS:
                    study[name] = {**base, "family": "approaches", "seeds": k, "test": name,
                                   "value": values.get(name, math.nan), **pilot}
                    rows.append(study[name])
                a_rows, b_rows, studies = seed_scores[k]
                a_rows.append(scores[:k])
                b_rows.append(scores[big_k:big_k + k])
                studies.append(study)
        fill_seed_score_tests(seed_scores)
    for row in rows:
        row["reject"] = rejects(row["test"], row["value"], settings.alpha)
    return pd.DataFrame(rows)


def read_replicates(paths) -> pd.DataFrame:
    """The replicate rows of a scenario's chunks, in one order whatever the chunking."""
    table = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    return table.sort_values(["truth", "family", "seeds", "test", "replicate"], kind="stable").reset_index(drop=True)


def summarise(replicates: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Rejection rates with MCSE per (truth, family, seeds, test): size with a verdict against alpha +- 3 MCSE in
    the identical truth (:func:`simstats.stats.montecarlo.size_verdict`; ASO's "claims" are judged the same way),
    power in the difference truth."""
    out = []
    for (truth, family, seeds, test), cell in replicates.groupby(["truth", "family", "seeds", "test"], sort=False):
        rate, se, n = proportion_with_se(cell.reject.to_numpy(bool))
        out.append({"scenario": cell.scenario.iloc[0], "truth": truth, "family": family, "seeds": int(seeds),
                    "test": test, "difference": float(cell.difference.iloc[0]),
                    "measure": "size" if truth == "identical" else "power", "rate": rate, "mcse": se,
                    "replicates": n, "verdict": size_verdict(rate, alpha, n) if truth == "identical" else ""})
    return pd.DataFrame(out)


def minimum_detectable(replicates: pd.DataFrame, scenario: Scenario, settings, *, groups: int = 10) -> pd.DataFrame:
    """The approach t-test's minimum detectable difference (80 % power, two-sided alpha) over the grid of seeds and
    test-set sizes, from the pilot mean squares averaged over the identical truth's studies (unbiased for the
    scenario's variance components), with a jackknife MCSE over ``groups`` groups of studies."""
    pilots = replicates.dropna(subset=["ms_runs"]).drop_duplicates("replicate").sort_values("replicate")
    if pilots.empty:
        return pd.DataFrame()
    k = int(pilots.seeds.iloc[0])
    units = int(pilots.units.iloc[0])
    test_size = units

    def mdd_table(part: pd.DataFrame) -> np.ndarray:
        comp = components_from_mean_squares(*(float(part[c].mean()) for c in PILOT), runs=(k, k), items=units)
        return np.array([[minimum_detectable_difference(comp, s, max(2, int(round(m * test_size))),
                                                        alpha=settings.alpha) for m in settings.mdd_items]
                         for s in settings.mdd_seeds])

    full = mdd_table(pilots)
    labels = np.arange(len(pilots)) % groups
    leave = np.array([mdd_table(pilots[labels != g]) for g in range(min(groups, len(pilots)))])
    g = leave.shape[0]
    mcse = np.sqrt((g - 1) / g * ((leave - leave.mean(axis=0)) ** 2).sum(axis=0))
    rows = []
    for i, s in enumerate(settings.mdd_seeds):
        for j, m in enumerate(settings.mdd_items):
            rows.append({"scenario": scenario.name, "seeds": s, "units": max(2, int(round(m * test_size))),
                         "mdd": float(full[i, j]), "mcse": float(mcse[i, j])})
    return pd.DataFrame(rows)
