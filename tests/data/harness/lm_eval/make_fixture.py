#!/usr/bin/env python
"""Regenerate the lm-evaluation-harness output fixtures in this directory.

Run (from anywhere) with the interpreter of a venv that has ``lm-eval==0.4.13``::

    HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1 /tmp/vlmeval/bin/python \
        tests/data/harness/lm_eval/make_fixture.py

What it does
------------
1. Writes three small synthetic datasets (``datasets/*.jsonl``) and the task
   YAMLs (``tasks/`` and ``tasks_mismatch/``).  Everything is seeded.
2. Deletes ``runs/`` and ``runs_mismatch/`` and re-runs the *real* lm-eval CLI
   (``lm_eval.__main__.cli_evaluate``, i.e. ``lm-eval run ... --output_path
   ... --log_samples``) in a fresh subprocess per run.  The only thing added
   to the CLI process is the registration of a toy model class
   ``simstats_toy`` (below); all files under ``runs*/`` are written by
   lm-eval's own ``EvaluationTracker``.

The toy model
-------------
``simstats_toy`` (model_args ``pretrained=<name>,skill=<float>,seed=<int>``)
answers each item correctly iff

    difficulty(item) + 0.2 * z(seed, task, doc) + 0.15 * z(seed, task, doc, repeat)
        < skill

with z(.) standard normal draws seeded from a SHA-256 of the key, and
``difficulty = 0.6 * u(item id) + 0.4 * u(subject)`` for toy_mc
(``0.1 + 0.8 * u(item id)`` for toy_qa / toy_mt), ``u(.)`` a SHA-256 derived
uniform in [0, 1) that is *shared by all models*.  toy_mt answers are the
reference with word drops / substitutions / insertions at a rate that grows
with ``difficulty + noise - skill``.
So two models differ in accuracy but their per-item correctness is
correlated, and items of the same subject share a random effect (clusters).
The ``pretrained`` value is only used by lm-eval to name the output folder
(``simstats/toy-strong`` -> ``simstats__toy-strong``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

SIGMA_MODEL = 0.2  # per (model, item) noise, shared by the repeats of an item
SIGMA_REP = 0.15  # extra per-repeat noise (only toy_qa has repeats > 1)


# --------------------------------------------------------------------------
# shared latent item difficulty
# --------------------------------------------------------------------------
def _u(*parts) -> float:
    """Deterministic uniform [0, 1) from a string key (shared by all models)."""
    h = hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()
    return int(h[:13], 16) / float(16**13)


def difficulty(task: str, doc: dict) -> float:
    if "subject" in doc:  # toy_mc: item effect + subject (cluster) effect
        return 0.6 * _u("item", doc["id"]) + 0.4 * _u("subject", doc["subject"])
    return 0.1 + 0.8 * _u("item", doc["id"])


def _rng(seed, *parts) -> random.Random:
    h = hashlib.sha256("|".join(map(str, (seed,) + parts)).encode()).hexdigest()
    return random.Random(int(h[:16], 16))


# --------------------------------------------------------------------------
# datasets (synthetic, written by this script)
# --------------------------------------------------------------------------
MC_SUBJECTS = [
    ("addition", lambda a, b: a + b, "{a} + {b}"),
    ("subtraction", lambda a, b: a - b, "{a} - {b}"),
    ("multiplication", lambda a, b: a * b, "{a} * {b}"),
    ("integer_division", lambda a, b: a // b, "{a} // {b}"),
    ("remainder", lambda a, b: a % b, "{a} mod {b}"),
    ("maximum", lambda a, b: max(a, b), "max({a}, {b})"),
]
MC_PER_SUBJECT = 12  # 6 * 12 = 72 docs
QA_N = 60
MT_N = 60
MISMATCH_DOC_ID = 5


def make_mc(rng: random.Random) -> list[dict]:
    docs = []
    for subject, fn, fmt in MC_SUBJECTS:
        for k in range(MC_PER_SUBJECT):
            a, b = rng.randint(2, 40), rng.randint(2, 12)
            ans = fn(a, b)
            wrong = set()
            while len(wrong) < 3:
                w = ans + rng.choice([-10, -3, -2, -1, 1, 2, 3, 10])
                if w != ans:
                    wrong.add(w)
            choices = [str(x) for x in sorted(wrong | {ans})]
            docs.append(
                {
                    "id": f"mc-{subject}-{k:02d}",
                    "subject": subject,
                    "question": f"What is {fmt.format(a=a, b=b)}?",
                    "choices": choices,
                    "label": choices.index(str(ans)),
                }
            )
    return docs


QA_NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana"]
QA_THINGS = ["apples", "books", "coins", "shells", "stamps", "marbles"]


def make_qa(rng: random.Random) -> list[dict]:
    docs = []
    for i in range(QA_N):
        n, t = rng.choice(QA_NAMES), rng.choice(QA_THINGS)
        a, b = rng.randint(2, 30), rng.randint(1, 20)
        if rng.random() < 0.5:
            q = f"{n} has {a} {t} and gets {b} more. How many {t} does {n} have now?"
            ans = a + b
        else:
            a = a + b
            q = f"{n} has {a} {t} and gives away {b}. How many {t} are left?"
            ans = a - b
        docs.append({"id": f"qa-{i:03d}", "question": q, "answer": str(ans)})
    return docs


# a tiny synthetic "pseudo-language" -> English lexicon
LEX = {
    "the": "ka", "cat": "miro", "dog": "vashu", "bird": "tiko", "child": "lumo",
    "sees": "nari", "likes": "pela", "finds": "soru", "follows": "demi",
    "red": "rubo", "small": "tini", "old": "garo", "happy": "feli",
    "ball": "bola", "house": "kasa", "tree": "arbo", "river": "fluvo",
    "near": "apud", "behind": "post", "today": "hodi", "again": "denu",
}
SUBJ = ["cat", "dog", "bird", "child"]
VERB = ["sees", "likes", "finds", "follows"]
ADJ = ["red", "small", "old", "happy"]
OBJ = ["ball", "house", "tree", "river"]
TAIL = ["today", "again", ""]
FILLERS = ["a", "one", "this", "that", "big", "blue", "quickly", "there"]


def make_mt(rng: random.Random) -> list[dict]:
    docs = []
    for i in range(MT_N):
        words = ["the", rng.choice(ADJ), rng.choice(SUBJ), rng.choice(VERB),
                 "the", rng.choice(ADJ), rng.choice(OBJ)]
        if rng.random() < 0.5:
            words += [rng.choice(["near", "behind"]), "the", rng.choice(OBJ)]
        tail = rng.choice(TAIL)
        if tail:
            words.append(tail)
        en = " ".join(words).capitalize() + "."
        src = " ".join(LEX[w] for w in words).capitalize() + "."
        docs.append({"id": f"mt-{i:03d}", "source": src, "target": en})
    return docs


def write_jsonl(path: Path, docs: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")


TASK_MC = """\
task: toy_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: label
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
  - metric: acc_norm
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
"""

TASK_QA = """\
task: toy_qa
dataset_path: json
dataset_kwargs:
  data_files:
    test: datasets/toy_qa.jsonl
