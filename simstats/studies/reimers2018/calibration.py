"""Calibration of a task scenario's noise parameters to published numbers.

Per Reimers & Gurevych (2018) task, (sigma_seed, sigma_shift, sigma_e) are fitted to tau
and Delta95 of Table 1 and Spearman rho of Table 2 (and, for a test_shift_mixture task,
low_shift to Table 2's % significant, below); every other cell of the paper is then a
prediction.  The fit uses closed forms of the noise model (no simulation), so
it is deterministic and fast:

* X = Psi - Psi_true of one model on a fixed test set has within-set sd s_x
  (``implied_values``: quadrature over the seed distribution, delta method for F1).
  Two models' paired bootstrap difference has standard error se = sqrt(2) s_x
  (items are independent given the set, so resampling sentences recovers that variance).
* The test-score difference of two independent models is Delta ~ N(0, sigma_D^2) with
  sigma_D^2 = 2 (sd(Psi_true_test)^2 + s_x^2), hence Delta95 = z_0.975 sigma_D.
* The one-sided shift-convention p is about 1 - Phi(|Delta| / se), so pairs with
  0.04 < p < 0.05 have |Delta| / se in (z_0.95, z_0.96), and tau is the mean of |Delta|
  over that band: a truncated-normal mean.  On realised item sets the p of a pair follows the
  paired sentence bootstrap's shape instead (``simstats.sim.noise.BootstrapShape``: its skew, the
  pair-to-pair spread of its variance, and its growth with the runs' true difference;
  ``selection.significance_probability``): on ACE Events' small test set it moves tau by +0.9 %.
* Spearman rho of dev and test scores over models is (6/pi) asin(r/2) of the Pearson r
  the model implies (exact for normal scores).

The simulation then checks the fit: ``results/reimers/calibration.*`` holds both the
closed-form residuals and the simulated values of the three calibrated cells.

A ``test_shift_mixture`` task (a share ``low_prob`` of low runs whose ability drops by
``low_theta`` and whose test-only shift drops by ``low_shift``) has one more free parameter,
``low_shift``, fitted to one more published number, Table 2's % significant (Evaluation 2, best
of ``EVAL2_N`` on dev; closed form in ``selection``).  ``low_prob`` and the ratio
``low_theta / low_shift`` (the share of a low run's drop the dev split sees) are documented
assumptions taken from the scenario as configured.  tau and Delta95 are then those of a
mixture of normal differences; rho is the mixture's Spearman.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from simstats.sim.closed_forms import component_spearman, components_and_shape, implied_values
from simstats.sim.noise import realised_item_sets
from simstats.studies.reference import paper_value
from simstats.sim.scenario import Scenario
from simstats.stats.lazy import lazy_module
from simstats.studies.reimers2018.selection import evaluation_values, mixture_difference_values
from simstats.io.write import markdown_table

optimize = lazy_module("scipy.optimize")
stats = lazy_module("scipy.stats")

PARAMETERS = ("sigma_seed", "sigma_shift", "sigma_e")
TARGETS = ("tau", "delta95_test", "spearman_rho")
#: The task whose Figure 4 the paper draws (and whose shape the identifiability study varies).
FIGURE4_REFERENCE = "CoNLL 2003 - NER-En"
#: The mixture's extra parameter and the published number it is fitted to.
MIXTURE_PARAMETER = "low_shift"
MIXTURE_TARGET = "pct_significant_eval2"
#: low_theta / low_shift of the configured tasks (dev sees half of a low run's test drop): the
#: ratio used when a scenario's own low_shift is 0 and gives none.
THETA_RATIO = 1.0
#: Evaluation 2's group size in the paper's Table 2 (best of 50 runs on dev).
EVAL2_N = 50
#: Weight of Table 2's % significant (per point) against a relative 1 % of tau or Delta95: low, so
#: that where the mixture cannot reach it, tau, Delta95 and rho keep their fit.
MIXTURE_WEIGHT = 0.1
#: Band of one-sided p-values whose pairs define tau (Reimers & Gurevych 2018, Table 1).
TAU_BAND = (0.04, 0.05)
#: Upper bounds of the search (latent units, item difficulty sd = 1).
UPPER = {"sigma_seed": 0.5, "sigma_shift": 0.5, "sigma_e": 20.0, "low_shift": 2.0}
#: Typical sizes of the parameters (the least-squares scale; starting values when one is 0).
START = {"sigma_seed": 0.01, "sigma_shift": 0.01, "sigma_e": 0.6, "low_shift": 0.1}
#: Further starting values of low_shift (latent units) when the first start of a mixture fit ends neither exact
#: nor with low runs: low_shift below NO_LOW_RUNS x its typical size (the local minima seen end at 1e-4-2e-4,
#: the fitted tasks at 0.007-0.035).
MIXTURE_STARTS = (0.03, 0.06, 0.015)
NO_LOW_RUNS = 0.01


def is_mixture(scenario: Scenario) -> bool:
    return scenario.seed_distribution.family == "test_shift_mixture"


def with_parameters(scenario: Scenario, **values: float) -> Scenario:
    """The scenario with new noise parameters; ``low_shift`` moves ``low_theta`` in proportion
    (their ratio is an assumption of the scenario; THETA_RATIO when its low_shift is 0)."""
    values = {k: float(v) for k, v in values.items()}
    low = values.pop(MIXTURE_PARAMETER, None)
    if low is not None:
        sd = scenario.seed_distribution
        if sd.low_shift == 0 and sd.low_theta > 0:
            raise ValueError(f"scenario {scenario.name!r}: low_theta > 0 with low_shift = 0 leaves the ratio "
                             "low_theta / low_shift undefined")
        ratio = sd.low_theta / sd.low_shift if sd.low_shift > 0 else THETA_RATIO
        scenario = dataclasses.replace(scenario, seed_distribution=dataclasses.replace(
            sd, low_shift=low, low_theta=ratio * low))
    return dataclasses.replace(scenario, **values)


def parameters_of(scenario: Scenario) -> tuple[str, ...]:
    return PARAMETERS + ((MIXTURE_PARAMETER,) if is_mixture(scenario) else ())


def targets_of(scenario: Scenario) -> tuple[str, ...]:
    return TARGETS + ((MIXTURE_TARGET,) if is_mixture(scenario) else ())


def _parameter(scenario: Scenario, name: str) -> float:
    return float(scenario.seed_distribution.low_shift if name == MIXTURE_PARAMETER else getattr(scenario, name))


def predicted(scenario: Scenario, approach: str | None = None, item_sets: dict | None = None, *,
              eval2: bool = True) -> dict[str, float]:
    """tau, Delta95 (test) and Spearman rho the scenario implies, in F1 points (rho unitless).

    Without ``item_sets``: the expectation over dev/test sets of the configured sizes (what the
    calibration uses, independent of any seed); with them: for those realised sets.
    """
    approach = approach or scenario.approaches[0].name
    if is_mixture(scenario):
        return _predicted_mixture(scenario, approach, item_sets, eval2=eval2)
    imp = implied_values(scenario, approach, item_sets)
    s_x = imp["sd_x_test"]
    se = math.sqrt(2.0) * s_x
    sigma_d = math.sqrt(2.0 * (imp["sd_psi_true_test"] ** 2 + s_x**2))
    if item_sets is None or scenario.seed_distribution.family != "normal":   # the bootstrap as a normal with se
        lo, hi = (stats.norm.isf(p) * se / sigma_d for p in reversed(TAU_BAND))
        band = stats.norm.cdf(hi) - stats.norm.cdf(lo)
        tau = sigma_d * (stats.norm.pdf(lo) - stats.norm.pdf(hi)) / band if band > 0 else float("nan")
    else:                           # its bootstrap's shape (a normal seed distribution: one component)

        _, parts, shape = components_and_shape(scenario, approach, item_sets)
        tau = mixture_difference_values(parts, shape=shape)["tau"] / 100
    return {"tau": 100 * tau, "delta95_test": 100 * stats.norm.isf(0.025) * sigma_d,
            "spearman_rho": imp["spearman_dev_test"], "se_pair": 100 * se, "sd_psi_true_test": 100 *
            imp["sd_psi_true_test"], "sd_x_test": 100 * s_x, "sigma_delta": 100 * sigma_d}


def _predicted_mixture(scenario: Scenario, approach: str, item_sets, *, eval2: bool = True) -> dict[str, float]:
    """tau, Delta95, rho and (``eval2``) Evaluation 2's % significant of a test_shift_mixture task."""

    nodes, parts, shape = components_and_shape(scenario, approach, item_sets)
    one = mixture_difference_values(parts, shape=shape)
    two = evaluation_values(parts, EVAL2_N, shape=shape) if eval2 else {"pct_significant": float("nan")}
    w2, f = nodes["w2"], nodes["psi_test"]
    sd_true = math.sqrt(np.sum(w2 * (f - np.sum(w2 * f)) ** 2))
    return {"tau": one["tau"], "delta95_test": one["delta95_test"], "spearman_rho": component_spearman(parts),
            MIXTURE_TARGET: two["pct_significant"], "pct_significant": one["pct_significant"],
            "se_pair": one["se_pair"], "sd_psi_true_test": 100 * sd_true,
            "sd_x_test": one["se_pair"] / math.sqrt(2.0), "sigma_delta": one["sigma_delta"]}


