"""`simstats compare --clusters`: whole clusters (documents) resampled, checked against the same bootstrap
on statistics summed per cluster by hand."""
import json

import numpy as np
import pandas as pd
import pytest

import simstats
from conftest import run_cli, write_table
from simstats.stats.approaches import approach_bootstrap


def documents(rng, n_docs=40, per_doc=5):
    """Three systems' labels on n_docs documents of per_doc items; documents differ in difficulty."""
    doc = np.repeat(np.arange(n_docs), per_doc)
    hard = rng.normal(0, 1, n_docs)[doc]
    gold = rng.integers(0, 2, doc.size)
    table = pd.DataFrame({"doc": doc, "y": gold})
    for name, skill in (("a", 1.0), ("b", 0.8), ("c", 0.6)):
        right = rng.random(doc.size) < 1 / (1 + np.exp(-(skill - hard)))
        table[name] = np.where(right, gold, 1 - gold)
    return table


def test_wide_table_clusters_equal_the_bootstrap_of_per_document_sums(tmp_path, capsys):
    table = documents(np.random.default_rng(4))
    path = write_table(tmp_path, table)
    code, out, err = run_cli(capsys, "compare", path, "--gold", "y", "--clusters", "doc", "--n-resamples", 500,
                             "--format", "json")
    assert code == 0, err
    clustered = json.loads(out)
    sums = []
    for name in ("a", "b", "c"):
        right = (table[name] == table.y).groupby(table.doc).sum()
        sums.append(pd.DataFrame({"system": name, "item": right.index, "correct": right.to_numpy(),
                                  "items": table.groupby("doc").size().to_numpy()}))
    agg = write_table(tmp_path, pd.concat(sums), "per_document.csv")
    code, out, err = run_cli(capsys, "compare", agg, "--statistics", "--metric", "accuracy", "--n-resamples", 500,
                             "--format", "json")
    assert code == 0, err
    by_document = json.loads(out)
    assert clustered["settings"]["clusters"] == 40
    assert clustered["settings"]["simstats_version"] == simstats.__version__
    for got, ref in zip(clustered["rows"], by_document["rows"]):
        assert got["system"] == ref["system"]
        for key in ("score", "score_ci_low", "score_ci_high", "difference", "difference_ci_low", "pvalue"):
            if ref[key] is None or (isinstance(ref[key], float) and np.isnan(ref[key])):
                continue
            assert got[key] == pytest.approx(ref[key], abs=1e-12), key
    # the column of document ids is not taken for a system
    assert [r["system"] for r in clustered["rows"]] == [r["system"] for r in by_document["rows"]]