test_split: test
output_type: generate_until
doc_to_text: "Q: {{question}}\\nA:"
doc_to_target: "{{answer}}"
generation_kwargs:
  until:
    - "\\n"
  do_sample: true
  temperature: 0.7
repeats: 3
filter_list:
  - name: strict-match
    filter:
      - function: regex
        regex_pattern: "The answer is (\\\\-?[0-9]+)"
      - function: take_first
  - name: maj@3
    filter:
      - function: regex
        regex_pattern: "The answer is (\\\\-?[0-9]+)"
      - function: majority_vote
      - function: take_first
metric_list:
  - metric: exact_match
    aggregation: mean
    higher_is_better: true
    ignore_case: true
    ignore_punctuation: false
metadata:
  version: 1.0
"""

TASK_MT = """\
task: toy_mt
dataset_path: json
dataset_kwargs:
  data_files:
    test: datasets/toy_mt.jsonl
test_split: test
output_type: generate_until
doc_to_text: "Toy-language: {{source}}\\nEnglish:"
doc_to_target: "{{target}}"
generation_kwargs:
  until:
    - "\\n"
  do_sample: false
metric_list:
  - metric: bleu
  - metric: chrf
  - metric: ter
metadata:
  version: 1.0
"""


def write_inputs() -> None:
    mc = make_mc(random.Random(20240601))
    qa = make_qa(random.Random(20240602))
    mt = make_mt(random.Random(20240603))
    write_jsonl(HERE / "datasets" / "toy_mc.jsonl", mc)
    write_jsonl(HERE / "datasets" / "toy_qa.jsonl", qa)
    write_jsonl(HERE / "datasets" / "toy_mt.jsonl", mt)
    # altered copy of toy_mc: only the question text of one doc changes
    mm = [dict(d) for d in mc]
    d = mm[MISMATCH_DOC_ID]
    d["question"] = d["question"].replace("What is", "Compute")
    write_jsonl(HERE / "datasets" / "toy_mc_mismatch.jsonl", mm)

    for sub in ("tasks", "tasks_mismatch"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
        (HERE / sub).mkdir()
    (HERE / "tasks" / "toy_mc.yaml").write_text(
        TASK_MC.format(data="datasets/toy_mc.jsonl"))
    (HERE / "tasks" / "toy_qa.yaml").write_text(TASK_QA)
    (HERE / "tasks" / "toy_mt.yaml").write_text(TASK_MT)
    (HERE / "tasks_mismatch" / "toy_mc.yaml").write_text(
        TASK_MC.format(data="datasets/toy_mc_mismatch.jsonl"))


# --------------------------------------------------------------------------
# toy model, registered only inside the CLI subprocess
# --------------------------------------------------------------------------
def register_toy_model():
    from lm_eval.api.model import LM
    from lm_eval.api.registry import register_model

    @register_model("simstats_toy")
    class SimstatsToyLM(LM):
        def __init__(self, pretrained="simstats/toy", skill=0.5, seed=0,
                     **kwargs):
            super().__init__()
            self.name = str(pretrained)
            self.skill = float(skill)
            self.seed = int(seed)
            self._mc_cache = {}
            self._rep_counter = {}

        # correctness of one (task, doc, repeat)
        def _correct(self, task, doc, rep=0):
            z_item = _rng(self.seed, task, doc["id"]).gauss(0.0, 1.0)
            z_rep = _rng(self.seed, task, doc["id"], rep).gauss(0.0, 1.0)
            return (difficulty(task, doc) + SIGMA_MODEL * z_item
                    + SIGMA_REP * z_rep) < self.skill

        def _mc_lls(self, inst):
            key = (inst.task_name, inst.doc["id"])
            if key not in self._mc_cache:
                doc = inst.doc
                n = len(doc["choices"])
                rng = _rng(self.seed, "ll", inst.task_name, doc["id"])
                if self._correct(inst.task_name, doc):
                    top = doc["label"]
                else:
                    top = rng.choice([i for i in range(n) if i != doc["label"]])
                best = -rng.uniform(0.3, 2.0)
                lls = [best - rng.uniform(0.05, 3.0) for _ in range(n)]
                lls[top] = best
                self._mc_cache[key] = (lls, top)
            return self._mc_cache[key]

        def loglikelihood(self, requests, disable_tqdm=False):
            out = []
            for inst in requests:
                lls, top = self._mc_lls(inst)
                out.append((round(lls[inst.idx], 6), inst.idx == top))
            return out

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            return [-float(len(r.args[0])) for r in requests]

        def _qa_answer(self, inst, rep):
            doc = inst.doc
            rng = _rng(self.seed, "gen", inst.task_name, doc["id"], rep)
            gold = int(doc["answer"])
            if self._correct(inst.task_name, doc, rep):
                return f" The answer is {gold}."
            if rng.random() < 0.25:  # unparseable -> "[invalid]" after regex
                return " I am not sure."
            return f" The answer is {gold + rng.choice([-3, -2, -1, 1, 2, 3])}."

        def _mt_answer(self, inst, rep):
            doc = inst.doc
            rng = _rng(self.seed, "gen", inst.task_name, doc["id"], rep)
            # error rate per word grows with (difficulty - skill)
            d = difficulty(inst.task_name, doc) + SIGMA_MODEL * rng.gauss(0, 1)
            p = min(0.9, max(0.02, 0.5 + (d - self.skill)))
            words = doc["target"].rstrip(".").split()
            out = []
            for w in words:
                r = rng.random()
                if r < p / 3:
                    continue  # drop
                elif r < 2 * p / 3:
                    out.append(rng.choice(FILLERS))  # substitute
                elif r < p:
                    out += [w, rng.choice(FILLERS)]  # insert
                else:
                    out.append(w)
            if not out:
                out = [words[0]]
            s = " ".join(out)
            return " " + s[0].upper() + s[1:] + "."

        def generate_until(self, requests, disable_tqdm=False):
            out = []
            for inst in requests:
                key = (inst.task_name, inst.doc_id)
                rep = self._rep_counter.get(key, 0)
                self._rep_counter[key] = rep + 1
                if "answer" in inst.doc:
                    out.append(self._qa_answer(inst, rep))
                else:
                    out.append(self._mt_answer(inst, rep))
            return out

    return SimstatsToyLM


def run_cli(argv: list[str]) -> None:
    register_toy_model()
    from lm_eval.__main__ import cli_evaluate

    sys.argv = ["lm-eval"] + argv
    cli_evaluate()


# --------------------------------------------------------------------------
RUNS = [
    # (output root, include path, tasks, model_args)
    ("runs", "tasks", "toy_mc,toy_qa,toy_mt",
     "pretrained=simstats/toy-strong,skill=0.7,seed=1"),
    ("runs", "tasks", "toy_mc,toy_qa,toy_mt",
     "pretrained=simstats/toy-weak,skill=0.55,seed=2"),
    ("runs_mismatch", "tasks_mismatch", "toy_mc",
     "pretrained=simstats/toy-strong,skill=0.7,seed=1"),
]


def main() -> None:
    write_inputs()
    for root in ("runs", "runs_mismatch"):
        if (HERE / root).exists():
            shutil.rmtree(HERE / root)
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false")
    for out, inc, tasks, margs in RUNS:
        argv = ["run", "--model", "simstats_toy", "--model_args", margs,
                "--tasks", tasks, "--include_path", inc,
                "--output_path", out, "--log_samples", "--seed", "1234"]
        print("+ lm-eval", " ".join(argv), flush=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve()),
                        "--cli", *argv], cwd=HERE, env=env, check=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--cli":
        run_cli(sys.argv[2:])
    else:
        main()
