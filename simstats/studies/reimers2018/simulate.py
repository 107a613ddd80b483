"""Reimers & Gurevych (2018): Evaluations 1 and 2 on simulated models with known truth.

Two approaches A and B (identical by construction) each train ``n_models`` models of one
task scenario (the instance-level noise model, ``simstats.noise``; the same models as the
noise study, stream "noise").  Model k of A and model k of B form Evaluation 1's pair k.
For a group size n, group g holds models g*n .. g*n+n-1 of each approach; Evaluation 2
(and Figure 4) compares the best-by-dev model of A's group with the best-by-dev model of
B's group on the test set.  Evaluation 2's matrix rows are the groups of ``row_size``.

Significance: paired bootstrap over test sentences (Berg-Kirkpatrick et al. 2012), shift
convention, one-sided for the observed winner: with delta = |F1(A) - F1(B)| and delta* the
winner's resampled lead, p = P*(delta* >= 2 delta).  A researcher who sees one model ahead
tests exactly that ("is the better-looking model better?"), which is how each pair is
oriented.  Under identical approaches every p < alpha is a false "significant" result.

Chunking: models are processed in blocks of ``block`` models per approach (the least common
multiple of every group size), so no group straddles two blocks.  Each block draws its own
bootstrap resample counts from a key (task, block) and every pair in the block shares them;
chunks are whole blocks, so results do not depend on the chunk size or on --cores.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pathlib import Path

import numpy as np
import pandas as pd

from simstats.stats.bootstrap import paired_bootstrap
from simstats.stats.engine import orient_by_winner
from simstats.stats.metrics import get_metric
from simstats.sim.noise import make_item_set, simulate_models
from simstats.sim.scenario import SPLITS, Scenario, ScenarioError, chunk_bounds
from simstats.sim.seeding import generator
from simstats.sim.model_tables import PAIR_DTYPES as NOISE_PAIR_DTYPES
from simstats.sim.model_tables import SCORE_DTYPES as NOISE_SCORE_DTYPES
from simstats.sim.model_tables import model_tables, pair_item_counts
from simstats.sim.noise import unit_statistics
from simstats.sim.schema import apply_schema

#: The schema of this study's configuration section.
SCHEMA = Path(__file__).with_name("schema.yaml")

COMPARISON_COLUMNS = ["n", "group", "index_a", "index_b", "dev_a", "dev_b", "test_a", "test_b", "delta", "pvalue"]
SCORE_COLUMNS = ["approach", "index", "theta", "delta_shift", "psi_true_dev", "psi_true_test", "psi_dev", "psi_test"]


@dataclass(frozen=True)
class ReimersSettings:
    """The ``reimers`` section of the configuration."""

    tasks: tuple[str, ...]
    n_models: int            # per approach
    chunk_size: int          # models per approach and job; a multiple of ``block``
    n_resamples: int         # bootstrap replicates B
    alpha: float
    row_size: int            # Evaluation 2: best of each row of this many models
    figure4_n: tuple[int, ...]
    eval34_size: int         # Evaluations 3/4: models per approach in one comparison
    table5_n: tuple[int, ...]
    power_d: tuple[float, ...]      # true differences, F1 points
    power_n: tuple[int, ...]        # runs per approach tried
    power_replicates: int
    power_target: float
    identifiability_low_prob: tuple[float, ...] = (0.1, 0.15, 0.2)
    identifiability_theta_ratio: tuple[float, ...] = (0.25, 0.5, 1.0)
    realdata_resamples: int = 1000  # bootstrap replicates of the UKP real-data intervals (schema default)
    figure4_task: str = ""          # the dedicated Figure 4 simulation (figure4.py): its task, "" = off
    figure4_sim_n: tuple[int, ...] = (50, 100)
    figure4_groups: int = 400       # pairs of groups per n
    figure4_block: int = 200        # groups sharing one set of bootstrap resamples
    figure4_chunk: int = 2000       # groups per job

    @property
    def group_sizes(self) -> tuple[int, ...]:
        """Every group size whose selection happens inside a chunk (1 = Evaluation 1)."""
        return tuple(sorted({1, self.row_size, *self.figure4_n}))

    @property
    def block(self) -> int:
        sizes = {*self.group_sizes, self.eval34_size, *self.table5_n}
        return math.lcm(*sizes)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_models // self.chunk_size)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        return chunk_bounds(self.n_models, self.chunk_size, chunk)

    def holds_noise_models(self, noise_models: int) -> bool:
        """Whether the chunks can write the noise study's tables of its first ``noise_models`` models
        (:func:`simulate_chunk`'s ``noise_models``): there are as many models, and the blocks have an even
        size, so that no pair (2k, 2k+1) of the noise study straddles two blocks."""
        return self.n_models >= noise_models and self.block % 2 == 0


def parse_reimers(value, scenarios: dict[str, Scenario]) -> ReimersSettings:
    """Validate the ``reimers`` section against the schema (defaults filled in) plus the
    cross-field checks (one-line ScenarioError naming the field)."""
    path = "reimers"
    value = apply_schema(value, SCHEMA, path)
    tasks = value["tasks"]
    for name in value["exclude"]:
        if name not in scenarios:
            raise ScenarioError(f"{path}.exclude: unknown scenario {name!r}")
    if tasks == "all":
        tasks = [name for name, sc in scenarios.items() if len(sc.approaches) == 2]
    tasks = [name for name in tasks if name not in set(value["exclude"])]
    if not tasks:
        raise ScenarioError(f"{path}.tasks: no scenario left to evaluate (tasks minus exclude is empty)")
    for name in tasks:
        if name not in scenarios:
            raise ScenarioError(f"{path}.tasks: unknown scenario {name!r}")
        if len(scenarios[name].approaches) != 2:
            raise ScenarioError(f"{path}.tasks: scenario {name!r} must have exactly two approaches "
                                f"(it has {len(scenarios[name].approaches)}); name it in {path}.exclude")
    power = value["power"]
    settings = ReimersSettings(
        tasks=tuple(tasks),
        n_models=value["n_models"],
        chunk_size=value["chunk_size"],
        n_resamples=value["n_resamples"],
        alpha=float(value["alpha"]),
        row_size=value["row_size"],
        figure4_n=tuple(sorted(value["figure4_n"])),
        eval34_size=value["eval34_size"],
        table5_n=tuple(sorted(value["table5_n"])),
        power_d=tuple(sorted(float(d) for d in power["d"])),
        power_n=tuple(sorted(power["n"])),
        power_replicates=power["replicates"],
        power_target=float(power["target"]),
        identifiability_low_prob=tuple(float(x) for x in value["identifiability"]["low_prob"]),
        identifiability_theta_ratio=tuple(float(x) for x in value["identifiability"]["theta_ratio"]),
        realdata_resamples=value["realdata_resamples"],
        figure4_task=value["figure4_sim"]["task"],
        figure4_sim_n=tuple(sorted(value["figure4_sim"]["n"])),
        figure4_groups=value["figure4_sim"]["groups"],
        figure4_block=value["figure4_sim"]["block"],
        figure4_chunk=value["figure4_sim"]["chunk"],
    )
    if settings.figure4_task and settings.figure4_task not in settings.tasks:
        raise ScenarioError(f"{path}.figure4_sim.task: {settings.figure4_task!r} is not one of the evaluated tasks")
    for key, size in (("groups", settings.figure4_groups), ("chunk", settings.figure4_chunk)):
        if size % settings.figure4_block:
            raise ScenarioError(f"{path}.figure4_sim.{key}: must be a multiple of block ({settings.figure4_block}), "
                                f"got {size}")
    if settings.chunk_size % settings.block:
        raise ScenarioError(f"{path}.chunk_size: must be a multiple of {settings.block} (the least common multiple "
                            f"of every group size), got {settings.chunk_size}")
    largest = max(settings.group_sizes[-1], settings.eval34_size, settings.table5_n[-1])
    if settings.n_models < 2 * largest:
        raise ScenarioError(f"{path}.n_models: need at least {2 * largest} models per approach (two groups of the "
                            f"largest group size {largest}), got {settings.n_models}")
    return settings


# --------------------------------------------------------------------------- selection
def best_by_dev(dev: np.ndarray, start: int, stop: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(group ids, model indices) of the best-by-dev model of every whole group of n.

    dev holds the dev scores of models start..stop-1; group g is models g*n .. g*n+n-1,
    used only if it lies inside [start, stop).  Ties go to the lowest index.
    """
    first = -(-start // n)
    last = stop // n
    groups = np.arange(first, last)
    if groups.size == 0:
        return groups, groups
    block = dev[first * n - start:last * n - start].reshape(groups.size, n)
    return groups, groups * n + np.argmax(block, axis=1)


def bootstrap_pvalues(stats_a: np.ndarray, stats_b: np.ndarray, pairs: np.ndarray, metric: str,
                      n_resamples: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Winner-oriented paired bootstrap p-values of the metric for many pairs on one set of resamples.

    stats_a, stats_b: (models, units, k) per-unit statistics of the metric
    (:func:`unit_statistics`; integer counts are kept as they are, which the engine sums exactly in float
    without checking that float values are whole); pairs: (P, 2) row indices into stats_a and stats_b.  Returns
    (delta, p): delta = metric(a) - metric(b); p = P*(winner's lead* >= 2 |delta|), the engine's
    paired bootstrap over units (sentences, or items when a split has none; shift convention,
    ``alternative="greater"``) on each pair oriented by its observed winner.
    """
    ma = stats_a.shape[0]
    stats = np.concatenate([stats_a, stats_b])
    if stats.dtype.kind not in "iu":
        stats = stats.astype(np.float64, copy=False)
    pairs = np.stack([pairs[:, 0], ma + pairs[:, 1]], axis=1)
    measure = get_metric(metric)
    oriented, flipped = orient_by_winner(stats, measure, pairs)
    res = paired_bootstrap(stats, measure, oriented, alternative="greater", n_resamples=n_resamples,
                           confidence_level=None, pvalue_rule="fraction", rng=rng)
    return np.where(flipped, -res.statistic, res.statistic), res.pvalue


def simulate_chunk(scenario: Scenario, settings: ReimersSettings, root_seed: int, start: int, stop: int,
                   progress=None, noise_models: int | None = None) -> tuple[pd.DataFrame, ...]:
    """Models start..stop-1 of both approaches: score rows, and every comparison of the chunk.

    Comparisons: Evaluation 1 (n = 1: model k of A vs model k of B) and, for every group
    size n, the best-by-dev models of each whole group.

    ``noise_models``: also return the noise study's score and pair tables
    (:func:`simstats.sim.model_tables.model_tables`) of the chunk's models below this index, which
    are the noise study's models: (scores, comparisons, noise_scores, noise_pairs).  Each block
    holding such a model gets the tables of all its models (and the noise study keeps those below
    its size); the tables of a model do not depend on the block.
    """
    block = settings.block
    if start % block:
        raise ValueError(f"chunks must start at a multiple of the block size {block}, got {start}")
    approach_a, approach_b = (a.name for a in scenario.approaches)
    items = {s: make_item_set(scenario, s, root_seed, "noise") for s in SPLITS}
    noise_tables = noise_models is not None
    if noise_tables and noise_models > start and settings.block % 2:
        raise ValueError(f"the noise study's tables need an even block size (pairs of models 2k, 2k+1), "
                         f"got {settings.block}")
    counts = pair_item_counts(scenario, items, root_seed) if noise_tables and start < noise_models else None
    score_frames, comparison_frames, noise_frames = [], [], []
    for lo in range(start, stop, block):
        hi = min(lo + block, stop)
        batches = [simulate_models(scenario, name, lo, hi, root_seed, item_sets=items, keep_unit_stats=("test",),
                                   keep_outcomes=("test",) if counts is not None and lo < noise_models else ())
                   for name in (approach_a, approach_b)]
        for batch in batches:
            if batch.outcomes:
                noise_frames.append(model_tables(batch, items, counts))
                batch.outcomes.clear()
            a = batch.abilities
            score_frames.append(pd.DataFrame({
                "approach": batch.approach, "index": a.index, "theta": a.theta, "delta_shift": a.delta,
                "psi_true_dev": batch.psi_true["dev"], "psi_true_test": batch.psi_true["test"],
                "psi_dev": batch.psi["dev"], "psi_test": batch.psi["test"]}))
        pairs, meta = [], []
        for n in settings.group_sizes:
            groups, best_a = best_by_dev(batches[0].psi["dev"], lo, hi, n)
            _, best_b = best_by_dev(batches[1].psi["dev"], lo, hi, n)
            pairs.append(np.stack([best_a - lo, best_b - lo], axis=1))
            meta.append(pd.DataFrame({"n": n, "group": groups, "index_a": best_a, "index_b": best_b}))
        pairs = np.concatenate(pairs)
        stats = [unit_statistics(b.unit_stats["test"], scenario.metric, np.int32) for b in batches]
        rng = generator(root_seed, "reimers", scenario.name, "bootstrap", lo // block)
        delta, pvalue = bootstrap_pvalues(stats[0], stats[1], pairs, scenario.metric, settings.n_resamples, rng)
        frame = pd.concat(meta, ignore_index=True)
        frame["dev_a"] = batches[0].psi["dev"][pairs[:, 0]]
        frame["dev_b"] = batches[1].psi["dev"][pairs[:, 1]]
        frame["test_a"] = batches[0].psi["test"][pairs[:, 0]]
        frame["test_b"] = batches[1].psi["test"][pairs[:, 1]]
        frame["delta"] = delta
        frame["pvalue"] = pvalue
        comparison_frames.append(frame[COMPARISON_COLUMNS])
        if progress is not None:
            progress(f"models {lo}..{hi - 1}: {len(frame)} comparisons done")
    tables = (pd.concat(score_frames, ignore_index=True)[SCORE_COLUMNS],
              pd.concat(comparison_frames, ignore_index=True))
    if noise_tables:
        if noise_frames:
            tables += (pd.concat([f[0] for f in noise_frames], ignore_index=True),
                       pd.concat([f[1] for f in noise_frames], ignore_index=True))
        else:                           # no model of the chunk is the noise study's: empty tables, same columns
            tables += (pd.DataFrame({c: pd.Series(dtype=t) for c, t in NOISE_SCORE_DTYPES.items()}),
                       pd.DataFrame({c: pd.Series(dtype=t) for c, t in NOISE_PAIR_DTYPES.items()}))
    return tables


def read_chunks(paths) -> pd.DataFrame:
    """Concatenate chunk tables in the given (chunk) order."""
    frames = [pd.read_parquet(p) for p in paths]
    if not frames:
        raise ValueError("no chunk files")
    return pd.concat(frames, ignore_index=True)
