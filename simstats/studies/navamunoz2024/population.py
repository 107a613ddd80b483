"""Simulated competitions with known truth: m classifiers of set quality on one test set.

A *population* of labelled items and a system's ability theta define everything:

    gold class c_i ~ Categorical(class_probs)
    system s is right on item i iff  theta_s - beta_c(i) - b_i + e_si > 0,
        b_i ~ N(0, sigma_item^2) shared by all systems (hard items are hard for everyone),
        e_si ~ N(0, sigma_e^2) the system's own noise;
    when wrong, s predicts the item's shared "confuser" k_i with probability
        confusion_sharing, otherwise a label drawn afresh; both come from Q[c_i, .]
        (uniform over the other classes; for ordinal labels weights decay^(|k - c| - 1)).

So errors are correlated across systems through b_i and k_i (latent correlation
sigma_item^2 / (sigma_item^2 + sigma_e^2)), and the expected confusion matrix is exact:

    M[c, c] = pi_c Phi((theta - beta_c) / S),  M[c, k] = pi_c (1 - Phi(...)) Q[c, k],
    S = sqrt(sigma_item^2 + sigma_e^2).

A system's *true score* is the metric of M (the limit of its test score as n grows), and
theta is solved from a target true score.  Systems with equal theta are equally good (true
nulls) although their errors differ.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pathlib import Path

import numpy as np

from simstats.stats.metrics import Metric, accuracy, classification_f1, get_metric, label_statistics, mae
from simstats.sim.scenario import ScenarioError
from simstats.sim.schema import apply_schema
from simstats.sim.fields import fail, integer_field, number_field
from simstats.stats.lazy import lazy_module

optimize = lazy_module("scipy.optimize")
special = lazy_module("scipy.special")

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")

METRICS = ("accuracy", "f1", "macro_f1", "mae")


@dataclass(frozen=True)
class ClassifierPopulation:
    name: str
    metric: str
    classes: tuple
    class_probs: tuple[float, ...]
    class_difficulty: tuple[float, ...]
    sigma_item: float
    sigma_e: float
    confusion_sharing: float
    positive: object = None          # f1: the positive class
    subset: tuple | None = None      # macro_f1: classes averaged (default all)
    wrong_decay: float = 1.0         # ordinal labels: weight of a wrong label decays with distance

    @property
    def k(self) -> int:
        return len(self.classes)

    @property
    def scale(self) -> float:
        return math.hypot(self.sigma_item, self.sigma_e)

    @property
    def latent_correlation(self) -> float:
        return self.sigma_item ** 2 / self.scale ** 2

    @property
    def higher_is_better(self) -> bool:
        return self.metric != "mae"

    def wrong_label_matrix(self) -> np.ndarray:
        """Q[c, k]: distribution of a wrong prediction for gold class c (Q[c, c] = 0)."""
        idx = np.arange(self.k)
        dist = np.abs(idx[:, None] - idx[None, :]).astype(float)
        q = np.where(dist > 0, self.wrong_decay ** np.maximum(dist - 1, 0), 0.0)
        return q / q.sum(axis=1, keepdims=True)

    def metric_object(self) -> Metric:
        if self.metric == "accuracy":
            return accuracy
        if self.metric == "mae":
            return mae
        if self.metric == "f1":
            return get_metric("f1")
        return classification_f1(self.classes, "macro", self.subset)

    def confusion(self, theta) -> np.ndarray:
        """Expected confusion matrices P(gold = c, pred = k), shape theta.shape + (K, K)."""
        theta = np.asarray(theta, dtype=float)[..., None]
        pi = np.asarray(self.class_probs)
        right = special.ndtr((theta - np.asarray(self.class_difficulty)) / self.scale)      # (..., K)
        m = (pi * (1 - right))[..., :, None] * self.wrong_label_matrix()
        diag = np.arange(self.k)
        m[..., diag, diag] = pi * right
        return m

    def true_score(self, theta) -> np.ndarray:
        """The metric of the expected confusion matrix (the system's population score)."""
        m = self.confusion(theta)
        if self.metric == "accuracy":
            return np.trace(m, axis1=-2, axis2=-1)
        if self.metric == "mae":
            labels = np.asarray(self.classes, dtype=float)
            return (m * np.abs(labels[:, None] - labels[None, :])).sum(axis=(-2, -1))
        tp = np.diagonal(m, axis1=-2, axis2=-1)
        f1 = 2 * tp / (m.sum(axis=-1) + m.sum(axis=-2))
        if self.metric == "f1":
            return f1[..., self.classes.index(self.positive)]
        chosen = [self.classes.index(c) for c in (self.subset or self.classes)]
        return f1[..., chosen].mean(axis=-1)

    def solve_theta(self, target: float) -> float:
        """Ability whose true score is ``target``."""
        lo, hi = -12 * self.scale, 12 * self.scale
        f_lo, f_hi = float(self.true_score(lo)), float(self.true_score(hi))
        if not min(f_lo, f_hi) < target < max(f_lo, f_hi):
            raise ValueError(f"population {self.name}: true score {target} is not attainable "
                             f"(range {min(f_lo, f_hi):.4f} to {max(f_lo, f_hi):.4f})")
        return float(optimize.brentq(lambda t: float(self.true_score(t)) - target, lo, hi, xtol=1e-13))

    def sample(self, theta, n: int, rng: np.random.Generator, class_counts=None):
        """(gold (n,), predictions (m, n)) of systems with abilities ``theta`` on n fresh items."""
        theta = np.atleast_1d(np.asarray(theta, dtype=float))
        if class_counts is not None:
            gold = rng.permutation(np.repeat(np.arange(self.k), class_counts))
        else:
            gold = rng.choice(self.k, size=n, p=np.asarray(self.class_probs))
        n = gold.size
        b = rng.normal(0.0, self.sigma_item, n)
        cum = np.cumsum(self.wrong_label_matrix(), axis=1)[gold]                       # (n, K)
        confuser = np.minimum((rng.random(n)[:, None] > cum).sum(axis=1), self.k - 1)
        e = rng.normal(0.0, self.sigma_e, (theta.size, n))
        right = theta[:, None] - np.asarray(self.class_difficulty)[gold] - b + e > 0
        fresh = np.minimum((rng.random((theta.size, n))[:, :, None] > cum[None]).sum(axis=2), self.k - 1)
        shared = rng.random((theta.size, n)) < self.confusion_sharing
        pred = np.where(right, gold, np.where(shared, confuser, fresh))
        labels = np.asarray(self.classes, dtype=object if self.metric != "mae" else float)
        return labels[gold], labels[pred]

    def statistics(self, gold, preds) -> np.ndarray:
        """Per-item statistics (m, n, k) of the systems' predictions for this population's metric."""
        metric = self.metric_object()
        kwargs = {"positive": self.positive} if self.metric == "f1" else (
            {"classes": list(self.classes)} if self.metric == "macro_f1" else {})
        return np.stack([label_statistics(metric, gold, p, **kwargs) for p in preds])


POPULATION_SCHEMA = "/properties/populations/additionalProperties"
DESIGN_SCHEMA = "/properties/study/properties/designs/additionalProperties"


def parse_population(name: str, value) -> ClassifierPopulation:
    """One population (``competition.populations.<name>``): the schema's checks and defaults, then
    the cross-field checks."""
    path = f"competition.populations.{name}"
    value = apply_schema(value, SCHEMA, path, POPULATION_SCHEMA)
    metric = value["metric"]
    classes = value["classes"]
    if len(set(map(str, classes))) != len(classes):
        fail(f"{path}.classes", "must be a list of at least two distinct labels")
    if metric == "mae":
        for c in classes:
            number_field(c, f"{path}.classes")
        if sorted(classes) != classes:
            fail(f"{path}.classes", "ordinal labels for mae must be increasing")
    else:
        classes = [str(c) for c in classes]
    probs = value["class_probs"]
    if len(probs) != len(classes):
        fail(f"{path}.class_probs", f"must list one probability per class ({len(classes)})")
    if abs(sum(probs) - 1) > 1e-6:
        fail(f"{path}.class_probs", f"must sum to 1, got {sum(probs)}")
    diff = value.get("class_difficulty", [0.0] * len(classes))
    if len(diff) != len(classes):
        fail(f"{path}.class_difficulty", f"must list one number per class ({len(classes)})")
    positive = value.get("positive")
    if metric == "f1":
        if positive is None or str(positive) not in classes:
            fail(f"{path}.positive", f"f1 needs the positive class, one of {classes}")
        positive = str(positive)
    elif positive is not None:
        fail(f"{path}.positive", "only used by metric f1")
    subset = value.get("subset")
    if subset is not None:
        if metric != "macro_f1":
            fail(f"{path}.subset", "only used by metric macro_f1")
        if any(str(c) not in classes for c in subset):
            fail(f"{path}.subset", f"must be a non-empty list of classes from {classes}")
        subset = tuple(str(c) for c in subset)
    return ClassifierPopulation(
        name, metric, tuple(classes), tuple(float(p) for p in probs), tuple(float(d) for d in diff),
        float(value["sigma_item"]), float(value["sigma_e"]), float(value["confusion_sharing"]), positive, subset,
        float(value["wrong_decay"]))


@dataclass(frozen=True)
class ExampleCompetition:
    """One simulated competition whose systems' true scores are given (e.g. a paper's table)."""

    population: str
    n: int
    class_counts: tuple[int, ...] | None
    systems: dict
    language: str | None = None          # the paper's column it is compared with (Tables 2, 3, 8)
    condition_on_ranking: bool = True    # redraw the test set until the observed ranking is the true one


@dataclass(frozen=True)
class StudyDesign:
    """A grid of simulated competitions: m systems in tied groups of ``tie_size``, true scores
    from ``best`` down (in the metric's better direction) by ``spread`` over the groups."""

    name: str
    population: str
    m: tuple[int, ...]
    n: tuple[int, ...]
    best: float
    spread: float
    tie_size: int

    def cells(self):
        return [(m, n) for m in self.m for n in self.n]


def true_scores(population: ClassifierPopulation, design: StudyDesign, m: int) -> np.ndarray:
    """True scores of the m systems of a design cell, best first; groups of tie_size are equal."""
    group = np.arange(m) // design.tie_size
    levels = group.max() + 1
    step = design.spread / (levels - 1) if levels > 1 else 0.0
    sign = -1.0 if population.higher_is_better else 1.0
    return design.best + sign * step * group


def parse_design(name: str, value, populations: dict) -> StudyDesign:
    """One study design (``competition.study.designs.<name>``), checked against its population."""
    dp = f"competition.study.designs.{name}"
    d = apply_schema(value, SCHEMA, dp, DESIGN_SCHEMA)
    if d["population"] not in populations:
        fail(f"{dp}.population", f"unknown population {d['population']!r}")
    design = StudyDesign(name, d["population"], tuple(d["m"]), tuple(d["n"]), float(d["best"]), float(d["spread"]),
                         d["tie_size"])
    p = populations[design.population]
    for m in design.m:
        for score in true_scores(p, design, m)[[0, -1]]:
            try:
                p.solve_theta(float(score))
            except ValueError as err:
                fail(f"{dp}.best", f"{err} (m = {m})")
    return design


def parse_example(value, populations: dict, name: str = "example") -> ExampleCompetition:
    """One example competition (``competition.examples.<name>``), checked against its population."""
    path = f"competition.examples.{name}"
    ex = apply_schema(value, SCHEMA, path, "/properties/examples/additionalProperties")
    pop = ex["population"]
    if pop not in populations:
        fail(f"{path}.population", f"unknown population {pop!r}")
    counts = ex.get("class_counts")
    if counts is not None:
        counts = tuple(counts)
        if len(counts) != populations[pop].k:
            fail(f"{path}.class_counts", f"must give one count per class ({populations[pop].k})")
    n = integer_field(ex.get("n", sum(counts) if counts else 0), f"{path}.n", minimum=10)
    if counts is not None and sum(counts) != n:
        fail(f"{path}.n", f"must equal the sum of class_counts ({sum(counts)}), got {n}")
    # in name order: the order of the YAML mapping does not change the simulation
    systems = {str(k): float(v) for k, v in sorted(ex["systems"].items(), key=lambda kv: str(kv[0]))}
    for k, v in systems.items():
        try:
            populations[pop].solve_theta(v)
        except ValueError as err:
            fail(f"{path}.systems.{k}", str(err))
    return ExampleCompetition(pop, n, counts, systems, ex.get("language"), bool(ex["condition_on_ranking"]))


#: Output directories under competition/ that an example's name must not take.
RESERVED_CASES = ("compstats", "study")


@dataclass(frozen=True)
class CompetitionSettings:
    """The ``competition`` section of the configuration (types, ranges and defaults: the schema)."""

    populations: dict            # name -> ClassifierPopulation
    n_resamples: int             # bootstrap samples of the example and real-data analyses
    alpha: float
    examples: dict               # name -> ExampleCompetition
    replicates: int              # competitions per design cell
    study_resamples: int         # bootstrap samples per simulated competition
    designs: dict                # name -> StudyDesign
    study_chunk_size: int = 0    # competitions per job and design cell (0: all in one job)
    width_test_sets: int = 20    # simulated test sets per example for the CI-width band (widths.py)

    def study_chunks(self) -> list[range]:
        """The replicates of each job of a design (every cell of the design, these replicates)."""
        size = self.study_chunk_size or self.replicates
        return [range(start, min(start + size, self.replicates)) for start in range(0, self.replicates, size)]


def parse_competition(value) -> CompetitionSettings:
    """Validate the ``competition`` config section; raise ScenarioError naming the field."""
    path = "competition"
    value = apply_schema(value, SCHEMA, path)
    populations = {name: parse_population(name, v) for name, v in value["populations"].items()}
    for name in value["examples"]:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", str(name)) or name in RESERVED_CASES:
            fail(f"{path}.examples.{name}", "an example's name must be letters, digits, _ or - and not one of "
                                             f"{', '.join(RESERVED_CASES)} (it names output directories)")
    examples = {name: parse_example(v, populations, name) for name, v in value["examples"].items()}
    st = value["study"]
    designs = {name: parse_design(name, d, populations) for name, d in st["designs"].items()}
    return CompetitionSettings(populations, value["n_resamples"], value["alpha"], examples, st["replicates"],
                               st["n_resamples"], designs, min(st.get("chunk_size", st["replicates"]), st["replicates"]),
                               value["width_test_sets"])


__all__ = ["ClassifierPopulation", "CompetitionSettings", "ExampleCompetition", "StudyDesign", "ScenarioError", "parse_competition",
           "parse_design", "parse_example", "parse_population", "true_scores"]
