"""Modules imported on first use.

A workflow job is a fresh interpreter, and importing scipy.stats, scipy.optimize or statsmodels costs
about 0.3-0.6 s each time (docs/pipeline.md), while many jobs never call them.  ``stats =
lazy_module("scipy.stats")`` stands for the module and imports it at the first attribute access.

This is the package's one way of deferring an import: modules name their heavy dependencies with
``lazy_module`` at the top, the package's public names (``simstats.paired_bootstrap``) load their module
through it, and :func:`simstats.io.write.pyplot` gives matplotlib's pyplot with the Agg backend.
"""
import importlib

__all__ = ["lazy_module", "LazyModule"]


class LazyModule:
    """Stands for the module ``name``; the first attribute access imports it.

    Setting or deleting an attribute acts on the module itself (so that
    ``unittest.mock.patch.object`` works on it).

    Parameters
    ----------
    name : str
        The module's import name, e.g. "scipy.stats".

    Examples
    --------
    >>> colours = LazyModule("colorsys")
    >>> colours
    <lazy module 'colorsys' (not imported yet)>
    >>> colours.rgb_to_hsv(1.0, 0.0, 0.0)
    (0.0, 1.0, 1.0)
    >>> colours
    <lazy module 'colorsys' (imported)>
    """

    __slots__ = ("_name", "_module")

    def __init__(self, name: str):
        self._name = name
        self._module = None

    def _load(self):
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return module

    def __getattr__(self, attr: str):
        if attr in LazyModule.__slots__:        # an unset slot (a copy being built): no import, no recursion
            raise AttributeError(attr)
        return getattr(self._load(), attr)

    def __setattr__(self, attr: str, value) -> None:
        # setting an attribute sets it on the module, as on the module itself (unittest.mock.patch.object)
        if attr in LazyModule.__slots__:
            object.__setattr__(self, attr, value)
        else:
            setattr(self._load(), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str) -> LazyModule:
    """A stand-in for the module ``name`` that imports it at the first attribute access.

    Parameters
    ----------
    name : str
        The module's import name.

    Returns
    -------
    LazyModule
        The stand-in; nothing is imported yet.

    Examples
    --------
    >>> import math
    >>> m = lazy_module("math")
    >>> m.sqrt(2.0) == math.sqrt(2.0)
    True
    """
    return LazyModule(name)
