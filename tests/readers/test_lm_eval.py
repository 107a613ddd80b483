"""`simstats.io.lm_eval.read_lm_eval`: the per-document scores of lm-evaluation-harness output folders
(tests/data/harness/lm_eval, written by lm-eval 0.4.13) equal the harness's own aggregates and per-document
values, read here independently with json from the results and samples files."""
import json
import warnings
from pathlib import Path

import pytest

from simstats.io.checks import InputError
from simstats.io.formats import COLUMNS
from simstats.io.lm_eval import read_lm_eval

HARNESS = Path(__file__).resolve().parents[1] / "data" / "harness" / "lm_eval"
RUNS = HARNESS / "runs"
MODELS = ("simstats__toy-strong", "simstats__toy-weak")


def results_of(folder):
    """The results file of a model folder, parsed (each fixture folder holds one)."""
    (path,) = folder.glob("results_*.json")
    return json.loads(path.read_text())


def samples_of(folder, task):
    """The samples lines of one task of a model folder, parsed."""
    (path,) = folder.glob(f"samples_{task}_*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def quiet(**kwargs):
    """read_lm_eval with its warnings recorded (returned beside the table)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = read_lm_eval(**kwargs)
    return table, [str(w.message) for w in caught]


@pytest.mark.parametrize("task, metric, filter_name", [
    ("toy_mc", "acc", "none"), ("toy_mc", "acc_norm", "none"),
    ("toy_qa", "exact_match", "strict-match"), ("toy_qa", "exact_match", "maj@3"),
])
@pytest.mark.parametrize("model", MODELS)
def test_mean_item_score_equals_the_results_file(model, task, metric, filter_name):
    folder = RUNS / model
    results = results_of(folder)
    table = read_lm_eval(folder, task=task, metric=metric, filter=filter_name)
    assert tuple(table.columns) == COLUMNS
    assert set(table.model) == {results["model_name"]} and set(table.task) == {task}
    assert len(table) == results["results"][task]["sample_len"] == table["item"].nunique()
    assert set(table.epoch) == {0}
    # lm-eval's aggregate of an item-level metric is the plain mean over documents (tolerance 1e-12)
    assert table.score.mean() == pytest.approx(results["results"][task][f"{metric},{filter_name}"], rel=1e-12, abs=1e-12)


def test_the_two_filters_of_toy_qa_are_read_apart():
    # the strong model's strict-match (0.6833) and maj@3 (0.7333) differ: a reader mixing the filters fails here
    folder = RUNS / "simstats__toy-strong"
    strict = read_lm_eval(folder, task="toy_qa", filter="strict-match")
    majority = read_lm_eval(folder, task="toy_qa", filter="maj@3")
    lines = samples_of(folder, "toy_qa")
    for table, name in ((strict, "strict-match"), (majority, "maj@3")):
        expected = {line["doc_id"]: line["exact_match"] for line in lines if line["filter"] == name}
        assert dict(zip(table["item"], table.score)) == expected
    assert strict.score.mean() != majority.score.mean()


def test_each_row_is_its_samples_line():
    table = read_lm_eval(RUNS, task="toy_mc", metric="acc_norm", cluster_field="subject")
    assert list(dict.fromkeys(table.model)) == ["simstats/toy-strong", "simstats/toy-weak"]
    for model in MODELS:
        folder = RUNS / model
        mine = table[table.model == results_of(folder)["model_name"]].set_index("item")
        lines = samples_of(folder, "toy_mc")
        assert len(mine) == len(lines) == 72
        for line in lines:
            row = mine.loc[line["doc_id"]]
            assert row.score == line["acc_norm"]
            assert row.cluster == line["doc"]["subject"]
            assert row.item_hash == line["doc_hash"]


def test_default_metric_is_the_first_item_level_one_and_default_filter_none():
    folder = RUNS / "simstats__toy-weak"
    lines = samples_of(folder, "toy_mc")
    assert lines[0]["metrics"] == ["acc", "acc_norm"]
    table = read_lm_eval(folder, task="toy_mc")
    assert dict(zip(table["item"], table.score)) == {line["doc_id"]: line["acc"] for line in lines}
    # a --filter no task read has is a mistake, not ignored (a task with one filter is read with it when
    # another task has the filter: see the tests of every task)
    with pytest.raises(InputError, match=r"--filter 'strict-match': no task read has it \(filters: none\)"):
        read_lm_eval(folder, task="toy_mc", filter="strict-match")
    assert read_lm_eval(folder, task="toy_mc", filter="none").score.tolist() == table.score.tolist()


def test_every_task_read_leaves_the_corpus_level_task_out_with_a_warning():
    table, messages = quiet(paths=RUNS, filter="strict-match")
    assert set(table.task) == {"toy_mc", "toy_qa"}
    corpus = [m for m in messages if "'toy_mt'" in m]
    assert len(corpus) == 1 and "corpus" in corpus[0], messages
    repeats = [m for m in messages if "'toy_qa'" in m]          # said, not silent: one response of 3 repeats
    assert len(set(repeats)) == 1 and "3 repeats per document" in repeats[0] and "1 sample per item" in repeats[0]
    assert table.groupby("task").size().to_dict() == {"toy_mc": 2 * 72, "toy_qa": 2 * 60}


@pytest.mark.parametrize("kwargs, message", [
    ({"task": "toy_mt"}, "task 'toy_mt': no item-level metric"),
    ({"task": "toy_mt", "metric": "bleu"}, "bleu is a [reference, prediction] pair: a corpus-level metric"),
    ({"task": "toy_qa"}, "task 'toy_qa' has 2 filters (strict-match, maj@3): choose one with --filter"),
    ({"task": "toy_qa", "filter": "flexible"}, "task 'toy_qa' has no filter 'flexible' (filters: strict-match, maj@3)"),
    ({"task": "toy_mc", "metric": "f1"}, "task 'toy_mc' has no metric 'f1' (metrics: acc, acc_norm)"),
    ({"task": "toy_zz"}, "--task 'toy_zz' not found (tasks: toy_mc, toy_mt, toy_qa)"),
    ({"task": "toy_qa", "filter": "maj@3", "cluster_field": "subject"}, "the document has no field 'subject'"),
])
def test_what_cannot_be_read_is_refused(kwargs, message):
    with pytest.raises(InputError) as caught:
        read_lm_eval(RUNS, **kwargs)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_one_model_twice_is_refused():
    # runs_mismatch holds another run of simstats/toy-strong
    with pytest.raises(InputError, match="model 'simstats/toy-strong' appears twice"):
        read_lm_eval([RUNS, HARNESS / "runs_mismatch"], task="toy_mc")


def test_the_mismatched_document_has_another_hash():
    strong = read_lm_eval(HARNESS / "runs_mismatch", task="toy_mc").set_index("item").item_hash
    weak = read_lm_eval(RUNS / "simstats__toy-weak", task="toy_mc").set_index("item").item_hash
    differs = strong != weak.loc[strong.index]
    assert strong.index[differs.to_numpy()].tolist() == [5]


# --- repeats: every repeat of a multiple-choice task scored from its log-likelihoods --------------------------

def _with_repeats(tmp_path, model: str, repeats: int = 3, seed: int = 0):
    """A copy of a fixture run whose toy_mc task has ``repeats`` repeats, as lm-eval logs them: every choice's
    responses hold one [loglik, is_greedy] pair per repeat (the first the original), the logged metrics the
    first repeat's (its take_first filter)."""
    import shutil

    import numpy as np

    rng = np.random.default_rng(seed)
    folder = shutil.copytree(RUNS / f"simstats__toy-{model}", tmp_path / model)
    (results,) = folder.glob("results_*.json")
    header = json.loads(results.read_text())
    header["configs"]["toy_mc"]["repeats"] = repeats
    results.write_text(json.dumps(header))
    (samples,) = folder.glob("samples_toy_mc_*.jsonl")
    lines = []
    for text in samples.read_text().splitlines():
        record = json.loads(text)
        record["resps"] = [[pair[0]] + [[str(float(pair[0][0]) + rng.normal(0, 1.0)), "False"]
                                        for _ in range(repeats - 1)] for pair in record["resps"]]
        lines.append(json.dumps(record))
    samples.write_text("\n".join(lines) + "\n")
    return folder, samples


def _expected_repeat_scores(samples, metric: str) -> dict:
    """Independent rescoring from the documents' own choice texts (``doc.choices``, not the requests'
    continuations the reader uses): {doc_id: [score per repeat]}."""
    out = {}
    for text in samples.read_text().splitlines():
        record = json.loads(text)
        choices = record["doc"]["choices"]
        per_repeat = []
        for r in range(len(record["resps"][0])):
            values = [float(record["resps"][i][r][0]) / (len(choices[i]) if metric == "acc_norm" else 1.0)
                      for i in range(len(choices))]
            best = max(range(len(values)), key=lambda i: (values[i], -i))
            per_repeat.append(float(best == record["doc"]["label"]))
        out[record["doc_id"]] = per_repeat
    return out


@pytest.mark.parametrize("metric", ["acc", "acc_norm"])
def test_every_repeat_of_a_multiple_choice_task_is_read(tmp_path, metric):
    strong, samples = _with_repeats(tmp_path, "strong", seed=1)
    weak, _ = _with_repeats(tmp_path, "weak", seed=2)
    table = read_lm_eval([strong, weak], task="toy_mc", metric=metric)
    mine = table[table.model == "simstats/toy-strong"]
    assert mine.groupby("item").epoch.nunique().eq(3).all() and len(mine) == 3 * 72
    expected = _expected_repeat_scores(samples, metric)
    got = mine.pivot(index="item", columns="epoch", values="score")
    assert {int(k): got.loc[k].tolist() for k in got.index} == expected
    logged = {json.loads(t)["doc_id"]: json.loads(t)[metric] for t in samples.read_text().splitlines()}
    assert got[0].to_dict() == logged                        # the first repeat is what lm-eval logged
    assert any(len(set(v)) > 1 for v in expected.values())   # the repeats do differ: they are not dropped


def test_repeats_are_counted_in_the_header_and_refused_when_the_task_scores_its_own_way(tmp_path, capsys):
    from conftest import run_cli

    strong, _ = _with_repeats(tmp_path, "strong", seed=1)
    weak, samples = _with_repeats(tmp_path, "weak", seed=2)
    code, out, err = run_cli(capsys, "compare", strong, weak, "--task", "toy_mc")
    assert code == 0, err
    assert "items: 72, 3 samples per item (each item's mean over its samples)" in out
    record = json.loads(samples.read_text().splitlines()[0])
    record["acc"] = 1.0 - record["acc"]                      # a logged score the log-likelihoods do not give
    rest = samples.read_text().splitlines()[1:]
    samples.write_text("\n".join([json.dumps(record), *rest]) + "\n")
    code, out, err = run_cli(capsys, "compare", strong, weak, "--task", "toy_mc", "--strict")
    assert code == 2 and "acc recomputed from the first repeat's log-likelihoods is" in err and "line 1" in err
