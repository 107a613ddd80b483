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

Two conventions (``convention=``): "deepsig" (ASO integrated exactly with deepsig's margin at the
data's own sizes; SO by the two-sided U test) and "dror2019", the paper's own computation (ASO
simstats.studies.dror2019.conventions.dror2019_aso: 1,000 draws per replicate and a margin of about
0.1 sigma; SO by its one-sided U test in each direction, p = 1 below 20 scores per sample).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats.aso import aso, cos_verdict
from simstats.stats.engine import as_generator
from simstats.sim.schema import apply_schema
from simstats.studies.dror2019.conventions import CASES, PAPER_NOISE, dror2019_aso, dror2019_u_test, so_verdict
from simstats.stats.resample import ItemIndices, StratifiedIndices

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")

CONVENTIONS = ("deepsig", "dror2019")
#: UKP hyperparameters compared (normalised values; every pair of values within a task).
UKP_FACTORS = ("Decoder", "Optimizer", "DropoutType")


#: The paper's level of ASO (Dror et al. 2019: eps_min at alpha = 0.01).
PAPER_ALPHA_ASO = 0.01


def compare_distributions(scores_a, scores_b, *, alpha_aso: float = PAPER_ALPHA_ASO, alpha_so: float = 0.05,
                          n_resamples: int = 1000, convention: str = "deepsig", rng=None) -> dict:
    """COS, SO and ASO verdicts (+1: A better, -1: B better, 0: undecided) and the case."""
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    rng = as_generator(rng)
    cos = cos_verdict(a, b)
    if convention == "deepsig":
        so, so_pvalue = so_verdict(a, b, alpha=alpha_so)
        res_ab = aso(a, b, confidence_level=1 - alpha_aso, n_resamples=n_resamples, rng=rng)
        res_ba = aso(b, a, confidence_level=1 - alpha_aso, n_resamples=n_resamples, rng=rng)
        eps_ab, eps_ba = res_ab.statistic, res_ba.statistic
        margins = (eps_ab - res_ab.violation_ratio, eps_ba - res_ba.violation_ratio)
    elif convention == "dror2019":
        a_less, b_less = dror2019_u_test(a, b), dror2019_u_test(b, a)
        so = 1 if b_less < alpha_so else (-1 if a_less < alpha_so else 0)
        so_pvalue = min(a_less, b_less)
        res = dror2019_aso(a, b, confidence_level=1 - alpha_aso, n_resamples=n_resamples, rng=rng)
        eps_ab, eps_ba = res.statistic, res.statistic_reverse
        margins = (eps_ab - res.violation_ratio, eps_ba - (1 - res.violation_ratio))
    else:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}")
    aso_verdict = 1 if eps_ab < eps_ba else (-1 if eps_ba < eps_ab else 0)
    # eps_min = eps_W2 (fixed by the data) + a margin proportional to the bootstrap sd of eps*: its Monte Carlo
    # error is the margin's, the normal-theory se of an sd from n_resamples replicates
    margin = max(margins[0] if eps_ab <= eps_ba else margins[1], 0.0)
    eps_mcse = margin / math.sqrt(2 * (n_resamples - 1))
    case = "A" if cos and so else "B" if cos else "D" if so else "C"
    return {"n_a": a.size, "n_b": b.size, "mean_a": a.mean(), "mean_b": b.mean(), "sd_a": a.std(ddof=1),
            "sd_b": b.std(ddof=1), "cos": cos, "so_pvalue": so_pvalue, "so": so, "eps_min_ab": eps_ab,
            "eps_min_ba": eps_ba, "aso": aso_verdict, "eps": min(eps_ab, eps_ba), "eps_mcse": eps_mcse,
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


#: The hyperparameters Reimers & Gurevych (2017) varied that the UKP table records (LSTM-Neurons, with
#: dozens of values, left out): the pools of section 6 on real runs (:func:`ukp_pools`).
UKP_POOL_FACTORS = ("Embeddings", "CharEmbeddings", "Optimizer", "clipvalue", "clipnorm", "TaggingScheme", "Decoder",
                    "DropoutType", "LSTM-Layers", "miniBatchSize")


def ukp_pools(table: pd.DataFrame, *, factors=UKP_POOL_FACTORS, min_scores: int = 30) -> list[dict]:
    """Score distributions of the kind the paper's section 6 used (its Table 2-3 groups are such pools):
    per task, hyperparameter and value, the test scores of all runs with that value (over seeds and the
    other hyperparameters), pools of at least ``min_scores`` runs.  Dicts with task, factor, value,
    index (0, 1, ... in task, factor, value order) and scores (in table order)."""
    need = {"Dataset", "Test_F1", *factors}
    missing = need - set(table.columns)
    if missing:
        raise ValueError(f"UKP table lacks columns {sorted(missing)}")
    out = []
    for task, g in table[table.Test_F1.notna()].groupby("Dataset", sort=True):
        for factor in factors:
            for value, s in g.groupby(g[factor].map(_normalise), sort=True):
                if value and "LSTM" not in value and len(s) >= min_scores:
                    out.append({"task": str(task).removesuffix(".pkl"), "factor": factor, "value": value,
                                "index": len(out), "scores": s.Test_F1.to_numpy(float)})
    if not out:
        raise ValueError(f"UKP table: no pool of at least {min_scores} runs")
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


def real_data_comparisons(comparisons: list[tuple], *, rng, n_resamples: int = 1000,
                          convention: str = "deepsig") -> pd.DataFrame:
    rows = []
    for source, task, factor, a, b, sa, sb in comparisons:
        rows.append({"source": source, "task": task, "factor": factor, "a": a, "b": b,
                     **compare_distributions(sa, sb, n_resamples=n_resamples, convention=convention, rng=rng)})
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


@dataclass(frozen=True)
class DrorPopulationSettings:
    """``dror.population``: the synthetic population of sections 5/6 of the paper."""

    n_distributions: int
    tail_share: float
    repetitions: int     # per distribution in the false-positive/negative analyses
    chunks: int          # jobs per analysis


@dataclass(frozen=True)
class DrorUkpNoiseSettings:
    """``dror.ukp_noise``: section 6 rerun on real UKP pools (:func:`ukp_pools`)."""

    repetitions: int     # per pool and analysis (paper: 100 per distribution)
    min_scores: int      # smallest pool


@dataclass(frozen=True)
class DrorSizePowerSettings:
    """``dror.size_power``: size and power of ASO, Welch and MWU beyond the paper."""

    scenarios: tuple[str, ...]
    n: tuple[int, ...]
    shifts: tuple[float, ...]
    replicates: int


@dataclass(frozen=True)
class DrorSettings:
    """The ``dror`` section of the configuration (types, ranges and defaults: the schema)."""

    n_resamples: int
    alpha_aso: float
    alpha_so: float
    min_scores: int
    population: DrorPopulationSettings
    size_power: DrorSizePowerSettings
    ukp_noise: DrorUkpNoiseSettings


def parse_dror(value) -> DrorSettings:
    """Validate the ``dror`` config section against the schema (defaults filled in); raise
    ScenarioError naming the field.  Which scenarios exist is checked by simstats.config."""
    v = apply_schema(value, SCHEMA, "dror")
    pop, sp, un = v["population"], v["size_power"], v["ukp_noise"]
    return DrorSettings(
        n_resamples=v["n_resamples"], alpha_aso=v["alpha_aso"], alpha_so=v["alpha_so"], min_scores=v["min_scores"],
        population=DrorPopulationSettings(pop["n_distributions"], pop["tail_share"], pop["repetitions"],
                                          pop["chunks"]),
        size_power=DrorSizePowerSettings(tuple(sp["scenarios"]), tuple(sp["n"]), tuple(sp["shifts"]),
                                         sp["replicates"]),
        ukp_noise=DrorUkpNoiseSettings(un["repetitions"], un["min_scores"]))


def cases_markdown(summary: pd.DataFrame, results: pd.DataFrame) -> str:
    from simstats.studies.reference import paper_targets
    from simstats.io.write import markdown_table

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


# --------------------------------------------------------------------------- synthetic population
def synthetic_population(rng, *, n_distributions: int = 255, n_tasks: int = 5, min_size: int = 41,
                         max_size: int = 3898, tail_share: float = 0.5) -> list[dict]:
    """Score distributions shaped like the 255 of Dror et al. (2019, section 6): sizes log-uniform
    in [min_size, max_size]; per task a level (0.75-0.95), per distribution a small shift and a
    spread; a share of them with a failure tail (1-10 % of runs scoring far below).

    Returns dicts with task, index and scores."""
    rng = as_generator(rng)
    levels = rng.uniform(0.75, 0.95, n_tasks)
    out = []
    for k in range(n_distributions):
        task = k % n_tasks
        size = int(round(math.exp(rng.uniform(math.log(min_size), math.log(max_size)))))
        centre = levels[task] + rng.normal(0, 0.005)
        spread = math.exp(rng.uniform(math.log(0.003), math.log(0.03)))
        scores = rng.normal(centre, spread, size)
        if rng.random() < tail_share:
            failed = rng.random(size) < rng.uniform(0.01, 0.10)
            scores[failed] = rng.uniform(0.05, centre - 0.1, failed.sum())
        out.append({"task": task, "index": k, "scores": np.clip(scores, 0.0, 1.0)})
    return out


def population_summary(population: list[dict]) -> pd.DataFrame:
    """Per distribution of the population: task, index, size, mean, sd (ddof 1, failed runs
    included, as the paper's stated average sd of its 255 distributions), median, min, max."""
    rows = []
    for d in population:
        x = np.asarray(d["scores"], dtype=float)
        rows.append({"task": d["task"], "index": d["index"], "n": x.size, "mean": x.mean(), "sd": x.std(ddof=1),
                     "median": float(np.median(x)), "min": x.min(), "max": x.max()})
    return pd.DataFrame(rows)


def population_pairs(population: list[dict], rng, per_distribution: int = 4) -> list[tuple[int, int]]:
    """Pairs within tasks: each distribution meets ``per_distribution`` others (255 x 4 / 2 = 510)."""
    rng = as_generator(rng)
    pairs = set()
    by_task = {}
    for d in population:
        by_task.setdefault(d["task"], []).append(d["index"])
    for members in by_task.values():
        members = np.array(members)
        for shift in range(1, per_distribution // 2 + 1):
            order = rng.permutation(members)
            for i, j in zip(order, np.roll(order, shift)):
                pairs.add((int(min(i, j)), int(max(i, j))))
    return sorted(pairs)


def noise_analyses(population: list[dict], kind: str, repetitions: int, *, rng=None, root_seed: int | None = None,
                   n_resamples: int = 1000, method: str = "grid", alpha_aso: float = PAPER_ALPHA_ASO,
                   stream: tuple[str, ...] = ("dror", "noise"), deepsig: bool = True) -> pd.DataFrame:
    """Section 6 of the paper, each distribution ``repetitions`` times:

    false_positive: original vs original + N(0, 0.001) noise; half_split: two random halves;
    false_negative: the noisy version (1/4 of scores minus phi^2, 3/4 plus phi^2, phi ~ N(0, 0.01))
    vs the original (eps near 0 = the noisy, better version is found better).
    Rows: violation ratio and eps_min (at ``alpha_aso``, the paper's 0.01 by default; column
    ``alpha_aso``) of "first is better", COS verdict (+1 first better).
    With ``root_seed`` each distribution's draws are keyed by (``stream``, analysis, index), so any
    split of the population into jobs gives the same rows; otherwise ``rng`` is used throughout.
    ``deepsig=False`` leaves out the deepsig-convention columns (violation_ratio, eps_min): only the
    paper's own computation is run."""
    from simstats.sim.seeding import generator

    shared = as_generator(rng) if root_seed is None else None
    shared_paper = shared.spawn(1)[0] if shared is not None else None
    rows = []
    for d in population:
        s = d["scores"]
        rng = shared if shared is not None else generator(root_seed, *stream, kind, int(d["index"]))
        # the paper's convention draws from its own stream, so the deepsig columns do not change
        rng_paper = shared_paper if shared is not None else generator(root_seed, *stream, kind,
                                                                         int(d["index"]), "dror2019")
        for r in range(repetitions):
            if kind == "false_positive":
                first, second = s + rng.normal(0, 0.001, s.size), s
            elif kind == "half_split":
                perm = rng.permutation(s.size)
                first, second = s[perm[: s.size // 2]], s[perm[s.size // 2:]]
            elif kind == "false_negative":
                phi2 = rng.normal(0, 0.01, s.size) ** 2
                minus = rng.permutation(s.size) < s.size // 4
                first, second = s + np.where(minus, -phi2, phi2), s
            else:
                raise ValueError(f"unknown analysis {kind!r}")
            row = {"analysis": kind, "index": d["index"], "repetition": r, "n": s.size, "alpha_aso": alpha_aso}
            if deepsig:
                res = aso(first, second, n_resamples=n_resamples, rng=rng, method=method,
                          confidence_level=1 - alpha_aso)
                row.update({"violation_ratio": res.violation_ratio, "eps_min": res.statistic})
            paper = dror2019_aso(first, second, n_resamples=n_resamples, rng=rng_paper, confidence_level=1 - alpha_aso)
            rows.append({**row, "cos": cos_verdict(first, second), "violation_ratio_dror2019": paper.violation_ratio,
                         "eps_min_dror2019": paper.statistic})
    return pd.DataFrame(rows)


#: Cluster-bootstrap replicates behind the Monte Carlo errors of :func:`noise_summary` (fixed seed).
SUMMARY_BOOTSTRAP = 200
SUMMARY_SEED = 20190728


def _noise_statistics(v: np.ndarray, cos: np.ndarray) -> dict[str, float]:
    return {"mean": v.mean(), "sd": v.std(ddof=1), "q2.5": np.quantile(v, 0.025), "q97.5": np.quantile(v, 0.975),
            "share_below_0.4": np.mean(v < 0.4), "share_above_0.6": np.mean(v > 0.6),
            "share_outside_0.4_0.6": np.mean((v < 0.4) | (v > 0.6)), "share_0_or_1": np.mean((v == 0) | (v == 1)),
            "share_positive": np.mean(v > 0), "cos_first_better": np.mean(cos == 1),
            "cos_second_better": np.mean(cos == -1), "cos_decisive": np.mean(cos != 0)}


def noise_summary(rows: pd.DataFrame, *, n_bootstrap: int = SUMMARY_BOOTSTRAP, within: bool = False) -> pd.DataFrame:
    """Per analysis and statistic: mean, sd, 2.5 / 97.5 % quantiles and shares (below 0.4, above 0.6,
    outside [0.4, 0.6], exactly 0 or 1, above 0; COS first / second better, decisive), each with its
    Monte Carlo error (column ``<name>_mcse``): the sd over ``n_bootstrap`` bootstrap resamples of the
    distributions (a distribution's repetitions resampled together, as they share its scores), from a
    fixed seed.  ``within=True`` (fixed distributions, e.g. real runs: only the noise and the bootstraps
    are random) resamples each distribution's repetitions within it instead.  The rows are read in
    (analysis, index, repetition) order, so the result does not depend on how the analysis was split
    into jobs."""
    out = []
    rows = rows.sort_values(["analysis", "index", "repetition"], kind="stable")
    for kind, g in rows.groupby("analysis", sort=True):
        clusters = g["index"].to_numpy()
        starts = np.flatnonzero(np.r_[True, clusters[1:] != clusters[:-1]])
        bounds = np.r_[starts, clusters.size]
        rng = np.random.default_rng([SUMMARY_SEED, sorted(PAPER_NOISE).index(kind) if kind in PAPER_NOISE else 99])
        if within:
            picks = StratifiedIndices(rng, n_bootstrap, np.diff(bounds)).draw(n_bootstrap)
        else:
            draws = ItemIndices(rng, n_bootstrap, starts.size).draw(n_bootstrap)
            picks = [np.concatenate([np.arange(bounds[c], bounds[c + 1]) for c in d]) for d in draws]
        cos = g.cos.to_numpy()
        for stat in ("violation_ratio", "eps_min", "violation_ratio_dror2019", "eps_min_dror2019"):
            if stat not in g:
                continue
            v = g[stat].to_numpy()
            point = _noise_statistics(v, cos)
            boot = pd.DataFrame([_noise_statistics(v[i], cos[i]) for i in picks])
            row = {"analysis": kind, "statistic": stat, "comparisons": v.size, "distributions": starts.size, **point}
            row.update({f"{k}_mcse": float(boot[k].std(ddof=1)) for k in point})
            out.append(row)
    return pd.DataFrame(out)


def noise_markdown(summary: pd.DataFrame) -> str:
    from simstats.io.write import markdown_table

    paper = pd.DataFrame([{"analysis": k, "statistic": "paper (eps)", **v} for k, v in PAPER_NOISE.items()])
    both = pd.concat([summary, paper], ignore_index=True).sort_values(["analysis", "statistic"], kind="stable")
    return ("# ASO's false positives and false negatives (Dror et al. 2019, section 6), synthetic population\n\n"
            "false_positive: each distribution vs itself + N(0, 0.001) noise (first = noisy); half_split: two "
            "random halves; false_negative: noisy version (1/4 of scores - phi^2, 3/4 + phi^2, phi ~ N(0, 0.01)) "
            "vs the original (first = noisy, truly better). violation_ratio = eps_W2; eps_min at alpha = 0.05 "
            "(deepsig's default); cos_* = share where COS declares first / second better. Rows *_dror2019: the "
            "paper's own computation (grid from 0, 1,000 draws per bootstrap replicate, margin about 0.07 sigma at "
            "alpha = 0.05), from a separate random stream.\n\n"
            + markdown_table(both))


def ukp_noise_markdown(summary: pd.DataFrame, pools: pd.DataFrame) -> str:
    """Section 6 on the real UKP pools beside the paper (``summary``: :func:`noise_summary` rows;
    ``pools``: index, task, factor, value, n, sd per pool)."""
    from simstats.io.write import markdown_table

    paper = pd.DataFrame([{"analysis": k, "statistic": "paper (eps)", **v} for k, v in PAPER_NOISE.items()])
    both = pd.concat([summary, paper], ignore_index=True).sort_values(["analysis", "statistic"], kind="stable")
    cols = [c for c in ("analysis", "statistic", "comparisons", "mean", "mean_mcse", "sd", "q2.5", "q97.5",
                        "share_outside_0.4_0.6", "share_below_0.4", "cos_first_better", "cos_second_better")
            if c in both]
    sizes = pools.n.to_numpy()
    return ("# ASO's false positives and false negatives (Dror et al. 2019, section 6), real UKP pools\n\n"
            f"{len(pools)} pools of the UKP 2017 runs (task x hyperparameter value, at least {int(sizes.min())} "
            f"runs; sizes {int(sizes.min())}-{int(sizes.max())}, median {int(np.median(sizes))}; mean sd "
            f"{pools.sd.mean():.4f}, the paper's 255: 0.06). The paper's own computation: eps_min_dror2019 at "
            "alpha = 0.01 (1,000 draws per bootstrap replicate), violation_ratio_dror2019 = eps_W2 on its grid. "
            "Monte Carlo errors: repetitions resampled within each pool.\n\n"
            + markdown_table(both[cols]))
