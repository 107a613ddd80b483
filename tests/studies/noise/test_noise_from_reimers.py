"""The noise study's tables of a Reimers task come from the Reimers chunks: the same models, so the same rows.

simstats/studies/noise/rules.smk reads a scenario the Reimers study covers from the Reimers chunk jobs instead of
simulating its models again; these tests hold that to the noise study's own chunks, exactly.
"""
import numpy as np
import pandas as pd
import pytest

from simstats.sim.model_tables import PAIR_COLUMNS, SCORE_COLUMNS
from simstats.studies.noise.simulate import merge_chunks
from simstats.studies.noise.simulate import simulate_chunk as noise_chunk
from simstats.studies.reimers2018.simulate import parse_reimers
from simstats.studies.reimers2018.simulate import simulate_chunk as reimers_chunk
from simstats.sim.scenario import parse_scenarios

SEED = 11
SCENARIOS = parse_scenarios({
    "f1_task": {"metric": "f1", "target": 0.8, "dev": {"gold": 150, "sentences": 60},
                "test": {"gold": 200, "sentences": 80}, "sigma_seed": 0.04, "sigma_e": 0.7},
    "clustered_acc": {"metric": "accuracy", "target": 0.7, "dev": {"items": 200}, "test": {"items": 240},
                      "sigma_seed": 0.03, "sigma_e": 0.6, "clusters": {"size": 12, "sigma_c": 0.5}},
})


def settings(name, chunk_size):
    return parse_reimers({"tasks": [name], "n_models": 120, "chunk_size": chunk_size, "n_resamples": 100,
                          "row_size": 10, "figure4_n": [1, 2, 5, 10], "table5_n": [1, 5], "eval34_size": 5,
                          "power": {"n": [3], "d": [1.0], "replicates": 100}}, SCENARIOS)


def sort_tables(scores, pairs):
    return (scores.sort_values(["approach", "index"]).reset_index(drop=True),
            pairs.sort_values(["approach", "pair"]).reset_index(drop=True))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("chunk_size", [20, 60])
def test_reimers_chunks_give_the_noise_study_tables_exactly(name, chunk_size):
    sc = SCENARIOS[name]
    st = settings(name, chunk_size)
    n_models = 46                              # not a whole number of blocks (10) or chunks
    own_scores, own_pairs = sort_tables(*noise_chunk(sc, SEED, 0, n_models))
    parts = []
    for chunk in range(st.n_chunks):
        start, stop = st.chunk_range(chunk)
        tables = reimers_chunk(sc, st, SEED, start, stop, noise_models=n_models)
        assert len(tables) == 4
        assert list(tables[2].columns) == SCORE_COLUMNS and list(tables[3].columns) == PAIR_COLUMNS
        if start >= n_models:                   # chunks past the noise study's models write empty tables
            assert tables[2].empty and tables[3].empty
            assert dict(tables[2].dtypes) == dict(own_scores.dtypes)
            assert dict(tables[3].dtypes) == dict(own_pairs.dtypes)
        parts.append(tables)
    scores, pairs = merge_chunks([p[2] for p in parts], [p[3] for p in parts], n_models)
    pd.testing.assert_frame_equal(scores, own_scores, check_exact=True)
    pd.testing.assert_frame_equal(pairs.drop(columns="r12_item_boot"), own_pairs.drop(columns="r12_item_boot"),
                                  check_exact=True)
    assert len(pairs) == 2 * (n_models // 2)
    for a, b in zip(pairs.r12_item_boot, own_pairs.r12_item_boot):
        assert a.dtype == np.float32 and np.array_equal(a, b, equal_nan=True)
    # and the Reimers study's own outputs do not depend on whether it writes the noise tables
    start, stop = st.chunk_range(0)
    plain = reimers_chunk(sc, st, SEED, start, stop)
    assert len(plain) == 2
    pd.testing.assert_frame_equal(plain[0], parts[0][0], check_exact=True)
    pd.testing.assert_frame_equal(plain[1], parts[0][1], check_exact=True)


def test_merge_chunks_keeps_the_first_models_and_whole_pairs():
    scores = pd.DataFrame({"approach": ["B", "A", "A", "B", "A"], "index": [0, 2, 0, 1, 1]})
    pairs = pd.DataFrame({"approach": ["A", "B", "A"], "pair": [1, 0, 0]})
    s, p = merge_chunks([scores.iloc[:2], scores.iloc[2:]], [pairs], n_models=2)
    assert s.to_dict("list") == {"approach": ["A", "A", "B", "B"], "index": [0, 1, 0, 1]}
    assert p.to_dict("list") == {"approach": ["A", "B"], "pair": [0, 0]}
    _, p = merge_chunks([scores], [pairs], n_models=3)         # model 2 has no partner below 3
    assert p.to_dict("list") == {"approach": ["A", "B"], "pair": [0, 0]}


def test_odd_blocks_cannot_hold_the_noise_study_pairs():
    # group sizes 1, 3, 5: blocks of 15 models, so pair (14, 15) would straddle two blocks
    sc = SCENARIOS["f1_task"]
    st = parse_reimers({"tasks": ["f1_task"], "n_models": 60, "chunk_size": 30, "n_resamples": 100, "row_size": 5,
                        "figure4_n": [1, 3, 5], "table5_n": [1, 5], "eval34_size": 5,
                        "power": {"n": [3], "d": [1.0], "replicates": 100}}, SCENARIOS)
    assert st.block == 15
    assert not st.holds_noise_models(10)
    assert settings("f1_task", 20).holds_noise_models(120) and not settings("f1_task", 20).holds_noise_models(121)
    with pytest.raises(ValueError, match="even block size"):
        reimers_chunk(sc, st, SEED, 0, 30, noise_models=10)
    assert len(reimers_chunk(sc, st, SEED, 30, 60, noise_models=0)) == 4      # nothing asked of it: fine
