"""Dror et al. (2019) Tables 1-3: score distributions shaped like the paper's three cases.

The paper prints, for each of its three example comparisons, both distributions' size, mean,
sd, median, minimum and maximum, with the U test's p-value and ASO's eps_min.  We build a
deterministic sample with those six numbers - a normal body (location c, scale s, at the
normal quantiles (i - 1/2) / m) plus k runs spread evenly from the minimum up to c - 2.5 s
(failed runs), with the minimum and maximum set exactly - choosing k and solving (c, s) for
the mean and sd, k so that the median fits best.  COS then follows from the summaries by
construction; the U test and ASO depend on the whole shape, which the summaries do not fix,
so their values here are predictions of what such shapes give, beside the paper's.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from simstats.stats.aso import violation_ratio
from simstats.studies.dror2019.conventions import dror2019_violation_ratio
from simstats.studies.dror2019.simulate import compare_distributions
from simstats.studies.reference import paper_targets
from simstats.stats.lazy import lazy_module

optimize = lazy_module("scipy.optimize")
stats = lazy_module("scipy.stats")

CASE_TABLES = {"T1_caseA": "A", "T2_caseB": "B", "T3_caseC": "C"}


def _pair(text: str) -> tuple[str, str]:
    left, right = (part.strip() for part in str(text).split(" vs "))
    return left, right


def paper_cases() -> list[dict]:
    """The three published comparisons as numbers (sizes, mean, sd, median, min, max; p and eps)."""
    t = paper_targets()
    t = t[(t.paper == "dror2019") & t.table.isin(list(CASE_TABLES))]
    out = []
    for table, case in CASE_TABLES.items():
        rows = t[t.table == table]
        first_row = rows.iloc[0]
        sizes = [int(x) for x in re.findall(r"\((\d+)(?: scores)?\)", first_row.row)]
        names = [re.sub(r"\s*\(\d+(?: scores)?\)", "", x).strip() for x in _pair(first_row.row)]
        spec = {"case": case, "table": table, "names": names, "n": sizes}
        for r in rows.itertuples(index=False):
            sides = [[float(v) for v in side.split("/")] for side in _pair(r.value)]
            if r.column == "mean":
                spec["mean"] = [s[0] for s in sides]
            elif r.column == "std":          # Table 1 prints the sd in F1 points
                spec["sd"] = [s[0] / 100 for s in sides]
            elif r.column == "mean_std":
                spec["mean"], spec["sd"] = [s[0] for s in sides], [s[1] for s in sides]
            elif r.column == "median_min_max":
                spec["median"], spec["min"], spec["max"] = ([s[k] for s in sides] for k in range(3))
        note = str(first_row.note)
        spec["paper_u_p"] = float(re.search(r"p=([0-9.]+)", note).group(1))
        spec["paper_eps"] = float(re.search(r"eps(?:_min)?=([0-9.]+)", note).group(1))
        said = re.search(r"\(([^()]+?) better\)", note)   # e.g. "(no dropout better)"; else the first
        spec["paper_better"] = "first" if said is None or said.group(1).lower() in names[0].lower() else "second"
        out.append(spec)
    return out


@lru_cache(maxsize=256)
def _normal_scores(m: int) -> np.ndarray:
    """The standard normal quantiles at (i + 0.5) / m, i < m (read-only; the fits below ask for the same m
    at every step)."""
    z = stats.norm.ppf((np.arange(m) + 0.5) / m)
    z.setflags(write=False)
    return z


def _sample(n: int, k: int, c: float, s: float, lo: float, hi: float) -> np.ndarray:
    body = c + s * _normal_scores(n - k)
    top = c - 2.5 * s
    tail = np.linspace(lo, max(lo, top), k) if k else np.empty(0)
    x = np.sort(np.concatenate([tail, body]))
    x = np.clip(x, lo, hi)
    x[0], x[-1] = lo, hi
    return x


def shaped_sample(n: int, mean: float, sd: float, median: float, lo: float, hi: float) -> np.ndarray:
    """A deterministic sample of size n with the given mean and sd (to 1e-9 where reachable),
    minimum and maximum exactly, and the median as close as the construction allows."""
    if not lo <= median <= hi or not lo <= mean <= hi or n < 3 or sd <= 0:
        raise ValueError(f"inconsistent summaries: n={n}, mean={mean}, sd={sd}, median={median}, "
                         f"min={lo}, max={hi}")
    def fitted(k: int):
        def gap(p):
            x = _sample(n, k, p[0], abs(p[1]), lo, hi)
            return [(x.mean() - mean) / sd, (x.std(ddof=1) - sd) / sd]

        fit = optimize.least_squares(gap, [median, sd], xtol=1e-14, ftol=1e-14, gtol=1e-14)
        x = _sample(n, k, fit.x[0], abs(fit.x[1]), lo, hi)
        return float(np.sum(np.square(fit.fun))) * 1e6 + abs(np.median(x) - median) / sd, x

    # coarse search over the number of tail runs k (log-spaced), then every k between the neighbours
    top = max(1, n // 3)
    coarse = sorted({0, *np.unique(np.geomspace(1, top, 40).astype(int)).tolist()})
    results = {k: fitted(k) for k in coarse}
    i = coarse.index(min(results, key=lambda k: results[k][0]))
    for k in range(coarse[max(i - 1, 0)], coarse[min(i + 1, len(coarse) - 1)] + 1):
        if k not in results:
            results[k] = fitted(k)
    best = min(results.values(), key=lambda r: r[0])
    return best[1]


def case_comparisons(*, rng, n_resamples: int = 1000, alpha_aso: float = 0.01,
                     convention: str = "deepsig") -> pd.DataFrame:
    """Per case: the shaped samples' summaries and our COS / U / ASO beside the paper's."""
    rows = []
    for spec in paper_cases():
        samples = [shaped_sample(spec["n"][i], spec["mean"][i], spec["sd"][i], spec["median"][i], spec["min"][i],
                                 spec["max"][i]) for i in range(2)]
        rows.append(_case_row(spec, samples, spec["paper_better"], RECONSTRUCTED, rng=rng, n_resamples=n_resamples,
                              alpha_aso=alpha_aso, convention=convention))
    return pd.DataFrame(rows)


RECONSTRUCTED = "reconstructed from the published summaries"
UKP_RUNS = "UKP runs"
#: The UKP 2017 runs (resources/realdata) behind the paper's Tables 2 and 3, found by their sizes
#: (3,898 / 1,822 and 2,599 / 225) and summaries: case B is wsj_pos_500 by optimizer, case C
#: conll2003_ner with the IOBES scheme by dropout type.
REAL_RUNS = {
    "B": {"dataset": "wsj_pos_500.pkl", "where": {}, "factor": "Optimizer", "levels": ("Adam", "RMSProp")},
    "C": {"dataset": "conll2003_ner.pkl", "where": {"TaggingScheme": "IOBES"}, "factor": "DropoutType",
          "levels": ("Variational", "No")},
}


def real_run_samples(ukp: pd.DataFrame, case: str) -> tuple[np.ndarray, np.ndarray]:
    """The test F1 of the two groups of UKP runs behind the paper's case ``case`` (B or C)."""
    spec = REAL_RUNS[case]
    sel = ukp[ukp.Dataset == spec["dataset"]]
    for column, value in spec["where"].items():
        sel = sel[sel[column].astype(str) == value]
    out = tuple(sel[sel[spec["factor"]].astype(str) == level].Test_F1.dropna().to_numpy(float)
                for level in spec["levels"])
    if any(x.size == 0 for x in out):
        raise ValueError(f"the UKP table has no runs for case {case} ({spec})")
    return out


