"""``simstats examples``: the example inputs shipped inside the package, each with a command that runs on it.

They are real data (see ``simstats/data/examples/README.md`` for where each comes from), so that every command
can be tried, and checked after an install, without a checkout of the repository.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Example:
    """A packaged input: its file (inside ``simstats``), what it holds, and a command using it (``{path}``)."""
    file: str
    what: str
    command: str


#: The packaged examples by the command they serve.
EXAMPLES = {
    "compare": Example("data/examples/compstats_predictions.csv",
                       "CompStats' example competition: gold label y and the predictions of 6 systems on 1,580 items",
                       "simstats compare {path} --metric weighted_f1"),
    "plan": Example("data/examples/compstats_predictions.csv",
                    "the same predictions, as a pilot of two systems (one run each)",
                    "simstats plan {path} --systems INGEOTEC Dense --items 1580,3160"),
    "suite": Example("data/examples/ibm_suite_runs.csv",
                     "IBM model-recycling fine-tuning runs: 6 base models x 10 tasks x 20 seeds, test accuracy",
                     "simstats suite {path}"),
    "compare-scores": Example("data/examples/ibm_rte_scores.csv",
                              "the same runs on one task (rte): 6 base models x 20 seeds, one score per run",
                              "simstats compare-scores {path} --tests welch mwu aso"),
    "competition": Example("data/examples/compstats_predictions.csv",
                           "CompStats' example competition, ranked with intervals and one decision rule",
                           "simstats competition {path} --metric weighted_f1 --n-resamples 2000"),
    "fit": Example("data/examples/sklearn_digits_runs.csv.gz",
                   "20 training runs of a small MLP on scikit-learn's digits: per-item correctness, dev and test",
                   "simstats fit {path} --name digits_mlp"),
    "config": Example("data/config.yaml", "the pipeline's default configuration (the built-in scenarios)",
                      "simstats check-config {path}"),
}


def example_path(name: str) -> Path:
    """The installed file of the example ``name`` (a key of :data:`EXAMPLES`)."""
    return Path(str(resources.files("simstats").joinpath(EXAMPLES[name].file)))


def run(args) -> int:
    for name, example in EXAMPLES.items():
        if args.name in (None, name):
            path = example_path(name)
            print(path if args.path else f"{name}: {example.what}\n  {example.command.format(path=path)}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("examples", help="the example inputs shipped with simstats, each with a command to try")
    p.add_argument("name", nargs="?", choices=list(EXAMPLES), help="one example (default: all)")
    p.add_argument("--path", action="store_true", help="print only the file's path (default: what it holds and a "
                                                       "command)")
    p.set_defaults(func=run)
