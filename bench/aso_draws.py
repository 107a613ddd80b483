"""Ways to draw the sorted bootstrap resamples of ASO, per replicate: ``python -m bench.aso_draws``.

The Dror noise analyses spend most of their time here (docs/pipeline.md).  One replicate resamples n = 790
scores (the population's mean size) and needs the resample's order statistics at the 199 points of the
dt = 0.005 grid.  Compared, on 1,000 replicates, best of 3 rounds of 20:

- ``sort``: what simstats does (16-bit indices, then numpy's sort along each row);
- ``gamma_spacings``: the order statistics at the grid points directly, from Gamma spacings (exact in
  distribution, other random numbers);
- ``counting``: the same draws as ``sort`` counted per row, then cumulative counts searched (same values
  as ``sort``, checked);
- ``raw_split``: 16-bit parts of raw 64-bit draws with Lemire's multiply-shift and rejection, then the sort.
  It gives the same indices as ``sort`` (checked): numpy's 16-bit ``integers`` does exactly this, in C.
"""
from __future__ import annotations

import time

import numpy as np

from simstats.stats.aso import quantile_layout, sorted_resample_indices

N, REPLICATES, ROUNDS, REPEATS = 790, 1000, 3, 20
POINTS = quantile_layout(N, N, "grid", 0.005).ia
ROWS = np.arange(REPLICATES)


def sort(rng):
    return sorted_resample_indices(N, REPLICATES, rng)[:, POINTS]


def gamma_spacings(rng):
    shapes = np.diff(np.r_[0, POINTS + 1]).astype(float)
    sums = np.cumsum(rng.standard_gamma(np.r_[shapes, N - POINTS[-1]], size=(REPLICATES, POINTS.size + 1)), axis=1)
    return np.minimum((sums[:, :-1] / sums[:, -1:] * N).astype(np.int64), N - 1)


def counting(rng):
    idx = rng.integers(0, N, size=(REPLICATES, N), dtype=np.int16)
    offset = (ROWS * N)[:, None]
    counts = np.bincount((idx + offset).ravel(), minlength=REPLICATES * N).reshape(REPLICATES, N)
    cumulative = (np.cumsum(counts, axis=1) + offset).ravel()
    return np.searchsorted(cumulative, (POINTS[None, :] + offset).ravel(), side="right").reshape(REPLICATES, -1) - offset


def raw_split(rng):
    need = REPLICATES * N
    parts = rng.bit_generator.random_raw(int(need * 1.05) // 4 + 8).view(np.uint16).astype(np.uint32)
    product = parts * N
    kept = (product[(product & 0xFFFF) >= (65536 % N)] >> 16)
    if kept.size < need:                                    # pragma: no cover - rejection rate is 1.2 %
        raise RuntimeError("too many rejections")
    idx = kept[:need].astype(np.int16).reshape(REPLICATES, N)
    idx.sort(axis=1, kind="stable")
    return idx[:, POINTS]


def main() -> None:
    same = [np.array_equal(sort(np.random.Generator(np.random.PCG64(5))), way(np.random.Generator(np.random.PCG64(5))))
            for way in (counting, raw_split)]
    print(f"n = {N}, {REPLICATES} replicates, {POINTS.size} grid points; same values as sort from the same seed: "
          f"counting {same[0]}, raw_split {same[1]}")
    for way in (sort, gamma_spacings, counting, raw_split):
        rng = np.random.Generator(np.random.PCG64(1))
        way(rng)
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.perf_counter()
            for _ in range(REPEATS):
                way(rng)
            best = min(best, (time.perf_counter() - start) / REPEATS)
        print(f"{way.__name__:15s} {best / REPLICATES * 1e6:6.2f} us per replicate")


if __name__ == "__main__":
    main()
