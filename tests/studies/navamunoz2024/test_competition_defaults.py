"""`simstats competition`'s default convention controls the family-wise
error over the whole table; the paper's convention (what the replication uses) does not.

The setting is the competition study's global null (config: competition.study.designs.global_null):
m systems of identical population accuracy (population sexism_accuracy, best = 0.78), each
competition a fresh test set of n = 1,000 items.  Every significant pair is then a false
discovery, so the FWER is the share of competitions in which any pair of the table is declared
significant (adjusted p < alpha).  The settings are the CLI's: read from its parser's defaults
and resolved by the same function, and one competition is run through the CLI itself to show
that this simulation reproduces the command's p-values.

A rate "controls" alpha when it is at most alpha + 3 Monte Carlo standard errors (binomial, at
alpha); it "exceeds" alpha when it is above that bound.  Runtime: about 15 s for m = 10
(200 competitions, B = 999 >= floor(45 / 0.05) = 900).  m = 31 needs B >= 9,300 (465 pairs),
about 4 minutes on a busy 2-core machine (it runs in every test session: it is the acceptance
check at the study's largest design cell).

Measured (seed 17): m = 10, B = 999: default 0.035 ± 0.013, paper 0.250 ± 0.031, --scope group
alone 0.150 ± 0.025; m = 31, B = 9,300: default 0.035 ± 0.013, paper 0.540 ± 0.035, --scope group
alone 0.325 ± 0.033 (bound alpha + 3 MCSE = 0.096).
"""
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from simstats.cli import build_parser, main
from simstats.stats.competition import analyse_competition, competition_settings, required_resamples
from simstats.studies.navamunoz2024.population import parse_competition

CONFIG = Path(__file__).resolve().parents[3] / "config" / "config.yaml"
ALPHA = 0.05
REPLICATES = 200
SEED = 17


def cli_settings(*flags) -> dict:
    """The settings `simstats competition table.csv FLAGS` analyses with (its own resolution)."""
    args = build_parser().parse_args(["competition", "table.csv", *flags])
    return competition_settings(args.preset, scope=args.correction_scope, pvalue_rule=args.pvalue_rule,
                                alternative=args.alternative, correction=args.correction)


@pytest.fixture(scope="module")
def null_design():
    with open(CONFIG, encoding="utf-8") as fh:
        settings = parse_competition(yaml.safe_load(fh)["competition"])
    design = settings.designs["global_null"]
    assert design.spread == 0.0 and 10 in design.m and 31 in design.m   # the study's global null
    return settings.populations[design.population], design


def competition(null_design, m: int, r: int):
    """(gold, predictions) of replicate r: m equally good systems on n fresh items."""
    pop, design = null_design
    theta = np.full(m, pop.solve_theta(design.best))
    return pop.sample(theta, design.n[0], np.random.default_rng([SEED, m, r]))


def names(m: int) -> list[str]:
    return [f"S{k:02d}" for k in range(m)]


def fwer(null_design, m: int, n_resamples: int, conventions: dict) -> dict:
    """FWER (rate, MCSE) of each named settings dict over REPLICATES global-null competitions.
    The bootstrap of replicate r is seeded with r, as `--seed r` would."""
    pop, _ = null_design
    metric = pop.metric_object()
    hits = {name: [] for name in conventions}
    for r in range(REPLICATES):
        gold, preds = competition(null_design, m, r)
        base = analyse_competition(names(m), pop.statistics(gold, preds), metric, n_resamples=n_resamples,
                                   rng=np.random.default_rng(r), correction="none")
        for name, s in conventions.items():
            a = replace(base, pvalue_rule=s["pvalue_rule"], alternative=s["alternative"])
            table = a.difference_significance(alpha=ALPHA, scope=s["scope"])
            hits[name].append(bool(table[f"significant_{s['correction']}"].any()))
    out = {}
    for name, h in hits.items():
        rate = float(np.mean(h))
        out[name] = (rate, math.sqrt(rate * (1 - rate) / REPLICATES))
    return out


#: alpha + 3 binomial standard errors at alpha.
BOUND = ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / REPLICATES)


