"""Which test answers "is approach B better than approach A?": size and power by simulation.

Each replicate is one study a researcher could run: a fresh test set of ``items`` items drawn from
the scenario's item population, ``k`` training runs (seeds) of each approach, every run's per-item
outcomes from the instance-level noise model (:mod:`simstats.sim.noise`).  The tests compared:

* ``single_run``: one run per approach (the first seed of each), paired bootstrap over test items
  - the claim "this run beats that run on this test set";
* ``welch``, ``mannwhitney``: Welch's t test and Mann-Whitney U on the k seed scores per approach
  (items fixed: the seed scores carry the test set's own sampling error only through each score);
* ``aso_0.5``, ``aso_0.2``: Almost Stochastic Order (deepsig convention, :func:`simstats.aso`) of the
  observed better approach over the other, "better" when eps_min < 0.5 (resp. 0.2);
* ``approach_seeds``, ``approach_items``, ``approach_both``: :func:`simstats.approach_bootstrap`,
  difference of the approaches' mean score, two-sided, resampling seeds only, items only, or both;
* ``approach_t``: :func:`simstats.approach_t_test`, the default of ``simstats compare`` with
  several seeds (method-of-moments variance over seeds and items, fitted-components reference);
* ``approach_boot_t``: the same test with the variance from the seeds x items bootstrap of
  ``approach_both`` corrected for the crossed design (``approach_t_test(variance="bootstrap")``,
  computed from that bootstrap's draws);
* ``known_variance``: the benchmark a test cannot beat at its size, a z-test of the observed
  difference with the variance of the difference known: in each (variant, items, k) cell, the
  variance of the difference over the cell's identical-approach studies (computed in
  :func:`summarise`; its own Monte Carlo error is small next to the rates').

When the scenario's items come in documents, the bootstrap tests resample whole documents.

Truth: ``identical`` cells have identical approaches in the population (B's ``difference`` 0);
``difference`` cells give B a true advantage of ``difference`` (metric units).  With an approach x
item interaction (``sigma_approach_item`` > 0) two approaches of equal population mean still differ
on any one test set: a test whose claim is "on the population of items" must then resample items,
and one whose claim is "over training runs" must resample seeds.  Every rate carries its binomial
Monte Carlo standard error.
"""
from __future__ import annotations

import math
import warnings
import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from pathlib import Path

import numpy as np
import pandas as pd

from simstats.sim.noise import make_item_set, simulate_models, unit_statistics
from simstats.sim.scenario import SPLITS, Scenario, ScenarioError, parse_scenarios
from simstats.stats.lazy import lazy_module
from simstats.sim.schema import apply_schema
from simstats.stats.metrics import accuracy
from simstats.stats.aso import MIN_SCORES as ASO_MIN_SCORES
from simstats.stats.approaches import approach_bootstrap, approach_t_test, oriented_unit_values, t_reference
from simstats.stats.crossed import bootstrap_variance, crossed_variance
from simstats.stats.power import components_from_mean_squares, power, variance_components
from simstats.sim.seeding import generator
from simstats.studies.seed_score_tests import fill_seed_score_tests, rejects, seed_score_tests, winner_aso
from simstats.io.write import markdown_table

sps = lazy_module("scipy.stats")
proportion = lazy_module("statsmodels.stats.proportion")


def proportion_confint(count: int, nobs: int, **kwargs) -> tuple[float, float]:
    return tuple(float(v) for v in proportion.proportion_confint(count, nobs, **kwargs))

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")

TESTS = ("single_run", "welch", "mannwhitney", "aso_0.5", "aso_0.2", "approach_seeds", "approach_items",
         "approach_both", "approach_t", "approach_boot_t", "known_variance")
