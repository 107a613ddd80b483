"""Dror et al. (2019) in the fidelity ledger: one row per published number, roles, Monte Carlo errors, and
the computed checks behind its notes.

References: the project's COS verdict (simstats.stats.aso.cos_verdict), the cluster standard error of a mean
in closed form, scipy's binomial interval, and the published cells of paper_targets.csv."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.stats.aso import cos_verdict
from simstats.studies.dror2019 import checks
from simstats.studies.dror2019.conventions import PAPER_NOISE, u_p_tolerance
from simstats.studies.dror2019.ledger import ledger_rows
from simstats.studies.dror2019.simulate import noise_summary
from simstats.studies.reference import judge, paper_targets


def test_cos_of_the_false_negative_noise_is_the_projects_cos_verdict():
    rng = np.random.default_rng(3)
    scores = rng.normal(0.9, 0.01, (50, 60))
    noisy_better = checks.cos_noisy_better(scores, np.random.default_rng(4))
    # rebuild the same noise and compare with cos_verdict row by row
    gen = np.random.default_rng(4)
    phi2 = gen.normal(0.0, 0.01, scores.shape) ** 2
    minus = gen.random(scores.shape).argsort(axis=1) < 60 // 4
    noisy = scores + np.where(minus, -phi2, phi2)
    assert (minus.sum(axis=1) == 15).all()
    assert noisy_better.tolist() == [cos_verdict(noisy[i], scores[i]) == 1 for i in range(50)]


def test_cos_cannot_reach_the_published_false_negative_rate():
    grid = checks.cos_grid(100)
    assert len(grid) == len(checks.GRID_SIZES) * len(checks.GRID_SDS) * 2
    # the noise (mean shift 5e-5, sd 1.7e-4) moves the sd up or down about equally: COS at most about 1/2
    assert grid.cos_noisy_better.max() < 0.65
    # a large sd against the noise: the mean rises (P about 1), the sd falls about half the time
    assert grid[(grid.n == 3898) & (grid.sd == 0.1) & ~grid.failed_runs].cos_noisy_better.iloc[0] == pytest.approx(0.5, abs=0.15)
    # a tiny sd: the noise's own variance raises the sd every time
    assert grid[(grid.n == 3898) & (grid.sd == 0.001) & ~grid.failed_runs].cos_noisy_better.iloc[0] == 0.0
    rows = pd.DataFrame([{"published": 0.874, "tolerance": 0.0067}], index=[27])
    out = checks.cos_false_negative_grid(rows, rows, Path("."))
    assert out["verdicts"] == {27: "misses"} and int(out["top"]) < 60


def _noise_rows(k=12, reps=5, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for kind in PAPER_NOISE:
        level = rng.normal(0.5, 0.1, k)            # one level per distribution: clustered repetitions
        for i in range(k):
            for r in range(reps):
                v = float(np.clip(level[i] + rng.normal(0, 0.02), 0, 1))
                rows.append({"analysis": kind, "index": i, "repetition": r, "violation_ratio": v, "eps_min": v,
                             "violation_ratio_dror2019": v, "eps_min_dror2019": v,
                             "cos": int(rng.integers(-1, 2))})
    return pd.DataFrame(rows)


def test_noise_summary_errors_are_cluster_bootstrap_errors():
    rows = _noise_rows(k=40, reps=10)
    summary = noise_summary(rows, n_bootstrap=400).set_index(["analysis", "statistic"])
    s = summary.loc[("false_positive", "eps_min_dror2019")]
    g = rows[rows.analysis == "false_positive"]
    cluster_se = g.groupby("index").eps_min_dror2019.mean().std(ddof=1) / math.sqrt(40)
    assert s.mean_mcse == pytest.approx(cluster_se, rel=0.25)
    assert s.mean_mcse > 2 * g.eps_min_dror2019.std(ddof=1) / math.sqrt(len(g))   # far above the iid se
    assert all(np.isfinite(s[c]) and s[c] > 0 for c in ("sd_mcse", "q2.5_mcse", "q97.5_mcse", "cos_decisive_mcse"))
    # the same rows in another order give the same summary
    shuffled = noise_summary(rows.sample(frac=1, random_state=1), n_bootstrap=400)
    pd.testing.assert_frame_equal(shuffled.reset_index(drop=True), summary.reset_index())


def _conventions():
    rows = []
    for table, case, paper_p, paper_eps in (("Table 1", "A", 0.00025, 0.0), ("Table 2", "B", 0.4562, 0.0159)):
        for conv in ("deepsig", "dror2019"):
            sources = ["x vs y"] + (["x vs y (UKP runs)"] if case == "B" else [])
            for src in sources:
                p = 4.4e-7 if case == "A" else 2e-5
                rows.append({"table": table, "source": src, "quantity": "U test p", "convention": conv, "paper": paper_p,
                             "ours": p, "mcse": 0.0, "tolerance": u_p_tolerance(paper_p),
                             "tolerance_basis": "log10", "scale": "log10", "verdict": "misses"})
                eps = 0.02 if conv == "dror2019" else 0.15
                rows.append({"table": table, "source": src, "quantity": "eps of the better", "convention": conv,
                             "paper": paper_eps, "ours": eps, "mcse": 0.001, "tolerance": 0.05,
                             "tolerance_basis": "±0.05", "scale": "linear",
                             "verdict": judge(eps, 0.001, paper_eps, 0.05)})
    for conv in ("deepsig", "dror2019"):
        for src in ("UKP BiLSTM 2017", "IBM model recycling"):
            rows.append({"table": "Table 4", "source": src, "quantity": "case A share %", "convention": conv,
                         "paper": 0.98, "ours": 70.0 if src.startswith("UKP") else 50.0, "mcse": 0.0,
                         "tolerance": 10.005, "tolerance_basis": "±10", "scale": "linear", "verdict": "misses"})
    return pd.DataFrame(rows)


def test_ledger_has_one_row_per_published_number_under_the_papers_computation(tmp_path):
    (tmp_path / "dror").mkdir()
    _conventions().to_csv(tmp_path / "dror/conventions.csv", index=False)
    noise_summary(_noise_rows(), n_bootstrap=50).to_csv(tmp_path / "dror/noise_analyses.csv", index=False)
    ledger = ledger_rows(tmp_path)
    assert not ledger.duplicated(["paper", "table", "row", "column", "item"]).any()
    judged = ledger[ledger.verdict != "not compared"]
    assert np.isfinite(judged.mcse).all()
    t2 = ledger[ledger.table == "T2_caseB"].set_index("item")
    # case B on the paper's own runs is a prediction, under the paper's convention; the rest is sensitivity
    assert t2.loc["ASO eps_min (note)", "variant"] == "dror2019 convention; UKP runs"
    assert t2.loc["ASO eps_min (note)", "role"] == "prediction"
    assert "deepsig, UKP runs: 0.15" in t2.loc["ASO eps_min (note)", "sensitivity"]
    # the U test's p on a log scale: 2e-5 against 0.4562 misses (the absolute ±0.05 of before would not matter)
    assert t2.loc["U test p (note)", "scale"] == "log10" and t2.loc["U test p (note)", "verdict"] == "misses"
    t1 = ledger[ledger.table == "T1_caseA"].set_index("item")
    assert set(t1.role) == {"analogue"} and t1.loc["U test p (note)", "verdict"] == "misses"
    t4 = ledger[ledger.table == "T4_summary"].iloc[0]
    assert t4.role == "analogue" and t4.ours == 70.0 and "IBM model recycling: 50" in t4.sensitivity
    # every section 6 number and every claim is a row, none a prediction
    s6 = ledger[ledger.table.isin(["false_positive", "false_negative", "claims_s6"])]
    assert len(s6) == sum(len(v) for v in PAPER_NOISE.values()) + 5 and set(s6.role) == {"analogue"}
    claims = paper_targets()
    claims = claims[(claims.paper == "dror2019") & claims.table.eq("claims_s6")]
    assert set(zip(claims.row, claims.column)) == set(zip(ledger[ledger.table == "claims_s6"].row,
                                                          ledger[ledger.table == "claims_s6"].column))
    bound = ledger[(ledger.table == "claims_s6") & (ledger.column == "pct_max")].iloc[0]
    assert (bound.published - bound.tolerance, bound.published + bound.tolerance) == (0.0, 5.0)
