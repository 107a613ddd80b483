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
import re
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
    atomic_write(path, lambda tmp: csv_safe(frame).to_csv(tmp, index=False, lineterminator="\n",
                                                          float_format="%.10g"))


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


def literal_label(text) -> str:
    """``text`` as a figure label drawn as it is: a ``$`` (which would start matplotlib's mathtext, so that a
    model named ``a$b$c`` would be drawn as a formula or fail to draw) escaped as ``\\$``.

    Examples
    --------
    >>> print(literal_label("a$b$c"))
    a\$b\$c
    """
    return str(text).replace("$", "\\$")


def _figure_bytes(fig, fmt: str) -> bytes:
    import io

    buffer = io.BytesIO()
    if fmt == "png":
        fig.savefig(buffer, format="png", dpi=150, metadata={"Software": None})
    else:
        fig.savefig(buffer, format="pdf", metadata={"CreationDate": None, "Creator": None, "Producer": None})
    return buffer.getvalue()


def save_figures(figures) -> None:
    """Write each ``(figure, png_path, pdf_path)`` as PNG and PDF (the PDF without a creation date), all or
    nothing: every figure is drawn before the first file is written, so a figure that fails to draw leaves
    no output behind; each file is then replaced atomically."""
    plt = pyplot()
    try:
        drawn = [(path, _figure_bytes(fig, fmt)) for fig, png_path, pdf_path in figures
                 for path, fmt in ((png_path, "png"), (pdf_path, "pdf"))]
    finally:
        for fig, _, _ in figures:
            plt.close(fig)
    for path, content in drawn:
        atomic_write(path, lambda tmp, content=content: Path(tmp).write_bytes(content))


def save_figure(fig, png_path, pdf_path) -> None:
    """Write a matplotlib figure as PNG and PDF atomically (:func:`save_figures` of one figure)."""
    save_figures([(fig, png_path, pdf_path)])


def check_output_folder(path, force: bool = False, option: str = "--out") -> None:
    """Refuse, in one line, an output folder ``path`` that is a file, or that exists and is not empty
    without ``force`` (call it before the work, so that a refusal costs nothing)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path}: a file of that name exists (give a folder name)")
    if path.is_dir() and any(path.iterdir()) and not force:
        raise ValueError(f"{option} {path}: the folder exists and is not empty; give --force to replace it")


@contextlib.contextmanager
def output_folder(path, force: bool = False, option: str = "--out"):
    """A folder written all or nothing: yields a fresh temporary folder beside ``path`` to write into, which
    replaces ``path`` only when the block ends without an error (else it is removed). An existing file at
    ``path``, or an existing folder that is not empty without ``force``, is refused up front in one line."""
    import shutil

    path = Path(path)
    check_output_folder(path, force, option)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~current_umask())
        if path.exists():
            old = path.parent / f".{path.name}.{os.getpid()}.old"
            os.replace(path, old)
            os.replace(tmp, path)
            shutil.rmtree(old)
        else:
            os.replace(tmp, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


#: A ``<`` that would open raw HTML in CommonMark (a tag, a closing tag, a comment, a declaration).
_RAW_HTML = re.compile(r"<(?=[A-Za-z/!?])")
#: Characters a name could use to make a link, an image or a code span in Markdown.
_MARKDOWN_SYNTAX = re.compile(r"([\\`\[\]])")


def markdown_text(text, literal: bool = False) -> str:
    """``text`` safe inside Markdown: no raw HTML (a ``<`` that would open a tag becomes ``&lt;``) and, with
    ``literal``, no link, image or code span either (``\\``, backquotes and brackets backslash-escaped), so a
    name such as ``<img src=x onerror=...>`` or ``![x](http://...)`` shows as the text it is."""
    text = str(text)
    if literal:
        text = _MARKDOWN_SYNTAX.sub(r"\\\1", text)
    return _RAW_HTML.sub("&lt;", text)


def _cell(value, digits: int, literal: bool) -> str:
    if isinstance(value, float):
        if not math.isfinite(value):
            return "–"
        return f"{value:.{digits}g}"
    return markdown_text(value, literal).replace("|", "\\|")


def markdown_table(frame: pd.DataFrame, digits: int = 4, literal: bool = False) -> str:
    """A GitHub-flavoured Markdown table of ``frame`` (floats to ``digits`` significant digits; a value that is
    not a finite number shows as ``–``). Cells never open raw HTML; ``literal`` also shows links, images and
    code spans as text (for names that come from the user's input)."""
    header = "| " + " | ".join(_cell(c, digits, literal) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(_cell(v, digits, literal) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body]) + "\n"


#: First characters that make a spreadsheet read a CSV cell as a formula.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell that a spreadsheet would run as a formula (starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return, followed by more text, and not a number) prefixed by ``'``, as
    OWASP advises against CSV injection; numbers, a lone ``-`` and other text unchanged.

    Examples
    --------
    >>> csv_safe(pd.DataFrame({"system": ["=SUM(A1:A9)", "-", "-0.5", "@home", "bert"]})).system.tolist()
    ["'=SUM(A1:A9)", '-', '-0.5', "'@home", 'bert']
    """
    def safe(value):
        if isinstance(value, str) and len(value) > 1 and value.startswith(FORMULA_PREFIXES) and not _is_number(value):
            return "'" + value
        return value
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_object_dtype(out[column]) or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(safe)
    out.columns = [safe(str(c)) for c in out.columns]
    return out


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