def has_targets(scenario: Scenario) -> bool:
    """Whether the paper publishes the numbers the scenario's task is calibrated to (one of its seven
    tasks); a user's scenario is evaluated with the parameters it states."""
    return bool(scenario.reference) and all(
        paper_value("reimers2018", table, scenario.reference, column) is not None
        for table, column in (("T1_eval1", "tau"), ("T1_eval1", "delta95_test"), ("T2_eval2", "spearman_rho")))


def targets(scenario: Scenario) -> dict[str, float]:
    """The published numbers for the scenario's task (three, four for a test_shift_mixture)."""
    if not scenario.reference:
        raise ValueError(f"scenario {scenario.name!r} has no reference task to calibrate to")
    out = {
        "tau": paper_value("reimers2018", "T1_eval1", scenario.reference, "tau"),
        "delta95_test": paper_value("reimers2018", "T1_eval1", scenario.reference, "delta95_test"),
        "spearman_rho": paper_value("reimers2018", "T2_eval2", scenario.reference, "spearman_rho"),
    }
    if is_mixture(scenario):
        out[MIXTURE_TARGET] = paper_value("reimers2018", "T2_eval2", scenario.reference, "pct_significant")
    missing = [k for k, v in out.items() if v is None]
    if missing:
        raise ValueError(f"scenario {scenario.name!r}: no published {', '.join(missing)} for {scenario.reference!r}")
    return out


