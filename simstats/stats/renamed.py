"""Old parameter names kept for one release: they still work and warn with the new name.

A renamed keyword stays in the function's signature under its old name, with the default
``Renamed("new_name")`` (shown as ``<renamed new_name>`` by :func:`inspect.signature` and
``help``), and the function takes its value with :func:`renamed`.  The names that changed are listed
in the CHANGELOG (one vocabulary across library, CLI, configuration and docs).
"""
from __future__ import annotations

import warnings

__all__ = ["Renamed", "renamed"]


class Renamed:
    """The default of a keyword's old name: the caller did not use it.

    Parameters
    ----------
    new : str
        The keyword's new name.

    Examples
    --------
    >>> Renamed("rng")
    <renamed rng>
    """

    __slots__ = ("new",)

    def __init__(self, new: str):
        self.new = new

    def __repr__(self) -> str:
        return f"<renamed {self.new}>"


def renamed(function: str, old: str, new: str, old_value, new_value, new_default=None):
    """The value of a renamed keyword: ``new_value``, or ``old_value`` with a :class:`FutureWarning`
    when the caller gave the old name.

    Parameters
    ----------
    function : str
        The function's name, for the messages.
    old, new : str
        The keyword's old and new names.
    old_value : object
        The old name's argument (its :class:`Renamed` default when not given).
    new_value : object
        The new name's argument.
    new_default : object
        The new name's default: another ``new_value`` beside the old name is an error.

    Returns
    -------
    object
        The argument to use.

    Raises
    ------
    TypeError
        Both names given.

    Examples
    --------
    >>> import inspect, warnings
    >>> def draws(*, n_resamples=10, n_boot=Renamed("n_resamples")):
    ...     return renamed("draws", "n_boot", "n_resamples", n_boot, n_resamples, 10)
    >>> inspect.signature(draws)
    <Signature (*, n_resamples=10, n_boot=<renamed n_resamples>)>
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = draws(n_boot=5)
    >>> value, str(caught[0].message)
    (5, 'draws: n_boot is renamed n_resamples; the old name will be removed in the next release')
    """
    if isinstance(old_value, Renamed):
        return new_value
    if new_value is not new_default and not _same(new_value, new_default):
        raise TypeError(f"{function}: give {new} only ({old} is its old name)")
    warnings.warn(f"{function}: {old} is renamed {new}; the old name will be removed in the next release",
                  FutureWarning, stacklevel=3)
    return old_value


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):   # arrays and the like: only identity counts
        return False
