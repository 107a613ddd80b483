"""Planning a comparison: power, minimum detectable difference and the seeds and items needed, from pilot runs
(:func:`plan_from_runs`) or from one run per system (:func:`plan_one_run`)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simstats.compare import CLAIMS
from simstats.stats.renamed import Renamed, renamed
from simstats.io.checks import InputError
from simstats.io.runs import Runs
from simstats.stats.approaches import oriented_unit_values
from simstats.stats.metrics import Metric
from simstats.stats.tolerance import data_scale, negligible
from simstats.stats.power import (MIN_DISCORDANT, paired_item_variance, paired_item_variance_from_rates, paired_plan,
                                  plan, seeds_items_grid, variance_components)


def plan_from_runs(runs: Runs, *, seeds=(3, 5, 10, 20), items=None, alpha: float = 0.05, target: float = 0.8,
                   difference=None, confidence_level: float = 0.95, paired_seeds=None, confidence=Renamed("confidence_level")) -> pd.DataFrame:
    """The planner (:mod:`simstats.stats.power`) on pilot runs of exactly two approaches.

    Parameters
    ----------
    runs : Runs
        Pilot runs of two approaches, at least 2 seeds each, on at least 2 items.
    seeds : sequence of int
        Planned numbers of seeds per approach.
    items : sequence of int, optional
        Planned numbers of test items (default: the planner's).
    alpha : float
        Level of the planned two-sided approach t-test.
    target : float
        Target power.
    difference : float, optional
        The difference to detect (default: the pilot's observed difference).
    confidence_level : float
        Level of the intervals from the pilot's uncertainty.
    paired_seeds : bool, optional
        As in :func:`simstats.approach_t_test`.

    Returns
    -------
    pandas.DataFrame
        One row per (seeds, items): ``se`` of the estimated difference, the planned t-test's
        ``df``, ``mdd`` (minimum detectable difference at ``target`` power) and ``power`` against
        ``difference``, each with its ``confidence`` interval from the pilot's uncertainty
        (``mdd_low``/``mdd_high``, ``power_low``/``power_high``).  ``attrs`` holds the variance
        components, those floored at 0, and per number of seeds the fewest items that reach the
        target power (``items_needed``; None: no number of items does).

    Raises
    ------
    InputError
        If the runs are not of exactly two approaches, an approach has one run, there are fewer
        than 2 items, or the variance components cannot be estimated.

    Examples
    --------
    A pilot of three paired seeds per approach on 60 items:

    >>> import numpy as np
    >>> import pandas as pd
    >>> from simstats.io.runs import runs_from_approaches
    >>> from simstats.stats.approaches import approach_t_test
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.integers(0, 2, 60)
    >>> table = pd.DataFrame({"gold": gold})
    >>> for name, skill in (("A", 0.85), ("B", 0.75)):
    ...     for seed in (1, 2, 3):
    ...         table[f"{name}{seed}"] = np.where(rng.random(60) < skill, gold, 1 - gold)
    >>> runs = runs_from_approaches(table, "gold", ["A=A1,A2,A3", "B=B1,B2,B3"], paired_by_position=True)
    >>> out = plan_from_runs(runs, seeds=(3, 10), items=(60, 600))
    >>> print(out[["seeds", "items", "se", "mdd", "power"]].round(4).to_string(index=False))
     seeds  items     se    mdd  power
         3     60 0.0630 0.2362 0.1513
         3    600 0.0387 0.1759 0.3014
        10     60 0.0443 0.1285 0.3070
        10    600 0.0230 0.0689 0.7745
    >>> out.attrs["items_needed"]
    {'3': None, '10': 806}

    At the pilot's own design the planned standard error is the t-test's on the pilot:

    >>> round(approach_t_test(runs.stats, runs.metric, runs.approach, runs.seed).standard_error, 4)
    0.063
    """
    confidence = renamed("plan_from_runs", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    if len(runs.names) != 2:
        raise InputError(f"plan needs exactly two approaches, got {len(runs.names)} ({', '.join(runs.names)}); "
                         "choose two with --systems (long table) or --approach")
    few = [name for name in runs.names if runs.count(name) < 2]
    if few:
        raise InputError(f"approach {few[0]!r} has one seed (run): the planner needs at least 2 pilot seeds per "
                         "approach")
    if runs.stats.shape[1] < 2:
        raise InputError("the planner needs at least 2 test items")
    try:
        comp = variance_components(runs.stats, runs.metric, runs.approach, runs.seed, approaches=runs.names,
                                   paired_seeds=paired_seeds, clusters=runs.clusters)
    except ValueError as err:
        raise InputError(f"plan: {err}") from None
    _check_pilot_varies(comp.seed + comp.interaction + comp.residual,
                        oriented_unit_values(runs.stats, runs.metric, runs.clusters))
    observed = difference is None
    difference = abs(comp.difference) if observed else float(difference)
    out = plan(comp, seeds=seeds, items=items, difference=difference, alpha=alpha, target=target,
               confidence_level=confidence)
    grid = seeds_items_grid(comp, difference, seeds=seeds, alpha=alpha, target=target) if difference > 0 else None
    needed = {} if grid is None else {str(k): (None if math.isnan(n) else int(n))
                                      for k, n in zip(grid.seeds, grid.items_needed)}
    out.attrs.update(metric=runs.metric.name, approaches=list(runs.names), pilot_runs=list(comp.runs),
                     pilot_items=comp.items, pilot_clusters=bool(runs.clusters is not None),
                     paired_seeds=comp.paired, pilot_difference=comp.difference, sigma2_seed=comp.seed,
                     sigma2_interaction=comp.interaction, sigma2_residual=comp.residual,
                     floored=list(comp.floored), alpha=alpha, target_power=target, confidence_level=confidence,
                     power_difference=difference,
                     power_difference_source="the pilot's observed difference" if observed else "--difference",
                     items_needed=needed,
                     test="two-sided approach t-test over seeds x items (simstats compare's default)",
                     claim=CLAIMS["both"])
    return out


def _check_pilot_varies(variance: float, values) -> None:
    """Refuse a pilot in which nothing varies: the plan scales the pilot's variance, and a variance of 0 (up to
    rounding) would give a standard error and a minimum detectable difference of 0 at any size."""
    if negligible(math.sqrt(max(variance, 0.0)), data_scale(values)):
        raise InputError("plan: the pilot shows no variance (the two give the same output on every item of every "
                         "run, or differ by the same amount everywhere), so every standard error and minimum "
                         "detectable difference would be 0; pilot with outputs that vary (several seeds, a larger "
                         "or harder test set) or give the variances with --rates")


def plan_one_run(names, stats, metric: Metric, *, items=None, alpha: float = 0.05, target: float = 0.8,
                 difference=None, confidence_level: float = 0.95, clusters=None, rates=None, confidence=Renamed("confidence_level")) -> pd.DataFrame:
    """The planner for one run per system (:func:`simstats.stats.power.paired_plan`).

    A paired comparison of two runs on new test items, from a pilot (``names``, ``stats``
    (2, items, k) of two runs, per cluster with ``clusters``) or from ``rates`` = (accuracy A,
    accuracy B, disagreement rate).

    Parameters
    ----------
    names : sequence of str
        The two systems (ignored with ``rates``).
    stats : array (2, items, k)
        Pilot per-item statistics of the two runs (ignored with ``rates``).
    metric : Metric
        The metric (ignored with ``rates``: accuracy).
    items : sequence of int, optional
        Planned numbers of test items (default: 1, 2 and 4 times the pilot's; required with
        ``rates``).
    alpha : float
        Level of the planned two-sided test.
    target : float
        Target power.
    difference : float, optional
        The difference to detect (default: the pilot's observed difference; from rates,
        accuracy A minus accuracy B).
    confidence_level : float
        Level of the intervals from the pilot.
    clusters : array (items,), optional
        Cluster id per pilot item.
    rates : (float, float, float), optional
        (accuracy A, accuracy B, disagreement rate) instead of a pilot.

    Returns
    -------
    pandas.DataFrame
        One row per number of items: ``se``, ``mdd`` and ``power`` against ``difference`` with
        their ``confidence`` intervals from the pilot.  ``attrs``: the variance of the per-item
        difference, ``items_needed``, and ``few_discordant``: the planned item counts at which the
        runs would differ on fewer than :data:`~simstats.stats.power.MIN_DISCORDANT` items, where
        the paired bootstrap has less power than predicted.

    Raises
    ------
    InputError
        If there are not exactly two systems, ``rates`` are invalid or come without ``items``,
        or the pilot's variance cannot be estimated.

    Examples
    --------
    From rates: accuracies 0.80 and 0.78, the runs disagreeing on 10 % of the items.  The per-item
    difference is -1, 0 or 1, with variance 0.10 - 0.02^2:

    >>> import numpy as np
    >>> out = plan_one_run(None, None, None, rates=(0.80, 0.78, 0.10), items=(500, 1000, 2000))
    >>> print(out[["items", "se", "mdd", "power"]].round(4).to_string(index=False))
     items     se    mdd  power
       500 0.0141 0.0394 0.2930
      1000 0.0100 0.0279 0.5168
      2000 0.0071 0.0198 0.8086
    >>> round(float(np.sqrt((0.10 - 0.02 ** 2) / 1000)), 4)
    0.01
    >>> out.attrs["items_needed"], out.attrs["few_discordant"]
    (1957, [500])
    """
    confidence = renamed("plan_one_run", "confidence", "confidence_level", confidence, confidence_level, 0.95)
    if rates is not None:
        try:
            var = paired_item_variance_from_rates(*rates)
        except (TypeError, ValueError) as err:
            raise InputError(f"--rates: {err}") from None
        names, share, pilot_items = ["A", "B"], float(rates[2]), None
        if items is None:
            raise InputError("--rates needs --items (the planned test-set sizes)")
    else:
        if len(names) != 2:
            raise InputError(f"plan with one run per system needs exactly two systems, got {len(names)} "
                             f"({', '.join(map(str, names))}); choose two with --systems")
        try:
            var = paired_item_variance(stats, metric, clusters=clusters)
        except ValueError as err:
            raise InputError(f"plan: {err}") from None
        values = oriented_unit_values(np.asarray(stats, dtype=np.float64), metric, clusters)
        _check_pilot_varies(var.variance, values)
        share = float(np.mean(values[0] != values[1]))
        pilot_items = var.units
        items = (pilot_items, 2 * pilot_items, 4 * pilot_items) if items is None else items
    observed = difference is None
    difference = abs(var.difference) if observed else float(difference)
    try:
        out = paired_plan(var, items=items, difference=difference, alpha=alpha, target=target, confidence_level=confidence)
    except ValueError as err:
        raise InputError(f"plan: {err}") from None
    out.attrs["claim"] = "these two runs on new test items (not their training procedures: that needs several seeds)"
    out.attrs.update(metric=metric.name if rates is None else "accuracy", systems=[str(n) for n in names],
                     pilot_items=pilot_items, pilot_clusters=clusters is not None,
                     pilot_difference=var.difference, variance_per_item=var.variance, alpha=alpha,
                     target_power=target, confidence_level=confidence, power_difference=difference,
                     power_difference_source=("accuracy A minus accuracy B" if rates is not None and observed else
                                              "the pilot's observed difference" if observed else "--difference"),
                     differing_share=share,
                     few_discordant=[int(n) for n in items if n * share < MIN_DISCORDANT],
                     test="two-sided paired test of two runs on new test items (simstats compare's default with "
                          "one run per system: the paired bootstrap)")
    return out
