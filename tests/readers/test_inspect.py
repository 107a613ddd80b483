"""`simstats.io.inspect.read_inspect`: the per-sample scores of inspect_ai logs (tests/data/harness/inspect,
written by inspect-ai 0.3.285, and five real logs from inspect_ai's repository) equal inspect's own metrics and
per-sample values, read here with inspect_ai's API (`read_eval_log`, `value_to_float`). Logs are chosen by
their header (model, task, task_args, status), never by file name (the names carry dates and random ids)."""
import math
import warnings
from pathlib import Path

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.scorer import value_to_float  # noqa: E402

from conftest import inspect_logs, one_inspect_log  # noqa: E402

from simstats.compare import InputError  # noqa: E402
from simstats.io.formats import COLUMNS  # noqa: E402
from simstats.io.inspect import _number, read_inspect  # noqa: E402

HARNESS = Path(__file__).resolve().parents[1] / "data" / "harness" / "inspect"


def reported(header, scorer, metric):
    """inspect's reported value of ``metric`` of ``scorer`` (log.results)."""
    (score,) = [s for s in header.results.scores if s.name == scorer]
    return score.metrics[metric].value


CASES = [("toy_choice", "choice", "accuracy", 35, 3), ("toy_graded", "keyword_recall", "mean", 30, 2),
         ("toy_graded", "all_terms", "accuracy", 30, 2)]


@pytest.mark.parametrize("task, scorer, metric, items, epochs", CASES)
@pytest.mark.parametrize("kind", ["eval", "json"])
@pytest.mark.parametrize("model", ["mockllm/strong", "mockllm/weak"])
def test_mean_score_equals_inspects_metric(model, kind, task, scorer, metric, items, epochs):
    path = one_inspect_log(HARNESS / "logs" / kind, model=model, task=task, status="success")
    log = read_eval_log(str(path))
    table = read_inspect(path, scorer=scorer)
    assert tuple(table.columns) == COLUMNS
    assert set(table.model) == {model} and set(table.task) == {task}
    if kind == "json":
        items = log.eval.config.limit                  # the .json logs are cut to the first 3 items
        assert items == 3
    assert log.eval.config.epochs == epochs
    assert len(table) == len(log.samples) == items * epochs
    # every (id, epoch) once, epochs 1..E kept as they are
    assert not table.duplicated(["item", "epoch"]).any()
    per_item = table.groupby("item").epoch.agg(lambda e: tuple(sorted(e)))
    assert set(per_item) == {tuple(range(1, epochs + 1))}
    assert {(r.item, r.epoch) for r in table.itertuples()} == {(s.id, s.epoch) for s in log.samples}
    # inspect reduces each item's epochs by their mean, then averages items (tolerance 1e-12)
    expected = reported(log, scorer, metric)
    assert table.groupby("item").score.mean().mean() == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert table.score.mean() == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("task, scorer, field", [("toy_choice", "choice", "subject"),
                                                 ("toy_graded", "keyword_recall", "document")])
def test_each_row_is_its_samples_value_and_metadata(task, scorer, field):
    to_float = value_to_float()
    path = one_inspect_log(HARNESS / "logs" / "eval", model="mockllm/weak", task=task)
    log = read_eval_log(str(path))
    table = read_inspect(path, scorer=scorer, cluster_field=field)
    rows = {(r.item, r.epoch): (r.score, r.cluster) for r in table.itertuples()}
    expected = {(s.id, s.epoch): (to_float(s.scores[scorer].value), s.metadata[field]) for s in log.samples}
    assert rows == expected
    assert table["item"].map(type).eq(type(log.samples[0].id)).all()    # ids keep their type (int or str)


def test_the_reworded_item_alone_has_another_hash():
    logs = HARNESS / "logs"
    weak = read_inspect(one_inspect_log(logs / "eval", model="mockllm/weak", task="toy_choice"))
    strong = read_inspect(one_inspect_log(logs / "eval", model="mockllm/strong", task="toy_choice"))
    reworded = read_inspect(one_inspect_log(logs / "mismatch", model="mockllm/weak", arg_variant="mismatch"))
    hashes = [t.drop_duplicates("item").set_index("item").item_hash.sort_index() for t in (weak, strong, reworded)]
    assert hashes[0].is_unique and hashes[0].notna().all()
    assert hashes[0].equals(hashes[1])                         # the same items in two models' logs
    assert hashes[0].index[hashes[0] != hashes[2]].tolist() == [17]
    # one hash per item over its epochs
    assert weak.groupby("item").item_hash.nunique().eq(1).all()


def test_real_logs_read_as_inspect_reports_them():
    folder = HARNESS / "realdata"
    scored = [p for p in inspect_logs(folder, status="success") if read_eval_log(str(p), header_only=True).results.scores]
    assert len(scored) == 3
    for path in scored:
        log = read_eval_log(str(path))
        (score,) = log.results.scores
        table = read_inspect(path)
        assert len(table) == len(log.samples)
        assert table.score.mean() == pytest.approx(score.metrics["accuracy"].value, rel=1e-12, abs=1e-12)
        assert set(table.model) == {log.eval.model} and set(table.task) == {log.eval.task}


def test_logs_without_the_scorer_are_left_out_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = read_inspect(HARNESS / "logs" / "eval", scorer="choice")
    assert set(table.task) == {"toy_choice"} and len(table) == 2 * 105
    messages = [str(w.message) for w in caught]
    graded = inspect_logs(HARNESS / "logs" / "eval", task="toy_graded")
    assert len(messages) == 2 and all("no scorer 'choice'" in m and "log left out" in m for m in messages)
    assert len(graded) == 2 and all(sum(str(p) in m for m in messages) == 1 for p in graded)


def test_a_log_without_the_scorer_alone_is_an_error():
    path = one_inspect_log(HARNESS / "logs" / "eval", model="mockllm/weak", task="toy_graded")
    with pytest.raises(InputError, match="no scorer 'choice' \\(scorers: keyword_recall, all_terms\\)"):
        read_inspect(path, scorer="choice")


@pytest.mark.parametrize("value", ["C", "I", "P", "N", True, False, 0.25, "0.75", "yes", "No", "TRUE", 3, "-1.5e1"])
def test_number_is_inspects_value_to_float(value):
    to_float = value_to_float()
    got = _number(value, to_float)
    assert got == value_to_float()(value)
    assert type(got) is float


def test_the_mapping_of_the_sentinels():
    # written out, so that a changed inspect_ai mapping shows here too
    to_float = value_to_float()
    assert [_number(v, to_float) for v in ("C", "P", "I", "N")] == [1.0, 0.5, 0.0, 0.0]


@pytest.mark.parametrize("value", ["maybe", "c", "nan", "inf", [1], {"a": 1}, float("nan"), float("inf"), None])
def test_values_inspect_cannot_map_give_none(value, caplog):
    to_float = value_to_float()
    assert _number(value, to_float) is None
    # inspect_ai itself only warns about these and counts them as 0 (or passes a float NaN/inf through)
    if isinstance(value, float):
        assert not math.isfinite(to_float(value))
    elif value is not None:
        with caplog.at_level("WARNING"):
            assert to_float(value) == 0.0
        assert any("Unable to convert value to float" in r.getMessage() for r in caplog.records)
