"""Shared pieces of ``python -m bench``: settings, the Markdown report, timing, p-value checks, header."""
from __future__ import annotations

import math
import os
import platform
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Level at which the verdicts of two p-values are compared in the agreement table.
ALPHA = 0.05
#: Added to the Monte Carlo part of the p-value tolerance (convention details: deepsig's
#: bootstrap_test resamples the two systems independently, "+1" rules, >= against >).
P_SLACK = 0.02
#: Monte Carlo standard errors of a difference of two p-value estimates allowed.
P_SES = 4.0


@dataclass(frozen=True)
class Settings:
    """Sizes of one run; ``full()`` is the default, ``quick()`` the smoke test."""

    quick: bool
    out: Path
    n_items: int = 5_000
    n_resamples: int = 10_000
    pairs: tuple = (1, 10, 100, 10_000)
    peer_resamples: int = 1_000            # deepsig / CompStats on one pair, scaled to n_resamples and to pairs
    deepsig_bootstrap_resamples: int = 10_000   # deepsig's bootstrap_test is cheap enough to run at full B
    peer_repeats: int = 3                  # peers: best of up to this many runs ...
    peer_budget: float = 6.0               # ... stopping once they took this long (seconds)
    kernel_repeats: int = 2                # section 5: alternating kernel / SGEMM calls of each
    repeats: int = 10                      # simstats: best of up to this many runs ...
    budget: float = 5.0                    # ... stopping once the runs so far took this long (seconds)
    bleu_sentences: int = 2_000
    bleu_pairs: tuple = (1, 10, 100)
    bleu_measured_pairs: tuple = (1, 10)   # sacrebleu runs these; more pairs are extrapolated
    bleu_bs_resamples: int = 1_000         # sacrebleu's defaults: --paired-bs 1,000, --paired-ar 10,000
    bleu_ar_resamples: int = 10_000
    aso_sizes: tuple = (50, 1_000)
    aso_resamples: int = 1_000
    deepsig_aso_resamples: int = 500         # deepsig's aso: scaled to aso_resamples
    competition_resamples: int = 1_000
    compstats_small_resamples: int = 500     # CompStats on its own data (6 systems), scaled to competition_resamples
    compstats_large_resamples: int = 50      # CompStats on the EXIST-sized competition (31 systems), scaled
    scaling_items: tuple = (500, 1_581, 5_000, 15_811, 50_000)
    scaling_resamples: tuple = (1_000, 3_162, 10_000, 31_623, 100_000)
    scaling_systems: tuple = (2, 5, 10, 20, 50, 100)
    scaling_pairs: int = 100
    scaling_repeats: int = 3               # scaling: best of up to this many runs ...
    scaling_budget: float = 4.0            # ... stopping once they took this long (seconds)

    @classmethod
    def full(cls, out: Path) -> Settings:
        return cls(quick=False, out=out)

    @classmethod
    def smoke(cls, out: Path) -> Settings:
        return cls(quick=True, out=out, pairs=(1, 10, 100), peer_resamples=200, deepsig_bootstrap_resamples=2_000,
                   peer_repeats=2, peer_budget=2.0, repeats=5, budget=3.0, kernel_repeats=3,
                   bleu_sentences=500, deepsig_aso_resamples=100, compstats_small_resamples=100,
                   compstats_large_resamples=20, scaling_items=(500, 2_000, 10_000),
                   scaling_resamples=(1_000, 3_000, 10_000), scaling_systems=(2, 10, 30), scaling_pairs=10,
                   scaling_repeats=2, scaling_budget=2.0)