TEST_LABELS = {
    "single_run": "one run per approach, paired bootstrap over items",
    "welch": "Welch's t over seed scores",
    "mannwhitney": "Mann-Whitney U over seed scores",
    "aso_0.5": "ASO, eps_min < 0.5",
    "aso_0.2": "ASO, eps_min < 0.2",
    "approach_seeds": "approach-level, resample seeds",
    "approach_items": "approach-level, resample items",
    "approach_both": "approach-level, resample seeds and items",
    "approach_t": "approach t-test over seeds and items (default)",
    "approach_boot_t": "approach t-test, corrected bootstrap variance",
    "known_variance": "z-test with the variance known (benchmark)",
}
#: Tests computed per simulated study (the known-variance benchmark is computed from them in summarise).
STUDY_TESTS = TESTS[:-1]
#: Model indices of replicate r start at r * MODEL_STRIDE (the runs of the smaller k are the first of the larger).
MODEL_STRIDE = 1000
STREAM = "approaches"


@dataclass(frozen=True)
class ApproachStudySettings:
    """The ``approaches`` section: the validation study of approach-level comparisons."""

    base: str                          # base scenario (its two approaches are A and B)
    variants: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]   # (name, scenario field overrides)
    seeds: tuple[int, ...]
    items: tuple[int, ...]
    difference: float                  # B's true advantage in the difference cells (metric units)
    replicates: int
    n_resamples: int
    alpha: float
    #: (variant, items, truth, scenario) of every simulated cell, built from the base scenario at parse time
    cells: tuple[tuple[str, int, str, Scenario], ...] = ()
    chunk_size: int = 0                # replicates per job and variant (0: all in one job)

    def chunks(self) -> list[range]:
        """The replicates of each job of a variant (every size, truth and k; replicate r is keyed by r)."""
        size = self.chunk_size or self.replicates
        return [range(start, min(start + size, self.replicates)) for start in range(0, self.replicates, size)]

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.variants)

    def scenario(self, variant: str, items: int, truth: str) -> Scenario:
        for v, n, t, sc in self.cells:
            if (v, n, t) == (variant, items, truth):
                return sc
        raise KeyError((variant, items, truth))

    def for_variant(self, variant: str) -> "ApproachStudySettings":
        """The settings of one variant only (a job's parameters: editing another variant reruns nothing here)."""
        return dataclasses.replace(self, variants=tuple(v for v in self.variants if v[0] == variant),
                                   cells=tuple(c for c in self.cells if c[0] == variant))


def parse_approach_study(value: Mapping[str, Any], raw_scenarios: Mapping[str, Any]) -> ApproachStudySettings:
    """The schema-checked ``approaches`` section plus the checks the schema cannot express."""
    path = "approaches"
    value = apply_schema(value, SCHEMA, path)
    base = value["scenario"]
    if base not in raw_scenarios:
        raise ScenarioError(f"{path}.scenario: unknown scenario {base!r}")
    if (raw_scenarios[base] or {}).get("metric") != "accuracy":
        raise ScenarioError(f"{path}.scenario: {base!r} must use metric accuracy (test items are counted)")
    variants = tuple((name, tuple(sorted((overrides or {}).items()))) for name, overrides in value["variants"].items())
    settings = ApproachStudySettings(
        base=base, variants=variants, seeds=tuple(sorted(value["seeds"])), items=tuple(sorted(value["items"])),
        difference=float(value["difference"]), replicates=int(value["replicates"]),
        n_resamples=int(value["n_resamples"]), alpha=float(value["alpha"]),
        chunk_size=min(int(value.get("chunk_size", value["replicates"])), int(value["replicates"])))
    cells = []
    for name, _ in variants:
        for items in settings.items:
            for truth, difference in (("identical", 0.0), ("difference", settings.difference)):
                sc = variant_scenario(settings, raw_scenarios, name, items, difference)
                cells.append((name, items, truth, sc))
    return dataclasses.replace(settings, cells=tuple(cells))


