"""The Examples sections of the docstrings run and print what they show (doctest), so that an example
cannot go stale while the code changes."""
import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "simstats"
MODULES = sorted(".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)
                 for p in PACKAGE.rglob("*.py") if ">>> " in p.read_text(encoding="utf-8"))


def test_the_examples_are_found():
    assert {"simstats.stats.approaches", "simstats.stats.crossed"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0 and result.failed == 0, result