class Report:
    """Lines printed as they come and kept for ``report.md`` (Markdown)."""

    def __init__(self):
        self.lines: list[str] = []

    def line(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)

    def heading(self, text: str, level: int = 2) -> None:
        if self.lines and self.lines[-1] != "":
            self.line()
        self.line("#" * level + " " + text)
        self.line()

    def table(self, header, rows) -> None:
        self.line("| " + " | ".join(header) + " |")
        self.line("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            self.line("| " + " | ".join(str(c) for c in row) + " |")
        self.line()

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- timing

def timed(fn):
    """(seconds, value) of one call."""
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def best_of(fn, settings: Settings):
    """(best seconds, runs, value): the minimum over up to ``settings.repeats`` runs of ``fn``, stopping
    early once the runs so far took ``settings.budget`` seconds (so a long call runs once)."""
    best, value = timed(fn)
    runs, total = 1, best
    while runs < settings.repeats and total < settings.budget:
        seconds, value = timed(fn)
        best, total, runs = min(best, seconds), total + seconds, runs + 1
    return best, runs, value


def repeat_rule(settings: Settings) -> str:
    return (f"best of up to {settings.repeats} runs, fewer once the runs so far took {settings.budget:g} s "
            "(the runs column)")


# --------------------------------------------------------------------------- formatting

def fmt_s(seconds: float) -> str:
    """Seconds with 3 significant digits (ms below 1 s)."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    if seconds < 1000:
        return f"{seconds:.3g} s"
    return f"{seconds:,.0f} s"


def fmt_x(ratio: float) -> str:
    return f"×{ratio:,.0f}" if ratio >= 10 else f"×{ratio:.2g}"


def fmt_p(p: float) -> str:
    return f"{p:.4f}"


# --------------------------------------------------------------------------- p-value agreement

def p_tolerance(p_a: float, p_b: float, b_a: int, b_b: int) -> float:
    """P_SLACK + P_SES Monte Carlo standard errors of the difference of two independent p-value
    estimates from b_a and b_b resamples (p-values near 0 or 1: the slack alone)."""
    p = min(max((p_a + p_b) / 2, 0.0), 1.0)
    return P_SLACK + P_SES * math.sqrt(p * (1 - p) * (1 / b_a + 1 / b_b))


class PValueCheck:
    """Rows of (what, simstats p, peer p, tolerance, agree); ``enforce`` raises if any disagree."""

    def __init__(self):
        self.rows = []

    def add(self, what: str, ours: float, theirs: float, b_ours: int, b_theirs: int, *, tolerance=None) -> bool:
        tol = p_tolerance(ours, theirs, b_ours, b_theirs) if tolerance is None else tolerance
        ok = abs(ours - theirs) <= tol
        self.rows.append((what, ours, theirs, b_ours, b_theirs, tol, ok))
        return ok

    def report(self, report: Report, peer_label: str = "peer", stat: str = "p") -> None:
        report.table(["comparison", f"simstats {stat}", f"{peer_label} {stat}", "resamples (simstats / peer)",
                      "tolerance", "agree"],
                     [(w, fmt_p(a), fmt_p(b), f"{ba:,} / {bb:,}", f"{t:.3g}", "yes" if ok else "**NO**")
                      for w, a, b, ba, bb, t, ok in self.rows])

    def enforce(self) -> None:
        bad = [r for r in self.rows if not r[-1]]
        if bad:
            raise SystemExit("p-values disagree beyond the tolerance, the benchmark would not compare like with like: "
                             + "; ".join(f"{w}: {a:.4f} vs {b:.4f} (tolerance {t:.3g})" for w, a, b, _, _, t, _ in bad))


TOLERANCE_RULE = (f"agree when |p_simstats − p_peer| ≤ {P_SLACK} + {P_SES:g}·sqrt(p̄(1 − p̄)(1/B_simstats + 1/B_peer)), "
                  f"p̄ their mean: {P_SES:g} Monte Carlo standard errors of the difference plus {P_SLACK} for "
                  "convention details")


# --------------------------------------------------------------------------- header

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gb() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                return f"{int(line.split()[1]) / 2**20:.0f} GiB"
    except OSError:
        pass
    return "?"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10,
                              check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _blas() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "?"
    info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(f"{i['internal_api']} {i['version']} ({i['num_threads']} threads)" for i in info) or "?"


def load_average() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def header(report: Report, settings: Settings) -> None:
    import numpy as np  # noqa: F401  (imported before the BLAS query)

    commit = _git("rev-parse", "--short", "HEAD") or "?"
    dirty = _git("status", "--porcelain", "--", "simstats")
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    report.heading(f"simstats benchmark ({'--quick' if settings.quick else 'full'})", level=1)
    report.table(["", ""], [
        ("date", datetime.now().astimezone().isoformat(timespec="seconds")),
        ("machine", f"{_cpu_model()}, {cores} cores ({usable} usable), {_memory_gb()} RAM, {platform.system()}"),
        ("load average (1, 5, 15 min) at start", load_average()),
        ("python", platform.python_version()),
        ("numpy / BLAS", f"{_version('numpy')} / {_blas()}"),
        ("simstats", f"{_version('simstats')}, git {commit}"
                     + (f" with {len(dirty.splitlines())} uncommitted file(s) in simstats/" if dirty else "")),
        ("deepsig", _version("deepsig")),
        ("compstats", _version("compstats")),
        ("sacrebleu", _version("sacrebleu")),
        ("scipy / scikit-learn", f"{_version('scipy')} / {_version('scikit-learn')}"),
        ("command", "python -m bench" + (" --quick" if settings.quick else "")),
    ])
