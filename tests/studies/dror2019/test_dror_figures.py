"""Figures 1 and 2 analogues of Dror et al. (2019): content, stated alpha and unclipped text."""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from simstats.stats.aso import aso
from simstats.studies.dror2019.conventions import dror2019_aso
from simstats.studies.dror2019.figures import (ALPHA_CASES, ALPHA_NOISE, dror_eps_figure, dror_noise_figure,
                                               paper_alpha, paper_noise_marks, paper_table4)
from simstats.studies.dror2019.simulate import PAPER_NOISE, noise_analyses, synthetic_population


def _clipped(fig) -> bool:
    """Whether anything drawn (labels, titles, legends) reaches beyond the figure's edges."""
    fig.canvas.draw()
    tight, page = fig.get_tightbbox(fig.canvas.get_renderer()), fig.bbox_inches
    tol = 0.01      # inches
    return tight.x0 < page.x0 - tol or tight.y0 < page.y0 - tol or tight.x1 > page.x1 + tol or \
        tight.y1 > page.y1 + tol


def _all_text(fig) -> str:
    return "\n".join(t.get_text() for t in fig.findobj(Text))


def _vlines(ax) -> list[float]:
    return [ln.get_xdata()[0] for ln in ax.get_lines() if len(set(np.ravel(ln.get_xdata()))) == 1]


@pytest.fixture
def eps_results():
    rng = np.random.default_rng(0)
    rows = []
    for source, counts in {"UKP": {"A": 30, "B": 12, "C": 1, "D": 5}, "IBM": {"A": 8, "B": 0, "C": 4, "D": 2}}.items():
        for case, k in counts.items():
            rows += [{"source": source, "case": case, "eps": e} for e in rng.uniform(0, 1, k)]
    return pd.DataFrame(rows)


@pytest.fixture
def noise_rows():
    rng = np.random.default_rng(1)
    rows = []
    for kind, centre in {"false_positive": 0.5, "half_split": 0.5, "false_negative": 0.15}.items():
        for r in range(300):
            v = float(np.clip(rng.normal(centre, 0.1), 0, 1))
            rows.append({"analysis": kind, "index": r, "repetition": 0, "violation_ratio": v,
                         "eps_min": min(1.0, v + 0.4), "eps_min_dror2019": min(1.0, v + 0.03), "cos": 0})
    return pd.DataFrame(rows)


def test_paper_numbers_come_from_the_shipped_targets():
    t4 = paper_table4()
    assert {c: t4[c]["eps_mean"] for c in "ABC"} == {"A": 0.0, "B": 0.072, "C": 0.202}
    assert paper_alpha() == 0.01
    marks = paper_noise_marks()
    assert marks["false_positive"]["mean"] == PAPER_NOISE["false_positive"]["mean"] == 0.502
    assert marks["false_positive"]["range"][:2] == (0.396, 0.631)
    assert marks["false_negative"]["mean"] == 0.134 and marks["false_negative"]["range"][:2] == (0.0, 0.4)


def test_stated_alphas_are_the_ones_the_simulation_uses():
    # Figure 1: compare_distributions' default level; Figure 2: the level noise_analyses computes eps_min at
    # (the paper's 0.01 for both), recorded in the rows' alpha_aso column
    assert ALPHA_CASES == 0.01 and ALPHA_NOISE == 0.01
    from simstats.sim.seeding import generator

    d = next(d for d in synthetic_population(np.random.default_rng(5), n_distributions=6) if d["scores"].size < 300)
    row = noise_analyses([d], "false_positive", 1, root_seed=3, n_resamples=50).iloc[0]
    assert row.alpha_aso == ALPHA_NOISE
    rng = generator(3, "dror", "noise", "false_positive", int(d["index"]))
    first = d["scores"] + rng.normal(0, 0.001, d["scores"].size)
    ours = aso(first, d["scores"], n_resamples=50, rng=rng, method="grid", confidence_level=1 - ALPHA_NOISE)
    paper = dror2019_aso(first, d["scores"], n_resamples=50, confidence_level=1 - ALPHA_NOISE,
                         rng=generator(3, "dror", "noise", "false_positive", int(d["index"]), "dror2019"))
    assert row.eps_min == pytest.approx(ours.statistic) and row.eps_min_dror2019 == pytest.approx(paper.statistic)


def test_eps_figure_draws_cases_a_to_c_with_the_paper_means(eps_results):
    fig = dror_eps_figure(eps_results)
    axes = fig.get_axes()
    assert len(axes) == 6                       # 2 sources x cases A, B, C; case D not drawn
    text = _all_text(fig)
    assert "case D" in text and ": 5 (" in text and ": 2 (" in text   # D's counts stated per source
    assert "α = 0.01" in text and "no comparisons" in text
    paper = paper_table4()
    for k, ax in enumerate(axes):
        case = "ABC"[k % 3]
        assert case in ax.get_title().split(":")[0]
        assert paper[case]["eps_mean"] in _vlines(ax)
        assert isinstance(ax.yaxis.get_major_locator(), MaxNLocator)
        assert all(float(t).is_integer() for t in ax.get_yticks())
        assert ax.get_xlabel()
    legend = [c for c in fig.get_children() if isinstance(c, Legend)]
    assert legend and "Table 4" in " ".join(t.get_text() for t in legend[0].get_texts())
    assert not _clipped(fig)
    plt.close(fig)


def test_eps_figure_states_a_different_alpha(eps_results):
    fig = dror_eps_figure(eps_results, alpha=0.05)
    text = _all_text(fig)
    assert "α = 0.05" in text and "the paper used α = 0.01" in text
    plt.close(fig)


def test_noise_figure_has_the_papers_two_panels(noise_rows):
    fig = dror_noise_figure(noise_rows)
    axes = fig.get_axes()
    assert len(axes) == 2 and axes[0].get_title().startswith("(a) false positive")
    assert axes[1].get_title().startswith("(b) false negative")
    assert 0.502 in _vlines(axes[0]) and 0.134 in _vlines(axes[1])
    legend = " ".join(t.get_text() for t in axes[0].get_legend().get_texts())
    assert "α = 0.01" in legend and "the paper used" not in legend and "[0.396, 0.631]" in legend
    assert "below 0.4" in " ".join(t.get_text() for t in axes[1].get_legend().get_texts())
    assert "half" not in _all_text(fig)
    assert not _clipped(fig)
    plt.close(fig)


def test_noise_figure_alpha_parameter(noise_rows):
    fig = dror_noise_figure(noise_rows, alpha=0.01)
    legend = " ".join(t.get_text() for t in fig.get_axes()[0].get_legend().get_texts())
    assert "α = 0.01" in legend and "paper used" not in legend
    plt.close(fig)
