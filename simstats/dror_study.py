"""Dror et al. (2019): ASO beside COS and SO on score distributions (real data part).

For two approaches' score distributions (one score per training run):

* COS (collection of statistics): A is better iff it has the larger mean and the smaller sd;
* SO (stochastic order, as the paper operationalises it): Mann-Whitney U, two-sided p <= 0.05,
  direction by the larger mean rank;
* ASO: eps_min of "A is almost stochastically larger than B" and of the reverse, at the paper's
  level alpha = 0.01; the approach with the smaller eps_min is declared better and its eps_min
  is the comparison's eps.

Cases as in the paper: A = COS and SO both decisive, B = COS decisive but SO not, C = neither;
D (SO decisive but COS not) is counted too although the paper met none.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from .aso import aso, cos_verdict
from .engine import as_generator

CASES = ("A", "B", "C", "D")
#: UKP hyperparameters compared (normalised values; every pair of values within a task).
UKP_FACTORS = ("Decoder", "Optimizer", "DropoutType")


def compare_distributions(scores_a, scores_b, *, alpha_aso: float = 0.01, alpha_so: float = 0.05,
                          n_bootstrap: int = 1000, rng=None) -> dict:
    """COS, SO and ASO verdicts (+1: A better, -1: B better, 0: undecided) and the case."""
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    rng = as_generator(rng)
    cos = cos_verdict(a, b)
    u = stats.mannwhitneyu(a, b, alternative="two-sided")
    so = int(np.sign(u.statistic - a.size * b.size / 2)) if u.pvalue <= alpha_so else 0
    eps_ab = aso(a, b, alpha=alpha_aso, n_bootstrap=n_bootstrap, rng=rng).eps_min
    eps_ba = aso(b, a, alpha=alpha_aso, n_bootstrap=n_bootstrap, rng=rng).eps_min
    aso_verdict = 1 if eps_ab < eps_ba else (-1 if eps_ba < eps_ab else 0)
    case = "A" if cos and so else "B" if cos else "D" if so else "C"
    return {"n_a": a.size, "n_b": b.size, "mean_a": a.mean(), "mean_b": b.mean(), "sd_a": a.std(ddof=1),
            "sd_b": b.std(ddof=1), "cos": cos, "so_pvalue": float(u.pvalue), "so": so, "eps_min_ab": eps_ab,
            "eps_min_ba": eps_ba, "aso": aso_verdict, "eps": min(eps_ab, eps_ba),
            "aso_decisive": bool(min(eps_ab, eps_ba) < 0.5), "case": case,
            "aso_agrees_with_cos": bool(cos == 0 or cos == aso_verdict)}


def _normalise(value: str) -> str:
    return str(value).strip("[]'\" ")


def ukp_distributions(table: pd.DataFrame, *, min_scores: int = 30) -> list[tuple]:
    """(source, task, factor, a, b, scores_a, scores_b) for every pair of values of each factor
    within each task: all runs with that value (over seeds and the other hyperparameters)."""
    need = {"Dataset", "Test_F1", *UKP_FACTORS}
    missing = need - set(table.columns)
    if missing:
        raise ValueError(f"UKP table lacks columns {sorted(missing)}")
    out = []
    for task, g in table.groupby("Dataset", sort=True):
        task = str(task).removesuffix(".pkl")
        for factor in UKP_FACTORS:
            values = g[factor].map(_normalise)
            groups = {v: s.Test_F1.dropna().to_numpy(float) for v, s in g.assign(v=values).groupby("v", sort=True)}
            groups = {v: s for v, s in groups.items() if s.size >= min_scores and v and "LSTM" not in v}
            names = sorted(groups)
            for i in range(len(names)):
                for j in range(i + 1, len(names)):
                    out.append(("UKP BiLSTM 2017", task, factor, names[i], names[j], groups[names[i]],
                                groups[names[j]]))
    return out


def ibm_distributions(frames: dict[str, pd.DataFrame]) -> list[tuple]:
    """Pairs of base models per task from the IBM 20-seed results (accuracy; Spearman for stsb)."""
    per_model = {}
    for model, frame in frames.items():
        need = {"dataset name", "accuracy", "spearmanr"}
        if not need <= set(frame.columns):
            raise ValueError(f"{model}: lacks columns {sorted(need - set(frame.columns))}")
        for task, g in frame.groupby("dataset name", sort=True):
            col = "spearmanr" if g.accuracy.isna().all() else "accuracy"
            per_model.setdefault(task, {})[model] = g[col].dropna().to_numpy(float)
    out = []
    for task in sorted(per_model):
        models = sorted(m for m, s in per_model[task].items() if s.size >= 3)
        for i in range(len(models)):
            for j in range(i + 1, len(models)):
                out.append(("IBM model recycling", task, "base model", models[i], models[j],
                            per_model[task][models[i]], per_model[task][models[j]]))
    return out


def read_ibm(directory) -> dict[str, pd.DataFrame]:
    files = sorted(Path(directory).glob("models_results_*_pretrain.csv"))
    if not files:
        raise ValueError(f"{directory}: no models_results_*_pretrain.csv files")
    return {f.name.removeprefix("models_results_").removesuffix("_pretrain.csv"): pd.read_csv(f, sep="\t")
            for f in files}


def real_data_comparisons(comparisons: list[tuple], *, rng, n_bootstrap: int = 1000) -> pd.DataFrame:
    rows = []
    for source, task, factor, a, b, sa, sb in comparisons:
        rows.append({"source": source, "task": task, "factor": factor, "a": a, "b": b,
                     **compare_distributions(sa, sb, n_bootstrap=n_bootstrap, rng=rng)})
    return pd.DataFrame(rows)


def case_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Table 4 analogue: share of comparisons per case and the mean/sd of ASO's eps per case."""
    rows = []
    for source, g in results.groupby("source", sort=True):
        for case in CASES:
            c = g[g.case == case]
            rows.append({"source": source, "case": case, "comparisons": len(c), "share_percent": 100 * len(c) / len(g),
                         "eps_mean": c.eps.mean() if len(c) else np.nan,
                         "eps_sd": c.eps.std(ddof=1) if len(c) > 1 else np.nan,
                         "aso_decisive_percent": 100 * c.aso_decisive.mean() if len(c) else np.nan})
        rows.append({"source": source, "case": "all", "comparisons": len(g), "share_percent": 100.0,
                     "eps_mean": g.eps.mean(), "eps_sd": g.eps.std(ddof=1),
                     "aso_decisive_percent": 100 * g.aso_decisive.mean()})
    return pd.DataFrame(rows)