def variant_scenario(settings: ApproachStudySettings, raw_scenarios: Mapping[str, Any], variant: str, items: int,
                     difference: float) -> Scenario:
    """The base scenario with the variant's overrides, ``items`` test items and B's true difference."""
    raw = dict(raw_scenarios[settings.base])
    raw.pop("replace", None)
    overrides = dict(dict(settings.variants)[variant])
    for key, val in overrides.items():
        if val is None:
            raw.pop(key, None)
        else:
            raw[key] = val
    raw["test"] = {**raw["test"], "items": int(items)}
    names = list((raw.get("approaches") or {"A": {}, "B": {}}).keys())
    if len(names) != 2:
        raise ScenarioError(f"approaches.scenario: {settings.base!r} must have exactly two approaches")
    raw["approaches"] = {names[0]: {"difference": 0.0}, names[1]: {"difference": float(difference)}}
    name = f"{settings.base}-{variant}-n{items}-d{difference:g}".replace(".", "p")
    try:
        return parse_scenarios({name: raw})[name]
    except ScenarioError as err:
        raise ScenarioError(f"approaches.variants.{variant}: {err}") from None


def replicate_tests(unit_stats: np.ndarray, scores: np.ndarray, k: int, n_resamples: int,
                    rng: np.random.Generator, clusters: np.ndarray | None = None,
                    paired: bool = False) -> dict[str, float]:
    """Every test's p-value (eps_min for ASO) on one simulated study.

    unit_stats: (2K, items, 2) per-item (correct, items) of runs A_0..A_{K-1}, B_0..B_{K-1}; the
    first k of each approach are used.  scores: (2K,) the runs' test accuracies.  clusters: the
    document of each item, if the items come in documents: the bootstrap tests then resample whole
    documents (what a user who knows the documents does).  paired: run i of A and run i of B share a seed
    id (the scenario's ``seed_sharing``): the approach-level tests pair them.
    """
    out = _resampling_tests(unit_stats, scores, k, n_resamples, rng, clusters, paired)
    big_k = unit_stats.shape[0] // 2
    welch, mannwhitney = seed_score_tests(scores[None, :k], scores[None, big_k:big_k + k])
    out["welch"], out["mannwhitney"] = float(welch[0]), float(mannwhitney[0])
    out["approach_t"] = approach_t_pvalue(unit_stats, k, clusters, paired)
    return {test: out[test] for test in study_tests(k)}


#: Columns of :func:`planner_check`.
PLANNER_COLUMNS = ("variant", "items", "seeds", "simulated_power", "predicted_power", "mcse", "z", "within_3_mcse",
                   "pilot_coverage", "pilots")
#: The planner's mean squares of a study (:func:`simstats.stats.power.variance_components`, unpaired seeds)
#: and its number of units (items, or documents when the items come in documents).
PILOT_COLUMNS = ("ms_runs", "ms_units", "ms_residual")


def _labels(k: int, paired: bool) -> dict:
    """approach (and seed ids, paired) of k runs of A then k of B, as the library functions take them."""
    ids = np.r_[0:k, 0:k]
    return {"approach": np.array(["A"] * k + ["B"] * k), "seed_id": ids if paired else None,
            "paired_seeds": bool(paired)}


def pilot_mean_squares(unit_stats: np.ndarray, k: int, clusters: np.ndarray | None,
                       paired: bool = False) -> dict[str, float]:
    """The study's first k runs per approach read as a planner's pilot: its three mean squares."""
    big_k = unit_stats.shape[0] // 2
    rows = np.r_[0:k, big_k:big_k + k]
    comp = variance_components(unit_stats[rows], accuracy, clusters=clusters, **_labels(k, paired))
    return {**{name: float(t.value) for name, t in zip(PILOT_COLUMNS, comp.terms)}, "units": comp.items}


def study_tests(k: int) -> tuple[str, ...]:
    """The tests run on a study with k runs per approach (ASO needs at least 3 scores per approach)."""
    return tuple(t for t in STUDY_TESTS if k >= ASO_MIN_SCORES or not t.startswith("aso_"))


def approach_t_pvalue(unit_stats: np.ndarray, k: int, clusters: np.ndarray | None, paired: bool = False) -> float:
    """The two-sided p-value of :func:`simstats.approach_t_test` on the first k runs of each approach."""
    big_k = unit_stats.shape[0] // 2
    rows = np.r_[0:k, big_k:big_k + k]
    with warnings.catch_warnings():             # k = 2, below the validated minimum, is studied on purpose
        warnings.filterwarnings("ignore", "2 runs per approach", UserWarning)
        return float(approach_t_test(unit_stats[rows], clusters=clusters, metric=accuracy, confidence_level=None,
                                     **_labels(k, paired)).pvalue)


