"""Yeh size/power figure (gaps, too-few-replicate marks) and the noise dev-vs-test figure (subsample)."""
import io
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from simstats.studies.noise.figures import dev_vs_test_figure, plotted_models
from simstats.studies.yeh2000.figures import too_few_replicates, yeh_rate_figure

ALPHA = 0.05


def png_bytes(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def yeh_summary() -> pd.DataFrame:
    """recall, n = 100, r12 in {0, 0.5, 0.9}, no difference and a difference of 0.05:
    paired t lacks the r12 = 0.5 cell, sign/McNemar was not computed at 0.9 (0 replicates),
    exact stratified randomization rests on 2 replicates at 0.9 (rate 0)."""
    rows = []
    for diff in (0.0, 0.05):
        for r12 in (0.0, 0.5, 0.9):
            for test in ("two_sample_t", "paired_t", "sign_mcnemar", "exact_stratified_randomization"):
                if test == "paired_t" and r12 == 0.5:
                    continue
                reps, rate = 200, (0.05 if diff == 0 else 0.4)
                if test == "sign_mcnemar" and r12 == 0.9:
                    reps, rate = 0, math.nan
                if test == "exact_stratified_randomization" and r12 == 0.9:
                    reps, rate = 2, 0.0
                mcse = math.sqrt(rate * (1 - rate) / reps) if reps else math.nan
                verdict = ("holds alpha" if reps else "") if diff == 0 else ""
                rows.append({"metric": "recall", "n": 100, "r12": r12, "r12_population": r12, "difference": diff,
                             "test": test, "rate": rate, "mcse": mcse, "replicates": reps,
                             "kind": "independence" if test == "two_sample_t" else "paired", "verdict": verdict})
    return pd.DataFrame(rows)


def line(ax, gid):
    hits = [ln for ln in ax.get_lines() if ln.get_gid() == gid]
    assert len(hits) == 1, gid
    return hits[0]


@pytest.mark.parametrize("which", ["size", "power"])
def test_yeh_missing_cells_leave_gaps_and_thin_cells_are_hollow(which):
    fig = yeh_rate_figure(yeh_summary(), which, ALPHA)
    ax = fig.axes[0]
    # every test's line runs over the full r12 grid; a missing / not computed / thin cell is NaN
    paired = np.asarray(line(ax, "rate:paired_t").get_ydata(), float)
    assert len(paired) == 3 and np.isnan(paired[1]) and not np.isnan(paired[[0, 2]]).any()
    assert np.isnan(np.asarray(line(ax, "rate:sign_mcnemar").get_ydata(), float)[2])
    exact = np.asarray(line(ax, "rate:exact_stratified_randomization").get_ydata(), float)
    assert np.isnan(exact[2]) and not np.isnan(exact[:2]).any()
    # the 2-replicate cell: a hollow marker at its rate, labelled, with a legend entry
    hollow = line(ax, "too_few:exact_stratified_randomization")
    assert list(hollow.get_ydata()) == [0.0]
    assert hollow.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))
    assert any(t.get_text() == "R = 2" for t in ax.texts)
    assert not [ln for ln in ax.get_lines() if ln.get_gid() == "too_few:sign_mcnemar"]   # not computed: a gap only
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(lab.startswith("too few replicates") for lab in labels)
    if which == "size":   # alpha and its Monte Carlo band stay drawn
        assert f"nominal α = {ALPHA:g}" in labels and any(lab.startswith("α ± 3 MCSE") for lab in labels)
    plt.close(fig)


def test_too_few_replicates_rule():
    s = yeh_summary()
    few = too_few_replicates(s)
    assert set(s[few].replicates) == {2}                    # below half the configured 200
    assert not few[s.replicates == 0].any()                 # not computed: left to the gap
    s.loc[s.index[0], "verdict"] = "undetermined"
    assert too_few_replicates(s).iloc[0]
    assert not too_few_replicates(s, min_replicates=1)[s.replicates == 2].any()


def test_yeh_figure_is_deterministic_and_has_no_hollow_entry_without_thin_cells():
    s = yeh_summary()
    assert png_bytes(yeh_rate_figure(s, "size", ALPHA)) == png_bytes(yeh_rate_figure(s, "size", ALPHA))
    full = s[s.replicates != 2]
    fig = yeh_rate_figure(full, "size", ALPHA)
    assert not any(t.get_text().startswith("too few") for t in fig.legends[0].get_texts())
    plt.close(fig)


def noise_inputs(n_per_approach: int):
    rng = np.random.default_rng(3)
    n = 2 * n_per_approach
    true = 0.8 + 0.01 * rng.standard_normal(n)
    scores = pd.DataFrame({"approach": np.repeat(["A", "B"], n_per_approach), "psi_true_test": true,
                           "psi_dev": true + 0.01 * rng.standard_normal(n),
                           "psi_test": true + 0.01 * rng.standard_normal(n)})
    summary = pd.DataFrame([{"approach": a, "statistic": s, "estimate": e, "se": 0.01}
                            for a in "AB" for s, e in (("spearman_dev_test", 0.3), ("sd_x_test", 0.01))])
    return scores, summary


def test_noise_subsample_is_fixed_and_keeps_each_approach_share():
    scores, _ = noise_inputs(5000)
    a, b = plotted_models(scores, 3000), plotted_models(scores, 3000)
    assert len(a) == 3000 and a.index.equals(b.index)
    assert a.approach.value_counts().to_dict() == {"A": 1500, "B": 1500}
    small, _ = noise_inputs(400)
    assert sorted(plotted_models(small, 3000).index) == list(small.index)


def test_noise_figure_draws_a_stated_subsample_with_readable_legend(make_scenario):
    scenario = make_scenario("big")
    scores, summary = noise_inputs(5000)
    fig = dev_vs_test_figure(scores, summary, scenario, paper_rho=0.234)
    left = fig.axes[0]
    assert len(left.collections[0].get_offsets()) == 3000
    assert "3,000 shown" in fig._suptitle.get_text() and "10,000" in fig._suptitle.get_text()
    legend = left.get_legend()
    assert any("ρ = 0.234" in t.get_text() for t in legend.get_texts())
    markers = [h for h in legend.legend_handles if h.get_marker() == "o"]
    assert len(markers) == 2 and all(h.get_markersize() >= 6 and h.get_alpha() in (None, 1) for h in markers)
    assert png_bytes(fig) == png_bytes(dev_vs_test_figure(scores, summary, scenario, paper_rho=0.234))
    small = noise_inputs(300)
    fig = dev_vs_test_figure(*small, scenario)
    assert len(fig.axes[0].collections[0].get_offsets()) == 600 and "all shown" in fig._suptitle.get_text()
    plt.close(fig)