def _residuals(scenario: Scenario, goal: dict[str, float], free: tuple[str, ...], x: np.ndarray,
               use: tuple[str, ...], item_sets: dict | None = None) -> np.ndarray:
    sc = with_parameters(scenario, **dict(zip(free, x)))
    pred = predicted(sc, item_sets=item_sets, eval2=MIXTURE_TARGET in use)
    out = []
    for key in use:
        if key == "spearman_rho":
            out.append(pred[key] - goal[key])
        elif key == MIXTURE_TARGET:          # percent points, weighted down (MIXTURE_WEIGHT)
            out.append(MIXTURE_WEIGHT * (pred[key] - goal[key]) / 100)
        else:
            out.append((pred[key] - goal[key]) / goal[key])
    return np.asarray(out)


@dataclasses.dataclass(frozen=True)
class CalibrationResult:
    scenario: str
    parameters: dict[str, float]
    targets: dict[str, float]
    predicted: dict[str, float]
    success: bool
    message: str

    def rows(self) -> list[dict]:
        return [{"scenario": self.scenario, "quantity": k, "target": self.targets[k], "fitted": self.predicted[k],
                 "residual": self.predicted[k] - self.targets[k]} for k in (*TARGETS, MIXTURE_TARGET)
                if k in self.targets]


