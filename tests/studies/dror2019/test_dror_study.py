"""Dror et al. (2019) real-data comparisons: COS / SO / ASO verdicts, cases, data readers."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from simstats.studies.dror2019.simulate import (case_summary, compare_distributions, ibm_distributions, read_ibm,
                                 real_data_comparisons, ukp_distributions)

REAL = Path(__file__).resolve().parents[3] / "resources" / "realdata"


def test_clear_dominance_is_case_a_with_eps_zero():
    rng = np.random.default_rng(0)
    a = rng.normal(0.90, 0.005, 200)
    b = rng.normal(0.85, 0.010, 150)
    res = compare_distributions(a, b, rng=1)
    assert res["cos"] == 1 and res["so"] == 1 and res["aso"] == 1 and res["case"] == "A"
    assert res["eps"] == pytest.approx(0.0, abs=1e-9) and res["eps_min_ba"] == pytest.approx(1.0, abs=1e-9)
    assert res["so_pvalue"] == pytest.approx(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)


def test_same_distribution_is_undecided():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.9, 0.01, 300), rng.normal(0.9, 0.01, 300)
    res = compare_distributions(a, b, rng=2)
    assert res["so"] == 0 and not res["aso_decisive"]
    assert res["eps_min_ab"] > 0.5 and res["eps_min_ba"] > 0.5


def test_cos_without_so_is_case_b():
    # A: larger mean and smaller sd, but the shift is tiny against the spread: U test not significant
    rng = np.random.default_rng(2)
    a = rng.normal(0.901, 0.010, 40)
    b = rng.normal(0.900, 0.030, 40)
    a = a - a.mean() + 0.901
    b = b - b.mean() + 0.900
    res = compare_distributions(a, b, rng=3)
    assert res["cos"] == 1 and res["so"] == 0 and res["case"] == "B"


def test_ukp_groups_merge_decoder_spellings_and_pair_values():
    t = pd.DataFrame({"Dataset": ["ace.pkl"] * 120, "Test_F1": np.linspace(0.5, 0.9, 120),
                      "Decoder": ["CRF", "['CRF']", "Softmax"] * 40, "Optimizer": ["Adam", "Nadam"] * 60,
                      "DropoutType": ["Variational"] * 120})
    comps = ukp_distributions(t, min_scores=30)
    keys = {(c[1], c[2], c[3], c[4]): (c[5].size, c[6].size) for c in comps}
    assert keys == {("ace", "Decoder", "CRF", "Softmax"): (80, 40), ("ace", "Optimizer", "Adam", "Nadam"): (60, 60)}


def test_real_data_readers_and_summary():
    ibm = read_ibm(REAL / "ibm_model_recycling_20_seeds")
    assert len(ibm) == 6
    comps = ibm_distributions(ibm)
    assert len(comps) == 36 * 15 and all(18 <= c[5].size <= 20 for c in comps)   # a few runs lack a score
    stsb = [c for c in comps if c[1] == "stsb"][0]
    assert np.all(np.isfinite(stsb[5]))                 # Spearman used where accuracy is missing
    res = real_data_comparisons(comps[:20], rng=0, n_resamples=200)
    summary = case_summary(res)
    total = summary[summary.case == "all"].iloc[0]
    assert total.comparisons == 20
    assert summary[summary.case != "all"].share_percent.sum() == pytest.approx(100)


def test_synthetic_population_shape_and_noise_analyses():
    from simstats.studies.dror2019.simulate import noise_analyses, noise_summary, population_pairs, synthetic_population

    pop = synthetic_population(np.random.default_rng(1))
    sizes = [d["scores"].size for d in pop]
    assert len(pop) == 255 and min(sizes) >= 41 and max(sizes) <= 3898
    assert 0.04 < np.mean([d["scores"].std(ddof=1) for d in pop]) < 0.08      # the paper: about 0.06
    pairs = population_pairs(pop, np.random.default_rng(2))
    assert 480 <= len(pairs) <= 510 and all(pop[i]["task"] == pop[j]["task"] for i, j in pairs)
    small = [d for d in pop if d["scores"].size < 300][:15]
    fp = noise_summary(noise_analyses(small, "false_positive", 4, rng=3, n_resamples=300))
    fn = noise_summary(noise_analyses(small, "false_negative", 4, rng=4, n_resamples=300))
    vr_fp = fp.set_index("statistic").loc["violation_ratio"]
    vr_fn = fn.set_index("statistic").loc["violation_ratio"]
    # identical up to tiny noise: eps_W2 centred on 0.5; the better (noisy) version: well below 0.5
    assert abs(vr_fp["mean"] - 0.5) < 4 * vr_fp["sd"] / np.sqrt(vr_fp["comparisons"])
    assert vr_fn["mean"] < 0.3


def test_noise_analyses_do_not_depend_on_how_the_population_is_split():
    from simstats.studies.dror2019.simulate import noise_analyses, synthetic_population

    pop = [d for d in synthetic_population(np.random.default_rng(5), n_distributions=12) if d["scores"].size < 400]
    whole = noise_analyses(pop, "false_negative", 2, root_seed=7, n_resamples=100)
    parts = pd.concat([noise_analyses(pop[k::2], "false_negative", 2, root_seed=7, n_resamples=100) for k in (0, 1)])
    key = ["index", "repetition"]
    pd.testing.assert_frame_equal(whole.sort_values(key, ignore_index=True), parts.sort_values(key, ignore_index=True))


# --------------------------------------------------------------------------- Tables 1-3 shaped cases
def test_paper_cases_are_read_from_the_shipped_targets():
    from simstats.studies.dror2019.cases import paper_cases

    cases = {c["case"]: c for c in paper_cases()}
    assert cases["A"]["n"] == [41, 87] and cases["A"]["sd"][0] == pytest.approx(0.002237)
    assert cases["B"]["names"] == ["Adam", "RMSProp"] and cases["B"]["paper_u_p"] == pytest.approx(0.4562)
    assert cases["C"]["paper_better"] == "second" and cases["C"]["min"] == [0.0119, 0.5547]


@pytest.mark.parametrize("n, mean, sd, median, lo, hi", [
    (41, 0.9075, 0.002237, 0.9080, 0.9018, 0.9113),
    (3898, 0.9224, 0.0604, 0.9319, 0.1746, 0.9556),
    (225, 0.8772, 0.0247, 0.8799, 0.5547, 0.8995),
])
def test_shaped_sample_has_the_published_summaries(n, mean, sd, median, lo, hi):
    from simstats.studies.dror2019.cases import shaped_sample

    x = shaped_sample(n, mean, sd, median, lo, hi)
    assert x.size == n and x.min() == lo and x.max() == hi
    assert x.mean() == pytest.approx(mean, abs=1e-7) and x.std(ddof=1) == pytest.approx(sd, rel=1e-5)
    assert abs(np.median(x) - median) < 0.1 * sd


def test_shaped_sample_rejects_inconsistent_summaries():
    from simstats.studies.dror2019.cases import shaped_sample

    with pytest.raises(ValueError, match="inconsistent summaries"):
        shaped_sample(50, 0.9, 0.01, 0.95, 0.8, 0.92)


# --------------------------------------------------------------------------- the paper's own convention
def test_paper_convention_uses_one_sided_u_tests_and_the_small_margin():
    from simstats.studies.dror2019.conventions import dror2019_u_test

    rng = np.random.default_rng(8)
    a, b = rng.normal(0.905, 0.01, 60), rng.normal(0.90, 0.01, 50)
    deep = compare_distributions(a, b, rng=1)
    paper = compare_distributions(a, b, rng=1, convention="dror2019")
    assert paper["so_pvalue"] == min(dror2019_u_test(a, b), dror2019_u_test(b, a))
    assert paper["so"] == (1 if dror2019_u_test(b, a) < 0.05 else -1 if dror2019_u_test(a, b) < 0.05 else 0)
    # the paper's margin is far smaller: its eps sits closer to the violation ratio
    assert paper["eps"] < deep["eps"]
    small = compare_distributions(a[:15], b[:15], rng=1, convention="dror2019")
    assert small["so_pvalue"] == 1.0 and small["so"] == 0          # p = 1 below 20 scores
    with pytest.raises(ValueError, match="convention"):
        compare_distributions(a, b, rng=1, convention="scipy")


def test_conventions_table_judges_every_published_number():
    from simstats.studies.dror2019.cases import case_comparisons
    from simstats.studies.dror2019.conventions import conventions_markdown, conventions_table
    from simstats.studies.dror2019.simulate import noise_analyses, noise_summary, synthetic_population
    from simstats.studies.reference import paper_targets

    paper_cases = case_comparisons(rng=1, n_resamples=200, convention="dror2019")
    cases = {"deepsig": paper_cases, "dror2019": paper_cases}     # the table's logic, not the cases, is tested
    rng = np.random.default_rng(3)
    comps = [("toy", "t", "f", "x", "y", rng.normal(0.9, 0.01, 40), rng.normal(0.89, 0.02, 40)),
             ("toy", "t", "f", "x", "z", rng.normal(0.9, 0.01, 40), rng.normal(0.9, 0.01, 40))]
    real = {c: real_data_comparisons(comps, rng=2, n_resamples=200, convention=c) for c in ("deepsig", "dror2019")}
    pop = [d for d in synthetic_population(np.random.default_rng(5), n_distributions=6) if d["scores"].size < 400]
    noise = noise_summary(pd.concat([noise_analyses(pop, k, 2, root_seed=7, n_resamples=100)
                                     for k in ("false_positive", "false_negative")]))
    table = conventions_table(cases, real, noise, paper_targets())
    assert set(table.convention) == {"deepsig", "dror2019"}
    per = table.groupby("convention").size()
    # Tables 1-3, Table 4 (3 cases x 3 and the two claims about all 510 comparisons), section 6
    assert per["deepsig"] == per["dror2019"] == 6 + 9 + 2 + 4
    assert set(table.verdict) <= {"agrees", "misses", "undetermined", "misses (other winner)"}
    # U p-values on a log10 scale; eps_min of fixed data carries its bootstrap margin's Monte Carlo error
    u = table[table.quantity == "U test p"]
    assert (u.scale == "log10").all() and (u.mcse == 0).all()
    eps = table[table.quantity.str.startswith("eps of the better")]
    assert (eps.mcse > 0).all() and (eps.mcse < 0.01).all()
    claims = table[table.quantity.isin(["case D share %", "ASO decisive %"])].set_index(["convention", "quantity"])
    assert claims.loc[("dror2019", "ASO decisive %"), "ours"] == 100 * real["dror2019"].aso_decisive.mean()
    assert "dror2019 verdict" in conventions_markdown(table)