def measured(null_design, m: int, n_resamples: int) -> dict:
    default = cli_settings()
    conventions = {
        # the CLI default: its decision rule (Holm over all pairs)
        "default": default,
        # --preset paper, with Holm within each reference system's group (Table 5's Holm column)
        "paper": cli_settings("--preset", "paper", "--correction", "holm"),
        # the default with only the paper's scope: --correction-scope group
        "default_scope_group": cli_settings("--correction-scope", "group"),
    }
    out = fwer(null_design, m, n_resamples, conventions)
    print(f"\nglobal null, m = {m}, n = 1000, B = {n_resamples}, {REPLICATES} competitions, alpha = {ALPHA}: "
          + "; ".join(f"{k} FWER {v[0]:.3f} ± {v[1]:.3f}" for k, v in out.items()) + f" (bound {BOUND:.3f})")
    return out


@pytest.fixture(scope="module")
def m10(null_design):
    return measured(null_design, 10, 999)


def test_cli_defaults_are_all_pairs_add_one_two_sided_holm():
    assert cli_settings() == {"scope": "all", "pvalue_rule": "add-one", "alternative": "two-sided",
                              "correction": "holm"}
    assert cli_settings("--preset", "paper") == {"scope": "group", "pvalue_rule": "fraction",
                                                 "alternative": "greater", "correction": "none"}
    assert required_resamples(45, ALPHA) == 900 <= 999          # B of the m = 10 simulation suffices


def test_simulation_reproduces_the_cli(null_design, tmp_path, capsys):
    """Replicate 0 of m = 10 through `simstats competition --seed 0`: the same Holm p-values."""
    pop, _ = null_design
    gold, preds = competition(null_design, 10, 0)
    path = tmp_path / "competition.csv"
    pd.DataFrame({"y": gold, **dict(zip(names(10), preds))}).to_csv(path, index=False)
    assert main(["competition", str(path), "--n-resamples", "999", "--seed", "0", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    pairs = pd.DataFrame(json.loads(out.out)["tables"]["pairs"])
    base = analyse_competition(names(10), pop.statistics(gold, preds), pop.metric_object(), n_resamples=999,
                               rng=np.random.default_rng(0), pvalue_rule="add-one", alternative="two-sided")
    expected = base.pairs(scope="all")
    assert pairs.reference.tolist() == expected.reference.tolist()
    np.testing.assert_allclose(pairs.pvalue_holm, expected.pvalue_holm)


def test_default_controls_fwer_under_the_global_null_m10(m10):
    rate, se = m10["default"]
    assert rate <= BOUND, f"default FWER {rate:.3f} ± {se:.3f} > {BOUND:.3f}"


def test_paper_convention_exceeds_alpha_under_the_global_null_m10(m10):
    # the same measurement fails for the paper's settings: the test can fail
    rate, se = m10["paper"]
    assert rate > BOUND, f"paper FWER {rate:.3f} ± {se:.3f} <= {BOUND:.3f}"


def test_group_scope_alone_exceeds_alpha_m10(m10):
    rate, se = m10["default_scope_group"]
    assert rate > BOUND, f"--scope group FWER {rate:.3f} ± {se:.3f} <= {BOUND:.3f}"


def test_m31_needs_b_9300_and_the_cli_warns_below(null_design, tmp_path, capsys):
    assert required_resamples(31 * 30 // 2, ALPHA) == 9300
    gold, preds = competition(null_design, 31, 0)
    path = tmp_path / "competition.csv"
    pd.DataFrame({"y": gold, **dict(zip(names(31), preds))}).to_csv(path, index=False)
    assert main(["competition", str(path), "--n-resamples", "199", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert err == ("simstats: warning: 199 bootstrap samples cannot reach alpha = 0.05 after Bonferroni/Holm over "
                   "465 pairs (smallest p-value 1/200, times 465: 2.33 >= 0.05); use 9300 or more resamples "
                   "(n_resamples, --n-resamples)\n")


def test_default_controls_fwer_under_the_global_null_m31(null_design):
    """About 4 minutes on 2 cores: the acceptance check at the study's largest design cell."""
    out = measured(null_design, 31, 9300)
    rate, se = out["default"]
    assert rate <= BOUND, f"default FWER {rate:.3f} ± {se:.3f} > {BOUND:.3f}"
    rate, se = out["paper"]
    assert rate > BOUND, f"paper FWER {rate:.3f} ± {se:.3f} <= {BOUND:.3f}"