def calibrate(scenario: Scenario, *, fixed: dict[str, float] | None = None,
              use: tuple[str, ...] | None = None, item_sets: dict | None = None,
              from_stored: bool = True, restarts: bool = True) -> CalibrationResult:
    """Fit the free noise parameters (those not in ``fixed``) to the published ``use`` numbers.

    Deterministic: least squares from the scenario's stored values (relative residuals for tau and Delta95,
    absolute for rho), parameters bounded to [0, UPPER]; a mixture fit that ends neither exact nor with
    low runs (low_shift about 0) is restarted from MIXTURE_STARTS and the best fit kept.  A target outside
    the model's reach (a negative rho, say) leaves a residual; ``success`` says whether the fit is exact
    to 1e-4.  With ``item_sets`` (the realised dev and test sets of a run) the fit is to what
    the model implies on those sets, so that the simulation hits the targets rather than
    their expectation over set draws.  ``from_stored``: start from the scenario's own values (True)
    or from START.  ``restarts=False``: no restarts (the refit of stored parameters, which checks that they
    are a fixed point of the fit).
    """
    fixed = dict(fixed or {})
    use = targets_of(scenario) if use is None else use
    goal = targets(scenario)
    base = with_parameters(scenario, **fixed)
    names = parameters_of(scenario)
    free = tuple(p for p in names if p not in fixed)
    default = np.array([START[p] for p in free])
    upper = np.array([UPPER[p] for p in free])
    # from the stored values (a refit of a calibrated scenario ends at once), kept inside the bounds;
    # ``from_stored=False``: from the typical sizes START (a fit that must not depend on the stored point)
    start = (np.clip([_parameter(base, p) for p in free], 1e-3 * default, upper) if from_stored else default)
    starts = [start]
    if MIXTURE_PARAMETER in free and restarts:
        # the mixture's fit has local minima with no low runs (low_shift at its bound 0): where the first start
        # ends there and not exact, restart from small spreads and several low-run drops, and keep the best fit
        small = {"sigma_seed": 0.5 * START["sigma_seed"], "sigma_shift": 0.5 * START["sigma_shift"]}
        for low in MIXTURE_STARTS:
            starts.append(np.array([{**small, MIXTURE_PARAMETER: low}.get(p, s) for p, s in zip(free, start)]))
    fit = None
    for x0 in starts:
        trial = optimize.least_squares(lambda x: _residuals(base, goal, free, x, use, item_sets), x0,
                                       bounds=(np.zeros(len(free)), upper), x_scale=default, xtol=1e-12,
                                       ftol=1e-12, gtol=1e-12, max_nfev=400, method="trf")
        if fit is None or trial.cost < fit.cost:
            fit = trial
        if (np.max(np.abs(fit.fun)) < 1e-4 or MIXTURE_PARAMETER not in free
                or fit.x[free.index(MIXTURE_PARAMETER)] >= NO_LOW_RUNS * START[MIXTURE_PARAMETER]):
            break
    # a parameter at its lower bound up to a flat direction of the fit (1e-4 of its typical size) is 0
    values = {**fixed, **{p: (0.0 if v < 1e-4 * START[p] else float(v)) for p, v in zip(free, fit.x)}}
    final = with_parameters(scenario, **values)
    pred = predicted(final, item_sets=item_sets, eval2=is_mixture(final))
    exact = bool(np.max(np.abs(fit.fun)) < 1e-4)
    return CalibrationResult(scenario.name, {p: values[p] for p in names}, goal, pred, exact,
                             "fit exact" if exact else "target(s) out of reach: closest fit")


