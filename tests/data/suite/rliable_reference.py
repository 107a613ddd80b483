"""rliable's IQM and probability of improvement on the IBM model-recycling runs, with its stratified bootstrap
intervals: the reference values of tests/stats/test_suite.py.

rliable 1.2.0 imports arch, which fails under pandas 3, so this runs in its own environment:

    python3 -m venv /tmp/vrl && /tmp/vrl/bin/pip install "pandas<3" "rliable==1.2.0"
    /tmp/vrl/bin/python tests/data/suite/rliable_reference.py > tests/data/suite/rliable_reference.json

Data: resources/realdata/ibm_model_recycling_20_seeds (6 base models x 36 tasks x 20 fine-tuning seeds; its
provenance in resources/realdata/README.md).  Per model a (runs, tasks) matrix of test accuracy (Spearman for
stsb), the tasks in sorted order, the runs in file order.
"""
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import rliable
from rliable import library as rly
from rliable import metrics

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "resources/realdata/ibm_model_recycling_20_seeds"
MODELS = ("bert_base_uncased", "roberta_base", "microsoft_deberta_v3_base")
REPS = 2000
SEED = 20211206


def runs(model: str) -> np.ndarray:
    table = pd.read_csv(DATA / f"models_results_{model}_pretrain.csv", sep="\t")
    table["score"] = table.accuracy.where(table["dataset name"] != "stsb", table.spearmanr)
    tasks = sorted(table["dataset name"].unique())
    return np.stack([table[table["dataset name"] == t].score.to_numpy()[:20] for t in tasks], axis=1)


def main() -> None:
    scores = {m: runs(m) for m in MODELS}
    iqm = {m: float(metrics.aggregate_iqm(s)) for m, s in scores.items()}
    points, intervals = rly.get_interval_estimates(
        scores, lambda s: np.array([metrics.aggregate_iqm(s)]), reps=REPS,
        random_state=np.random.RandomState(SEED))
    pairs = {f"{x}>{y}": (scores[x], scores[y]) for x, y in (("roberta_base", "bert_base_uncased"),
                                                             ("microsoft_deberta_v3_base", "roberta_base"))}
    poi = {k: float(metrics.probability_of_improvement(*v)) for k, v in pairs.items()}
    poi_points, poi_intervals = rly.get_interval_estimates(
        {k: list(v) for k, v in pairs.items()}, lambda x, y: np.array([metrics.probability_of_improvement(x, y)]),
        reps=REPS, random_state=np.random.RandomState(SEED))
    out = {"rliable_version": rliable.__version__ if hasattr(rliable, "__version__") else "1.2.0",
           "pandas_version": pd.__version__, "reps": REPS, "seed": SEED, "models": list(MODELS),
           "iqm": iqm, "iqm_interval": {m: [float(v) for v in intervals[m][:, 0]] for m in MODELS},
           "probability_of_improvement": poi,
           "probability_of_improvement_interval": {k: [float(v) for v in poi_intervals[k][:, 0]] for k in pairs}}
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
