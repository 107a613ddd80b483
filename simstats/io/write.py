"""Reading and writing: atomic outputs with the user's umask, Markdown tables, script logging.

Every writer goes through :func:`atomic_write`: the content goes to a temporary file in the
target's folder, which then replaces the target in one ``os.replace``, so a reader (or a
killed run) never sees a half-written output.  The file gets the permissions a plain
``open(path, "w")`` would give (``0o666`` less the process umask, e.g. ``0o644`` under
umask 022), not ``tempfile``'s private ``0o600``.  Temporary files left by a killed writer of
the same target are removed by the next write, so a resumed run leaves no debris.
"""
from __future__ import annotations

import contextlib
from glob import escape as glob_escape
import logging
import math
import os
import sys
from pathlib import Path

import pandas as pd

from simstats.stats.lazy import lazy_module


def current_umask() -> int:
    """The process umask (read without changing it for longer than one call)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike, write) -> None:
    """Call ``write(tmp_path)`` and move the result to ``path`` atomically (mode 0o666 & ~umask)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    # a writer killed before its os.replace (SIGKILL, a cluster's time limit) leaves its temporary
    # file behind; one target has one writer at a time, so any leftover of this target is stale
    for stale in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        if stale.name[len(path.name) + 2:-4].isdigit():
            stale.unlink(missing_ok=True)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the kernel applies the umask
        os.close(fd)
        write(str(tmp))
        os.chmod(tmp, 0o666 & ~current_umask())  # writers that recreate the file keep the same mode
        os.replace(tmp, path)
    except BaseException:
        if tmp.exists():
            tmp.unlink()
        raise


def write_parquet(frame: pd.DataFrame, path) -> None:
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd"))


def write_csv(frame: pd.DataFrame, path) -> None:
    atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False, lineterminator="\n", float_format="%.10g"))


def write_text(text: str, path) -> None:
    def write(tmp):
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    atomic_write(path, write)


def pyplot():
    """matplotlib.pyplot with the non-interactive Agg backend, imported at the first call: jobs and
    commands that draw no figure never import matplotlib."""
    matplotlib = lazy_module("matplotlib")
    matplotlib.use("Agg")
    return lazy_module("matplotlib.pyplot")


def save_figure(fig, png_path, pdf_path) -> None:
    """Write a matplotlib figure as PNG and PDF atomically; the PDF carries no creation date."""
    plt = pyplot()

    atomic_write(png_path, lambda tmp: fig.savefig(tmp, format="png", dpi=150, metadata={"Software": None}))
    atomic_write(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata={"CreationDate": None,
                                                                                 "Creator": None, "Producer": None}))
    plt.close(fig)


def _cell(value, digits: int) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "–"
        return f"{value:.{digits}g}"
    return str(value).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame, digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (floats to ``digits`` significant digits)."""
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_cell(v, digits) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


@contextlib.contextmanager
def script_logger(log_path: str, name: str = "simstats"):
    """Log a workflow script to ``log_path``; an exception is logged with its traceback, then re-raised."""
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


# --------------------------------------------------------------------------- Markdown of the reports
def format_number(value, digits: int = 3) -> str:
    """A number for a table cell: up to ``digits`` decimals, trailing zeros dropped; tiny values in g."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    value = float(value)
    if value != 0 and abs(value) < 10 ** -digits:
        return f"{value:.2g}"
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def figure_lines(figures: Path, rel: str, names: list[tuple[str, str]]) -> list[str]:
    """Markdown lines showing each figure ``<figures>/<stem>.png`` that exists (linked relative to the report
    as ``<rel>/<stem>.png``, its file name as the image's text), captioned once, with a link to its PDF."""
    lines = []
    for stem, caption in names:
        if (figures / f"{stem}.png").exists():
            lines += [f"![{stem}]({rel}/{stem}.png)", "", f"*{caption}* ([PDF]({rel}/{stem}.pdf))", ""]
    return lines


def mcse_suffix(mcse) -> str:
    """`` ± <mcse>`` for a positive finite Monte Carlo standard error, else nothing."""
    return f" ± {format_number(mcse)}" if mcse is not None and math.isfinite(mcse) and mcse > 0 else ""
