"""Keep the memory a job frees in its own heap (imported by the scripts of the long jobs).

The simulation jobs allocate and free arrays of tens to hundreds of MB in loops.  By default glibc
returns each such block to the system and the next allocation faults its pages in again: a Reimers
chunk had 131,000 page faults and 40 % of its CPU time in the kernel.  ``keep_freed_memory()`` sets
the job's own allocator limits (``mallopt``: no mmap for blocks below 2 GB, no trimming, a 256 MB
pad) so that freed blocks are reused.  It changes no result, only where the memory comes from.

The measured need, one job of each kind run with and without the limits on the 2-core machine
(CPU-seconds, user + sys): the suite study's ``runs_ibm`` variant 80.2 without against 75.5 with
(2.8 million against 77,000 minor page faults); a Dror noise job 31.2 against 28.1; a Reimers chunk
8.3 against 7.7 -- 6 to 11 % of the default run's CPU time.

A job sets its own limits, at its start, rather than the workflow exporting glibc's ``MALLOC_*``
variables to every process: if the user set any of those variables, they win and nothing is changed;
on a C library other than glibc this does nothing.
"""
import ctypes
import os

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_SETTINGS = ((_M_MMAP_THRESHOLD, 2**31 - 1), (_M_TRIM_THRESHOLD, 2**31 - 1), (_M_TOP_PAD, 256 << 20))
_USER_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")


def keep_freed_memory() -> bool:
    """Apply the limits; True if they were applied (glibc, and no user setting of its own)."""
    if any(name in os.environ for name in _USER_VARIABLES):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt          # the C library the interpreter runs on
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return all(mallopt(param, value) == 1 for param, value in _SETTINGS)
