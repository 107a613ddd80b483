"""Regenerate the synthetic inspect_ai evaluation-log fixtures in this directory.

Everything here is produced offline by inspect_ai itself (``inspect_ai.eval``)
with its ``mockllm`` provider; the datasets and the mock "models" are synthetic
and defined in this file.  See README.md for the list of files.

Usage (from the repository root)::

    python3 -m venv /tmp/vinspect
    /tmp/vinspect/bin/pip install "inspect-ai==0.3.285"
    /tmp/vinspect/bin/python tests/data/harness/inspect/make_fixture.py

    # optional, not committed: the larger 80 x 3 / 60 x 2 design, .eval only
    /tmp/vinspect/bin/python tests/data/harness/inspect/make_fixture.py --full /tmp/inspect_full

The script deletes and rewrites ``logs/`` next to it (``realdata/`` is left
alone).  The *content* of every log (sample ids, inputs, model answers, scores,
metrics) is deterministic given SEED; inspect's own file names, eval/run ids,
sample uuids, timestamps and timings change on every run.

Mock answers: each model has a skill, each item a difficulty shared by both
models; P(correct) = sigmoid(skill - difficulty), drawn from a RNG seeded by
(SEED, task, model, item id, epoch).  Correctness is therefore correlated
across models (through the shared difficulty) and across epochs.  The mock
callable only sees the prompt, so every prompt starts with ``[item <id>]``;
the epoch is recovered by counting calls per (model, item), which is exact
because samples are run one at a time (max_samples=1).
"""

from __future__ import annotations

import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOGS = HERE / "logs"

SEED = 20250611
SKILL = {"strong": 1.2, "weak": -0.2}
SUBJECTS = ["arithmetic", "algebra", "geometry", "units", "calendar"]
# committed fixture size (kept small: see README "Size"); `--full DIR` uses 80 / 10 x 6
N_CHOICE = 35  # 7 per subject
N_DOCS = 10
N_PER_DOC = 3  # 30 graded samples in 10 document clusters
JSON_LIMIT = 3  # .json logs hold only the first 3 samples (x epochs): .json is ~5x larger
CHOICE_EPOCHS = 3
GRADED_EPOCHS = 2
MISMATCH_ITEM = 17  # toy_choice id whose input text differs in the "mismatch" variant
ERROR_ITEM = 4  # toy_choice id on which the solver raises in the "error" variant
CRASH_AFTER_CALLS = 8  # the "started" log: process dies hard on this model call
CRASH_LOG_BUFFER = 3  # ... after inspect has flushed samples in batches of 3


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def rng(*parts: object) -> random.Random:
    return random.Random("|".join(str(p) for p in (SEED, *parts)))


# ---------------------------------------------------------------------------
# datasets (synthetic; every answer is genuinely correct)
# ---------------------------------------------------------------------------


