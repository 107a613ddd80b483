"""Figures of a suite of tasks: the critical-difference diagram (Demšar 2006: average ranks on one axis, the
groups that Nemenyi's test does not separate joined by bars), each model's mean score over the tasks with its
interval, and the rank intervals of the means."""
from __future__ import annotations

import numpy as np

from simstats.io.write import pyplot


def rank_groups(average_ranks, critical_difference: float) -> list[tuple[int, int]]:
    """The maximal runs of models, in rank order, whose average ranks lie within the critical difference:
    (first, last) positions in the sorted order, only runs of two or more.

    Examples
    --------
    >>> rank_groups([1.0, 1.5, 2.4, 3.9], 1.0)
    [(0, 1), (1, 2)]
    """
    ranks = np.sort(np.asarray(average_ranks, dtype=float))
    groups = []
    for first in range(ranks.size):
        last = int(np.searchsorted(ranks, ranks[first] + critical_difference, side="right")) - 1
        if last > first and not any(a <= first and last <= b for a, b in groups):
            groups.append((first, last))
    return groups


def cd_diagram(names, average_ranks, critical_difference: float, *, alpha: float = 0.05, tasks: int | None = None):
    """A critical-difference diagram: each model at its average rank (1 = best, at the left), a bar of the
    critical difference above the axis, and thick bars under the groups whose ranks lie within it.

    Parameters
    ----------
    names : sequence of str
        The models.
    average_ranks : array_like
        Their average ranks.
    critical_difference : float
        Nemenyi's critical difference at ``alpha``.
    alpha : float
        Its level, for the title.
    tasks : int, optional
        The number of tasks, for the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = pyplot()

    ranks = np.asarray(average_ranks, dtype=float)
    order = np.argsort(ranks, kind="stable")
    k = ranks.size
    left = (k + 1) // 2                                   # the better half is labelled on the left
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.3 * k), constrained_layout=True)
    lo, hi = 1, k
    ax.set_xlim(lo - 0.6, hi + 0.6)
    ax.set_ylim(-(max(left, k - left) * 0.55 + 0.6), 1.5)
    ax.hlines(0, lo, hi, color="black", lw=1)
    for r in range(lo, hi + 1):
        ax.vlines(r, 0, 0.12, color="black", lw=1)
        ax.text(r, 0.22, str(r), ha="center", va="bottom", fontsize=9)
    ax.text((lo + hi) / 2, 0.75, "average rank over the tasks (1 = best)", ha="center", fontsize=9)
    # the critical difference, drawn from rank 1
    ax.hlines(1.25, lo, lo + critical_difference, color="tab:red", lw=2)
    ax.vlines([lo, lo + critical_difference], 1.15, 1.35, color="tab:red", lw=2)
    ax.text(lo + critical_difference + 0.05, 1.25, f"CD = {critical_difference:.2f}", va="center", fontsize=9,
            color="tab:red")
    for position, model in enumerate(order):
        r = ranks[model]
        on_left = position < left
        depth = -(position + 1) if on_left else -(k - position)
        end = lo - 0.5 if on_left else hi + 0.5
        ax.plot([r, r, end], [0, depth * 0.55 - 0.3, depth * 0.55 - 0.3], color="black", lw=0.8)
        ax.text(end, depth * 0.55 - 0.3, f"{names[model]} ({r:.2f})", ha="right" if on_left else "left",
                va="center", fontsize=9)
    for g, (first, last) in enumerate(rank_groups(ranks, critical_difference)):
        y = -0.25 - 0.12 * g
        ax.hlines(y, ranks[order[first]] - 0.03, ranks[order[last]] + 0.03, color="tab:blue", lw=3.5)
    ax.axis("off")
    what = f"{k} models" + (f" over {tasks} tasks" if tasks else "")
    ax.set_title(f"Critical-difference diagram, {what}\nmodels joined by a blue bar are not different by "
                 f"Nemenyi's test (alpha = {alpha:g})", fontsize=9)
    return fig


def _observed_order(estimates, higher_is_better: bool) -> np.ndarray:
    """The models in order of their estimates, best first."""
    sign = 1.0 if higher_is_better else -1.0
    return np.argsort(-sign * np.asarray(estimates, dtype=float), kind="stable")


def suite_means_figure(names, estimates, ci_low, ci_high, *, claim: str | None = None, higher_is_better: bool = True):
    """Each model's mean score over the tasks with its interval, the best at the top.

    Parameters
    ----------
    names : sequence of str
        The models.
    estimates : array_like
        Their mean scores over the tasks (e.g. :attr:`simstats.stats.suite.SuiteMeanResult.estimate`).
    ci_low, ci_high : array_like
        The intervals' bounds.
    claim : str, optional
        The intervals' claim and level, for the title (e.g. "tasks like these, 95% intervals").
    higher_is_better : bool
        Which end is best.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = suite_means_figure(["a", "b", "c"], [0.8, 0.7, 0.75], [0.78, 0.66, 0.7], [0.82, 0.74, 0.8],
    ...                          claim="tasks like these, 95% intervals")
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()], fig.axes[0].get_xlabel()     # bottom to top
    (['b', 'c', 'a'], 'mean score over tasks')
    """
    plt = pyplot()

    estimates, low, high = (np.asarray(v, dtype=float) for v in (estimates, ci_low, ci_high))
    order = _observed_order(estimates, higher_is_better)[::-1]          # the best drawn last, at the top
    k = estimates.size
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.38 * k), constrained_layout=True)
    y = np.arange(k)
    ax.hlines(y, low[order], high[order], color="tab:blue", lw=2)
    ax.plot(estimates[order], y, "o", color="black", ms=5)
    for position, model in enumerate(order):
        ax.text(high[model], position, f"  {estimates[model]:.3g} [{low[model]:.3g}, {high[model]:.3g}]",
                va="center", fontsize=8)
    span = float(np.max(high) - np.min(low)) or 1.0
    ax.set_xlim(np.min(low) - 0.05 * span, np.max(high) + 0.45 * span)
    ax.set_yticks(y, [str(names[m]) for m in order])
    ax.set_ylim(-0.6, k - 0.4)
    ax.set_xlabel("mean score over tasks")
    ax.grid(axis="x", alpha=0.3)
    direction = "higher" if higher_is_better else "lower"
    fig.suptitle(f"Each model's mean score over the tasks ({direction} is better)" + (f"\n{claim}" if claim else ""),
                 fontsize=9)
    return fig


def rank_intervals_figure(names, estimates, rank_low, rank_high, *, alpha: float = 0.05, correction: str = "holm",
                          higher_is_better: bool = True):
    """Each model's rank interval (1 = best) as a horizontal bar from its lowest to its highest rank, the
    observed rank of its mean marked, the models in observed order.

    Parameters
    ----------
    names : sequence of str
        The models.
    estimates : array_like
        Their mean scores over the tasks (their order is the observed ranking).
    rank_low, rank_high : array_like
        The rank intervals (e.g. :attr:`simstats.stats.suite.SuiteMeanResult.rank_low`).
    alpha : float
        Level of the intervals, for the title.
    correction : str
        Correction of the pairs' tests, for the title.
    higher_is_better : bool
        Which end is best.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = rank_intervals_figure(["a", "b", "c"], [0.8, 0.79, 0.6], [1, 1, 3], [2, 2, 3])
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()], fig.axes[0].get_xlabel()     # bottom to top
    (['c', 'b', 'a'], 'rank (1 = best)')
    """
    plt = pyplot()

    estimates = np.asarray(estimates, dtype=float)
    low, high = np.asarray(rank_low, dtype=float), np.asarray(rank_high, dtype=float)
    order = _observed_order(estimates, higher_is_better)
    k = estimates.size
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.38 * k), constrained_layout=True)
    for position, model in enumerate(order):
        y = k - 1 - position                                            # the best at the top
        ax.barh(y, high[model] - low[model] + 0.6, left=low[model] - 0.3, height=0.5, color="tab:blue", alpha=0.35,
                edgecolor="tab:blue")
        ax.plot(position + 1, y, "D", color="black", ms=5, label="observed rank of the mean" if position == 0 else None)
        text = f"{int(low[model])}" if low[model] == high[model] else f"{int(low[model])}-{int(high[model])}"
        ax.text(k + 0.55, y, text, va="center", fontsize=8)
    ax.set_yticks(np.arange(k), [str(names[m]) for m in order[::-1]])
    ax.set_xticks(np.arange(1, k + 1))
    ax.set_xlim(0.4, k + 1.2)
    ax.set_ylim(-0.6, k - 0.4)
    ax.set_xlabel("rank (1 = best)")
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", fontsize=8, frameon=False)
    fig.suptitle(f"Rank intervals of the models' mean scores (1 = best; the interval at right)\nbar: the ranks not "
                 f"excluded by the {correction}-corrected pairwise tests at alpha = {alpha:g}", fontsize=9)
    return fig
