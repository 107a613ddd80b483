"""The critical-difference diagram of a suite (Demšar 2006): average ranks on one axis, the groups that
Nemenyi's test does not separate joined by bars."""
from __future__ import annotations

import numpy as np


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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