def parse_dror(value) -> dict:
    """Validate the ``dror`` config section; raise ScenarioError naming the field."""
    from .scenario import _check_keys, _integer, _mapping, _number

    v = _mapping(value, "dror")
    _check_keys(v, "dror", {"n_bootstrap", "alpha_aso", "alpha_so", "min_scores"})
    return {"n_bootstrap": _integer(v.get("n_bootstrap", 1000), "dror.n_bootstrap", minimum=10),
            "alpha_aso": _number(v.get("alpha_aso", 0.01), "dror.alpha_aso", exclusive_minimum=0, exclusive_maximum=1),
            "alpha_so": _number(v.get("alpha_so", 0.05), "dror.alpha_so", exclusive_minimum=0, exclusive_maximum=1),
            "min_scores": _integer(v.get("min_scores", 30), "dror.min_scores", minimum=3)}


def cases_markdown(summary: pd.DataFrame, results: pd.DataFrame) -> str:
    from .reference import paper_targets
    from .tables import markdown_table

    paper = paper_targets()
    paper = paper[(paper.paper == "dror2019") & (paper.table == "T4_summary")]
    ref = pd.DataFrame([{"case": r.row.removeprefix("Case "), **dict(zip(
        ["share_percent", "eps_mean", "eps_sd"], [float(x) for x in r.value.split(";")]))} for r in paper.itertuples()])
    return "\n".join([
        "# ASO, COS and SO on real score distributions (Dror et al. 2019, Table 4 analogue)\n",
        "Case A: COS and SO (Mann-Whitney U, p ≤ 0.05) both decisive; B: COS only; C: neither; D: SO only. "
        "eps: ASO's eps_min (α = 0.01) of the approach it declares better. UKP: every pair of values of Decoder, "
        "Optimizer and DropoutType within a task, all runs with that value (seeds and other hyperparameters "
        "pooled); IBM: every pair of base models per task, 20 seeds each.\n",
        markdown_table(summary),
        "\n## The paper's Table 4 (its 510 comparisons of Reimers & Gurevych 2017; different setups)\n",
        markdown_table(ref),
        f"\nASO's verdict agrees with COS wherever COS decides in {100 * results.aso_agrees_with_cos.mean():.1f} % "
        "of the comparisons.\n"])
