"""Fitting the noise model to runs, validated by simulation: each replicate simulates one set of runs from a
variant's known scenario with the instance-level simulator (:func:`simstats.sim.noise.simulate_models`), fits it
with :mod:`simstats.sim.fit` as ``simstats fit`` does, and records every parameter's estimate and interval beside
its true value (latent units with the total noise sd 1, as the fit reports them)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simstats.sim.fit import fit_outcomes, fit_scores
from simstats.sim.noise import Population, make_item_set, simulate_models
from simstats.sim.scenario import Scenario
from simstats.sim.seeding import generator
from simstats.stats.lazy import lazy_module
from simstats.stats.montecarlo import coverage_verdict, proportion_with_se

special = lazy_module("scipy.special")

#: Verdicts that count as a miss of the default.
FAILING = ("undercovers",)


@dataclass(frozen=True)
class Variant:
    """A design of runs: how many, on which splits, item-level or run-level, and the scenario they come from."""

    name: str
    scenario: Scenario
    description: str = ""
    data: str = "items"
    runs: int = 10
    splits: tuple = ("dev", "test")
    group_size: int = 0
    group_sd: float = 0.0

    @property
    def groups(self) -> np.ndarray | None:
        return np.repeat(np.arange(self.runs // self.group_size), self.group_size) if self.group_size else None


def true_values(variant: Variant, group_offsets: np.ndarray | None = None) -> dict:
    """The parameters as the fit reports them (latent units, total noise sd 1) and the target; with
    configurations, the target of the mean of their latent abilities (what the fit estimates)."""
    sc = variant.scenario
    s = sc.latent_scale
    pop = Population(sc)
    mu = pop.mu(sc.approaches[0].name)
    shift = group_offsets.mean() * s if group_offsets is not None else 0.0
    truth = {"target": float(pop.psi_true(mu + shift, "test")), "sigma_e": sc.sigma_e / s}
    if "dev" in variant.splits:
        truth.update(dev_offset=sc.dev_offset / s, sigma_seed=sc.sigma_seed / s, sigma_shift=sc.sigma_shift / s)
    else:   # test only: the seed sd carries the test-only shift
        truth["sigma_seed"] = math.hypot(sc.sigma_seed, sc.sigma_shift) / s
    truth["sigma_item"] = sc.sigma_item / s
    if sc.clusters is not None:
        truth["sigma_c"] = sc.sigma_c / s
    sd = sc.seed_distribution
    if sd.family == "failure_mixture":
        truth.update(failure_prob=sd.failure_prob, failure_shift=sd.failure_shift / s, failure_sd=sd.failure_sd / s)
    return truth


def simulate_chunk(variant: Variant, replicates, root_seed: int, n_resamples: int, confidence_level: float,
                   failure_alpha: float) -> pd.DataFrame:
    """One row per replicate and fitted parameter: truth, estimate, interval, whether it covers, basis."""
    sc = variant.scenario
    rows = []
    for replicate in replicates:
        root = int(generator(root_seed, "fit", variant.name, "runs", int(replicate)).integers(2**31 - 1))
        keep = variant.splits if variant.data == "items" else ()
        batch = simulate_models(sc, sc.approaches[0].name, 0, variant.runs, root, keep_outcomes=keep)
        offsets = None
        if variant.data == "items":
            clusters = ({p: make_item_set(sc, p, root).cluster for p in variant.splits}
                        if sc.clusters is not None else None)
            fit = fit_outcomes({p: batch.outcomes[p] for p in variant.splits}, clusters, confidence_level=confidence_level,
                               n_resamples=n_resamples, failure_alpha=failure_alpha, rng=int(replicate))
        else:
            scores = {p: np.asarray(batch.psi[p], float) for p in variant.splits}
            groups = variant.groups
            if groups is not None:   # configurations: a latent offset per configuration (probit scale)
                rng = generator(root_seed, "fit", variant.name, "configurations", int(replicate))
                offsets = variant.group_sd * rng.standard_normal(groups.max() + 1)
                scores = {p: special.ndtr(special.ndtri(x) + offsets[groups]) for p, x in scores.items()}
            sizes = {p: sc.split(p).items + sc.split(p).gold for p in variant.splits}
            fit = fit_scores(scores, metric=sc.metric, sizes=sizes, groups=groups, confidence_level=confidence_level,
                             failure_alpha=failure_alpha, rng=int(replicate))
        truth = true_values(variant, offsets)
        for name, param in fit.parameters.items():
            if name not in truth:
                continue
            rows.append({"variant": variant.name, "replicate": int(replicate), "parameter": name,
                         "truth": truth[name], "estimate": param.estimate, "low": param.low, "high": param.high,
                         "covered": param.covers(truth[name]), "basis": param.basis})
        for name in ("failure_prob",):   # a failure tail that was not found: its interval is [0, 0]
            if name in truth and name not in fit.parameters:
                rows.append({"variant": variant.name, "replicate": int(replicate), "parameter": name,
                             "truth": truth[name], "estimate": 0.0, "low": 0.0, "high": 0.0,
                             "covered": truth[name] == 0, "basis": "estimated"})
    return pd.DataFrame(rows)


def read_replicates(paths) -> pd.DataFrame:
    """The replicate rows of simulated chunks, in one order whatever the chunking."""
    replicates = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    return replicates.sort_values(["variant", "replicate", "parameter"], kind="stable").reset_index(drop=True)


def summarise(replicates: pd.DataFrame, *, alpha: float = 0.01, confidence_level: float = 0.95) -> pd.DataFrame:
    """Per variant and estimated parameter: the coverage of its interval with MCSE and a verdict against the level
    +- 3 MCSE (:func:`simstats.stats.montecarlo.coverage_verdict`), the mean estimate against the truth (with the
    MCSE of the mean) and the mean interval width.  ``alpha`` (the failed-run test's level) is not used here."""
    rows = []
    estimated = replicates[replicates.basis == "estimated"]
    for (variant, parameter), cell in estimated.groupby(["variant", "parameter"], sort=False):
        rate, se, n = proportion_with_se(cell.covered.to_numpy(bool))
        estimates = cell.estimate.to_numpy(float)
        rows.append({"variant": variant, "parameter": parameter, "truth": float(cell.truth.mean()),
                     "mean_estimate": float(estimates.mean()),
                     "mean_estimate_mcse": float(estimates.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan"),
                     "mean_width": float((cell.high - cell.low).mean()), "coverage": rate, "mcse": se,
                     "replicates": n, "nominal": confidence_level,
                     "verdict": coverage_verdict(rate, confidence_level, n)})
    return pd.DataFrame(rows)


MARKS = {"undercovers": " ▼", "overcovers": " △", "undetermined": " ?"}


def study_markdown(summary: pd.DataFrame, settings) -> str:
    """Per design of runs: every parameter's truth, mean estimate and coverage, verdicts marked."""
    lines = ["# Fitting the noise model to runs: recovery of known parameters", "",
             f"{settings.replicates:,} simulated sets of runs per design, each fitted as `simstats fit` does "
             f"({settings.n_resamples:,} bootstrap resamples, failed-run test at {settings.alpha:g}); intervals "
             f"{settings.confidence_level:.0%}.  Latent units with the total noise sd 1.  Each rate is ± its Monte "
             "Carlo standard error; ▼ a coverage below the level - 3 MCSE, △ above the level + 3 MCSE, ? too few "
             "replicates to judge.  Parameters the design cannot identify are assumed by the fit and not judged.", ""]
    for variant in settings.variants:
        cells = summary[summary.variant == variant.name]
        if not len(cells):
            continue
        sc = variant.scenario
        design = (f"{variant.runs} runs, {'item-level outcomes' if variant.data == 'items' else 'run-level scores'} on "
                  f"{' and '.join(variant.splits)} ({sc.test.n_items:,} test items"
                  + (f", clusters of {sc.clusters.size}" if sc.clusters else "") + ")"
                  + (f", configurations of {variant.group_size} runs" if variant.group_size else ""))
        lines += [f"## {variant.name}", "", f"{variant.description} {design}.".strip(), "",
                  "| parameter | truth | mean estimate | coverage | mean width |", "|---|---|---|---|---|"]
        for _, r in cells.iterrows():
            lines.append(f"| {r.parameter} | {r.truth:.4g} | {r.mean_estimate:.4g} ± {r.mean_estimate_mcse:.2g} | "
                         f"{r.coverage:.3f} ± {r.mcse:.3f}{MARKS.get(r.verdict, '')} | {r.mean_width:.3g} |")
        lines.append("")
    return "\n".join(lines)