def _resampling_tests(unit_stats: np.ndarray, scores: np.ndarray, k: int, n_resamples: int,
                      rng: np.random.Generator, clusters: np.ndarray | None, paired: bool = False) -> dict[str, float]:
    """The tests of :func:`replicate_tests` that draw from ``rng`` (all but Welch and Mann-Whitney U), in its
    order of draws."""
    big_k = unit_stats.shape[0] // 2
    rows = np.r_[0:k, big_k:big_k + k]
    st, sc = unit_stats[rows], scores[rows]
    out = {}
    first = approach_bootstrap(st[[0, k]], accuracy, ["A", "B"], resample=("items",), n_resamples=n_resamples,
                               confidence_level=None, pvalue_rule="fraction", clusters=clusters, rng=rng)
    out["single_run"] = float(first.pvalue)
    if k >= ASO_MIN_SCORES:
        eps = winner_aso(sc[:k], sc[k:], rng)
        out["aso_0.5"] = out["aso_0.2"] = eps
    # one bootstrap answers the three claims: each p-value is what approach_bootstrap gives with that
    # resample alone (the same draws of items and of seeds)
    res = approach_bootstrap(st, accuracy, resample=("seeds", "items"), n_resamples=n_resamples,
                             confidence_level=None, pvalue_rule="fraction", clusters=clusters, rng=rng,
                             **_labels(k, paired))
    for key, source in (("approach_seeds", "seeds"), ("approach_items", "items"), ("approach_both", "both")):
        out[key] = res.pvalues[source]
    out["approach_boot_t"] = corrected_bootstrap_pvalue(st, k, clusters, res.variance, paired)
    return out


def corrected_bootstrap_pvalue(stats: np.ndarray, k: int, clusters: np.ndarray | None, variance: dict,
                               paired: bool = False) -> float:
    """Two-sided p-value of ``approach_t_test(variance="bootstrap")`` on ``stats`` (k runs of A, then k of
    B) from the bootstrap variances ``variance`` of :func:`approach_bootstrap` on the same runs."""
    values = oriented_unit_values(stats, accuracy, clusters)
    est = crossed_variance(values[:k], values[k:], paired=paired)
    total = bootstrap_variance(variance["seeds"], variance["items"], variance["both"], runs=est.runs,
                               n_units=est.n_units, paired=paired)[0]
    delta = float(accuracy(stats[:k].sum(axis=1)).mean() - accuracy(stats[k:].sum(axis=1)).mean())
    if not total > 0:
        return 1.0
    return min(1.0, 2 * float(t_reference(est).sf(abs(delta) / math.sqrt(total))))


def simulate_variant(settings: ApproachStudySettings, variant: str, root_seed: int, progress=None,
                     replicates: range | None = None) -> pd.DataFrame:
    """Every replicate of one variant (or those in ``replicates``): rows (items, seeds, truth, replicate, test,
    value, reject).  Replicate r's data and resamples are keyed by r: any split of the replicates gives the
    same rows."""
    big_k = max(settings.seeds)
    rows = []
    seed_scores = {}        # k -> (A's seed scores, B's seed scores, the rows of their studies)
    for items in settings.items:
        for truth in ("identical", "difference"):
            sc = settings.scenario(variant, items, truth)
            a_name, b_name = (ap.name for ap in sc.approaches)
            for r in (range(settings.replicates) if replicates is None else replicates):
                item_sets = {s: make_item_set(sc, s, root_seed, STREAM, dataset=r) for s in SPLITS}
                batches = [simulate_models(sc, name, r * MODEL_STRIDE, r * MODEL_STRIDE + big_k, root_seed,
                                           stream=STREAM, dataset=r, item_sets=item_sets, keep_unit_stats=("test",))
                           for name in (a_name, b_name)]
                unit = np.concatenate([unit_statistics(b.unit_stats["test"], "accuracy") for b in batches])
                scores = np.concatenate([b.psi["test"] for b in batches])
                clusters = item_sets["test"].cluster if sc.clusters is not None else None
                paired = sc.seed_sharing > 0
                for k in settings.seeds:
                    rng = generator(root_seed, STREAM, variant, items, truth, r, k)
                    values = _resampling_tests(unit, scores, k, settings.n_resamples, rng, clusters, paired)
                    values["approach_t"] = approach_t_pvalue(unit, k, clusters, paired)
                    difference = float(scores[big_k:big_k + k].mean() - scores[:k].mean())
                    pilot = pilot_mean_squares(unit, k, clusters, paired)
                    study = {}
                    for test in study_tests(k):      # Welch and Mann-Whitney U: below, after all replicates
                        study[test] = {"variant": variant, "items": items, "seeds": k, "truth": truth,
                                       "replicate": r, "test": test, "value": values.get(test, math.nan),
                                       "difference": difference, **pilot}
                        rows.append(study[test])
                    a_rows, b_rows, studies = seed_scores.setdefault(k, ([], [], []))
                    a_rows.append(scores[:k])
                    b_rows.append(scores[big_k:big_k + k])
                    studies.append(study)
            if progress is not None:
                progress(f"{variant}: {items} items, {truth}: replicates done")
    fill_seed_score_tests(seed_scores)
    for row in rows:
        row["reject"] = rejects(row["test"], row["value"], settings.alpha)
    return pd.DataFrame(rows)


