"""The fit study: the truth each fitted parameter is judged against, coverage with its binomial MCSE, and the same
rows whatever the chunking."""
import math

import numpy as np
import pandas as pd
import pytest

from simstats.sim.scenario import parse_scenario
from simstats.studies.fit.simulate import Variant, simulate_chunk, summarise, true_values

ENTRY = {"metric": "accuracy", "target": 0.8, "dev": {"items": 200}, "test": {"items": 200}, "sigma_item": 1.0,
         "sigma_e": 1.0, "sigma_seed": 0.1, "sigma_shift": 0.05, "dev_offset": 0.2}


def test_truth_is_in_the_fits_units():
    sc = parse_scenario("v", ENTRY)
    s = math.sqrt(2.0)
    both = true_values(Variant("v", sc, runs=5))
    assert both["sigma_item"] == pytest.approx(1 / s) and both["sigma_seed"] == pytest.approx(0.1 / s)
    assert both["dev_offset"] == pytest.approx(0.2 / s) and both["target"] == pytest.approx(0.8)
    test_only = true_values(Variant("v", sc, runs=5, splits=("test",)))
    assert test_only["sigma_seed"] == pytest.approx(math.hypot(0.1, 0.05) / s)   # the seed sd carries the shift
    assert "sigma_shift" not in test_only and "dev_offset" not in test_only


def test_chunks_give_the_same_rows_and_coverage_has_mcse():
    variant = Variant("v", parse_scenario("v", ENTRY), runs=5)
    whole = simulate_chunk(variant, range(6), 3, 30, 0.95, 0.01)
    parts = pd.concat([simulate_chunk(variant, range(0, 2), 3, 30, 0.95, 0.01),
                       simulate_chunk(variant, range(2, 6), 3, 30, 0.95, 0.01)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)
    summary = summarise(whole).set_index("parameter")
    cell = whole[(whole.parameter == "sigma_item") & (whole.basis == "estimated")]
    p = cell.covered.mean()
    assert summary.loc["sigma_item", "coverage"] == pytest.approx(p)
    assert summary.loc["sigma_item", "mcse"] == pytest.approx(math.sqrt(p * (1 - p) / len(cell)))
    assert np.all(whole.low <= whole.high)
