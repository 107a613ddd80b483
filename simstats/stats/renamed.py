"""Old parameter names kept for one release: they still work and warn with the new name.

The names that changed are listed in the CHANGELOG (one vocabulary across library, CLI,
configuration and docs).
"""
from __future__ import annotations

import functools
import warnings

__all__ = ["renamed_parameters"]


def renamed_parameters(**renames: str):
    """Decorator: keyword ``old=value`` becomes ``new=value`` with a :class:`FutureWarning`.

    Parameters
    ----------
    **renames : str
        ``old_name="new_name"`` for each renamed keyword parameter.

    Returns
    -------
    callable
        A decorator for functions whose keyword parameters were renamed.

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameters(n_boot="n_resamples")
    ... def draws(*, n_resamples=10):
    ...     return n_resamples
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = draws(n_boot=5)
    >>> value, str(caught[0].message)
    (5, 'draws: n_boot is renamed n_resamples; the old name will be removed in the next release')
    """

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__name__}: give {new} only ({old} is its old name)")
                    warnings.warn(f"{function.__name__}: {old} is renamed {new}; the old name will be removed in "
                                  "the next release", FutureWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return wrapper

    return decorate
