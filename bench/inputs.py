"""The benchmark's synthetic inputs, all from seeded ``numpy.random.default_rng`` generators."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simstats.stats.metrics import get_metric, label_statistics

#: Flip rates of a pair's two systems: A changes 19 % of the gold labels, B 20 % (independently).
PAIR_FLIP_RATES = (0.19, 0.20)
POSITIVE_RATE = 0.4


def label_systems(n_pairs: int, n_items: int, seed: int):
    """(gold (n,), predictions (2 n_pairs, n)) of binary classifiers; pair k = systems (2k, 2k + 1).

    System s flips each gold label with probability PAIR_FLIP_RATES[s % 2], from its own
    generator default_rng((seed, 1, s)): the first pairs are the same whatever n_pairs."""
    gold = (np.random.default_rng((seed, 0)).random(n_items) < POSITIVE_RATE).astype(np.int8)
    preds = np.empty((2 * n_pairs, n_items), dtype=np.int8)
    for s in range(2 * n_pairs):
        flip = np.random.default_rng((seed, 1, s)).random(n_items) < PAIR_FLIP_RATES[s % 2]
        preds[s] = np.where(flip, 1 - gold, gold)
    return gold, preds


def label_stats(metric_name: str, gold: np.ndarray, preds: np.ndarray) -> np.ndarray:
    """(systems, items, k) uint8 statistics for accuracy (correct, items) or binary F1 with positive
    label 1 (recalled, gold, spurious), vectorised; checked against simstats' label_statistics."""
    g = np.broadcast_to(gold == 1, preds.shape)
    p = preds == 1
    if metric_name == "accuracy":
        stats = np.stack([preds == gold, np.ones_like(p)], axis=-1)
    elif metric_name == "f1":
        stats = np.stack([g & p, g, ~g & p], axis=-1)
    else:
        raise ValueError(metric_name)
    kwargs = {"positive": 1} if metric_name == "f1" else {}
    assert np.array_equal(stats[0], label_statistics(get_metric(metric_name), gold, preds[0], **kwargs))
    return stats.astype(np.uint8)


WORDS = np.array(["the", "a", "cat", "dog", "sat", "ran", "on", "under", "mat", "house", "river", "quickly", "slowly", "red", "green", "big", "small", "old", "new", "man", "woman", "child", "saw", "took", "gave", "book", "letter", "city", "road", "tree", "near", "far", "and", "but", "with", "from", "over", "into", "bright", "dark", "stone", "water", "light", "morning", "evening"])
BLEU_BASE_RATE = 0.30


def bleu_rates(n_systems: int) -> np.ndarray:
    """Edit rate per system: system 0 (the baseline) 0.30, the others 0.30 + a golden-ratio sequence in
    [-0.015, 0.015), so the pairs' p-values spread from ~0 to ~1."""
    k = np.arange(n_systems)
    rates = BLEU_BASE_RATE + 0.03 * ((k * 0.6180339887) % 1 - 0.5)
    rates[0] = BLEU_BASE_RATE
    return rates


def bleu_corpus(n_sentences: int, n_systems: int, seed: int):
    """(references, systems): references of 5-29 random words; system s substitutes each word with
    probability rate_s and drops it with probability rate_s / 3 (generator default_rng((seed, 1, s)))."""
    rng = np.random.default_rng((seed, 0))
    tokens = [WORDS[rng.integers(0, WORDS.size, length)] for length in rng.integers(5, 30, n_sentences)]
    refs = [" ".join(t) + "." for t in tokens]
    systems = []
    for s, rate in enumerate(bleu_rates(n_systems)):
        r = np.random.default_rng((seed, 1, s))
        out = []
        for t in tokens:
            keep = r.random(t.size) >= rate / 3
            hyp = np.where(r.random(t.size) < rate, WORDS[r.integers(0, WORDS.size, t.size)], t)[keep]
            out.append(" ".join(hyp) + ".")
        systems.append(out)
    return refs, systems


def aso_scores(n: int, seed: int):
    """Scores of two algorithms over n runs each: A ~ N(0.900, 0.010), B ~ N(0.899, 0.012)."""
    rng = np.random.default_rng((seed, n))
    return rng.normal(0.90, 0.010, n), rng.normal(0.899, 0.012, n)


def simulated_competition(m: int, n: int, seed: int) -> pd.DataFrame:
    """An EXIST-sized competition: m systems, n items, 3 classes, systems' true macro-F1 from 0.7 to 0.5
    (simstats' Nava-Muñoz population model)."""
    from simstats.studies.navamunoz2024.population import parse_population

    pop = parse_population("bench", {"metric": "macro_f1", "classes": ["AGAINST", "NONE", "FAVOR"],
                                     "class_probs": [0.3, 0.4, 0.3], "subset": ["FAVOR", "AGAINST"],
                                     "sigma_item": 0.5, "sigma_e": 1.0, "confusion_sharing": 0.5})
    thetas = [pop.solve_theta(s) for s in np.linspace(0.7, 0.5, m)]
    gold, preds = pop.sample(thetas, n, np.random.default_rng(seed))
    return pd.DataFrame({"y": gold, **{f"S{k:02d}": p for k, p in enumerate(preds)}})