def test_long_table_clusters_reach_the_approach_test(tmp_path, capsys):
    rng = np.random.default_rng(9)
    rows = []
    for system, skill in (("A", 0.7), ("B", 0.75)):
        for seed in range(4):
            s = skill + 0.02 * rng.standard_normal()
            for item in range(60):
                gold = item % 2
                rows.append({"system": system, "seed": seed, "item": item, "doc": item // 6, "y": gold,
                             "pred": gold if rng.random() < s else 1 - gold})
    table = pd.DataFrame(rows)
    path = write_table(tmp_path, table)
    code, out, err = run_cli(capsys, "compare", path, "--gold", "y", "--clusters", "doc", "--test", "bootstrap",
                             "--n-resamples", 400, "--format", "json")
    assert code == 0, err
    got = json.loads(out)
    assert got["settings"]["clusters"] == 10
    runs = table.pivot_table(index=["system", "seed"], columns="item", values="pred").sort_index()
    gold = table.groupby("item").y.first().to_numpy()
    correct = (runs.to_numpy() == gold).astype(float)
    stats = np.stack([correct, np.ones_like(correct)], -1)
    labels = np.array([s for s, _ in runs.index])
    seeds = np.array([k for _, k in runs.index])
    best = "B" if correct[labels == "B"].mean() >= correct[labels == "A"].mean() else "A"
    other = "A" if best == "B" else "B"
    ref = approach_bootstrap(stats, simstats.accuracy, labels, seeds, approaches=(best, other),
                             n_resamples=400, clusters=np.arange(60) // 6, rng=0)
    assert got["rows"][1]["pvalue"] == pytest.approx(ref.pvalue, abs=1e-12)
    assert got["rows"][1]["difference_ci_low"] == pytest.approx(ref.confidence_interval.low, abs=1e-12)
    # the default test, the approach t-test, takes the clusters as its units
    code, out, err = run_cli(capsys, "compare", path, "--gold", "y", "--clusters", "doc", "--format", "json")
    assert code == 0, err
    row = json.loads(out)["rows"][1]
    t = simstats.approach_t_test(stats, simstats.accuracy, labels, seeds, approaches=(best, other),
                                 clusters=np.arange(60) // 6)
    assert t.n_units == 10 and row["pvalue"] == pytest.approx(t.pvalue, rel=1e-12)
    assert row["df"] == pytest.approx(t.df, rel=1e-12)


@pytest.mark.parametrize("change, message", [
    (lambda t: t.drop(columns="doc"), "--clusters column 'doc' not found"),
    (lambda t: t.assign(doc=0), "--clusters column 'doc': one cluster only"),
    (lambda t: t.assign(doc=t.doc.astype(float).where(t.index != 3)), "--clusters column 'doc': missing value (row 5)"),
])
def test_bad_cluster_columns_are_named(tmp_path, capsys, change, message):
    path = write_table(tmp_path, change(documents(np.random.default_rng(1))))
    code, out, err = run_cli(capsys, "compare", path, "--gold", "y", "--clusters", "doc")
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1


def test_an_item_in_two_clusters_and_a_randomization_test_are_refused(tmp_path, capsys):
    rows = [{"system": s, "seed": k, "item": i, "doc": i // 2 if (s, k) != ("B", 1) else 0, "y": i % 2, "pred": i % 2}
            for s in "AB" for k in range(2) for i in range(8)]
    path = write_table(tmp_path, pd.DataFrame(rows))
    code, _, err = run_cli(capsys, "compare", path, "--gold", "y", "--clusters", "doc")
    assert code != 0 and "is in more than one cluster" in err
    wide = write_table(tmp_path, documents(np.random.default_rng(2)), "wide.csv")
    code, _, err = run_cli(capsys, "compare", wide, "--gold", "y", "--clusters", "doc", "--test", "randomization")
    assert code != 0 and "--clusters resamples whole clusters in the bootstrap" in err


def test_competition_clusters_equal_the_analysis_of_per_document_sums(tmp_path, capsys):
    """competition --clusters: its CIs are those of the competition analysis with clusters given."""
    from simstats.stats.competition import analyse_competition

    table = documents(np.random.default_rng(6))
    path = write_table(tmp_path, table)
    code, out, err = run_cli(capsys, "competition", path, "--gold", "y", "--metric", "accuracy", "--clusters", "doc",
                             "--n-resamples", 300, "--format", "json")
    assert code == 0, err
    got = json.loads(out)
    assert got["settings"]["clusters"] == 40 and got["settings"]["systems"] == 3
    assert got["settings"]["simstats_version"] == simstats.__version__
    stats = np.stack([np.stack([(table[s] == table.y).to_numpy(float), np.ones(len(table))], -1) for s in "abc"])
    ref = analyse_competition(["a", "b", "c"], stats, simstats.accuracy, n_resamples=300,
                              rng=np.random.default_rng(0), clusters=table.doc.to_numpy(), alternative="two-sided",
                              pvalue_rule="add-one")
    plain = analyse_competition(["a", "b", "c"], stats, simstats.accuracy, n_resamples=300,
                                rng=np.random.default_rng(0), alternative="two-sided", pvalue_rule="add-one")
    intervals = ref.score_intervals().set_index("system")
    rows = got["tables"]["scores"]
    assert len(rows) == 3
    for row in rows:
        assert row["ci_low"] == pytest.approx(intervals.ci_low[row["system"]], abs=1e-12)
        assert row["ci_high"] == pytest.approx(intervals.ci_high[row["system"]], abs=1e-12)
    assert not np.allclose(ref.replicates, plain.replicates)   # clusters change the bootstrap
