"""The WMT17 en-de fixture (tests/data/wmt17_en_de_bleu.py): 16 real systems' per-sentence BLEU
statistics, read the way ``simstats compare --statistics --metric bleu`` reads them, give
sacrebleu's stored corpus BLEU and paired-bootstrap p-values. Needs no sacrebleu."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simstats.cli import main
from simstats.io.tables import read_table
from simstats.io.predictions import statistics_from_long, statistics_metric

DATA = Path(__file__).resolve().parents[1] / "data"
STATISTICS = DATA / "wmt17_en_de_bleu_statistics.csv.gz"
REFERENCE = DATA / "wmt17_en_de_bleu_reference.csv"
N_SYSTEMS, N_ITEMS = 16, 3004                     # newstest2017 en-de: 3004 sentences


@pytest.fixture(scope="module")
def table():
    return read_table(str(STATISTICS))


@pytest.fixture(scope="module")
def reference():
    return pd.read_csv(REFERENCE)


@pytest.fixture(scope="module")
def loaded(table):
    metric = statistics_metric("bleu")
    names, stats = statistics_from_long(table, metric)
    return names, stats, metric


def test_shape_and_integer_columns(table, loaded):
    names, stats, metric = loaded
    assert list(table.columns) == ["system", "item", *metric.statistics]
    assert len(names) == N_SYSTEMS and stats.shape == (N_SYSTEMS, N_ITEMS, len(metric.statistics))
    assert all(pd.api.types.is_integer_dtype(table[c]) for c in ["item", *metric.statistics])
    assert table.groupby("system").item.agg(lambda s: sorted(s) == list(range(N_ITEMS))).all()
    assert (table[list(metric.statistics)] >= 0).all().all()
    # one reference: every system sees the same reference length per sentence; total_1 is sys_len
    assert (stats[:, :, 1] == stats[:1, :, 1]).all() and (stats[:, :, 0] == stats[:, :, 6]).all()


def test_corpus_bleu_equals_sacrebleu(loaded, reference):
    names, stats, metric = loaded
    assert names == list(reference.system)
    ours = metric(stats.sum(axis=1))                # BLEU points, 0-100, as sacrebleu's .score
    np.testing.assert_allclose(ours, reference.bleu.to_numpy(), rtol=0, atol=1e-9)
    assert 15 < ours.min() and ours.max() < 30      # the WMT17 en-de range: points, not 0-1
    assert names[int(np.argmax(ours))] == "newstest2017.uedin-nmt.4722.en-de"


def test_sacrebleu_paired_bootstrap_pvalues(capsys, loaded, reference):
    """--pvalue sacrebleu with sacrebleu's seed and resamples: its stored p-values, equal."""
    names, _, _ = loaded
    baseline = reference.bs_baseline.dropna().unique()
    assert len(baseline) == 1 and baseline[0] == names[0]
    code = main(["compare", str(STATISTICS), "--statistics", "--metric", "bleu", "--pvalue-method", "sacrebleu",
                 "--reference", names[0], "--seed", "12345", "--n-resamples", "1000", "--format", "json"])
    assert code == 0
    rows = {r["system"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    expected = reference.set_index("system").bs_pvalue.dropna()
    assert len(expected) == N_SYSTEMS - 1
    np.testing.assert_array_equal([rows[s]["pvalue"] for s in expected.index], expected.to_numpy())


def test_cli_compare_reads_the_gzipped_table(capsys, reference):
    code = main(["compare", str(STATISTICS), "--statistics", "--metric", "bleu", "--n-resamples", "200",
                 "--format", "json"])
    assert code == 0
    rows = {r["system"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert set(rows) == set(reference.system)
    np.testing.assert_allclose([rows[s]["score"] for s in reference.system], reference.bleu, rtol=0, atol=1e-9)
    assert {r["reference"] for r in rows.values()} == {"newstest2017.uedin-nmt.4722.en-de"}