def summaries_swapped(samples, spec: dict) -> bool:
    """Whether the paper printed the two groups' summaries in the other order: the published mean,
    sd, median, minimum and maximum are closer to the samples taken in reverse order."""
    def distance(order):
        return sum(abs(f(samples[j]) - spec[key][i]) for i, j in enumerate(order)
                   for key, f in (("mean", np.mean), ("sd", lambda x: np.std(x, ddof=1)), ("median", np.median),
                                  ("min", np.min), ("max", np.max)))
    return bool(distance((1, 0)) < distance((0, 1)))


def real_case_comparisons(ukp: pd.DataFrame, *, rng, n_resamples: int = 1000, alpha_aso: float = 0.01,
                          convention: str = "deepsig") -> pd.DataFrame:
    """Cases B and C on the UKP runs themselves, beside the paper's numbers.  Where the paper printed
    the groups' summaries in swapped order (:func:`summaries_swapped`), the paper's verdict is
    mapped to the group whose summaries it printed (column ``summaries_swapped``)."""
    rows = []
    for spec in paper_cases():
        if spec["case"] not in REAL_RUNS:
            continue
        samples = real_run_samples(ukp, spec["case"])
        swapped = summaries_swapped(samples, spec)
        better = spec["paper_better"]
        if swapped:
            better = "second" if better == "first" else "first"
            spec = {**spec, **{k: spec[k][::-1] for k in ("mean", "sd", "median", "min", "max")}}
        row = _case_row(spec, samples, better, UKP_RUNS, rng=rng, n_resamples=n_resamples, alpha_aso=alpha_aso,
                        convention=convention)
        row["summaries_swapped"] = swapped
        rows.append(row)
    return pd.DataFrame(rows)