def calibration_table(scenarios, progress=None, *, root_seed: int | None = None):
    """Stored vs refitted parameters and the fit's residuals, per task; plus the no-shift check.
    With ``root_seed``, fitted on the run's realised item sets (:func:`realised_item_sets`).

    Rows (long): kind "parameter" (stored, refit, relative difference), "target" (published,
    fitted, residual) and "no_shift" (the fit with sigma_shift = 0 to tau and Delta95 only,
    and the rho it then implies: can finite-sample noise alone give the published rho?).
    """
    rows = []
    for sc in scenarios:
        item_sets = None if root_seed is None else realised_item_sets(sc, root_seed)
        fit = calibrate(sc, item_sets=item_sets, restarts=False)      # stored values: a fixed point
        for p in parameters_of(sc):
            stored, refit = _parameter(sc, p), fit.parameters[p]
            rel = abs(refit - stored) / max(abs(stored), 1e-12) if stored or refit else 0.0
            rows.append({"scenario": sc.name, "reference": sc.reference, "kind": "parameter", "quantity": p,
                         "value": stored, "fit": refit, "difference": rel, "note": fit.message})
        for k in targets_of(sc):
            rows.append({"scenario": sc.name, "reference": sc.reference, "kind": "target", "quantity": k,
                         "value": fit.targets[k], "fit": fit.predicted[k],
                         "difference": fit.predicted[k] - fit.targets[k], "note": fit.message})
        no_shift = calibrate(sc, fixed={"sigma_shift": 0.0, **({MIXTURE_PARAMETER: 0.0} if is_mixture(sc) else {})},
                             use=("tau", "delta95_test"), item_sets=item_sets)
        rows.append({"scenario": sc.name, "reference": sc.reference, "kind": "no_shift", "quantity": "spearman_rho",
                     "value": no_shift.targets["spearman_rho"], "fit": no_shift.predicted["spearman_rho"],
                     "difference": no_shift.predicted["spearman_rho"] - no_shift.targets["spearman_rho"],
                     "note": f"sigma_seed={no_shift.parameters['sigma_seed']:.4g}, "
                             f"sigma_e={no_shift.parameters['sigma_e']:.4g}"})
        if progress is not None:
            progress(f"{sc.name}: {fit.message}")
    return pd.DataFrame(rows)


def identifiability(scenario: Scenario, low_probs, theta_ratios, ns, *, item_sets: dict | None = None,
                    progress=None):
    """Refit a test_shift_mixture task under each assumed shape (share of low runs x low_theta /
    low_shift) and give, per shape, whether the four published numbers are met and the closed-form
    Figure 4 curve: the band of values the published numbers do not pin down."""

    if not is_mixture(scenario):
        raise ValueError(f"scenario {scenario.name!r}: identifiability needs a test_shift_mixture task")
    rows = []
    for prob in low_probs:
        for ratio in theta_ratios:
            sd = dataclasses.replace(scenario.seed_distribution, low_prob=float(prob),
                                     low_shift=scenario.seed_distribution.low_shift or START[MIXTURE_PARAMETER],
                                     low_theta=float(ratio) * (scenario.seed_distribution.low_shift
                                                               or START[MIXTURE_PARAMETER]))
            fit = calibrate(dataclasses.replace(scenario, seed_distribution=sd), item_sets=item_sets)
            final = with_parameters(dataclasses.replace(scenario, seed_distribution=sd), **fit.parameters)
            _, parts, shape = components_and_shape(final, final.approaches[0].name, item_sets)
            base = {"scenario": scenario.name, "reference": scenario.reference, "low_prob": float(prob),
                    "theta_ratio": float(ratio), "fit_exact": fit.success, **fit.parameters,
                    "pct_significant_eval1": mixture_difference_values(parts, shape=shape)["pct_significant"]}
            for n in sorted(set(ns)):
                rows.append({**base, "n": n, "pct_significant": evaluation_values(parts, n, shape=shape)["pct_significant"]})
            if progress is not None:
                progress(f"{scenario.name}: low_prob {prob}, ratio {ratio}: {fit.message}")
    return pd.DataFrame(rows)