def choice_items(variant: str = "base") -> list[dict]:
    items = []
    r = rng("choice-data")
    for i in range(N_CHOICE):
        item_id = i + 1
        subject = SUBJECTS[i % len(SUBJECTS)]
        a, b = r.randint(2, 40), r.randint(2, 12)
        if subject == "arithmetic":
            q, ans = f"What is {a} + {b * 7}?", a + b * 7
        elif subject == "algebra":
            q, ans = f"Solve for x: {b}x = {a * b}.", a
        elif subject == "geometry":
            q, ans = f"What is the perimeter of a square with side {a} cm (in cm)?", 4 * a
        elif subject == "units":
            q, ans = f"How many centimetres are there in {a} metres?", 100 * a
        else:
            q, ans = f"How many days are there in {a} weeks?", 7 * a
        if variant == "mismatch" and item_id == MISMATCH_ITEM:
            # same id, same choices and target, different wording of the input
            q = q.replace("What is", "Compute").replace("How many", "Count the") + " (reworded)"
        wrong = set()
        while len(wrong) < 3:
            d = r.choice([-3, -2, -1, 1, 2, 3, 10, -10]) * max(1, ans // 10)
            if ans + d > 0 and ans + d != ans:
                wrong.add(ans + d)
        opts = [ans, *sorted(wrong)]
        r.shuffle(opts)
        target = "ABCD"[opts.index(ans)]
        items.append(
            dict(
                id=item_id,
                subject=subject,
                question=f"[item {item_id}] ({subject}) {q}",
                choices=[str(o) for o in opts],
                target=target,
                difficulty=rng("choice-difficulty", item_id).gauss(0.0, 1.2),
            )
        )
    return items


WORDS = (
    "river bridge harvest ledger beacon orchard quarry lantern meadow harbour "
    "tariff glacier compass parish furnace vineyard archive railway monsoon "
    "tannery canal granary lighthouse foundry ferry pasture mill cathedral "
    "copper salt wool timber census drought festival market treaty"
).split()


def graded_items() -> list[dict]:
    items = []
    r = rng("graded-data")
    for d in range(N_DOCS):
        doc = f"doc{d + 1:02d}"
        terms = r.sample(WORDS, 8)
        doc_effect = rng("doc-effect", doc).gauss(0.0, 1.0)  # cluster-level difficulty
        text = (
            f"Document {doc} describes a town whose {terms[0]} and {terms[1]} "
            f"depended on the {terms[2]}; later the {terms[3]} and {terms[4]} "
            f"changed trade, while the {terms[5]}, {terms[6]} and {terms[7]} remained."
        )
        for k in range(N_PER_DOC):
            item_id = f"g{d * N_PER_DOC + k + 1:03d}"
            keys = sorted(rng("graded-keys", item_id).sample(terms, 4))
            items.append(
                dict(
                    id=item_id,
                    document=doc,
                    question=(
                        f"[item {item_id}] Which of these key terms occur in the document: "
                        f"{', '.join(sorted(rng('graded-distractors', item_id).sample(WORDS, 4) + keys))}?"
                        f"\n\n{text}"
                    ),
                    target=keys,
                    difficulty=doc_effect + rng("graded-difficulty", item_id).gauss(0.0, 0.6),
                )
            )
    return items


# ---------------------------------------------------------------------------
# mock models
# ---------------------------------------------------------------------------

ITEM_RE = re.compile(r"\[item (\w+)\]")


def make_mock(model_name: str, crash_after: int | None = None):
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    choice = {str(it["id"]): it for it in choice_items()}
    graded = {it["id"]: it for it in graded_items()}
    calls: dict[str, int] = {}
    total = [0]
    skill = SKILL[model_name]

    def outputs(input, tools, tool_choice, config):  # noqa: A002
        total[0] += 1
        if crash_after is not None and total[0] >= crash_after:
            # simulate a hard crash (OOM kill / power loss) in the middle of a run
            os._exit(137)
        prompt = "\n".join(m.text for m in input)
        item_id = ITEM_RE.search(prompt).group(1)
        calls[item_id] = calls.get(item_id, 0) + 1
        epoch = calls[item_id]  # samples run one at a time => k-th call is epoch k
        if item_id in choice:
            it = choice[item_id]
            p = sigmoid(skill - it["difficulty"])
            g = rng("answer", "toy_choice", model_name, item_id, epoch)
            if g.random() < p:
                letter = it["target"]
            else:
                letter = g.choice([c for c in "ABCD" if c != it["target"]])
            content = f"ANSWER: {letter}"
        else:
            it = graded[item_id]
            p = sigmoid(skill - it["difficulty"] + 0.5)
            g = rng("answer", "toy_graded", model_name, item_id, epoch)
            found = [k for k in it["target"] if g.random() < p]
            content = "Key terms: " + (", ".join(found) if found else "none")
        n_in = len(prompt.split())
        n_out = len(content.split())
        out = ModelOutput.from_content(model=model_name, content=content)
        out.usage = ModelUsage(input_tokens=n_in, output_tokens=n_out, total_tokens=n_in + n_out)
        return out

    return get_model(f"mockllm/{model_name}", custom_outputs=outputs)


def expected_choice_correct(model_name: str, item: dict, epoch: int) -> bool:
    """Recompute a mock answer's correctness (used by the self-check)."""
    g = rng("answer", "toy_choice", model_name, str(item["id"]), epoch)
    return g.random() < sigmoid(SKILL[model_name] - item["difficulty"])


# ---------------------------------------------------------------------------
# tasks
# ---------------------------------------------------------------------------


def build_tasks():
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import (
        Score,
        Target,
        accuracy,
        choice,
        mean,
        scorer,
        stderr,
    )
    from inspect_ai.solver import TaskState, multiple_choice, solver

    @solver
    def fail_on_item(item_id: int):
        async def solve(state: TaskState, generate):
            if state.sample_id == item_id:
                raise RuntimeError(f"synthetic solver failure on sample {item_id}")
            return state

        return solve

    @task
    def toy_choice(variant: str = "base"):
        samples = [
            Sample(
                id=it["id"],
                input=it["question"],
                choices=it["choices"],
                target=it["target"],
                metadata={"subject": it["subject"]},
            )
            for it in choice_items("mismatch" if variant == "mismatch" else "base")
        ]
        solver_chain = [multiple_choice()]
        if variant == "error":
            solver_chain.insert(0, fail_on_item(ERROR_ITEM))
        return Task(
            dataset=MemoryDataset(samples, name="toy_choice"),
            solver=solver_chain,
            scorer=choice(),
            epochs=CHOICE_EPOCHS,
        )

    @scorer(metrics=[mean(), stderr()])
    def keyword_recall():
        """Partial credit: fraction of the target key terms named in the answer."""

        async def score(state: TaskState, target: Target) -> Score:
            answer = state.output.completion
            words = set(re.findall(r"[a-z]+", answer.lower()))
            hits = [t for t in target.target if t in words]
            return Score(
                value=len(hits) / len(target.target),
                answer=answer,
                explanation=f"found {len(hits)} of {len(target.target)}: {', '.join(hits)}",
            )

        return score

    @scorer(metrics=[accuracy(), stderr()])
    def all_terms():
        """Binary: True iff every target key term is named (bool value)."""

        async def score(state: TaskState, target: Target) -> Score:
            words = set(re.findall(r"[a-z]+", state.output.completion.lower()))
            return Score(value=all(t in words for t in target.target), answer=state.output.completion)

        return score

    from inspect_ai.solver import generate

    @task
    def toy_graded():
        samples = [
            Sample(
                id=it["id"],
                input=it["question"],
                target=it["target"],
                metadata={"document": it["document"]},
            )
            for it in graded_items()
        ]
        return Task(
            dataset=MemoryDataset(samples, name="toy_graded"),
            solver=[generate()],
            scorer=[keyword_recall(), all_terms()],
            epochs=GRADED_EPOCHS,
        )

    return toy_choice, toy_graded


def run(task_obj, model_name: str, log_dir: Path, fmt: str, crash_after: int | None = None, **kw):
    from inspect_ai import eval as inspect_eval

    log_dir.mkdir(parents=True, exist_ok=True)
    logs = inspect_eval(
        task_obj,
        model=make_mock(model_name, crash_after=crash_after),
        log_dir=str(log_dir),
        log_format=fmt,
        max_samples=1,
        max_tasks=1,
        display="none",
        **kw,
    )
    return logs[0]


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


def crash_child(fmt: str) -> None:
    """Run in a subprocess: weak model on toy_choice, dies hard mid-run."""
    toy_choice, _ = build_tasks()
    run(
        toy_choice(), "weak", LOGS / "status", fmt,
        crash_after=CRASH_AFTER_CALLS, log_buffer=CRASH_LOG_BUFFER,
    )


def full(out: Path) -> None:
    """Larger .eval-only version (80 x 3 epochs, 60 x 2) for local case studies."""
    global N_CHOICE, N_PER_DOC
    N_CHOICE, N_PER_DOC = 80, 6
    toy_choice, toy_graded = build_tasks()
    for model_name in ("strong", "weak"):
        assert run(toy_choice(), model_name, out, "eval").status == "success"
        assert run(toy_graded(), model_name, out, "eval").status == "success"


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--crash-child":
        crash_child(sys.argv[2])
        return
    if len(sys.argv) > 2 and sys.argv[1] == "--full":
        full(Path(sys.argv[2]).resolve())
        return

    if LOGS.exists():
        shutil.rmtree(LOGS)
    toy_choice, toy_graded = build_tasks()

    for fmt in ("eval", "json"):
        # the .json copies are cut to the first JSON_LIMIT samples (inspect's `limit`)
        lim = {} if fmt == "eval" else {"limit": JSON_LIMIT}
        for model_name in ("strong", "weak"):
            log = run(toy_choice(), model_name, LOGS / fmt, fmt, **lim)
            assert log.status == "success", log.status
            # self-check: the epoch bookkeeping of the mock matches inspect's epochs
            items = {it["id"]: it for it in choice_items()}
            for s in log.samples:
                exp = expected_choice_correct(model_name, items[s.id], s.epoch)
                assert (s.scores["choice"].value == "C") == exp, (s.id, s.epoch)
            log = run(toy_graded(), model_name, LOGS / fmt, fmt, **lim)
            assert log.status == "success", log.status

        # 5. same task name and ids, item MISMATCH_ITEM has a different input text
        if fmt == "eval":
            log = run(toy_choice(variant="mismatch"), "weak", LOGS / "mismatch", fmt)
            assert log.status == "success", log.status

        # 4a. genuine status "error": solver raises on one sample, fail_on_error=True
        log = run(toy_choice(variant="error"), "weak", LOGS / "status", fmt, fail_on_error=True)
        assert log.status == "error", log.status

        # 4b. genuine status "started": the process is killed mid-run (os._exit)
        subprocess.run([sys.executable, __file__, "--crash-child", fmt], check=False)


if __name__ == "__main__":
    main()
