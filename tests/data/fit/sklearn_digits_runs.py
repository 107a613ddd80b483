"""Writes sklearn_digits_runs.csv.gz: item-level outcomes of 20 training runs (seeds) of one approach.

Real runs, made offline with scikit-learn (the version pinned in constraints.txt) on the handwritten
digits dataset it ships (`sklearn.datasets.load_digits`, 1,797 8x8 images, 10 classes; UCI ML
hand-written digits, Alpaydin & Kaynak 1998).  One fixed split: the first 400 images (after a
seeded shuffle) train, the next 600 are dev, the remaining 797 are test.  The approach: a small
multilayer perceptron (16 hidden units, Adam, 300 epochs, no early stopping); a run's seed sets its
initial weights and batch order.  Columns: seed, item, split (dev/test), correct (0/1).

Run from the repository root:  python tests/data/fit/sklearn_digits_runs.py
"""
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

RUNS = 20


def main() -> None:
    x, y = load_digits(return_X_y=True)
    order = np.random.default_rng(2018).permutation(len(y))
    x, y = x[order] / 16.0, y[order]
    train, dev, test = slice(0, 400), slice(400, 1000), slice(1000, None)
    rows = []
    for seed in range(RUNS):
        model = MLPClassifier(hidden_layer_sizes=(16,), max_iter=300, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(x[train], y[train])
        for split, part in (("dev", dev), ("test", test)):
            correct = (model.predict(x[part]) == y[part]).astype(int)
            start = part.start
            rows += [(f"seed{seed}", f"img{start + i}", split, int(c)) for i, c in enumerate(correct)]
    out = Path(__file__).with_name("sklearn_digits_runs.csv.gz")
    frame = pd.DataFrame(rows, columns=["seed", "item", "split", "correct"])
    frame.to_csv(out, index=False, compression={"method": "gzip", "mtime": 0})
    print(frame.groupby(["split", "seed"]).correct.mean().groupby("split").agg(["mean", "std"]))


if __name__ == "__main__":
    main()
