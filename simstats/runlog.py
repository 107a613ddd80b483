"""Logging for workflow scripts: progress and any error go to the rule's log file."""
from __future__ import annotations

import contextlib
import logging
import sys


@contextlib.contextmanager
def script_logger(log_path: str, name: str = "simstats"):
    """Log to ``log_path``; an exception is logged with its traceback, then re-raised."""
    logger = logging.getLogger(name)
    logger.setLevel(logging.INFO)
    handler = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    try:
        yield logger
    except BaseException as err:
        logger.exception("failed: %s", err)
        print(f"simstats: {type(err).__name__}: {err}", file=sys.stderr)
        raise
    finally:
        logger.removeHandler(handler)
        handler.close()
