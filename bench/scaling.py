"""Section 6: how simstats' time grows with the items n, the resamples B and the systems m.

* n (B = 10,000) and B (n = 5,000): ``paired_bootstrap`` of one pair of binary-F1 systems (items
  compressed into their few distinct joint rows) and of a batch of 100 pairs (item level);
* m (n = 5,000, B = 10,000, binary F1): ``bootstrap_score_matrix`` (every system's score on shared
  resamples) and the whole competition path (``analyse_competition`` + score CIs + differences from
  the best + all m(m - 1)/2 pairs with corrections).

Written to ``scaling.csv`` and drawn in ``scaling.png``/``.pdf`` (log-log, one panel per dimension).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from simstats.stats.bootstrap import bootstrap_score_matrix, paired_bootstrap
from simstats.stats.competition import analyse_competition
from simstats.stats.metrics import get_metric

from .common import Report, Settings, best_of, fmt_s, repeat_rule
from .inputs import label_stats, label_systems

SEED = 31


def _pairs_test(stats, metric_name, n_pairs, b):
    pairs = np.arange(2 * n_pairs).reshape(-1, 2)
    return paired_bootstrap(stats[:2 * n_pairs], get_metric(metric_name), pairs, alternative="greater",
                            n_resamples=b, confidence_level=None, rng=SEED)


def _competition(stats, b):
    res = analyse_competition([f"S{k}" for k in range(stats.shape[0])], stats, get_metric("f1"), n_resamples=b,
                              rng=SEED)
    return res.score_intervals(), res.differences_from_best(), res.pairs()


def measure(settings: Settings) -> pd.DataFrame:
    """Timings of every series at every grid point (``settings`` already holds the scaling repeats)."""
    n0, b0, many = settings.n_items, settings.n_resamples, settings.scaling_pairs
    records = []

    def add(dimension, value, series, fn, n, b, systems, pairs):
        seconds, runs, _ = best_of(fn, settings)
        records.append({"dimension": dimension, "value": value, "series": series, "seconds": seconds,
                        "n_items": n, "n_resamples": b, "n_systems": systems, "pairs": pairs, "runs": runs})
        print(f"  {dimension:>10s} = {value:>7,}  {series:38s} {fmt_s(seconds):>9s}", flush=True)

    series = [("1 pair, binary F1 (compressed)", "f1", 1), (f"{many} pairs, binary F1", "f1", many)]
    for n in settings.scaling_items:
        gold, preds = label_systems(many, n, SEED)
        stats = {"f1": label_stats("f1", gold, preds)}
        for label, metric_name, p in series:
            add("items", n, label, lambda: _pairs_test(stats[metric_name], metric_name, p, b0), n, b0, 2 * p, p)  # noqa: B023
    gold, preds = label_systems(max(many, max(settings.scaling_systems)), n0, SEED)
    stats = {"f1": label_stats("f1", gold, preds)}
    for b in settings.scaling_resamples:
        for label, metric_name, p in series:
            add("resamples", b, label, lambda: _pairs_test(stats[metric_name], metric_name, p, b), n0, b, 2 * p, p)  # noqa: B023
    for m in settings.scaling_systems:
        s = stats["f1"][:m]
        add("systems", m, "bootstrap_score_matrix, binary F1",
            lambda: bootstrap_score_matrix(s, get_metric("f1"), n_resamples=b0, rng=SEED), n0, b0, m, 0)  # noqa: B023
        add("systems", m, "whole competition (all pairs), binary F1", lambda: _competition(s, b0), n0, b0, m,  # noqa: B023
            m * (m - 1) // 2)
    return pd.DataFrame(records)


AXES = {"items": ("test items n", "B = 10,000"), "resamples": ("bootstrap resamples B", "n = 5,000"),
        "systems": ("systems m", "n = 5,000, B = 10,000")}


def figure(frame: pd.DataFrame, stem) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), constrained_layout=True)
    markers = "osD^v"
    for ax, (dimension, (xlabel, fixed)) in zip(axes, AXES.items()):
        part = frame[frame.dimension == dimension]
        for k, (series, rows) in enumerate(part.groupby("series", sort=False)):
            ax.plot(rows.value, rows.seconds, marker=markers[k % len(markers)], label=series)
        # a slope-1 guide ending at the slowest series' last point
        x = np.array([part.value.min(), part.value.max()], dtype=float)
        y1 = part[part.value == part.value.max()].seconds.max()
        ax.plot(x, y1 * x / x[1], color="0.6", linestyle=":", linewidth=1, label="∝ x (linear, guide)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        values = sorted(part.value.unique())
        ax.set_xticks(values)
        ax.set_xticklabels([f"{v:,}" for v in values], fontsize=8)
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(xlabel)
        ax.set_ylabel("wall time per call (s)")
        ax.set_title(f"time vs {xlabel.split()[-1]} ({fixed})", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("simstats scaling (python -m bench)", fontsize=11)
    for ext in ("png", "pdf"):
        fig.savefig(f"{stem}.{ext}", dpi=150)
    plt.close(fig)


def run(settings: Settings, report: Report) -> pd.DataFrame:
    report.heading("6. Scaling of simstats")
    timing = replace(settings, repeats=settings.scaling_repeats, budget=settings.scaling_budget)
    print(f"measuring ({repeat_rule(timing)}):", flush=True)
    frame = measure(timing)
    settings.out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(settings.out / "scaling.csv", index=False)
    figure(frame, settings.out / "scaling")
    report.line(f"One-sided paired bootstrap (n: B = {settings.n_resamples:,}; B: n = {settings.n_items:,}) and the "
                f"competition path (n = {settings.n_items:,}, B = {settings.n_resamples:,}); "
                f"{repeat_rule(timing)}. With 2 systems (one pair) the items take few distinct joint rows and "
                "are resampled as multinomial counts over them (simstats' compression), hence the flat 1-pair "
                "curves and the step from 2 to more systems. Table "
                f"`{_rel(settings.out / 'scaling.csv')}`, figure `{_rel(settings.out / 'scaling.png')}` (and `.pdf`).")
    report.line()
    for dimension, (xlabel, fixed) in AXES.items():
        part = frame[frame.dimension == dimension]
        wide = part.pivot(index="value", columns="series", values="seconds")[list(dict.fromkeys(part.series))]
        report.line(f"Time vs {xlabel} ({fixed}):")
        report.line()
        report.table([xlabel] + list(wide.columns),
                     [[f"{v:,}"] + [fmt_s(s) for s in row] for v, row in zip(wide.index, wide.to_numpy())])
    return frame


def _rel(path) -> str:
    from .common import ROOT

    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