def _case_row(spec, samples, better_paper, source, *, rng, n_resamples, alpha_aso, convention) -> dict:
    res = compare_distributions(samples[0], samples[1], alpha_aso=alpha_aso, n_resamples=n_resamples,
                                convention=convention, rng=rng)
    row = {"case": spec["case"], "source": source, "first": spec["names"][0], "second": spec["names"][1]}
    for i, side in enumerate(("first", "second")):
        x = samples[i]
        for key, val, target in (("n", x.size, spec["n"][i]), ("mean", x.mean(), spec["mean"][i]),
                                 ("sd", x.std(ddof=1), spec["sd"][i]), ("median", np.median(x), spec["median"][i]),
                                 ("min", x.min(), spec["min"][i]), ("max", x.max(), spec["max"][i])):
            row[f"{side}_{key}"] = val
            row[f"{side}_{key}_paper"] = target
    better = "first" if res["eps_min_ab"] < res["eps_min_ba"] else "second"
    row["eps_paper_side"] = res["eps_min_ab"] if better_paper == "first" else res["eps_min_ba"]
    row.update({"cos": res["cos"], "u_p": res["so_pvalue"], "u_p_paper": spec["paper_u_p"],
                "so": res["so"], "so_paper": int(spec["paper_u_p"] <= 0.05),
                "aso_better": better, "better_paper": better_paper, "eps": res["eps"], "eps_mcse": res["eps_mcse"],
                "eps_paper": spec["paper_eps"],
                "violation_ratio_first": (dror2019_violation_ratio if convention == "dror2019" else violation_ratio)(
                    samples[0], samples[1]),
                "our_case": res["case"], "case_paper": spec["case"]})
    return row


def cases_markdown(frame: pd.DataFrame) -> str:
    from simstats.io.write import markdown_table

    shape = []
    for r in frame.itertuples(index=False):
        for side in ("first", "second"):
            name = getattr(r, side)
            shape.append({"case": r.case, "source": getattr(r, "source", RECONSTRUCTED), "distribution": name, **{
                key: f"{getattr(r, f'{side}_{key}'):.4g} ({getattr(r, f'{side}_{key}_paper'):.4g})"
                for key in ("n", "mean", "sd", "median", "min", "max")}})
    verdicts = pd.DataFrame([{
        "case (paper)": r.case_paper, "source": getattr(r, "source", RECONSTRUCTED), "our case": r.our_case,
        "comparison": f"{r.first} vs {r.second}",
        "COS": {1: "first", -1: "second", 0: "undecided"}[r.cos],
        "U test p (paper)": f"{r.u_p:.4g} ({r.u_p_paper:.4g})",
        "SO decisive (paper)": f"{'yes' if r.so else 'no'} ({'yes' if r.so_paper else 'no'})",
        "ASO: better, eps_min (paper)": f"{r.aso_better}, {r.eps:.4f} ({r.better_paper}, {r.eps_paper:.4f})",
        "eps_W2 of 'first better'": f"{r.violation_ratio_first:.4f}",
        "agrees": "yes" if (r.our_case == r.case_paper and r.aso_better == r.better_paper
                            and abs(r.eps - r.eps_paper) <= 0.05) else "no",
    } for r in frame.itertuples(index=False)])
    return "\n".join([
        "# Dror et al. (2019) Tables 1-3: distributions with the published summaries",
        "",
        "Deterministic samples with each distribution's published size, mean, sd, minimum and maximum (exact) and "
        "median (closest the construction allows); for cases B and C also the UKP 2017 runs themselves (source "
        "'UKP runs': wsj_pos_500 Adam vs RMSProp; conll2003_ner IOBES variational vs no dropout). For case B the "
        "paper printed the two groups' summaries in swapped order (the published 'Adam' numbers are the RMSProp "
        "runs'); its verdict is mapped to the group it describes. Values in parentheses are the paper's. COS follows from the "
        "summaries; the U test and ASO depend on the shape, which the summaries do not fix. `agrees`: same case, "
        "same ASO winner and eps within 0.05. eps_W2 is the violation ratio itself (0: first "
        "stochastically larger, 1: second), before eps_min adds its bootstrap margin.",
        "",
        "## Shapes",
        "",
        markdown_table(pd.DataFrame(shape)),
        "",
        "## Verdicts",
        "",
        markdown_table(verdicts),
    ])