def shape_scan(scenarios, low_probs, theta_ratios, *, root_seed: int, tolerance: float = 3.0, progress=None):
    """Refit every test_shift_mixture task with published targets under each assumed shape (share of low
    runs x low_theta / low_shift, the same for all tasks) on the item sets of ``root_seed``.

    One row per task and shape: the fitted parameters, whether the fit is exact, Table 1's % significant
    (Evaluation 1) and Table 2's (best of EVAL2_N on dev) in closed form, the published Table 2 value and
    whether the closed form lies within ``tolerance`` points of it.  What chose the configured ratio
    (docs/studies/reimers2018.md); slow (a fit per task and shape), so not part of the pipeline.
    """
    frames = []
    for sc in scenarios:
        if not (is_mixture(sc) and has_targets(sc)):
            continue
        table = identifiability(sc, low_probs, theta_ratios, [EVAL2_N],
                                item_sets=realised_item_sets(sc, root_seed), progress=progress)
        paper = targets(sc)[MIXTURE_TARGET]
        table = table.drop(columns="n").rename(columns={"pct_significant": "pct_significant_eval2"})
        table["paper_eval2"] = paper
        table["within_tolerance"] = (table.pct_significant_eval2 - paper).abs() <= tolerance
        frames.append(table)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def shape_scan_summary(scan):
    """Per shape: tasks whose Table 2 % significant is within tolerance, tasks fitted exactly, and the sum of
    squared Table 2 residuals (points^2), best shapes first."""
    scan = scan.assign(squared=(scan.pct_significant_eval2 - scan.paper_eval2) ** 2)
    out = scan.groupby(["low_prob", "theta_ratio"]).agg(
        within=("within_tolerance", "sum"), exact=("fit_exact", "sum"), tasks=("scenario", "size"),
        squared_residuals=("squared", "sum")).reset_index()
    return out.sort_values(["within", "squared_residuals"], ascending=[False, True], ignore_index=True)


def identifiability_band(table):
    """Per n: the range of % significant over the shapes whose fit is exact (and over all shapes)."""
    exact = table[table.fit_exact]
    out = table.groupby("n").pct_significant.agg(all_low="min", all_high="max")
    out = out.join(exact.groupby("n").pct_significant.agg(exact_low="min", exact_high="max"))
    out["exact_shapes"] = exact.groupby(["low_prob", "theta_ratio"]).ngroups
    out["shapes"] = table.groupby(["low_prob", "theta_ratio"]).ngroups
    return out.reset_index()


def identifiability_task(scenarios):
    """The task the identifiability study refits: the paper's Figure 4 task if configured, else the
    first test_shift_mixture task (by name); None when there is none."""
    mixtures = [sc for sc in sorted(scenarios, key=lambda sc: sc.name) if is_mixture(sc)]
    for sc in mixtures:
        if sc.reference == FIGURE4_REFERENCE:
            return sc
    return mixtures[0] if mixtures else None


def identifiability_markdown(table, band) -> str:
    task = table.reference.iloc[0] if len(table) else ""
    shapes = table.drop_duplicates(["low_prob", "theta_ratio"])[
        ["low_prob", "theta_ratio", "fit_exact", "sigma_seed", "sigma_shift", "sigma_e", "low_shift",
         "pct_significant_eval1"]]
    return "\n".join([
        f"# Identifiability of Figure 4 ({task})", "",
        "The share of low runs (low_prob) and the share of a low run's drop that dev sees (theta_ratio = "
        "low_theta / low_shift) are assumptions. For each assumed shape the task is refitted to its four "
        "published numbers (tau, Delta95, rho, Table 2 % significant) on the run's item sets; the band is the "
        "range of the closed-form % significant over the shapes whose fit is exact: what the published "
        "numbers pin down and what they leave open.", "",
        "## Band per n (% significant, closed form)", "",
        markdown_table(band.assign(**{c: band[c].map(lambda v: f"{v:.2f}") for c in
                                      ("all_low", "all_high", "exact_low", "exact_high")})), "",
        "## Shapes", "", markdown_table(shapes, digits=5), ""])
