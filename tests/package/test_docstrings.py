"""The declared public API is documented: every module of MODULES has ``__all__``, and each public
function or class has a numpydoc docstring with the sections a user looks for (Parameters or
Attributes, Returns for functions, Examples).  The Examples run in tests/package/test_examples.py."""
import importlib
import inspect
import re

import pytest

#: Modules whose public API (``__all__``) is documented in the numpydoc style with runnable examples.
MODULES = [
    "simstats.stats.classical",
    "simstats.stats.analytic",
    "simstats.stats.suite",
    "simstats.io.scores",
    "simstats.io.paired",
    "simstats.io.lm_eval",
    "simstats.io.inspect",
    "simstats.io.helm",
    "simstats.io.mt",
    "simstats.stats.crossed",
    "simstats.stats.power",
    "simstats.stats.montecarlo",
    "simstats.stats.metrics",
    "simstats.stats.resample",
    "simstats.stats.engine",
    "simstats.stats.multitest",
    "simstats.stats.bootstrap",
    "simstats.stats.randomization",
    "simstats.stats.approaches",
    "simstats.stats.aso",
    "simstats.stats.competition",
    "simstats.stats.results",
    "simstats.stats.renamed",
    "simstats.stats.lazy",
    "simstats.compare",
]


def has_section(doc: str, title: str) -> bool:
    """Whether a numpydoc docstring has the section ``title`` (its name underlined with dashes)."""
    return re.search(rf"^[ \t]*{title}[ \t]*\n[ \t]*-{{3,}}[ \t]*$", doc, re.M) is not None


def public_objects(module):
    """(name, object) of the functions and classes in ``module.__all__``."""
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isclass(obj) or inspect.isroutine(inspect.unwrap(obj)):
            out.append((name, obj))
    return out


def test_section_detection():
    doc = "Summary.\n\n    Parameters\n    ----------\n    x : int\n\n    Examples\n    --------\n    >>> 1\n    1\n"
    assert has_section(doc, "Parameters") and has_section(doc, "Examples")
    assert not has_section(doc, "Returns")
    assert not has_section("See the Parameters of f.", "Parameters")


@pytest.mark.parametrize("name", MODULES)
def test_public_api_is_declared_and_documented(name):
    module = importlib.import_module(name)
    assert isinstance(getattr(module, "__all__", None), list) and module.__all__, f"{name} declares no __all__"
    assert len(set(module.__all__)) == len(module.__all__), f"{name}.__all__ repeats a name"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what the module does not define: {missing}"
    objects = public_objects(module)
    assert objects, f"{name}.__all__ has no function or class"
    assert any(has_section(obj.__doc__ or "", "Examples") and ">>> " in obj.__doc__ for _, obj in objects), \
        f"{name}: no docstring of its public API has an Examples section with doctest code"
    problems = []
    for attr, obj in objects:
        doc = obj.__doc__ or ""
        wanted = ["Examples"]
        if inspect.isclass(obj):
            if not (has_section(doc, "Parameters") or has_section(doc, "Attributes")):
                problems.append(f"{attr}: no Parameters or Attributes section")
        else:
            wanted += ["Parameters", "Returns"] if inspect.signature(obj).parameters else ["Returns"]
        problems += [f"{attr}: no {title} section" for title in wanted if not has_section(doc, title)]
    assert not problems, f"{name}: " + "; ".join(problems)
