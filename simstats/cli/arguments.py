"""Options shared by several commands, their checks and the parsing of list-valued options."""
from __future__ import annotations

import importlib
import math
from collections.abc import Sequence


class RegisteredChoices(Sequence):
    """The choices of an option, read from a library registry (``"module:attribute"``: a sequence or mapping of
    names, or a function returning one) when argparse first checks or prints them, so that building the parser
    imports no analysis."""

    def __init__(self, source: str):
        self.source = source
        self._names: tuple | None = None

    def _load(self) -> tuple:
        if self._names is None:
            module, _, attribute = self.source.partition(":")
            value = getattr(importlib.import_module(module), attribute)
            self._names = tuple(value() if callable(value) else value)
        return self._names

    def __getitem__(self, index):
        return self._load()[index]

    def __len__(self) -> int:
        return len(self._load())

    def __contains__(self, name) -> bool:
        return name in self._load()

#: The formats of ``--from``: their readers take paths (files or folders), the scores format one table.
FROM_FORMATS = ("lm-eval", "inspect", "helm", "mt", "scores")


#: Corpus-level metrics whose per-item statistics simstats computes (through sacrebleu's public API).
CORPUS_SCORES = ("bleu",)


def from_arguments(p, several_tasks: bool = True) -> None:
    """``--from`` and ``--task`` of ``compare`` and ``competition`` (``several_tasks``: compare compares every
    task; competition ranks one)."""
    p.add_argument("--from", dest="from_format", choices=list(FROM_FORMATS),
                   help="read an evaluation's per-item scores instead of predictions: lm-eval (lm-evaluation-harness "
                        "--output_path folders, or one folder per model), inspect (inspect_ai .eval/.json logs; "
                        "needs simstats[inspect]), helm (HELM run folders or per_instance_stats.json files), mt "
                        "(translation files, one sentence per line, scored by corpus BLEU against --references), scores "
                        "(a long table: model, item, score and optionally task, epoch); each model's epochs of an "
                        "item are averaged, models are joined on the item ids (and item hashes, where the format "
                        "has them), and --systems chooses models (default: lm-eval, inspect or helm when the paths "
                        "are such logs, else predictions or --statistics)")
    p.add_argument("--task", help="with --from: the task to compare (default: every task all models have, each "
                                  "compared, the correction over all of them)" if several_tasks else
                   "with --from: the task to rank the systems on (default: the evaluation's only task)")
    p.add_argument("--score", metavar="NAME",
                   help="with --from lm-eval/inspect/helm: the metric (lm-eval), scorer (inspect) or statistic (helm) "
                        "to compare (default: lm-eval the task's first per-item metric, inspect the log's only "
                        "scorer, helm exact_match)")
    p.add_argument("--references", nargs="+", metavar="FILE",
                   help="with --from mt: the reference translation file(s), one sentence per line (default: none; "
                        "--from mt needs them)")
    p.add_argument("--filter", dest="filter_name", metavar="NAME",
                   help="with --from lm-eval: the filter of a task with several (default: none, or the task's only one)")
    log_arguments(p)


def log_arguments(p) -> None:
    """``--strict`` and ``--shared-items``: what to do with unusable logs and with items not every model has."""
    p.add_argument("--strict", action="store_true",
                   help="with --from lm-eval/inspect/helm: refuse the input when one log is unusable (unfinished, "
                        "malformed, unscored) (default: leave such a log out, with one warning naming it)")
    p.add_argument("--shared-items", action="store_true",
                   help="with --from: compare each task on the items every model scored, the others left out and "
                        "counted in the header (default: refuse models that lack items of a task)")


def pvalue_rule_argument(p, default: str = "add-one") -> None:
    p.add_argument("--pvalue-rule", choices=["add-one", "fraction"],
                   help="how a count c of the B resamples at least as extreme becomes a p-value: add-one "
                        f"(c + 1)/(B + 1), never 0, or fraction c/B (can print 0) (default: {default})")


