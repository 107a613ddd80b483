"""The paper's CI widths (Tables 2 and 3) over many simulated test sets: their mean, Monte Carlo error and
sampling sd.

The paper's widths come from one test set.  Ours are the widths of ``test_sets`` simulated test sets of
the example (the paper's class counts and true scores; each test set the first draw of its own stream
that ranks the systems as the paper did), each analysed with the paper's bootstrap (95 % percentile
intervals).  Per width: mean over the test sets, its MCSE (sd / sqrt(K)), the sd of one test set's width
(the spread the paper's single width has under the model), the 2.5 % and 97.5 % quantiles, and for a
difference the width one test set would give with the two systems' bootstrap correlation set to the
one the paper's own Tables 2 and 3 imply (``width_at_paper_r``: information only, not a check of a miss,
since it reproduces the paper's width whenever our marginal widths agree).
Test set k uses the streams ("competition", case, "widths", k, ...): the band does not depend on how
many cores run it, and the case's own test set (stream ("competition", case, ...)) is not among them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.studies.navamunoz2024.population import ClassifierPopulation, ExampleCompetition
from simstats.studies.navamunoz2024.simulate import example_competition
from simstats.studies.reference import reference_table

WIDTH_COLUMNS = ["table", "language", "reference", "system", "paper", "test_sets", "mean", "sd", "mcse", "q025",
                 "q975", "paper_r", "implied_r", "width_at_paper_r", "width_at_paper_r_mcse"]


def implied_correlation(wa, wb, wd):
    """Correlation of two systems' bootstrap scores implied by CI widths: wd^2 = wa^2 + wb^2 - 2 r wa wb."""
    wa, wb, wd = (np.asarray(v, dtype=float) for v in (wa, wb, wd))
    return (wa ** 2 + wb ** 2 - wd ** 2) / (2 * wa * wb)


def width_at_correlation(wa, wb, r):
    """The difference's CI width two systems of widths wa and wb would have at bootstrap correlation r."""
    wa, wb = np.asarray(wa, dtype=float), np.asarray(wb, dtype=float)
    return np.sqrt(np.maximum(wa ** 2 + wb ** 2 - 2 * r * wa * wb, 0.0))


def paper_rows(language: str) -> pd.DataFrame:
    """The paper's Tables 2 and 3 rows of ``language`` with their widths."""
    ref = reference_table("nava_munoz_2024_table2_3")
    ref = ref[ref.language == language].reset_index(drop=True)
    if ref.empty:
        raise ValueError(f"the paper's Tables 2 and 3 have no {language!r} column")
    return ref.assign(width=ref.uci - ref.lci, reference=ref.reference.fillna(""))


def widths_per_test_set(population: ClassifierPopulation, example: ExampleCompetition, *, root_seed: int,
                    n_resamples: int, test_sets: int, name: str) -> pd.DataFrame:
    """One row per (test set, paper row): the 95 % percentile CI width of that row on that test set."""
    if test_sets < 2:
        raise ValueError(f"competition.width_test_sets must be at least 2, got {test_sets}")
    ref = paper_rows(example.language)
    missing = sorted({*ref.system, *(r for r in ref.reference if r)} - set(example.systems))
    if missing:
        raise ValueError(f"competition.examples.{name}: no system {', '.join(missing)} of the paper's "
                         f"{example.language} Tables 2 and 3")
    rows = []
    for k in range(test_sets):
        analysis, _ = example_competition(population, example, root_seed=root_seed, n_resamples=n_resamples,
                                          name=name, key=("widths", k))
        a = (1 - analysis.confidence_level) / 2
        for r in ref.itertuples(index=False):
            j = analysis.names.index(r.system)
            values = (analysis.replicates[:, j] if r.table == "T2"
                      else analysis.improvement_replicates(analysis.names.index(r.reference), j))
            low, high = np.quantile(values, [a, 1 - a])
            rows.append({"test_set": k, "table": r.table, "reference": r.reference, "system": r.system,
                         "width": float(high - low)})
    return pd.DataFrame(rows)


def width_band(per_set: pd.DataFrame, language: str) -> pd.DataFrame:
    """Per paper row: the widths' mean, sd, MCSE and quantiles over the test sets (see the module docstring)."""
    ref = paper_rows(language)
    k = per_set.test_set.nunique()
    single = per_set[per_set.table == "T2"].pivot(index="test_set", columns="system", values="width")
    paper_single = dict(zip(ref[ref.table == "T2"].system, ref[ref.table == "T2"].width))
    out = []
    for r in ref.itertuples(index=False):
        w = per_set[(per_set.table == r.table) & (per_set.system == r.system)
                    & (per_set.reference == r.reference)].sort_values("test_set").width.to_numpy()
        row = {"table": r.table, "language": language, "reference": r.reference, "system": r.system,
               "paper": float(r.width), "test_sets": k, "mean": float(w.mean()), "sd": float(w.std(ddof=1)),
               "mcse": float(w.std(ddof=1) / np.sqrt(k)), "q025": float(np.quantile(w, 0.025)),
               "q975": float(np.quantile(w, 0.975)), "paper_r": np.nan, "implied_r": np.nan,
               "width_at_paper_r": np.nan, "width_at_paper_r_mcse": np.nan}
        if r.table == "T3" and r.reference in paper_single and r.system in paper_single:
            wa, wb = single[r.reference].to_numpy(), single[r.system].to_numpy()
            paper_r = float(implied_correlation(paper_single[r.reference], paper_single[r.system], r.width))
            at_r = width_at_correlation(wa, wb, paper_r)
            row.update(paper_r=paper_r, implied_r=float(implied_correlation(wa, wb, w).mean()),
                       width_at_paper_r=float(at_r.mean()), width_at_paper_r_mcse=float(at_r.std(ddof=1) / np.sqrt(k)))
        out.append(row)
    return pd.DataFrame(out, columns=WIDTH_COLUMNS)


def example_widths(population: ClassifierPopulation, example: ExampleCompetition, *, root_seed: int,
                   n_resamples: int, test_sets: int, name: str) -> pd.DataFrame:
    """:func:`width_band` of :func:`widths_per_test_set`: the table `competition/<case>/widths.csv`."""
    per_set = widths_per_test_set(population, example, root_seed=root_seed, n_resamples=n_resamples,
                              test_sets=test_sets, name=name)
    return width_band(per_set, example.language)