def read_replicates(paths) -> pd.DataFrame:
    """The replicate rows of simulated chunks (:func:`simulate_variant`), in one order whatever the chunking
    (variant, items, truth, replicate, seeds), so that sums over them do not depend on it."""
    replicates = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    return replicates.sort_values(["variant", "items", "truth", "replicate", "seeds"],
                                  kind="stable").reset_index(drop=True)


def known_variance_rows(replicates: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The known-variance benchmark's rows (test ``known_variance``): per (variant, items, seeds), the
    sd of the difference over the identical-approach studies, and per study whether
    |difference| / sd > z_(1 - alpha/2)."""
    studies = replicates[replicates.test == "approach_t"]
    z = float(sps.norm.isf(alpha / 2))
    parts = []
    for _, cell in studies.groupby(["variant", "items", "seeds"], sort=True):
        sd = float(cell.difference[cell.truth == "identical"].std(ddof=1))
        parts.append(cell.assign(test="known_variance", value=cell.difference.abs() / sd,
                                 reject=cell.difference.abs() / sd > z))
    return pd.concat(parts, ignore_index=True) if parts else studies.iloc[:0]


def summarise(replicates: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Rejection rate per cell and test with its binomial MCSE; null cells judged against alpha.  The
    known-variance benchmark is added from the studies' differences (:func:`known_variance_rows`)."""
    if "difference" in replicates and "known_variance" not in set(replicates.test):
        replicates = pd.concat([replicates, known_variance_rows(replicates, alpha)], ignore_index=True)
    rows = []
    keys = ["variant", "items", "seeds", "truth", "test"]
    for key, sub in replicates.groupby(keys, sort=True):
        n = len(sub)
        p = float(sub.reject.mean())
        se = math.sqrt(p * (1 - p) / n)
        row = dict(zip(keys, key))
        row.update({"rate": p, "mcse": se, "replicates": n})
        if row["truth"] == "identical":
            limit = alpha + 3 * math.sqrt(alpha * (1 - alpha) / n)
            row["holds_alpha"] = bool(p <= limit)
        else:
            row["holds_alpha"] = None
        rows.append(row)
    out = pd.DataFrame(rows)
    out["test"] = pd.Categorical(out.test, TESTS, ordered=True)
    return out.sort_values(keys).reset_index(drop=True).assign(test=lambda t: t.test.astype(str))


def planner_check(replicates: pd.DataFrame, settings: ApproachStudySettings, *, pilot_seeds: int = 3,
                  confidence: float = 0.95, max_pilots: int = 100) -> pd.DataFrame:
    """The planner (:mod:`simstats.stats.power`) against the simulated power of the approach t-test.

    Per variant and test-set size, the components come from the mean squares averaged over the cell's
    studies with the most seeds (their estimates are unbiased, so the average is close to the truth);
    from them the planner predicts the t-test's power in every difference cell, compared with the
    simulated rate (z in MCSE of the prediction).  Each study with ``pilot_seeds`` seeds per approach
    (the first ``max_pilots`` by replicate) is also read as a user's pilot (components floored):
    ``pilot_coverage`` is the share of those pilots whose ``confidence`` interval of the power meets
    the 95 % Clopper-Pearson interval of the simulated power (a simulated rate of 1 is an estimate
    too)."""
    studies = replicates[replicates.test == "approach_t"]
    if not set(PILOT_COLUMNS) <= set(studies.columns):
        return pd.DataFrame(columns=list(PLANNER_COLUMNS))
    rows = []
    for (variant, items), sub in studies.groupby(["variant", "items"], sort=True):
        k_max = int(sub.seeds.max())
        top = sub[sub.seeds == k_max]
        units = int(top.units.iloc[0])
        paired = settings.scenario(variant, int(items), "identical").seed_sharing > 0
        truth = components_from_mean_squares(*top[list(PILOT_COLUMNS)].mean(), runs=(k_max, k_max), items=units,
                                             paired=paired)
        chosen = sub[sub.seeds == pilot_seeds].sort_values(["replicate", "truth"], kind="stable").head(max_pilots)
        pilots = [components_from_mean_squares(*p, runs=(pilot_seeds, pilot_seeds), items=units, paired=paired)
                  for p in chosen[list(PILOT_COLUMNS)].itertuples(index=False)]
        for k, cell in sub[sub.truth == "difference"].groupby("seeds", sort=True):
            hits = int((cell.value < settings.alpha).sum())
            rate = hits / len(cell)
            rate_low, rate_high = proportion_confint(hits, len(cell), alpha=0.05, method="beta")
            predicted = float(power(truth, k, units, settings.difference, alpha=settings.alpha))
            mcse = math.sqrt(max(predicted * (1 - predicted), 1e-12) / len(cell))
            covered = []
            for pilot in pilots:
                low_v, high_v = pilot.variance_interval(k, units, confidence)
                low = float(power(pilot, k, units, settings.difference, alpha=settings.alpha, variance=high_v))
                high = float(power(pilot, k, units, settings.difference, alpha=settings.alpha, variance=low_v))
                covered.append(low <= rate_high and rate_low <= high)
            rows.append({"variant": variant, "items": int(items), "seeds": int(k), "simulated_power": rate,
                         "predicted_power": predicted, "mcse": mcse, "z": (rate - predicted) / mcse,
                         "within_3_mcse": bool(abs(rate - predicted) <= 3 * mcse),
                         "pilot_coverage": float(np.mean(covered)) if covered else math.nan,
                         "pilots": len(covered)})
    return pd.DataFrame(rows)


def which_test_table(summary: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Per test and variant: the largest false-positive rate over the null cells (with its MCSE), whether
    every null cell holds alpha, how many null cells are below alpha - 3 MCSE (a test that conservative
    loses power it could have), and the power range over the difference cells."""
    rows = []
    for (variant, test), sub in summary.groupby(["variant", "test"], sort=False):
        null = sub[sub.truth == "identical"]
        alt = sub[sub.truth == "difference"]
        worst = null.loc[null.rate.idxmax()] if len(null) else None
        floor = alpha - 3 * np.sqrt(alpha * (1 - alpha) / null.replicates.astype(float))
        rows.append({"variant": variant, "test": test, "label": TEST_LABELS.get(test, test),
                     "null_cells_far_below_alpha": int((null.rate < floor).sum()), "null_cells": len(null),
                     "max_false_positive": float(worst.rate) if worst is not None else math.nan,
                     "max_false_positive_mcse": float(worst.mcse) if worst is not None else math.nan,
                     "worst_cell": f"k = {int(worst.seeds)}, {int(worst['items']):,} items" if worst is not None else "",
                     "holds_alpha_everywhere": bool(null.holds_alpha.all()) if len(null) else None,
                     "power_min": float(alt.rate.min()) if len(alt) else math.nan,
                     "power_max": float(alt.rate.max()) if len(alt) else math.nan})
    out = pd.DataFrame(rows)
    out["test"] = pd.Categorical(out.test, TESTS, ordered=True)
    return out.sort_values(["variant", "test"]).assign(test=lambda t: t.test.astype(str)).reset_index(drop=True)


def study_markdown(summary: pd.DataFrame, table: pd.DataFrame, settings: ApproachStudySettings,
                   planner: pd.DataFrame | None = None) -> str:
    """The validation study as Markdown: the which-test table, the planner's check and every cell."""
    variants = "; ".join(f"`{name}`: " + (", ".join(f"{k} = {v}" for k, v in over) or "as the base")
                         for name, over in settings.variants)
    show = table.assign(**{
        "largest false-positive rate": [f"{r:.3f} ± {se:.3f} ({at})" for r, se, at in
                                        zip(table.max_false_positive, table.max_false_positive_mcse, table.worst_cell)],
        "holds alpha in every null cell": table.holds_alpha_everywhere.map({True: "yes", False: "no"}),
        "null cells below alpha - 3 MCSE": [f"{b} of {c}" for b, c in zip(table.null_cells_far_below_alpha,
                                                                        table.null_cells)],
        f"power at d = {settings.difference:g}": [f"{lo:.2f}–{hi:.2f}" for lo, hi in zip(table.power_min,
                                                                                       table.power_max)]})
    show = show[["variant", "label", "largest false-positive rate", "holds alpha in every null cell",
                 "null cells below alpha - 3 MCSE", f"power at d = {settings.difference:g}"]].rename(
        columns={"label": "test"})
    cells = summary.assign(rate=summary.rate.map(lambda v: f"{v:.3f}"), mcse=summary.mcse.map(lambda v: f"{v:.3f}"),
                           holds_alpha=summary.holds_alpha.map({True: "yes", False: "no", None: ""}))
    limit = settings.alpha + 3 * math.sqrt(settings.alpha * (1 - settings.alpha) / settings.replicates)
    return "\n".join([
        "# Which test for which claim: approaches compared over seeds and test items", "",
        f"Base scenario `{settings.base}` (accuracy), variants: {variants}. Each replicate draws a fresh test set "
        f"from the item population and k runs per approach; {settings.replicates:,} replicates per cell, "
        f"B = {settings.n_resamples:,} bootstrap resamples, alpha = {settings.alpha}. Null cells: identical "
        f"approaches in the population; difference cells: B truly {settings.difference:g} better. A null cell "
        f"holds alpha when its rate is at most alpha + 3 MCSE = {limit:.3f}. ASO rejects when eps_min of the "
        "observed better approach is below its threshold (not a p-value: its rate under the null is shown the "
        "same way).", "",
        "Claims: a test that resamples only items (single run, approach-level items) is about these runs on "
        "the population of items; a test over seed scores (Welch, Mann-Whitney U, ASO, approach-level seeds) "
        "is about the population of runs on this one test set; only resampling both is about the approaches "
        "on the population of items. With an approach x item interaction the approaches differ on every "
        "finite test set even when equal in the population, which the seed-only tests then call significant.",
        "", "## Summary per test", "", markdown_table(show, digits=3), "",
        *planner_markdown(planner),
        "## Every cell (rate ± MCSE)", "", markdown_table(cells, digits=3), ""])


def planner_markdown(planner: pd.DataFrame | None) -> list[str]:
    """The planner's check as Markdown lines (none without a check)."""
    if planner is None or not len(planner):
        return []
    within = int(planner.within_3_mcse.sum())
    return ["## The planner against the simulated power of the approach t-test", "",
            "Predicted from the components of the cell's studies with the most seeds (`simstats plan`'s model); "
            f"{within} of {len(planner)} difference cells within 3 MCSE. `pilot_coverage`: share of the first "
            f"{int(planner.pilots.max())} 3-seed studies, read as pilots, whose 95 % interval of the power meets "
            "the 95 % Clopper-Pearson interval of the simulated power (median "
            f"{planner.pilot_coverage.median():.2f}, lowest {planner.pilot_coverage.min():.2f}).", "",
            markdown_table(planner, digits=3), ""]