def prediction_arguments(p, table_help: str, metric_help: str, optional: bool = False, several: bool = False) -> None:
    """The input options shared by ``compare``, ``plan`` and ``competition`` (``several``: the paths of --from)."""
    p.add_argument("table", help=table_help, **({"nargs": "?"} if optional else {"nargs": "+"} if several else {}))
    p.add_argument("--gold", default="y", help="gold label column (default: y)")
    p.add_argument("--systems", nargs="+", help="system columns (default: all but the gold, id and --exclude "
                                                "columns)")
    p.add_argument("--id", metavar="COLUMN",
                   help="item id column, never a system (default: a column named id or item, if any)")
    p.add_argument("--exclude", nargs="+", default=[], metavar="COLUMN",
                   help="columns that are not systems (default: none)")
    p.add_argument("--metric", default="accuracy", help=metric_help + " (default: accuracy)")
    p.add_argument("--positive", help="positive label for f1/precision/recall (default: the last of two labels "
                                      "in sorted order)")
    p.add_argument("--classes", nargs="+", help="classes averaged by macro_f1 (default: all)")


#: --resample choices of the approach test (simstats.compare.RESAMPLE maps them to approach_bootstrap's).
RESAMPLE_CHOICES = ("both", "items", "seeds")


def run_arguments(p) -> None:
    """Options of ``compare`` and ``plan`` that read several runs (seeds) per system."""
    p.add_argument("--prediction", metavar="COLUMN",
                   help="prediction column of a long table (columns system, seed, item, prediction, gold) "
                        "(default: pred)")
    p.add_argument("--approach", action="append", metavar="NAME=COL1,COL2,...",
                   help="wide table: the seed columns of one approach; repeat for each approach (default: none, "
                        "every column is one system)")


#: Checks of numeric options, so that errors name the flag: (attribute, flag, test, requirement).
OPTION_CHECKS = [
    ("n_resamples", "--n-resamples", lambda v: v >= 1, "must be >= 1"),
    ("seed", "--seed", lambda v: v >= 0, "must be >= 0"),
    ("confidence", "--confidence", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("alpha", "--alpha", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("margin", "--margin", lambda v: v is None or (math.isfinite(v) and v > 0), "must be a positive number"),
    ("aso_alpha", "--aso-alpha", lambda v: 0 < v < 1, "must be in (0, 1)"),
    ("min_scores", "--min-scores", lambda v: v >= 2, "must be >= 2 (the sd and Welch's t need 2 scores per system)"),
]


def check_options(args) -> None:
    for attr, flag, ok, requirement in OPTION_CHECKS:
        if hasattr(args, attr) and not ok(getattr(args, attr)):
            raise ValueError(f"{flag} {requirement}, got {getattr(args, attr)}")
    if hasattr(args, "claim"):   # --claim qualifies --margin: alone it would be silently ignored
        if args.claim is not None and getattr(args, "margin", None) is None:
            raise ValueError(f"--claim {args.claim} needs --margin (the margin of the claim, in metric units)")
        args.claim = args.claim or "non-inferiority"


def check_memory(n_bytes: float, what: str) -> None:
    """Refuse up front, in one line, work whose arrays would need more than half of this machine's memory."""
    import os

    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):   # no sysconf (e.g. Windows): nothing to check against
        return
    if n_bytes > total / 2:
        raise ValueError(f"{what} needs about {n_bytes / 2 ** 30:.3g} GiB of memory, more than half of this "
                         f"machine's {total / 2 ** 30:.3g} GiB; use fewer resamples")


def int_list(text: str, flag: str, smallest: int) -> list[int]:
    """``"3,5,10"`` -> [3, 5, 10]; a one-line error naming the flag otherwise."""
    from simstats.io.checks import InputError

    values = []
    for part in text.split(","):
        try:
            value = int(part.strip())
        except ValueError:
            raise InputError(f"{flag}: {part.strip()!r} is not an integer (expected e.g. {flag} 3,5,10)") from None
        if value < smallest:
            raise InputError(f"{flag}: every value must be >= {smallest}, got {value}")
        values.append(value)
    return values


def float_list(text: str, flag: str, count: int) -> list[float]:
    """``count`` comma-separated numbers of ``flag``."""
    from simstats.io.checks import InputError

    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise InputError(f"{flag}: expected {count} comma-separated numbers, got {text!r}") from None
    if len(values) != count:
        raise InputError(f"{flag}: expected {count} comma-separated numbers, got {text!r}")
    return values
