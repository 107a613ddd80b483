"""The documentation: every Python example in README.md and docs/ runs, and the MkDocs site builds.

Fenced ```python blocks are executed; the blocks of one page share one namespace and run in
order, so an example may use names from earlier blocks of the same page. A block whose info
string is ``python notest`` is not run. ```bash blocks are not run.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")

def public_modules() -> list[str]:
    """Every public module of the package: all but private ones (``_name``), a study's own modules and the
    command modules (the command line has its own pages, docs/cli/)."""
    out = []
    for path in sorted((ROOT / "simstats").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1].startswith("_") or len(parts) == 1 or (parts[1] in ("studies", "cli") and len(parts) > 2):
            continue
        out.append(".".join(parts))
    return out


PIPELINE_COMMAND = ('python3 -m venv .venv && . .venv/bin/activate && pip install -c constraints.txt -e ".[pipeline]" && '
                    "snakemake --cores 8")
TEST_COMMAND = ('python3 -m venv .venv && . .venv/bin/activate && pip install -c constraints.txt -e ".[test]" && '
                "pytest")


def fenced_blocks(text: str):
    """(info string, first line number, code) of every fenced code block of a Markdown text."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start, body = m["fence"], m["info"].strip(), i + 1, []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence)
                                      and set(lines[i].strip()) == {fence[0]}):
            body.append(lines[i][len(m["indent"]):] if lines[i].startswith(m["indent"]) else lines[i])
            i += 1
        if i == len(lines):
            raise AssertionError(f"unclosed code fence opened on line {start}")
        blocks.append((info, start + 1, "\n".join(body) + "\n"))
        i += 1
    return blocks


def python_blocks(path: Path):
    """The executable Python blocks of one page: (line, code); ``python notest`` blocks left out."""
    out = []
    for info, line, code in fenced_blocks(path.read_text(encoding="utf-8")):
        words = info.split()
        if words and words[0] == "python" and "notest" not in words[1:]:
            out.append((line, code))
    return out


def markdown_pages():
    return [ROOT / "README.md"] + sorted(DOCS.rglob("*.md"))


PAGES_WITH_PYTHON = [p for p in markdown_pages() if python_blocks(p)]


def test_fence_parser():
    text = "a\n```python\nx = 1\n```\n\n```python notest\nboom()\n```\n````bash\n```\n````\n"
    assert fenced_blocks(text) == [("python", 3, "x = 1\n"), ("python notest", 7, "boom()\n"),
                                   ("bash", 10, "```\n")]
    assert [code for _, _, code in fenced_blocks("```python\n```\n")] == ["\n"]


def test_docs_have_python_examples():
    """Guard against the example collector silently finding nothing."""
    names = {p.relative_to(ROOT).as_posix() for p in PAGES_WITH_PYTHON}
    assert {"README.md", "docs/api.md"} <= names, names


@pytest.mark.parametrize("page", PAGES_WITH_PYTHON, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_examples_run(page, monkeypatch, tmp_path):
    """Run a page's Python blocks in order in one namespace, from the repository root."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": f"docs_example_{page.stem}"}
    for line, code in python_blocks(page):
        where = f"{page.relative_to(ROOT)}:{line}"
        try:
            compiled = compile(code, where, "exec")
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compiled, namespace)
        except Exception as err:  # noqa: BLE001 - report which example failed
            raise AssertionError(f"the example at {where} failed: {type(err).__name__}: {err}") from err


CLI_PAGES = sorted((DOCS / "cli").glob("*.md")) + [DOCS / "harness.md"]
#: What `simstats competition --out` writes: every name must be named on its page.
COMPETITION_OUT = {"scores.csv", "differences.csv", "matrix.csv", "matrix_significance.csv", "pairs.csv",
                   "summary.csv", "ranks.csv", "report.md", "intervals.png", "intervals.pdf", "differences.png",
                   "differences.pdf", "bootstrap.png", "bootstrap.pdf"}


def run_cli_line(line: str, cwd: Path) -> tuple[int, str, str]:
    """One documented ``simstats ...`` command, in-process, in ``cwd``; arguments naming a file or folder
    of the repository are given as absolute paths (the examples are written from the repository root)."""
    import os
    import shlex

    from simstats.cli import main

    args = [str(ROOT / a) if not a.startswith("-") and (ROOT / a).exists() and a not in ("report", "report/")
            else a for a in shlex.split(line)[1:]]
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("page", CLI_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_cli_examples_run(page, monkeypatch):
    """Every ``simstats`` command of a command's page runs and exits 0: its Python blocks first (in order,
    one namespace; a block may set ``folder``, where the following commands then run, else they run in the
    repository, as a user's would); ``bash notest`` blocks are templates naming your own files."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(ROOT)
    namespace = {"__name__": f"docs_cli_{page.stem}"}
    ran = 0
    for info, line, code in fenced_blocks(page.read_text(encoding="utf-8")):
        words = info.split()
        if not words or "notest" in words[1:]:
            continue
        where = f"{page.relative_to(ROOT)}:{line}"
        if words[0] == "python":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, where, "exec"), namespace)
        elif words[0] == "bash":
            for command in code.splitlines():
                if not command.startswith("simstats "):
                    continue
                cwd = Path(namespace.get("folder", ROOT))
                status, out, err = run_cli_line(command, cwd)
                assert status == 0, f"{where}: `{command}` exited {status}: {err.strip()[-500:]}"
                assert out.strip(), f"{where}: `{command}` printed nothing"
                if "--format json" in command:
                    json.loads(out)
                if page.stem == "competition" and "--out" in command:
                    written = {p.name for p in (cwd / "report").iterdir()}
                    assert written == COMPETITION_OUT, written ^ COMPETITION_OUT
                    text = page.read_text(encoding="utf-8")
                    undocumented = [n for n in written if n.rsplit(".", 1)[0] not in text]
                    assert not undocumented, f"{page.name} does not name {undocumented}"
                ran += 1
    if page.stem != "index":
        assert ran, f"{page.name}: no runnable simstats example"


def test_readme_is_short_and_keeps_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert PIPELINE_COMMAND in text  # .ci/run and users copy these two lines verbatim
    assert TEST_COMMAND in text


def test_reference_covers_the_modules():
    """Every public module has its reference page, listed in the site's navigation."""
    modules = public_modules()
    assert {"simstats.compare", "simstats.io.lm_eval", "simstats.stats.bootstrap"} <= set(modules)
    directives = set()
    for page in (DOCS / "reference").glob("*.md"):
        directives |= set(re.findall(r"^::: *([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    assert set(modules) <= directives, set(modules) - directives
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert [m for m in modules if f"- {m}: reference/" not in nav] == []


def test_every_cli_command_has_a_page(capsys):
    from simstats import cli

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    usage = capsys.readouterr().out
    commands = re.search(r"\{([\w,-]+)\}", usage).group(1).split(",")
    assert commands
    pages = {p.stem for p in (DOCS / "cli").glob("*.md")} - {"index"}
    assert set(commands) == pages, (commands, pages)


def test_mkdocs_build_strict(tmp_path):
    """The site builds with --strict: no broken links, no docstring warnings."""
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (site / "index.html").is_file()
    assert (site / "reference" / "stats-bootstrap" / "index.html").is_file()
