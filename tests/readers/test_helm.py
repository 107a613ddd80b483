"""`simstats.io.helm.read_helm`: the per-instance scores of HELM runs (tests/data/harness/helm, written by
crfm-helm 0.5.16) equal HELM's own aggregates (stats.json) and per-instance entries (per_instance_stats.json),
read here independently with json; perturbed copies are skipped and train trials are the epochs."""
import hashlib
import json
from pathlib import Path

import pytest

from simstats.io.checks import InputError
from simstats.io.formats import COLUMNS
from simstats.io.helm import read_helm

RUNS = Path(__file__).resolve().parents[1] / "data" / "harness" / "helm" / "benchmark_output" / "runs"
SUITES = {"paired": ("simple_mcqa", 40, 1), "trials_perturbation": ("simple_mcqa:data_augmentation=robustness", 6, 2)}


def run_folders(suite):
    return sorted(p for p in (RUNS / suite).iterdir() if (p / "per_instance_stats.json").is_file())


def load(folder, name):
    return json.loads((folder / name).read_text())


def aggregate(folder, stat, perturbed=False):
    """stats.json's mean of ``stat`` on split test, unperturbed (or computed on the perturbed copies)."""
    found = [s for s in load(folder, "stats.json") if s["name"]["name"] == stat and s["name"]["split"] == "test"
             and (s["name"].get("perturbation", {}).get("computed_on") == "perturbed" if perturbed
                  else "perturbation" not in s["name"])]
    (entry,) = found
    return entry["mean"]


@pytest.mark.parametrize("stat", ["exact_match", "quasi_exact_match", "prefix_exact_match"])
@pytest.mark.parametrize("suite", list(SUITES))
def test_mean_score_equals_stats_json(suite, stat):
    task, instances, trials = SUITES[suite]
    folders = run_folders(suite)
    assert len(folders) == 2
    for folder in folders:
        table = read_helm(folder, stat=None if stat == "exact_match" else stat)
        assert tuple(table.columns) == COLUMNS
        assert set(table.model) == {load(folder, "run_spec.json")["adapter_spec"]["model"]}
        assert set(table.task) == {task}
        assert len(table) == instances * trials and table["item"].nunique() == instances
        # HELM averages each instance over its train trials, then the instances (equal trials: the plain mean);
        # tolerance 1e-12
        expected = aggregate(folder, stat)
        assert table.groupby("item").score.mean().mean() == pytest.approx(expected, rel=1e-12, abs=1e-12)
        assert table.score.mean() == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_perturbed_copies_are_skipped():
    for folder in run_folders("trials_perturbation"):
        entries = load(folder, "per_instance_stats.json")
        assert sum("perturbation" in e for e in entries) == 12 == len(entries) / 2
        table = read_helm(folder)
        # the unperturbed and perturbed aggregates differ for both models: mixing them in would show
        assert aggregate(folder, "exact_match", perturbed=True) != aggregate(folder, "exact_match")
        assert table.score.mean() == pytest.approx(aggregate(folder, "exact_match"), rel=1e-12, abs=1e-12)


def test_train_trials_are_the_epochs():
    for folder in run_folders("trials_perturbation"):
        table = read_helm(folder)
        expected = {}
        for entry in load(folder, "per_instance_stats.json"):
            if "perturbation" in entry:
                continue
            (value,) = [s["mean"] for s in entry["stats"] if s["name"] == {"name": "exact_match", "split": "test"}]
            expected[entry["instance_id"], entry["train_trial_index"]] = value
        assert {(r.item, r.epoch): r.score for r in table.itertuples()} == expected
        assert set(table.epoch) == {0, 1}
        assert table.groupby("item").epoch.nunique().eq(2).all()


def test_the_paired_runs_have_one_content_hash_per_instance():
    a, b = (read_helm(folder).set_index("item").item_hash.sort_index() for folder in run_folders("paired"))
    assert a.notna().all() and a.is_unique and a.equals(b)
    # the hash is the instance's input and references (instances.json), not its id
    folder = run_folders("paired")[0]
    instance = next(i for i in load(folder, "instances.json") if i["id"] == a.index[0])
    text = json.dumps({"input": instance["input"], "references": instance["references"]}, sort_keys=True,
                      ensure_ascii=False)
    assert a.iloc[0] == hashlib.sha256(text.encode()).hexdigest()


def test_a_suite_folder_reads_every_run():
    table = read_helm(RUNS / "paired")
    assert table.groupby("model").size().to_dict() == {"fixture/parity-a": 40, "fixture/parity-b": 40}
    # the README's counts: A right on 33 of 40, B on 27
    assert table.groupby("model").score.sum().to_dict() == {"fixture/parity-a": 33.0, "fixture/parity-b": 27.0}


def test_an_unknown_statistic_or_split_is_refused():
    folder = run_folders("paired")[0]
    with pytest.raises(InputError, match="instance 'id\\d+' has no f1 statistic on split 'test'"):
        read_helm(folder, stat="f1")
    with pytest.raises(InputError, match="has no exact_match statistic on split 'valid'"):
        read_helm(folder, split="valid")
