"""Section 6 of Dror et al. (2019) rerun on the real UKP pools (rule dror_noise_ukp): the pools, the
analyses' independence of the job split, the within-pool Monte Carlo errors, and the check behind the note.

References: pandas groupby counts of the pools, the closed-form se of a mean of fixed clusters resampled
within (sum_c n_c s_c^2 / N^2), and :func:`judge` on the published cells."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.sim.fields import ScenarioError
from simstats.studies.dror2019 import checks
from simstats.studies.dror2019.conventions import PAPER_NOISE, UKP_POOLS, conventions_table
from simstats.studies.dror2019.ledger import CLAIMS_S6, EPS_REASON, NOISE_ROWS, ledger_rows
from simstats.studies.dror2019.simulate import noise_analyses, noise_summary, parse_dror, ukp_pools
from simstats.studies.reference import judge, paper_targets

UKP = Path(__file__).resolve().parents[3] / "resources/realdata/ukp_bilstm_runs_2017.tsv.gz"


def _table(seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for task, n in (("pos.pkl", 90), ("ner.pkl", 70)):
        for _ in range(n):
            rows.append({"Dataset": task, "Test_F1": rng.normal(0.9, 0.02), "Optimizer": rng.choice(["Adam", "SGD", "Nadam"]),
                         "Decoder": rng.choice(["CRF", "['CRF']", "Softmax", "[['LSTM', 50], 'CRF']"])})
    rows.append({"Dataset": "pos.pkl", "Test_F1": np.nan, "Optimizer": "Adam", "Decoder": "CRF"})
    return pd.DataFrame(rows)


def test_pools_are_every_task_factor_value_with_enough_runs():
    t = _table()
    pools = ukp_pools(t, factors=("Optimizer", "Decoder"), min_scores=15)
    got = {(p["task"], p["factor"], p["value"]): p["scores"].size for p in pools}
    ok = t[t.Test_F1.notna()]
    want = {}
    for task, g in ok.groupby("Dataset"):
        for factor in ("Optimizer", "Decoder"):
            norm = g[factor].str.strip("[]'\" ")       # CRF and ['CRF'] are one value
            for value, n in norm.value_counts().items():
                if n >= 15 and "LSTM" not in value:
                    want[(task.removesuffix(".pkl"), factor, value)] = n
    assert got == want and [p["index"] for p in pools] == list(range(len(pools)))
    assert ("pos", "Decoder", "CRF") in got and not any("LSTM" in k[2] for k in got)
    with pytest.raises(ValueError, match="no pool of at least 1000 runs"):
        ukp_pools(t, factors=("Optimizer",), min_scores=1000)
    with pytest.raises(ValueError, match="lacks columns"):
        ukp_pools(t.drop(columns="Decoder"), factors=("Decoder",))


def test_the_real_pools_include_the_papers_table_2_groups():
    pools = ukp_pools(pd.read_csv(UKP, sep="\t", low_memory=False))
    sizes = {(p["task"], p["factor"], p["value"]): p["scores"].size for p in pools}
    # the paper's case B: Adam 3,898 and RMSProp 1,822 POS runs
    assert sizes[("wsj_pos_500", "Optimizer", "Adam")] == 3898 and sizes[("wsj_pos_500", "Optimizer", "RMSProp")] == 1822
    assert len(pools) == 213 and 0.04 < np.mean([p["scores"].std(ddof=1) for p in pools]) < 0.06


def test_analyses_do_not_depend_on_the_job_split_and_run_only_the_papers_computation():
    rng = np.random.default_rng(5)
    pools = [{"index": i, "scores": rng.normal(0.9, 0.01, 40 + 10 * i)} for i in range(4)]
    kw = dict(root_seed=11, n_resamples=30, stream=("dror", "noise_ukp"), deepsig=False)
    whole = noise_analyses(pools, "false_negative", 2, **kw)
    split = pd.concat([noise_analyses(pools[2:], "false_negative", 2, **kw),
                       noise_analyses(pools[:2], "false_negative", 2, **kw)])
    split = split.sort_values(["index", "repetition"], ignore_index=True)
    pd.testing.assert_frame_equal(whole, split)
    assert "eps_min" not in whole and "violation_ratio" not in whole
    # eps_min = eps_W2 + a non-negative margin
    assert (whole.eps_min_dror2019 >= whole.violation_ratio_dror2019 - 1e-12).all()
    # another stream gives other draws
    other = noise_analyses(pools, "false_negative", 2, root_seed=11, n_resamples=30, deepsig=False)
    assert not np.allclose(other.violation_ratio_dror2019, whole.violation_ratio_dror2019)


def test_within_pool_errors_leave_out_the_spread_between_pools():
    rng = np.random.default_rng(2)
    rows = []
    for i, (level, sd, reps) in enumerate(((0.2, 0.01, 6), (0.5, 0.05, 10), (0.8, 0.02, 8))):
        for r in range(reps):
            v = level + rng.normal(0, sd)
            rows.append({"analysis": "false_positive", "index": i, "repetition": r, "eps_min_dror2019": v,
                         "violation_ratio_dror2019": v, "cos": 0})
    rows = pd.DataFrame(rows)
    within = noise_summary(rows, n_bootstrap=4000, within=True).iloc[0]
    g = rows.groupby("index").eps_min_dror2019
    closed = math.sqrt((g.count() * g.var(ddof=0)).sum()) / len(rows)
    assert within.mean_mcse == pytest.approx(closed, rel=0.1)
    between = noise_summary(rows, n_bootstrap=400).iloc[0]
    assert between.mean_mcse > 10 * within.mean_mcse      # the cluster bootstrap counts the levels' spread


def _ukp_results(tmp_path, mean=0.545, share_outside=0.03):
    (tmp_path / "dror").mkdir(exist_ok=True)
    stat = {"comparisons": 6390, "distributions": 213}
    rows = []
    for analysis in ("false_positive", "false_negative"):
        for name in ("eps_min_dror2019", "violation_ratio_dror2019"):
            values = {"mean": mean if analysis == "false_positive" else 0.134, "sd": 0.148, "q2.5": 0.25,
                      "q97.5": 0.82, "share_outside_0.4_0.6": share_outside, "share_below_0.4": 0.995,
                      "share_0_or_1": 0.0, "share_positive": 1.0, "cos_first_better": 0.14,
                      "cos_second_better": 0.36, "cos_decisive": 0.5}
            rows.append({"analysis": analysis, "statistic": name, **stat, **values,
                         **{f"{k}_mcse": (0.004 if k == "mean" else 0.002) for k in values}})
    pd.DataFrame(rows).to_csv(tmp_path / "dror/noise_ukp.csv", index=False)
    pd.DataFrame({"index": [0, 1], "n": [84, 3898], "sd": [0.04, 0.06]}).to_csv(tmp_path / "dror/noise_ukp_pools.csv",
                                                                               index=False)


def test_the_ukp_check_judges_each_miss_again_on_the_pools(tmp_path):
    fp_row = NOISE_ROWS["false_positive"][0]
    outside = CLAIMS_S6[0][0]
    rows = pd.DataFrame([
        {"table": "false_positive", "row": fp_row, "item": "eps mean", "published": 0.502, "tolerance": 0.0014},
        {"table": "false_positive", "row": fp_row, "item": "eps sd", "published": 0.0472, "tolerance": 0.0009},
        {"table": "false_negative", "row": NOISE_ROWS["false_negative"][0], "item": "eps mean", "published": 0.134,
         "tolerance": 0.0018},
        {"table": "claims_s6", "row": outside, "item": "", "published": 2.5, "tolerance": 2.5},
    ], index=[3, 4, 5, 9])
    assert checks.ukp_pools_rerun(rows, rows, tmp_path) is None        # not computed
    _ukp_results(tmp_path)
    out = checks.ukp_pools_rerun(rows, rows, tmp_path)
    assert out["verdicts"] == {3: judge(0.545, 0.004, 0.502, 0.0014), 4: "misses",
                               5: judge(0.134, 0.004, 0.134, 0.0018), 9: judge(3.0, 0.2, 2.5, 2.5)}
    assert out["verdicts"][3] == "misses" and out["verdicts"][9] == "agrees"     # claims in percent
    assert out["runs"] == "84-3,898" and out["pools"] == 2 and "2 of the 4 rows still miss" in out["outcome"]
    _ukp_results(tmp_path, mean=0.502, share_outside=0.2)                   # the cause removed for row 3 only
    out = checks.ukp_pools_rerun(rows, rows, tmp_path)
    assert out["verdicts"][3] == "undetermined" and out["verdicts"][9] == "misses"


def _noise_rows(k=12, reps=4, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for kind in PAPER_NOISE:
        for i in range(k):
            for r in range(reps):
                v = float(np.clip(rng.normal(0.5, 0.1), 0, 1))
                rows.append({"analysis": kind, "index": i, "repetition": r, "violation_ratio": v, "eps_min": v,
                             "violation_ratio_dror2019": v, "eps_min_dror2019": min(v + 0.04, 1.0),
                             "cos": int(rng.integers(-1, 2))})
    return pd.DataFrame(rows)


def test_section_6_rows_give_the_reason_for_eps_min(tmp_path):
    (tmp_path / "dror").mkdir()
    noise_summary(_noise_rows(), n_bootstrap=50).to_csv(tmp_path / "dror/noise_analyses.csv", index=False)
    ledger = ledger_rows(tmp_path)
    eps = ledger[ledger.table.isin(["false_positive", "false_negative"]) & ledger["item"].str.startswith("eps")]
    assert len(eps) and eps.note.str.contains(EPS_REASON, regex=False).all()
    assert (eps.variant == "dror2019 convention eps_min").all() and eps.sensitivity.str.contains("eps_W2").all()


def test_conventions_table_adds_the_ukp_pools_under_the_papers_computation():
    synthetic = noise_summary(_noise_rows(), n_bootstrap=20)
    ukp = synthetic[synthetic.statistic.str.endswith("dror2019")]
    base = conventions_table({}, {}, synthetic, paper_targets())
    both = conventions_table({}, {}, synthetic, paper_targets(), noise_ukp=ukp)
    added = both[both.source == UKP_POOLS]
    assert len(both) == len(base) + len(added) and set(added.convention) == {"dror2019"}
    assert len(added) == sum(1 for v in PAPER_NOISE.values() for k in v if k in ("mean", "sd"))


def test_settings_of_the_ukp_rerun():
    assert parse_dror({}).ukp_noise.repetitions == 3
    assert parse_dror({"ukp_noise": {"repetitions": 30}}).ukp_noise.repetitions == 30
    with pytest.raises(ScenarioError, match="ukp_noise"):
        parse_dror({"ukp_noise": {"repetitions": 1}})
