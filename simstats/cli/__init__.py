"""The command line: ``simstats COMMAND``, one module per command.

Each command module registers its parser (``add_parser``) and runs the command (``run``); the choices of its
options come from the library's registries (tests, corrections, ASO methods, competition presets). The
modules import pandas, scipy and the analyses inside their functions, so that ``simstats --help`` and option
errors answer without loading them.
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Sequence

from simstats import __version__
from simstats.cli import compare, compare_scores, competition, config, examples, fit, plan, suite
from simstats.cli.arguments import check_options
from simstats.sim.scenario import ScenarioError

__all__ = ["main", "build_parser"]


#: Options renamed for one vocabulary; the old spellings still work for one release, with a warning.
#: (command or None for every command, old option) -> new option.
RENAMED_OPTIONS = {("compare", "--resamples"): "--n-resamples", ("competition", "--resamples"): "--n-resamples",
                   ("compare", "--pvalue"): "--pvalue-method",
                   ("competition", "--pvalue"): "--pvalue-rule", ("competition", "--convention"): "--preset",
                   ("competition", "--scope"): "--correction-scope", ("competition", "--marks"): "--correction",
                   ("fit", "--test"): "--test-column", ("fit", "--dev"): "--dev-column"}


DESCRIPTION = """Compare ML/NLP systems with tests validated by simulation.

commands:
  compare         systems' outputs on one test set, or approaches over seeds x items
  plan            seeds and test items a comparison needs (power, minimum detectable difference)
  compare-scores  score distributions, one score per run
  competition     rank the systems of a competition, with intervals and one decision rule
  suite           many models over a suite of tasks: ranks, means with intervals, per-task comparisons
  fit             fit the noise model to your own runs: a scenario for the pipeline
  check-config    validate configuration files and list their scenarios
  implied         the summary values a scenario's noise model implies
  examples        the example inputs shipped with simstats, each with a command to try

Every p-value is two-sided unless asked otherwise and never 0; every output states its claim."""


def renamed_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` with renamed options (:data:`RENAMED_OPTIONS`) spelled the new way, warning once for each."""
    argv = list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    out = []
    for arg in argv:
        name, eq, value = arg.partition("=")
        new = RENAMED_OPTIONS.get((command, name))
        if new is not None and name.startswith("--"):
            warnings.warn(f"{name} is renamed {new}; the old name will be removed in the next release")
            arg = new + eq + value
        out.append(arg)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="simstats", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"simstats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for add_parser in (compare.add_parser, plan.add_parser, compare_scores.add_parser, competition.add_parser,
                       suite.add_parser, fit.add_parser, config.add_check_config_parser, config.add_implied_parser,
                       examples.add_parser):
        add_parser(sub)
    return parser


#: Signal number of SIGPIPE; exit code 128 + it (141) when the reader closes the pipe, as a shell reports.
SIGPIPE = 13


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises no second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (e.g. captured output): nothing is left to flush
        pass


def main(argv: Sequence[str] | None = None) -> int:
    # Python warnings (numpy, scipy, ASO's small-sample warning) become one line each, after the output;
    # after an error only the error is printed.
    with warnings.catch_warnings(record=True) as caught:
        args = build_parser().parse_args(renamed_argv(sys.argv[1:] if argv is None else argv))
        try:
            check_options(args)
            code = args.func(args)
            sys.stdout.flush()  # a closed pipe shows here, not at exit
        except (ScenarioError, ValueError) as err:
            print(f"simstats: error: {err}", file=sys.stderr)
            return 2
        except BrokenPipeError:  # e.g. `simstats ... | head -1`: stop quietly, as Unix tools do
            _discard_stdout()
            return 128 + SIGPIPE
    for message in dict.fromkeys(str(w.message).partition("\n")[0] for w in caught):
        print(f"simstats: warning: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
